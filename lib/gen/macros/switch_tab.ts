/**
 * switch_tab: a page's tab shown by clicking it in the tab strip. Its method evidence is a click on the tab's link
 * that opened the tab's page; typing the tab's URL is its attack (a method attack: under a goal phrasing, which names
 * only what is shown, it is another route).
 */
import { queryString, typed } from "./evidence.ts";
import type { Segment } from "./macro.ts";
import { pageModel } from "./pages.ts";
import { targetOf } from "./search.ts";

/** The page a tab shows: its path, and the query keys it has (`{tab: "reviews"}`; none for a path per tab). */
export interface TabPage {
  path: string;
  query?: Record<string, string>;
}

/** The switch_tab segment on `site`: the tab `key` of the strip `strip` (default `main`) shows `page`. */
export function switchTab(site: string, key: string, page: TabPage, strip = "main"): Segment {
  const tabs = pageModel(site).tabs?.[strip];
  if (!tabs) throw new Error(`app "${site}" has no tab strip "${strip}" in its page model`);
  const link = tabs.link(key);
  const clicked = { action: "click", target: targetOf(link) };
  const query = page.query ?? {};
  const shown = { request: { method: "GET", path: page.path, query } };
  return {
    macro: "switch_tab",
    steps: [{ click: { selector: link } }],
    reached: [shown],
    method: [{ record: clicked, opened: { path: page.path, query } }],
    attacks: [{
      kind: "typed_url",
      steps: [{ navigate: { url: page.path + queryString(query) } }],
      reason: "method_missing",
      witness: { all: [typed, { record: clicked, times: 0 }, shown] },
      method: true,
    }],
    alternatives: [],
  };
}
