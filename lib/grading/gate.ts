/** The backend gate: a task's check (and verifier) over an episode's evidence (docs/grading.md). Pure. */
import type {
  ChangePattern,
  Check,
  Condition,
  FieldMatchers,
  RequestPattern,
  Verifier,
  WritePattern,
} from "./condition.ts";
import type { ChangeEntry, Evidence, LogEntry } from "./evidence.ts";
import {
  answerSeen,
  describeMatcher,
  type Matcher,
  matcherTarget,
  prepareSeen,
  type SeenText,
  testMatcher,
} from "./matcher.ts";
import { equalTest, type FieldTest, matcherTest, patternFailure, rowFieldTest } from "./_pattern.ts";
import { quote } from "./text.ts";

/** A grade: `detail` names the first failing condition and why ("" when `ok`). */
export interface GateResult {
  ok: boolean;
  detail: string;
}

/** The longest detail gate() returns. */
export const DETAIL_MAX = 300;

interface Ctx {
  ev: Evidence;
  seen?: SeenText;
  visits?: string[];
}

/**
 * Grades an episode: `check` first, then the verifier's answer condition (a null verifier adds nothing).
 * Deterministic and pure.
 */
export function gate(check: Check, verifier: Verifier | null | undefined, evidence: Evidence): GateResult {
  const ctx: Ctx = { ev: evidence };
  let failure = evaluate(check, ctx, "");
  if (failure === null && verifier) {
    failure = evaluate({ answer: verifier.answer, seen: verifier.seen }, ctx, "verifier");
  }
  if (failure === null) return { ok: true, detail: "" };
  return { ok: false, detail: failure.length > DETAIL_MAX ? failure.slice(0, DETAIL_MAX - 1) + "…" : failure };
}

const at = (path: string, step: string) => path ? `${path}.${step}` : step;
const pre = (path: string) => path ? `${path} ` : "";

/** The failure of `c` prefixed by its path, or null when it passes. */
function evaluate(c: Condition, ctx: Ctx, path: string): string | null {
  if (Array.isArray(c)) return evaluateAll(c, ctx, path);
  if ("all" in c) return evaluateAll(c.all, ctx, path);
  if ("any" in c) {
    let first: string | null = null;
    for (let i = 0; i < c.any.length; i++) {
      const f = evaluate(c.any[i], ctx, at(path, `any[${i}]`));
      if (f === null) return null;
      first ??= f;
    }
    return `${pre(path)}any: none of ${c.any.length} passed; ${first}`;
  }
  if ("not" in c) {
    return evaluate(c.not, ctx, at(path, "not")) === null ? `${pre(path)}not: ${labelOf(c.not)} passed` : null;
  }
  const why = leafFailure(c, ctx);
  return why === null ? null : `${pre(path)}${labelOf(c)}: ${why}`;
}

function evaluateAll(cs: readonly Condition[], ctx: Ctx, path: string): string | null {
  for (let i = 0; i < cs.length; i++) {
    const f = evaluate(cs[i], ctx, at(path, `all[${i}]`));
    if (f !== null) return f;
  }
  return null;
}

/** `request POST /shop/cart`, `change shop.orders insert`, `event drag`, `answer`. */
function labelOf(c: Condition): string {
  if (Array.isArray(c) || "all" in c) return "all";
  if ("any" in c) return "any";
  if ("not" in c) return `not ${labelOf(c.not)}`;
  if ("request" in c) {
    const r = c.request;
    return ["request", r.method && matcherTarget(r.method), r.path && matcherTarget(r.path)].filter(Boolean).join(" ");
  }
  if ("change" in c) {
    const { site, table, op } = c.change;
    const where = site && table ? `${site}.${table}` : site ? `${site}.*` : table;
    return ["change", where, op].filter(Boolean).join(" ");
  }
  if ("event" in c) return eventLabel("event", c.event);
  if ("record" in c) return eventLabel("record", c.record);
  return Object.keys(c)[0];
}

