/** Rewriting the matchers of a condition; conditions' format is lib/protocol's (condition.ts). */
import type {
  ChangePattern,
  Condition,
  FieldMatchers,
  Matcher,
  PagePattern,
  QueryMatchers,
  RequestPattern,
} from "../protocol/mod.ts";

const mapFields = (f: FieldMatchers, fn: (m: Matcher) => Matcher): FieldMatchers =>
  Object.fromEntries(Object.entries(f).map(([k, m]) => [k, fn(m)]));

const mapQuery = (q: QueryMatchers, fn: (m: Matcher) => Matcher): QueryMatchers =>
  Object.fromEntries(Object.entries(q).map(([k, m]) => [k, Array.isArray(m) ? m.map(fn) : fn(m)]));

const mapOptional = <T>(v: T | undefined, fn: (v: T) => T): T | undefined => v === undefined ? undefined : fn(v);

/**
 * A copy of `c` with `fn` applied to every matcher that sits directly in a condition (not inside a matcher). A
 * negated condition (`{"not": c}`) is left as it is: rewriting what must not happen would change its meaning.
 */
export function mapConditionMatchers(c: Condition, fn: (m: Matcher) => Matcher): Condition {
  if (Array.isArray(c)) return c.map((x) => mapConditionMatchers(x, fn));
  if ("all" in c) return { all: c.all.map((x) => mapConditionMatchers(x, fn)) };
  if ("any" in c) return { any: c.any.map((x) => mapConditionMatchers(x, fn)) };
  if ("not" in c) return c;
  if ("request" in c) {
    const r = c.request;
    const request: RequestPattern = {};
    if (r.method !== undefined) request.method = fn(r.method);
    if (r.path !== undefined) request.path = fn(r.path);
    if (r.query !== undefined) request.query = mapQuery(r.query, fn);
    if (r.body !== undefined) request.body = mapFields(r.body, fn);
    if (r.status !== undefined) request.status = fn(r.status);
    return { ...c, request };
  }
  if ("change" in c) {
    const change: ChangePattern = { ...c.change };
    if (change.key !== undefined) change.key = fn(change.key);
    change.before = mapOptional(change.before, (f) => mapFields(f, fn));
    change.after = mapOptional(change.after, (f) => mapFields(f, fn));
    if (change.before === undefined) delete change.before;
    if (change.after === undefined) delete change.after;
    return { ...c, change };
  }
  if ("page" in c) {
    const page: PagePattern = { ...c.page };
    if (page.path !== undefined) page.path = fn(page.path);
    if (page.query !== undefined) page.query = mapQuery(page.query, fn);
    return { page };
  }
  if ("event" in c) return { ...c, event: mapFields(c.event, fn) };
  if ("record" in c) return { ...c, record: mapFields(c.record, fn) };
  if ("clipboard" in c) return { ...c, clipboard: fn(c.clipboard) };
  if ("visited" in c) return { ...c, visited: fn(c.visited) };
  if ("answer" in c) return { ...c, answer: fn(c.answer) };
  return c; // only_writes, no_writes, logged_in: no matchers
}
