/** The backend gate: a task's check (and verifier) over an episode's evidence (docs/grading.md). Pure. */
import {
  type AppRules,
  type Binding,
  type ChangeEntry,
  type ChangePattern,
  type Check,
  type Condition,
  type Evidence,
  type FieldMatchers,
  type LogEntry,
  type Matcher,
  type OpenedPage,
  type PagePattern,
  type QueryMatchers,
  quote,
  type ReasonCode,
  type RecordEntry,
  type RequestPattern,
  type SeenPage,
  type Verifier,
  type WritePattern,
} from "../protocol/mod.ts";
import {
  caselessPath,
  explicitBookkeeping,
  type FinalPage,
  finalPage,
  irreversibleActs,
  netDiff,
  type RowDiff,
  rowKey,
  sitePage,
} from "./state.ts";
import { answerSeen, describeMatcher, matcherTarget, prepareSeen, type SeenText, testMatcher } from "./matcher.ts";
import { equalTest, type FieldTest, matcherTest, patternFailure, rowFieldTest } from "./_pattern.ts";
import { additionsOf, askedVerbatim, stripAdditions } from "./free_text.ts";
import { decideStrictAnswer } from "./answer.ts";
import { fail, type Failure } from "./reasons.ts";

/** A grade: `detail` names the first failing condition and why ("" when `ok`), `reason` the rule. */
export interface GateResult {
  /** Every condition holds. */
  ok: boolean;
  /** The first failing condition and why (at most DETAIL_MAX, 300 characters); "" when ok. */
  detail: string;
  /** The failing rule's code (absent when ok). */
  reason?: ReasonCode;
  /**
   * Every rule holds but an answer the rules cannot account for (reason `answer_unaccounted`): not a verdict. The
   * caller asks the judge (`question`), or grades the episode pending.
   */
  undecided?: UndecidedAnswer;
}

/** An answer the rules tier could not decide: what the judge is asked. */
export interface UndecidedAnswer {
  /** The answer. */
  answer: string;
  /** The expected value, as the matcher describes it. */
  expected: string;
  /** Why the rules did not decide. */
  why: string;
}

/** What gate() reads besides the check and the evidence. */
export interface GateOptions {
  /** The task's instruction: entity names it mentions are words an answer may use (answer.ts). */
  instruction?: string;
}

/** The longest detail gate() returns. */
export const DETAIL_MAX = 300;

/** The requests a passing request condition matched, with its pattern. */
export interface RequestClaim {
  pattern: RequestPattern;
  entries: LogEntry[];
}

/** A row a passing change condition accounts for, with the fields it lists. */
interface Claim {
  row: RowDiff;
  fields: readonly string[];
}

interface Ctx {
  ev: Evidence;
  /** The task's instruction: the names an answer may mention (answer.ts). */
  instruction?: string;
  /** Answers the rules could not decide (treated as passing so that every other rule still runs). */
  undecided: UndecidedAnswer[];
  seen?: SeenText;
  visits?: string[];
  diff?: RowDiff[];
  /** Each change's row in `diff` (null: the row ends as it began). */
  rowOf?: Map<ChangeEntry, RowDiff | null>;
  explicit?: Set<ChangeEntry>;
  /** Claims of the passing change conditions (a failing branch's are dropped). */
  claims: Claim[];
  /** Per passing request condition, the requests it matched (a failing branch's are dropped). */
  requests: RequestClaim[];
}

/**
 * Grades an episode: `check` first, then the verifier's answer condition (a null verifier adds nothing).
 * Deterministic and pure.
 */
export function gate(
  check: Check,
  verifier: Verifier | null | undefined,
  evidence: Evidence,
  options: GateOptions = {},
): GateResult {
  const ctx = newCtx(evidence);
  ctx.instruction = options.instruction;
  let failure = evaluate(check, ctx, "");
  if (failure === null && verifier) {
    failure = evaluate({ answer: verifier.answer, seen: verifier.seen, why: verifier.why }, ctx, "verifier");
  }
  failure ??= endStateFailure(check, ctx);
  if (failure === null && ctx.undecided.length > 0) {
    const u = ctx.undecided[0];
    return {
      ok: false,
      detail: cap(`pending: answer ${quote(u.answer, 80)}: ${u.why}; the judge decides`),
      reason: "answer_unaccounted",
      undecided: u,
    };
  }
  if (failure === null) return { ok: true, detail: "" };
  return { ok: false, detail: cap(failure.text), reason: failure.code };
}

