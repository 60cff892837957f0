/**
 * search: a query typed into the app's search box and submitted. Its method evidence is the input into the box (the
 * query as the app reads it: trimmed, any case) and the submit (button or Enter) that opened the results; typing
 * the results URL is its attack; Enter for the button and a trimmed or case-changed query are its alternatives.
 */
import type { ActionJson, ConditionJson, NearMiss } from "../template.ts";
import { esc, queryString, typed } from "./evidence.ts";
import type { Segment } from "./macro.ts";
import { pageModel } from "./pages.ts";

/** The recorder target of the element `selector` (an id) names, and no longer id (`#search` is not `#search-button`). */
export const targetOf = (selector: string): { regex: string } => ({ regex: `${esc(selector)}(?![\\w-])` });

/**
 * The search segment on `site` for `q`. `context` is the rest of the results page's query (the filters and sort the
 * list already had), which the submit keeps; `form` names another of the app's search forms than its main one.
 */
export function search(
  site: string,
  q: string,
  context: Readonly<Record<string, string>> = {},
  form?: string,
): Segment {
  const model = pageModel(site);
  const s = form === undefined ? model.search : model.searches?.[form];
  if (!s) throw new Error(`app "${site}" has no search form ${form ?? "(main)"} in its page model`);
  const results = { path: s.path, query: { ...context, [s.key]: q } };
  const typedInBox = (text: string, submit: Record<string, unknown>) => [
    { input: { selector: s.box, text } },
    submit,
  ];
  const inBox: ConditionJson = { record: { action: "input", target: targetOf(s.box), value: { norm: q } } };
  return {
    macro: "search",
    steps: typedInBox(q, { click: { selector: s.submit } }),
    reached: [{ request: { method: "GET", path: s.path, query: results.query } }],
    method: [
      inBox,
      {
        record: {
          action: { regex: "^(click|key)$" },
          target: { regex: `${targetOf(s.box).regex}|${targetOf(s.submit).regex}` },
        },
        opened: results,
      },
    ],
    attacks: [{
      kind: "typed_url",
      steps: [{ navigate: { url: s.path + queryString(results.query) } }],
      reason: "method_missing",
      witness: { all: [typed, { record: { action: "input", target: targetOf(s.box) }, times: 0 }] },
      method: true,
    }],
    alternatives: [
      { kind: "keyboard", steps: typedInBox(q, { send_keys: { keys: "Enter" } }) },
      {
        kind: "normalised_query",
        steps: typedInBox(`${q[0].toUpperCase()}${q.slice(1)} `, { click: { selector: s.submit } }),
      },
    ],
  };
}

/**
 * The near miss of a search for another query (a sibling word, the first word only), after the chain's steps
 * `before` it: it ends on that query's results in the app's main search, which must fail `final_page`.
 */
export function searchedFor(name: string, site: string, q: string, before: readonly ActionJson[]): NearMiss {
  const s = pageModel(site).search;
  if (!s) throw new Error(`app "${site}" has no main search form in its page model`);
  return {
    name,
    category: "wrong_item",
    steps: [...before, ...search(site, q).steps],
    reason: "final_page",
    witness: { page: { path: s.path, query: { [s.key]: q } } },
  };
}
