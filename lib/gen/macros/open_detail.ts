/**
 * open_detail: a detail page opened from a list, folder or results page by clicking its row's link. Its method
 * evidence is a click on a link of the list page that opened the detail page (whichever link of the row: its title,
 * its key, its picture); typing the detail page's URL is its attack.
 */
import type { ActionJson } from "../template.ts";
import { onPage, typed, visitedPath } from "./evidence.ts";
import type { Segment } from "./macro.ts";

/** A link click on the list page `list` (a path). */
const linkOn = (list: string) => ({ action: "click", target: { regex: "^a\\b" }, url: onPage(list) });

/**
 * The open_detail segment: on the list page `list`, `click` (the row's link) opens the page `detail`; `before` are
 * the steps that bring the row into view (its page of the list).
 */
export function openDetail(list: string, click: ActionJson, detail: string, before: ActionJson[] = []): Segment {
  return {
    macro: "open_detail",
    steps: [...before, click],
    reached: [visitedPath(detail)],
    method: [{ record: linkOn(list), opened: { path: detail } }],
    attacks: [{
      kind: "typed_url",
      steps: [{ navigate: { url: detail } }],
      reason: "method_missing",
      witness: { all: [typed, { record: linkOn(list), times: 0 }, visitedPath(detail)] },
      method: true,
    }],
    alternatives: [],
  };
}
