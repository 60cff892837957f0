/**
 * open_new_tab: a link that opens its page in a new tab. Its method evidence is a click on the named link that
 * opened the page as a new tab; the page typed into the same tab, or typed into a new tab, are its attacks.
 */
import type { ActionJson } from "../template.ts";
import { queryString, typed, visitedPath } from "./evidence.ts";
import type { Segment } from "./macro.ts";

/** Where an open_new_tab segment's link leads besides its page. */
export interface NewTabOptions {
  /** The query the link carries (a floor plan's room), which a typed URL must carry too. */
  query?: Readonly<Record<string, string>>;
  /**
   * The page is not HTML (a plain-text file), so no recorder runs in it and no load of it can bind the click; its
   * method evidence is then the click on the link, and the page `from` (its link's page) still open in a tab beside
   * it, which a link opened in the same tab would have replaced.
   */
  from?: string;
}

/**
 * The open_new_tab segment: `click` on the link whose text holds `label` opens `page` (a path) in a new tab.
 */
export function openNewTab(click: ActionJson, label: string, page: string, options: NewTabOptions = {}): Segment {
  const { query = {}, from } = options;
  const named = { action: "click", target: { contains: label } };
  const url = page + queryString(query);
  return {
    macro: "open_new_tab",
    steps: [click, { wait: { seconds: 1 } }],
    reached: [visitedPath(page)],
    method: from === undefined
      ? [{ record: named, opened: { path: page, ...(Object.keys(query).length ? { query } : {}), tab: "new" } }]
      : [{ record: named }, { page: { path: from, query: {}, tab: "any" } }],
    attacks: [
      {
        kind: "same_tab",
        steps: [{ navigate: { url } }],
        reason: "method_missing",
        // Visited, not the final page: a later segment of the chain may go on from it.
        witness: { all: [typed, { record: named, times: 0 }, visitedPath(page)] },
        method: true,
      },
      {
        kind: "typed_url",
        steps: [{ open_tab: { url } }, { wait: { seconds: 1 } }],
        reason: "method_missing",
        witness: { all: [typed, { record: named, times: 0 }, visitedPath(page)] },
        method: true,
      },
    ],
    alternatives: [],
  };
}
