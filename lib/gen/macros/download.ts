/**
 * download_file: a file downloaded with the named control. Its evidence is the file's request (answered) and the
 * click on the control; another file of the same kind downloaded beside it fails (`forbidden`), under both styles,
 * since it is an act the instruction did not ask for. Its attack: the right file and another one too.
 */
import type { ActionJson } from "../template.ts";
import { esc } from "./evidence.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** What a download segment needs. */
export interface DownloadOptions {
  /** The named control's selector (an id). */
  control: string;
  /** The file's path. */
  path: string;
  /** A regular expression of every path of this kind of file (`^/shop/orders/[^/]+/invoice\.csv$`). */
  kind: string;
  /** The steps that download another file of the kind after the right one, and that file's path. */
  another?: { steps: ActionJson[]; path: string };
}

/** The download_file segment. */
export function downloadFile(o: DownloadOptions): Segment {
  const other = { regex: `^(?!${esc(o.path)}$)(${o.kind.replace(/^\^|\$$/g, "")})$` };
  return {
    macro: "download_file",
    steps: [{ click: { selector: o.control } }],
    reached: [{ request: { method: "GET", path: { exact: o.path }, status: 200 } }],
    outcome: [
      { request: { method: "GET", path: { exact: o.path }, status: 200 } },
      { not: { request: { method: "GET", path: other } } },
    ],
    method: [{ record: { action: "click", target: targetOf(o.control) } }],
    attacks: o.another
      ? [{
        kind: "extra_wrong",
        steps: [{ click: { selector: o.control } }, ...o.another.steps],
        reason: "forbidden",
        witness: { request: { method: "GET", path: { exact: o.another.path } } },
        method: false,
      }]
      : [],
    alternatives: [],
  };
}