const cap = (s: string) => s.length > DETAIL_MAX ? s.slice(0, DETAIL_MAX - 1) + "…" : s;

const newCtx = (ev: Evidence): Ctx => ({ ev, claims: [], requests: [], undecided: [] });

/**
 * Why one condition fails on `evidence` (null: it passes), without the end-state rules gate() adds: for tests of
 * one condition's semantics, and for verifiers that combine several checks before those rules apply.
 */
export function conditionFailure(c: Condition, evidence: Evidence): Failure | null {
  return evaluate(c, newCtx(evidence), "");
}

/**
 * A condition's failure (null: it passes) and, when it passes, the requests its request conditions matched: what a
 * human verifier's macro claims (the writes those requests made are the macro's).
 */
export function conditionClaims(
  c: Condition,
  evidence: Evidence,
): { failure: Failure | null; requests: RequestClaim[] } {
  const ctx = newCtx(evidence);
  const failure = evaluate(c, ctx, "");
  return { failure, requests: failure === null ? ctx.requests : [] };
}

/** The episode's net change of every row (computed once). */
function diffOf(ctx: Ctx): RowDiff[] {
  if (ctx.diff) return ctx.diff;
  ctx.rowOf = new Map();
  return ctx.diff = netDiff(ctx.ev.changes, ctx.ev.rules, explicitOf(ctx), ctx.rowOf);
}

/** The bookkeeping changes a control made on purpose (computed once). */
function explicitOf(ctx: Ctx): Set<ChangeEntry> {
  return ctx.explicit ??= explicitBookkeeping(ctx.ev.changes, ctx.ev.log, ctx.ev.rules);
}

/**
 * The rules every check obeys once its conditions passed: every row the episode changed is accounted for by a
 * change condition, field by field; and the login state at the end is the one at the start unless a
 * `logged_in` condition asks otherwise.
 */
function endStateFailure(check: Check, ctx: Ctx): Failure | null {
  // An act that cannot be taken back is named as such before the row it left is counted as unclaimed.
  const extra = irreversibleFailure(ctx);
  if (extra) return extra;
  const unclaimed = unclaimedWrite(diffOf(ctx), ctx.claims);
  if (unclaimed) return fail("unclaimed_write", unclaimed);
  const f = ctx.ev.final;
  if (f && f.logged_in !== null && f.start_logged_in !== null && f.logged_in !== f.start_logged_in) {
    if (!mentions(check, "logged_in")) {
      return fail(
        "login_state",
        f.logged_in
          ? "signed in at the end although the task did not ask for it (logged_in: false at the start, true at the end)"
          : "signed out at the end although the task did not ask for it (logged_in: true at the start, false at the end)",
      );
    }
  }
  return null;
}

/**
 * Irreversible acts (docs/grading.md): every one the episode performed must be on a row a passing change condition
 * claims. An act is kept as it happened: a sent message deleted afterwards was still sent, so its row (no change
 * at the end, or none the task asks for) is claimed by nothing and the grade fails.
 */
function irreversibleFailure(ctx: Ctx): Failure | null {
  diffOf(ctx);
  const acts = irreversibleActs(ctx.ev.changes, ctx.ev.rules, explicitOf(ctx), ctx.rowOf);
  if (acts.length === 0) return null;
  // By the row itself, not its key: a reply sent, deleted forever, and another sent under the reused id are two.
  const claimed = new Set<RowDiff>(ctx.claims.map((c) => c.row));
  const extra = acts.find((a) => a.row === null || !claimed.has(a.row));
  if (!extra) return null;
  const gone = extra.undone ? " (undone afterwards, but it happened)" : "";
  return fail(
    "irreversible_extra",
    `irreversible ${extra.name}: ${describeChange(extra.change)}${gone}; the task asks for no such act`,
  );
}

/**
 * Whether a change condition failed because the asked act was done more often than asked: more rows than `times`
 * match, and they are irreversible acts (a review posted twice, an order placed twice): one that asks for one act
 * fails on two, whatever else differs.
 */