function eventLabel(kind: string, f: FieldMatchers): string {
  const what = f.action ?? f.kind;
  return what === undefined ? kind : `${kind} ${matcherTarget(what)}`;
}

type Leaf = Exclude<Condition, Condition[] | { all: unknown } | { any: unknown } | { not: unknown }>;

function leafFailure(c: Leaf, ctx: Ctx): string | null {
  const ev = ctx.ev;
  if ("request" in c) return patternFailure("request", ev.log, requestTests(c.request), c.times);
  if ("change" in c) return patternFailure("change", ev.changes, changeTests(c.change), c.times);
  if ("event" in c) return patternFailure("event", ev.events, fieldTests(c.event), c.times);
  if ("record" in c) return patternFailure("recorder event", ev.record, recordTests(c.record), c.times);
  if ("clipboard" in c) {
    return patternFailure("clipboard write", ev.clip, [matcherTest("text", c.clipboard, (t: string) => t)], c.times);
  }
  if ("visited" in c) return patternFailure("page visit", visits(ctx), [visitTest(c.visited, ev.base)], c.times);
  if ("answer" in c) return answerFailure(c.answer, c.seen ?? true, ctx);
  if ("only_writes" in c) return onlyWritesFailure(c.only_writes, ev.changes);
  if (ev.changes.length === 0) return null; // no_writes
  const shown = ev.changes.slice(0, 3).map(describeChange).join(", ");
  return `${ev.changes.length} change(s): ${shown}${ev.changes.length > 3 ? ", ..." : ""}`;
}

function requestTests(r: RequestPattern): FieldTest<LogEntry>[] {
  const tests: FieldTest<LogEntry>[] = [];
  if (r.method !== undefined) tests.push(matcherTest("method", r.method, (e) => e.method));
  if (r.path !== undefined) tests.push(matcherTest("path", r.path, (e) => e.path));
  for (const [k, m] of Object.entries(r.query ?? {})) tests.push(matcherTest(`query.${k}`, m, (e) => e.query?.[k]));
  for (const [k, m] of Object.entries(r.body ?? {})) tests.push(matcherTest(`body.${k}`, m, (e) => e.body?.[k]));
  if (r.status !== undefined) tests.push(matcherTest("status", r.status, (e) => e.status));
  else tests.push({ label: "status", want: "< 400", actual: (e) => e.status, pass: (e) => e.status < 400 });
  return tests;
}

function changeTests(p: ChangePattern): FieldTest<ChangeEntry>[] {
  const tests: FieldTest<ChangeEntry>[] = [];
  if (p.site !== undefined) tests.push(equalTest("site", p.site, (e) => e.site));
  if (p.table !== undefined) tests.push(equalTest("table", p.table, (e) => e.table));
  if (p.op !== undefined) tests.push(equalTest("op", p.op, (e) => e.op));
  if (p.key !== undefined) tests.push(matcherTest("key", p.key, (e) => e.key));
  for (const [f, m] of Object.entries(p.before ?? {})) tests.push(rowFieldTest(`before.${f}`, f, m, (e) => e.before));
  for (const [f, m] of Object.entries(p.after ?? {})) tests.push(rowFieldTest(`after.${f}`, f, m, (e) => e.after));
  return tests;
}

function fieldTests<E extends Record<string, unknown>>(f: FieldMatchers): FieldTest<E>[] {
  return Object.entries(f).map(([k, m]) => matcherTest<E>(k, m, (e) => e[k]));
}

/** `type` defaults to "action", or to "observation" when the pattern names a `kind`. */
function recordTests(f: FieldMatchers): FieldTest<Record<string, unknown>>[] {
  const type: Matcher = f.type ?? ("kind" in f ? "observation" : "action");
  return fieldTests({ ...f, type });
}

