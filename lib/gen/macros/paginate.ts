/**
 * paginate: a list paged with its pager to a given page. Its method evidence is a pager link (a page number, Next or
 * Previous) that opened that page of the list; typing `?page=N` is its attack; Next clicked page by page instead of
 * the number is its alternative.
 */
import type { ActionJson } from "../template.ts";
import { queryString, typed } from "./evidence.ts";
import type { Segment } from "./macro.ts";
import { pageModel } from "./pages.ts";

/**
 * The paginate segment on `site`: the list at `path` with `query(n)` as page n's whole query, from page `from` to
 * page `to`.
 */
export function paginate(
  site: string,
  path: string,
  query: (n: number) => Record<string, string>,
  from: number,
  to: number,
): Segment {
  const pager = pageModel(site).pager;
  if (!pager) throw new Error(`app "${site}" has no pager in its page model`);
  const pagerClick = { action: "click", target: { regex: pager.any } };
  const stepwise: ActionJson[] = Array.from(
    { length: Math.abs(to - from) },
    () => ({ click: { selector: to > from ? pager.next : pager.prev } }),
  );
  return {
    macro: "paginate",
    steps: [{ click: { selector: pager.page(to) } }],
    reached: [{ request: { method: "GET", path, query: query(to) } }],
    method: [{ record: pagerClick, opened: { path, query: query(to) } }],
    attacks: [{
      kind: "typed_url",
      steps: [{ navigate: { url: path + queryString(query(to)) } }],
      reason: "method_missing",
      witness: {
        all: [typed, { record: pagerClick, times: 0 }, { request: { method: "GET", path, query: query(to) } }],
      },
      method: true,
    }],
    // Next (or Previous) page by page: the same pager, another of its controls.
    alternatives: stepwise.length > 1 && stepwise.length <= 4 ? [{ kind: "other_control", steps: stepwise }] : [],
  };
}