function repeatedAct(p: ChangePattern, times: number, ever: boolean, ctx: Ctx): boolean {
  if (ever) return false;
  const tests = changeTests(p, ctx.ev);
  const rows = new Set<RowDiff>(diffOf(ctx).filter((r) => tests.every((t) => t.pass(r))));
  if (rows.size <= times) return false;
  const acts = irreversibleActs(ctx.ev.changes, ctx.ev.rules, explicitOf(ctx), ctx.rowOf)
    .filter((a) => a.row && rows.has(a.row));
  return acts.length > times;
}

/** Why a changed row or field is not accounted for by any claim, or null. */
export function unclaimedWrite(diff: readonly RowDiff[], claims: readonly Claim[]): string | null {
  for (const row of diff) {
    const mine = claims.filter((c) => c.row === row);
    const where = `unclaimed write ${row.site}.${row.table} ${row.op} key ${quote(row.key, 20)}`;
    if (mine.length === 0) return `${where}: ${describeRowDiff(row)} (no condition claims this row)`;
    const listed = new Set(mine.flatMap((c) => c.fields));
    const missing = row.fields.filter((f) => !listed.has(f));
    if (missing.length) {
      const f = missing[0];
      const more = missing.length > 1
        ? ` (+${missing.length - 1} more field(s): ${missing.slice(1, 4).join(", ")})`
        : "";
      return `${where}: ${fieldChange(row, f)} (no condition lists field ${f})${more}`;
    }
  }
  return null;
}

function fieldChange(row: RowDiff, f: string): string {
  if (row.op === "insert") return `${f} = ${quote(row.after?.[f], 30)}`;
  return `${f} ${quote(row.before?.[f], 30)} → ${quote(row.after?.[f], 30)}`;
}

function describeRowDiff(row: RowDiff): string {
  if (row.op === "delete") return "row deleted";
  return row.fields.slice(0, 2).map((f) => fieldChange(row, f)).join(", ") || "changed";
}

/** True when `c` has a condition of kind `name` anywhere (negated or not). */
function mentions(c: Condition, name: string): boolean {
  if (Array.isArray(c)) return c.some((x) => mentions(x, name));
  if ("all" in c) return c.all.some((x) => mentions(x, name));
  if ("any" in c) return c.any.some((x) => mentions(x, name));
  if ("not" in c) return mentions(c.not, name);
  return name in c;
}

const at = (path: string, step: string) => path ? `${path}.${step}` : step;
const pre = (path: string) => path ? `${path} ` : "";

/** The failure of `c` prefixed by its path, or null when it passes. */
function evaluate(c: Condition, ctx: Ctx, path: string): Failure | null {
  if (Array.isArray(c)) return evaluateAll(c, ctx, path);
  if ("all" in c) return evaluateAll(c.all, ctx, path);
  if ("any" in c) {
    let first: Failure | null = null;
    const marks = mark(ctx);
    for (let i = 0; i < c.any.length; i++) {
      const f = evaluate(c.any[i], ctx, at(path, `any[${i}]`));
      if (f === null) return null;
      rewind(ctx, marks); // a failing branch accounts for nothing
      first ??= f;
    }
    return fail(first!.code, `${pre(path)}any: none of ${c.any.length} passed; ${first!.text}`);
  }
  if ("not" in c) {
    const marks = mark(ctx);
    const f = evaluate(c.not, ctx, at(path, "not"));
    rewind(ctx, marks); // what must not happen accounts for nothing
    return f === null ? fail("forbidden", `${pre(path)}not: ${labelOf(c.not)} passed`) : null;
  }
  const why = leafFailure(c, ctx);
  return why === null ? null : fail(why.code, `${pre(path)}${labelOf(c)}: ${why.text}`);
}

const mark = (ctx: Ctx) => [ctx.claims.length, ctx.requests.length, ctx.undecided.length] as const;

function rewind(ctx: Ctx, [claims, requests, undecided]: readonly number[]): void {
  ctx.claims.length = claims;
  ctx.requests.length = requests;
  ctx.undecided.length = undecided;
}

