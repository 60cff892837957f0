/**
 * toggle_checkbox on a filter form: boxes ticked, then the form applied. Its method evidence is each box's own last
 * change (ticked) and the apply button that opened the filtered list; the filtered URL typed is its attack (under a goal
 * phrasing, another route).
 */
import type { ActionJson } from "../template.ts";
import { queryString, typed } from "./evidence.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/**
 * The filter segment: tick `boxes` (selectors, ids), then `apply`, which opens the list at `path` with the whole
 * query `query`.
 */
export function filterBoxes(
  boxes: readonly string[],
  apply: string,
  path: string,
  query: Readonly<Record<string, string | string[]>>,
): Segment {
  const applied: ActionJson = { click: { selector: apply } };
  return {
    macro: "toggle_checkbox",
    steps: [...boxes.map((b) => ({ click: { selector: b } })), applied],
    reached: [{ request: { method: "GET", path, query } }],
    method: [
      ...boxes.map((b) => ({
        record: { action: "change", target: targetOf(b), value: { regex: "." } },
        bound: "last",
      })),
      { record: { action: "click", target: targetOf(apply) }, opened: { path, query } },
    ],
    attacks: [{
      kind: "typed_url",
      steps: [{ navigate: { url: path + queryString(query) } }],
      reason: "method_missing",
      witness: { all: [typed, { record: { action: "change", target: targetOf(boxes[0]) }, times: 0 }] },
      method: true,
    }],
    alternatives: [],
  };
}
