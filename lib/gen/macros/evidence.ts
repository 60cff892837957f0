/**
 * The evidence helpers every template and macro shares, each defined once: a regular expression's literal form, the
 * one encoding of a query value a visit is matched with (the grader's: form encoding, a space as `+`), and the
 * `visited` conditions built on them; and the near miss every chain that ends on a page shares.
 */
import type { ActionJson, ConditionJson, NearMiss } from "../template.ts";
import type { Attack } from "./macro.ts";

/** A regular expression's literal form of `s`. */
export const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A query value as the grader rebuilds a visit's query (lib/grading's `visited`): form encoding, a space as `+`, the
 * unreserved characters as they are. The one encoding rule of every `visitedWith`.
 */
export const formEncode = (s: string): string => /^[\w.~-]*$/.test(s) ? s : encodeURIComponent(s).replace(/%20/g, "+");

/** A GET of `path` with every `pairs` key at its value (any order, other keys allowed, any case). */
export const visitedWith = (path: string, pairs: readonly (readonly [string, string])[]): ConditionJson => ({
  visited: {
    regex: `^${esc(path)}\\?${pairs.map(([k, v]) => `(?=(.*&)?${k}=${esc(formEncode(v))}(&|$))`).join("")}`,
    flags: "i",
  },
});

/** A GET of `path` itself, with or without a query. */
export const visitedPath = (path: string): ConditionJson => ({ visited: { regex: `^${esc(path)}(\\?|$)` } });

/** The page whose path is `path` (with any query): a recorder `url` matcher. */
export const onPage = (path: string): { regex: string } => ({ regex: `${esc(path)}([?#]|$)` });

/** A query string (`?a=1&b=2`, or "" for none) of `query`, in the order given (a list: the key repeated). */
export const queryString = (query: Readonly<Record<string, string | readonly string[]>>): string => {
  const q = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => (typeof v === "string" ? [v] : v).map((x) => [k, x])),
  ).toString();
  return q ? `?${q}` : "";
};

/** Witness that a URL was typed: a navigate action happened. */
export const typed: ConditionJson = { event: { action: "navigate" } };

/**
 * The right chain ending on the wrong item: the chain's last step replaced by `last` (a click on a sibling's link,
 * another tab, another menu entry), which ends on `path` instead: `final_page`, its witness that page.
 */
export const endsOnSibling = (
  name: string,
  steps: readonly ActionJson[],
  last: ActionJson,
  path: string,
): NearMiss => ({
  name,
  category: "wrong_item",
  steps: [...steps.slice(0, -1), last],
  reason: "final_page",
  witness: { page: { path } },
});

/**
 * The equivalent-control attack: another control's `steps` reach the same end (`witness` holds), the named control
 * `untouched`. A method attack: `method_missing` under a procedure, another route under a goal.
 */
export const equivalentControl = (steps: ActionJson[], witness: ConditionJson, untouched: ConditionJson): Attack => ({
  kind: "equivalent_control",
  steps,
  reason: "method_missing",
  witness: { all: [witness, untouched] },
  method: true,
});