function evaluateAll(cs: readonly Condition[], ctx: Ctx, path: string): Failure | null {
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

function leafFailure(c: Leaf, ctx: Ctx): Failure | null {
  const ev = ctx.ev;
  const as = (code: ReasonCode, why: string | null) => why === null ? null : fail(code, why);
  if ("request" in c) {
    const tests = requestTests(c.request, ev);
    const why = patternFailure("request", ev.log, tests, c.times);
    if (why === null) {
      ctx.requests.push({
        pattern: c.request,
        entries: ev.log.filter((e) => tests.every((t) => t.pass(e))),
      });
    }
    return as("request_missing", why);
  }
  if ("change" in c) {
    const why = changeFailure(c.change, c.times, c.ever === true, ctx);
    if (why === null) return null;
    return fail(
      repeatedAct(c.change, c.times ?? 1, c.ever === true, ctx) ? "irreversible_extra" : "field_mismatch",
      why,
    );
  }
  if ("page" in c) return as("final_page", pageFailure(c.page, ctx));
  if ("logged_in" in c) {
    const now = ev.final?.logged_in;
    if (now === undefined || now === null) {
      return fail("login_state", "the evidence has no login state (saved before end-state grading)");
    }
    return now === c.logged_in ? null : fail("login_state", `${now ? "signed in" : "signed out"} at the end`);
  }
  if ("event" in c) return as("method_missing", patternFailure("event", ev.events, fieldTests(c.event), c.times));
  if ("record" in c) return recordFailure(c, ctx);
  if ("clipboard" in c) return as("clipboard_mismatch", clipboardFailure(c.clipboard, c.times, c.ever === true, ev));
  if ("visited" in c) {
    const test = visitTest(c.visited, ev.base, ev.rules);
    return as("not_visited", patternFailure("page visit", visits(ctx), [test], c.times));
  }
  if ("answer" in c) return answerFailure(c.answer, c.seen ?? true, ctx, c.others);
  const diff: readonly ChangeEntry[] = diffOf(ctx);
  if ("only_writes" in c) return as("unclaimed_write", onlyWritesFailure(c.only_writes, diff));
  if (diff.length === 0) return null; // no_writes
  const shown = diff.slice(0, 3).map(describeChange).join(", ");
  return fail("unclaimed_write", `${diff.length} changed row(s): ${shown}${diff.length > 3 ? ", ..." : ""}`);
}

function clipboardFailure(m: Matcher, times: number | undefined, ever: boolean, ev: Evidence): string | null {
  const test = [matcherTest("text", m, (t: string) => t)];
  if (ever || times !== undefined) return patternFailure("clipboard write", ev.clip, test, times);
  // The clipboard's content at the end: its last write.
  if (ev.clip.length === 0) return `the clipboard is empty at the end; wanted ${describeMatcher(m)}`;
  const last = ev.clip[ev.clip.length - 1];
  return testMatcher(m, last) ? null : `final clipboard ${quote(last, 60)} does not match ${describeMatcher(m)}`;
}

function recordFailure(c: Extract<Leaf, { record: unknown }>, ctx: Ctx): Failure | null {
  const tests = recordTests(c.record);
  const why = patternFailure("recorder event", ctx.ev.record, tests, c.times);
  if (why !== null) return fail("method_missing", why);
  if (c.bound === undefined && c.opened === undefined) return null;
  const hits = ctx.ev.record.filter((e) => tests.every((t) => t.pass(e)));
  const unbound = (c.bound === undefined ? null : bindingFailure(c.bound, hits, ctx.ev)) ??
    (c.opened === undefined ? null : openedFailure(c.opened, hits, ctx.ev));
  return unbound === null ? null : fail("method_unbound", unbound);
}

/**
 * Why none of `hits` opened a page matching `o` (null: one did): the page's load must follow a page of the site
 * (not a typed URL), a matching event must be the last user action before it (by the pages' clock), and with `tab`,
 * the load must (new) or must not (same) have begun its tab (docs/grading.md, "Method binding").
 */
function openedFailure(o: OpenedPage, hits: readonly RecordEntry[], ev: Evidence): string | null {
  const want = `a page matching ${o.path === undefined ? "any path" : describeMatcher(o.path)}`;
  const loads = ev.record.filter((e) => {
    if (e.type !== "observation" || e.kind !== "page_load" || typeof e.url !== "string") return false;
    const page = finalPage(e.url, ev.base, ev.rules);
    return page !== null &&
      pageMismatch({ path: o.path, query: o.query }, page, ev.rules?.[page.site]?.caselessQuery ?? [], ev.rules) ===
        null;
  });
  if (loads.length === 0) return `${hits.length} matching event(s), but ${want} was never loaded`;
  const mine = actions(ev.record).filter((e) => e.action !== "scroll");
  let why: string | undefined;
  for (const load of loads) {
    const url = quote(String(load.url).replace(ev.base, ""), 60);
    if (load.referrer === "") why ??= `${url} was reached by a typed URL`;
    else if (o.tab === "new" && load.history !== 1) why ??= `${url} was opened in the same tab, not a new one`;
    else if (o.tab === "same" && load.history === 1) why ??= `${url} was opened in a new tab, not the same one`;
    else {
      const last = mine.filter((e) => pageTime(e) <= pageTime(load))
        .reduce<RecordEntry | undefined>((a, e) => !a || pageTime(e) >= pageTime(a) ? e : a, undefined);
      if (last && hits.includes(last)) return null;
      why ??= `${url} was opened by another action (${last ? `${last.action} ${quote(last.target, 40)}` : "none"})`;
    }
  }
  return `${hits.length} matching event(s), but ${why}`;
}

const actions = (record: readonly RecordEntry[]) => record.filter((e) => e.type === "action");
const pageTime = (e: RecordEntry) => typeof e.t === "number" ? e.t : -1;

/**
 * Why none of `hits` (the recorder events a method condition matched) produced the outcome its binding names, or
 * null when one did (docs/grading.md, "Method binding").
 */
function bindingFailure(bound: Binding, hits: readonly RecordEntry[], ev: Evidence): string | null {
  const n = hits.length;
  if (bound === "clipboard") {
    const last = ev.clipboard?.at(-1);
    if (!ev.clipboard || ev.clipboard.length !== ev.clip.length) {
      return "the evidence has no clipboard entries with their causes (saved before method binding)";
    }
    if (!last) return `${n} matching event(s), but nothing was copied`;
    const ids = new Set(hits.map((e) => e.id));
    if (last.cause !== undefined && ids.has(last.cause)) return null;
    return `${n} matching event(s), but the clipboard's final content ${quote(last.text, 40)} was written ` +
      (last.cause ? `in answer to another action (${quote(causeTarget(ev, last.cause), 40)})` : "by no click or key");
  }
  if (bound === "page") {
    const url = ev.final?.url;
    if (!url) return "the evidence has no final page (saved before end-state grading)";
    const final = finalPage(url, ev.base, ev.rules);
    // The last load of the final page, and the last user action before it (by the pages' clock).
    const loads = ev.record.filter((e) =>
      e.type === "observation" && e.kind === "page_load" && typeof e.url === "string" &&
      finalPage(e.url, ev.base, ev.rules)?.url === final?.url
    );
    const load = loads.at(-1);
    if (!load) return `the final page ${quote(final?.url ?? url, 60)} was never loaded by a page the recorder saw`;
    // Loaded with no referrer: typed into the address bar (or opened from nowhere), so no click of the page led there.
    if (load.referrer === "") {
      return `${n} matching event(s), but the final page ${quote(final?.url ?? url, 60)} was reached by a typed URL`;
    }
    const before = actions(ev.record).filter((e) => pageTime(e) <= pageTime(load) && e.action !== "scroll");
    const last = before.reduce<RecordEntry | undefined>((a, e) => !a || pageTime(e) >= pageTime(a) ? e : a, undefined);
    if (last && hits.includes(last)) return null;
    return `${n} matching event(s), but the final page ${quote(final?.url ?? url, 60)} was reached ` +
      (last ? `after another action (${last.action} ${quote(last.target, 40)})` : "without a user action (typed)");
  }
  // last: the event is its control's last of its action (the control without its text, which for a field is its
  // current value: a slider at 100 and then at 110 is one control).
  const mine = actions(ev.record);
  for (const h of hits) {
    const control = controlOf(h.target);
    const later = mine.filter((e) =>
      e.action === h.action && controlOf(e.target) === control && pageTime(e) > pageTime(h)
    );
    if (later.length === 0) return null;
  }
  const h = hits.at(-1)!;
  return `${n} matching event(s), but the control's last ${h.action} was another value`;
}

/** A recorder target without its quoted text: `input#max-price[name=max_price]`. */
const controlOf = (target: unknown) => String(target ?? "").replace(/\s+".*"$/s, "");

function causeTarget(ev: Evidence, id: string): string {
  const e = ev.record.find((x) => x.id === id);
  return e ? `${e.action} ${e.target}` : id;
}

/**
 * A change condition over the episode's net change per row (the end state against the start), exactly `times`
 * rows (default 1); with `ever`, over every single write as it happened. Its matching rows are claimed, with the
 * fields it lists.
 */
function changeFailure(p: ChangePattern, times: number | undefined, ever: boolean, ctx: Ctx): string | null {
  const tests = changeTests(verbatimAfter(p, ctx.instruction), ctx.ev);
  const fields = [...Object.keys(p.after ?? {}), ...Object.keys(p.before ?? {})];
  const diff = diffOf(ctx);
  if (ever) {
    const why = patternFailure("change", ctx.ev.changes, tests, times);
    if (why !== null) return why;
    const hit = new Set(ctx.ev.changes.filter((e) => tests.every((t) => t.pass(e))).map(rowKey));
    for (const row of diff) if (hit.has(rowKey(row))) ctx.claims.push({ row, fields });
    return null;
  }
  const why = patternFailure<ChangeEntry>("changed row", diff, tests, times ?? 1);
  if (why !== null) return why;
  for (const row of diff) if (tests.every((t) => t.pass(row))) ctx.claims.push({ row, fields });
  return null;
}

/**
 * `p` with each written text (`after`'s `text` or `norm` matcher) the instruction asks for exactly compared verbatim:
 * case and punctuation, the final full stop included (free_text.ts `askedVerbatim`).
 */
function verbatimAfter(p: ChangePattern, instruction: string | undefined): ChangePattern {
  if (!p.after || !instruction) return p;
  let after: ChangePattern["after"] | undefined;
  for (const [f, m] of Object.entries(p.after)) {
    const text = typeof m === "object" && ("text" in m ? m.text : "norm" in m ? m.norm : undefined);
    if (typeof text !== "string" || !askedVerbatim(instruction, text)) continue;
    after ??= { ...p.after };
    after[f] = { text, verbatim: true };
  }
  return after ? { ...p, after } : p;
}

/** A final page: the current tab's (or, with tab "any", some tab's) path and whole query. */
function pageFailure(p: PagePattern, ctx: Ctx): string | null {
  const f = ctx.ev.final;
  if (!f) return "the evidence has no final pages (saved before end-state grading)";
  const urls = p.tab === "any" ? f.urls : [f.url];
  let first: string | null = null;
  for (const url of urls) {
    const page = finalPage(url, ctx.ev.base, ctx.ev.rules);
    const why = page
      ? pageMismatch(p, page, ctx.ev.rules?.[page.site]?.caselessQuery ?? [], ctx.ev.rules)
      : "off the site";
    if (why === null) return null;
    first ??= `final page ${quote(page?.url ?? url, 80)}: ${why}`;
  }
  return first ?? "no tab is open at the end";
}

/** A bare string or number in a page pattern is exact (caseless for the keys the app reads ignoring case). */
function pageMatcher(m: Matcher, caseless: boolean): Matcher {
  if (typeof m === "number") return { exact: String(m) };
  if (typeof m === "string") return caseless ? { norm: m } : { exact: m };
  if (caseless && typeof m === "object" && "exact" in m) return { norm: m.exact };
  return m;
}

function pageMismatch(
  p: PagePattern,
  page: FinalPage,
  caseless: readonly string[],
  rules?: Readonly<Record<string, AppRules>>,
): string | null {
  if (p.path !== undefined) {
    const m = typeof p.path === "string" && p.path.length > 1 ? p.path.replace(/\/+$/, "") : p.path;
    const exact = pageMatcher(m, false);
    const ok = testMatcher(exact, page.path) ||
      (caselessPath(page.path, rules) && testMatcher(caselessOf(exact), page.path));
    if (!ok) return `path does not match ${describeMatcher(p.path)}`;
  }
  return p.query === undefined ? null : queryMismatch(p.query, page.query, caseless);
}

/**
 * The whole query against what a pattern lists: every key that counts (see finalPage) must be listed, every
 * listed key present, each value matched (a list: that many values, in any order).
 */
function queryMismatch(
  want: QueryMatchers,
  query: ReadonlyMap<string, string[]>,
  caseless: readonly string[],
): string | null {
  for (const [k, values] of query) {
    if (!Object.hasOwn(want, k)) return `query ${k}=${quote(values.join(","), 30)} was not asked for`;
  }
  for (const [k, m] of Object.entries(want)) {
    const values = query.get(k);
    if (!values) return `query ${k} is missing (wanted ${describeMatcher(Array.isArray(m) ? m[0] : m)})`;
    const wanted = (Array.isArray(m) ? m : [m]).map((x) => pageMatcher(x, caseless.includes(k)));
    if (values.length !== wanted.length) {
      return `query ${k} has ${values.length} value(s) ${quote(values.join(","), 40)}, wanted ${wanted.length}`;
    }
    const left = [...values];
    for (const w of wanted) {
      const i = left.findIndex((v) => testMatcher(w, v));
      if (i < 0) return `query ${k} ${quote(values.join(","), 40)} does not match ${describeMatcher(w)}`;
      left.splice(i, 1);
    }
  }
  return null;
}

/** A logged request's query as finalPage reads a URL's: the keys that count under its app's rules. */
function loggedQuery(e: LogEntry, ev: Evidence): Map<string, string[]> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(e.query ?? {})) {
    for (const x of Array.isArray(v) ? v : [v]) params.append(k, String(x));
  }
  return sitePage(e.path, params, ev.rules).query;
}