/** The session's successful GET requests as `path?query` (the query form-encoded, as a browser writes it). */
function visits(ctx: Ctx): string[] {
  if (ctx.visits) return ctx.visits;
  const out: string[] = [];
  for (const e of ctx.ev.log) {
    if (e.status >= 400 || (e.method !== "GET" && e.method.toUpperCase() !== "GET")) continue;
    let q = "";
    for (const k in e.query) {
      // A repeated key (the log keeps its values as an array) is repeated in the query, as the browser sent it.
      const values = Array.isArray(e.query[k]) ? e.query[k] as unknown[] : [e.query[k]];
      for (const v of values) q += `${q ? "&" : ""}${formEncode(k)}=${formEncode(String(v))}`;
    }
    out.push(q ? `${e.path}?${q}` : e.path);
  }
  return ctx.visits = out;
}

function formEncode(s: string): string {
  return /^[\w.~-]*$/.test(s) ? s : encodeURIComponent(s).replace(/%20/g, "+");
}

/**
 * A visit matches by its path (with query); a matcher that mentions `://` (a full URL) may also match the visit's
 * full URL on the evidence's base. A plain full URL on the base is turned into its path once, instead of building
 * every visit's full URL.
 */
function visitTest(m: Matcher, base: string): FieldTest<string> {
  const origin = base.replace(/\/+$/, "");
  const full = JSON.stringify(m).includes("://");
  const relative = full ? pathMatcher(m, origin) : m;
  return {
    label: "url",
    want: describeMatcher(m),
    actual: (u) => u,
    pass: relative !== undefined
      ? (u) => testMatcher(relative, u)
      : (u) => testMatcher(m, u) || testMatcher(m, origin + u),
  };
}

/** `"http://base/shop/cart"` (bare, norm or exact) → the same matcher on `/shop/cart`; undefined for other forms. */
function pathMatcher(m: Matcher, origin: string): Matcher | undefined {
  const strip = (url: string) => {
    const u = url.trim();
    if (u.length < origin.length || u.slice(0, origin.length).toLowerCase() !== origin.toLowerCase()) return undefined;
    const rest = u.slice(origin.length);
    return rest === "" || rest.startsWith("?") ? "/" + rest : rest.startsWith("/") ? rest : undefined;
  };
  if (typeof m === "string") return strip(m);
  if (typeof m !== "object") return undefined;
  if ("norm" in m) {
    const rest = strip(m.norm);
    return rest === undefined ? undefined : { norm: rest };
  }
  if ("exact" in m && m.exact.startsWith(origin)) {
    const rest = m.exact.slice(origin.length);
    return rest === "" ? { exact: "/" } : rest.startsWith("/") ? { exact: rest } : undefined;
  }
  return undefined;
}

function answerFailure(m: Matcher, mustBeSeen: boolean, ctx: Ctx): string | null {
  const answer = ctx.ev.answer;
  if (answer === null || answer === undefined) return "no answer (the episode did not end with done)";
  if (!testMatcher(m, answer)) return `${quote(answer, 80)} does not match ${describeMatcher(m)}`;
  if (!mustBeSeen) return null;
  ctx.seen ??= prepareSeen(ctx.ev.seen);
  return answerSeen(m, answer, ctx.seen) ? null : `${quote(answer, 80)} matches but was not seen on any screen`;
}

function writeAllowed(c: ChangeEntry, p: WritePattern): boolean {
  return (p.site === undefined || p.site === c.site) && (p.table === undefined || p.table === c.table) &&
    (p.op === undefined || p.op === c.op);
}

function onlyWritesFailure(allowed: readonly WritePattern[], changes: readonly ChangeEntry[]): string | null {
  const bad = changes.filter((c) => !allowed.some((p) => writeAllowed(c, p)));
  if (bad.length === 0) return null;
  const patterns = allowed.map((p) => [p.site, p.table, p.op].filter(Boolean).join(" ") || "*").join(", ");
  const more = bad.length > 1 ? ` (+${bad.length - 1} more)` : "";
  return `unexpected write ${describeChange(bad[0])}${more}; allowed: ${patterns || "none"}`;
}

function describeChange(c: ChangeEntry): string {
  return `${c.site}.${c.table} ${c.op} key ${quote(c.key, 20)}`;
}
