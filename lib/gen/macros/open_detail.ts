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
 * the steps that bring the row into view (its page of the list). `otherLinks`: another segment of the chain clicks
 * another link of the same page (a download link on the order page, another message of the folder), so a typed
 * detail URL leaves a link click on the list that opened something else: the grade says `method_unbound` (the control
 * was used, but did not open this page), not `method_missing`.
 */
export function openDetail(
  list: string,
  click: ActionJson,
  detail: string,
  before: ActionJson[] = [],
  otherLinks = false,
): Segment {
  return {
    macro: "open_detail",
    steps: [...before, click],
    reached: [visitedPath(detail)],
    method: [{ record: linkOn(list), opened: { path: detail } }],
    attacks: [{
      kind: "typed_url",
      steps: [{ navigate: { url: detail } }],
      reason: otherLinks ? "method_unbound" : "method_missing",
      // No link of the list opened this page (an earlier segment of the chain may click links of the same list).
      witness: { all: [typed, { not: { record: linkOn(list), opened: { path: detail } } }, visitedPath(detail)] },
      method: true,
    }],
    alternatives: [],
  };
}