function requestTests(r: RequestPattern, ev: Evidence): FieldTest<LogEntry>[] {
  const tests: FieldTest<LogEntry>[] = [];
  if (r.method !== undefined) tests.push(matcherTest("method", r.method, (e) => e.method));
  if (r.path !== undefined) {
    const m = r.path, loose = caselessOf(r.path);
    tests.push({
      label: "path",
      want: describeMatcher(m),
      actual: (e) => e.path,
      pass: (e) => testMatcher(m, e.path) || (caselessPath(e.path, ev.rules) && testMatcher(loose, e.path)),
    });
  }
  if (r.query !== undefined) {
    // The whole query: a key nobody listed fails as a wrong value does.
    const want = r.query;
    const caseless = (e: LogEntry) => ev.rules?.[e.path.split("/")[1] ?? ""]?.caselessQuery ?? [];
    tests.push({
      label: "query",
      want: JSON.stringify(want),
      actual: (e) => queryMismatch(want, loggedQuery(e, ev), caseless(e)) ?? "matches",
      pass: (e) => queryMismatch(want, loggedQuery(e, ev), caseless(e)) === null,
    });
  }
  for (const [k, m] of Object.entries(r.body ?? {})) tests.push(matcherTest(`body.${k}`, m, (e) => e.body?.[k]));
  if (r.status !== undefined) tests.push(matcherTest("status", r.status, (e) => e.status));
  else tests.push({ label: "status", want: "< 400", actual: (e) => e.status, pass: (e) => e.status < 400 });
  return tests;
}

function changeTests(p: ChangePattern, ev?: Evidence): FieldTest<ChangeEntry>[] {
  const tests: FieldTest<ChangeEntry>[] = [];
  if (p.site !== undefined) tests.push(equalTest("site", p.site, (e) => e.site));
  if (p.table !== undefined) tests.push(equalTest("table", p.table, (e) => e.table));
  if (p.op !== undefined) tests.push(equalTest("op", p.op, (e) => e.op));
  if (p.key !== undefined) tests.push(matcherTest("key", p.key, (e) => e.key));
  for (const [f, m] of Object.entries(p.before ?? {})) tests.push(rowFieldTest(`before.${f}`, f, m, (e) => e.before));
  for (const [f, m] of Object.entries(p.after ?? {})) {
    const free = ev && typeof m === "object" && "text" in m;
    tests.push(rowFieldTest(`after.${f}`, f, m, free ? (e) => withoutAdditions(e, f, ev) : (e) => e.after));
  }
  return tests;
}

/**
 * A row's after image with the app's own additions to free-text field `f` stripped (free_text.ts): a `text`
 * matcher then compares what the user wrote, all of it.
 */
function withoutAdditions(e: ChangeEntry, f: string, ev: Evidence): Record<string, unknown> | null {
  const after = e.after;
  const additions = additionsOf(ev.rules, e.site, e.table, f);
  if (!after || !additions || typeof after[f] !== "string") return after;
  // The row's last write: the time its additions (the signature then) were made.
  let seq: number | undefined;
  for (const c of ev.changes) if (c.site === e.site && c.table === e.table && rowKey(c) === rowKey(e)) seq = c.seq;
  return { ...after, [f]: stripAdditions(after[f] as string, additions, ev.changes, seq) };
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
function visitTest(m: Matcher, base: string, rules?: Readonly<Record<string, AppRules>>): FieldTest<string> {
  const origin = base.replace(/\/+$/, "");
  const full = JSON.stringify(m).includes("://");
  const relative = full ? pathMatcher(m, origin) : m;
  const exact = relative !== undefined
    ? (u: string) => testMatcher(relative, u)
    : (u: string) => testMatcher(m, u) || testMatcher(m, origin + u);
  // A path the app reads ignoring case (an issue key typed in lower case) is the same page.
  const loose = relative === undefined ? undefined : caselessOf(relative);
  return {
    label: "url",
    want: describeMatcher(m),
    actual: (u) => u,
    pass: (u) => exact(u) || (loose !== undefined && caselessPath(u.split("?")[0], rules) && testMatcher(loose, u)),
  };
}

const caseless = new WeakMap<object, Matcher>();

/** The matcher a path the app reads ignoring case is compared with: exact becomes norm, a regex gets the i flag. */
function caselessOf(m: Matcher): Matcher {
  if (typeof m !== "object") return m;
  let c = caseless.get(m);
  if (c) return c;
  if ("exact" in m) c = { norm: m.exact };
  else if ("regex" in m) c = (m.flags ?? "").includes("i") ? m : { regex: m.regex, flags: `${m.flags ?? ""}i` };
  else if ("one_of" in m) c = { one_of: m.one_of.map(caselessOf) };
  else c = m;
  caseless.set(m, c);
  return c;
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

/**
 * The answer under the strict rules (answer.ts: every word accounted for, one value of the asked type), then seen
 * support. An answer the rules cannot decide is recorded as undecided and passes here, so that every other rule
 * still runs: gate() then returns it for the judge.
 */
function answerFailure(m: Matcher, seen: boolean | SeenPage, ctx: Ctx, others?: readonly string[]): Failure | null {
  const answer = ctx.ev.answer;
  if (answer === null || answer === undefined) {
    return fail("answer_missing", "no answer (the episode did not end with done)");
  }
  if (answer.trim() === "") return fail("answer_missing", "the answer is empty");
  const d = decideStrictAnswer(m, answer, { others, instruction: ctx.instruction, shown: ctx.ev.seen });
  if (d.ok === false) return fail("answer_wrong", d.why);
  if (seen === true) {
    ctx.seen ??= prepareSeen(ctx.ev.seen);
    if (!answerSeen(m, answer, ctx.seen)) {
      return fail("not_seen", `${quote(answer, 80)} matches but was not seen on any screen`);
    }
  } else if (seen !== false) {
    const why = seenOnPage(m, answer, seen, ctx.ev);
    if (why !== null) return fail("not_seen", why);
  }
  if (d.ok === null) ctx.undecided.push({ answer, expected: describeMatcher(m), why: d.why });
  return null;
}

/** Null when the answer is supported by a screen the agent saw on `page`, else why not. */
function seenOnPage(m: Matcher, answer: string, page: SeenPage, ev: Evidence): string | null {
  const want = describeMatcher(page.path) + (page.query ? `?${JSON.stringify(page.query)}` : "");
  const urls = ev.seen_urls;
  if (!urls || urls.length !== ev.seen.length) {
    return `the evidence does not say which page each screen was on (saved before seen_urls), so ${want} cannot be told`;
  }
  const texts = ev.seen.filter((_, i) => {
    const p = finalPage(urls[i], ev.base, ev.rules);
    if (!p || !testMatcher(pageMatcher(page.path, false), p.path)) return false;
    return Object.entries(page.query ?? {}).every(([k, q]) => (p.query.get(k) ?? []).some((v) => testMatcher(q, v)));
  });
  if (texts.length === 0) return `${quote(answer, 80)}: the agent never saw the page that shows it (${want})`;
  return answerSeen(m, answer, prepareSeen(texts))
    ? null
    : `${quote(answer, 80)} matches but was not seen on the page that shows it (${want})`;
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
