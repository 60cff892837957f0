/**
 * Grading a human episode (the seed's grade_human): each macro's check over the trajectory (lib/grading's
 * conditions), then each answer through the QA tier chain; the LLM tier only for what the rule tiers leave open.
 * Without an LLM tier, such a grade is pending (regrade with one decides it), never a verdict.
 */
import { conditionClaims, DETAIL_MAX, type RequestClaim, unclaimedWrite } from "./gate.ts";
import type {
  AnswerSpec,
  AppRules,
  ChangeEntry,
  ClipEntry,
  Condition,
  Evidence,
  ExpectedRow,
  FinalState,
  HumanVerifier,
  LogEntry,
  Matcher,
  ReasonCode,
  RequestPattern,
} from "../protocol/mod.ts";
import {
  causeOf,
  explicitBookkeeping,
  irreversibleActs,
  isWrite,
  netDiff,
  type RowDiff,
  rowKey,
  sitePage,
} from "./state.ts";
import { fail, type Failure } from "./reasons.ts";
import { describeError } from "../errors/mod.ts";
import { decideAnswer, type QaTier } from "./qa.ts";
import { additionsOf, askedVerbatim, sameFreeText, stripAdditions, verbatimForm } from "./free_text.ts";

import { type TrajectoryEvent, trajectoryEvidence } from "./trajectory.ts";

/** A free-text answer to check against the reference (the LLM tier's question). */
export interface AnswerQuestion {
  /** The task instruction (the question the agent answered). */
  question: string;
  /** The reference answer. */
  expected: string;
  /** The agent's answer. */
  answer: string;
  /** The verifier's guidance, when it gives some. */
  rubric?: string;
}

/** A judge's decision and its one-sentence reason. */
export interface JudgeVerdict {
  /** The judge accepts. */
  ok: boolean;
  /** Why, in one sentence. */
  reason: string;
}

/** The LLM tier of the QA chain (lib/llm's OpenAiJudge is one). */
export interface AnswerJudge {
  /** Whether a free-text answer says what the reference says. */
  judgeAnswer(q: AnswerQuestion, options?: { signal?: AbortSignal }): Promise<JudgeVerdict>;
}

/** What a human verifier grades: the task's instruction, its macro labels in order, and its verifier. */
export interface VerifiedTask {
  /** The instruction (the question an answer is judged against). */
  instruction: string;
  /** The task's macro labels, in order. */
  macros: readonly string[];
  /** The task's verifier.json. */
  verifier: HumanVerifier;
}

/** One macro's grade: null `ok` when it was not decided (an earlier failure, or no LLM tier). */
export interface MacroGrade {
  /** Passed, failed, or null when not decided. */
  ok: boolean | null;
  /** Why: the failing condition, or the answer tier's reason ("" for a passing check). */
  detail: string;
  /** The tier that decided its answer. */
  tier?: QaTier;
}

/** A human episode's grade; `gradeError` when it needs the LLM tier and none answered (regrade later). */
export interface HumanGrade {
  /** Every macro passed, and the end-state rules hold. */
  ok: boolean;
  /** "" when ok; else the first failing macro and why (at most 300 characters). */
  detail: string;
  /** The failing rule's code (absent when ok). */
  reason?: ReasonCode;
  /** The grade is not a verdict: the LLM tier failed (regrade completes it). */
  gradeError?: boolean;
  /** The grade is not a verdict yet: an answer needs the LLM tier and none is set (regrade with one decides it). */
  pending?: boolean;
  /** Per macro label, its grade, for the macros graded so far (no answer is graded once a check failed). */
  macros: Record<string, MacroGrade>;
}

/** What the end-state rules of a human grade read besides the trajectory (grade_inputs.json's fields). */
export interface HumanEndState {
  /** Every data change of the session, with its seq. */
  changes: readonly ChangeEntry[];
  /** Each app's rules. */
  rules?: Record<string, AppRules>;
  /** The final pages and login state. */
  final?: FinalState;
  /** The clipboard's writes, in the order the pages made them (a macro's `clipboard` condition reads them). */
  clip?: readonly string[];
  /** The same writes as entries, with the action each answered (a method bound to the clipboard reads them). */
  clipboard?: readonly ClipEntry[];
}

/** How gradeHuman grades, besides the task, the trajectory and the answer. */
export interface GradeHumanOptions {
  /** The LLM tier; without it a grade that needs it is a grade error. */
  qa?: AnswerJudge;
  /** Passed to the LLM tier; a call it aborts is thrown, not recorded as a grade error. */
  signal?: AbortSignal;
  /** With it, the end-state rules apply: every write claimed by a macro's request, none undone, one booking. */
  state?: HumanEndState;
}

/** The positive request conditions of a check (not under `not` or `any`), which bind to one request. */
function requestLeaves(c: Condition, out: RequestPattern[] = []): RequestPattern[] {
  if (Array.isArray(c)) c.forEach((x) => requestLeaves(x, out));
  else if ("all" in c) c.all.forEach((x) => requestLeaves(x, out));
  else if ("request" in c && c.times === undefined) out.push(c.request);
  return out;
}

const endpoint = (r: RequestPattern) => JSON.stringify([r.method ?? null, r.path ?? null]);

/** A macro's passing request condition and the requests it matched. */
interface ConditionClaim {
  label: string;
  claim: RequestClaim;
}

/**
 * Conditions of different macros on one endpoint (the same method and path) describe one request: the room, the
 * time and the size of one booking. Why no single request satisfies all of them, or null. Once every check passed,
 * each such condition has its claim: the requests it matched.
 */
function bindingFailure(
  task: VerifiedTask,
  labels: readonly string[],
  perCondition: readonly ConditionClaim[],
): string | null {
  const matched = new Map<RequestPattern, Set<LogEntry>>(
    perCondition.map(({ claim }) => [claim.pattern, new Set(claim.entries)]),
  );
  const groups = new Map<string, { label: string; pattern: RequestPattern }[]>();
  for (const label of labels) {
    const check = task.verifier.macros[label].check;
    if (!check) continue;
    for (const pattern of requestLeaves(check)) {
      const k = endpoint(pattern);
      groups.set(k, [...(groups.get(k) ?? []), { label, pattern }]);
    }
  }
  for (const group of groups.values()) {
    if (new Set(group.map((g) => g.label)).size < 2) continue;
    const sets = group.map((g) => matched.get(g.pattern)!);
    if (![...sets[0]].some((e) => sets.every((s) => s.has(e)))) {
      const p = group[0].pattern;
      const what = [p.method, p.path].map((m) => m === undefined ? "" : JSON.stringify(m)).join(" ").trim();
      return `${group.map((g) => g.label).join(" + ")}: no single request ${what} satisfies all of them ` +
        "(their conditions describe one request)";
    }
  }
  return null;
}

/** A URL's or a path's page on the site (null for what is neither). */
function pageOf(url: string, rules: Record<string, AppRules>) {
  try {
    const u = new URL(url, "http://site.invalid");
    return sitePage(u.pathname, u.searchParams, rules);
  } catch {
    return null;
  }
}

/** `bookings.bookings insert`, `mail.messages update key 24`: a row as an end-state failure names it. */
const rowName = (row: RowDiff) =>
  `${row.site}.${row.table} ${row.op}${row.op === "insert" ? "" : ` key ${JSON.stringify(row.key)}`}`;

/** A free-text field the author declared free and no macro accounts for in full: the judge's to read. */
interface FreeText {
  /** `table.field`. */
  field: string;
  /** What the episode wrote, the app's additions stripped. */
  value: string;
  /** What the reference wrote, the same way. */
  reference: string;
}

/**
 * Whether a row's value is the reference's: strings up to white space, case and a final full stop, once the app's
 * own additions (a signature, a quoted reply: free_text.ts) are stripped from both; a text the instruction asks for
 * exactly, verbatim (case and punctuation); anything else exactly.
 */
function sameValue(want: unknown, value: unknown, strip: (text: string) => string, instruction: string): boolean {
  if (typeof want === "string" && typeof value === "string") {
    const w = strip(want), v = strip(value);
    return askedVerbatim(instruction, w) ? verbatimForm(v) === verbatimForm(w) : sameFreeText(v, w);
  }
  return JSON.stringify(want ?? null) === JSON.stringify(value ?? null);
}

/**
 * Whether a matcher accounts for a whole value (exact, norm, text, a number, a date, a regex anchored at both ends):
 * a field a macro names with `contains` or a loose regex is not accounted for by it, and must match the reference.
 */
function wholeMatcher(m: Matcher): boolean {
  if (typeof m === "string" || typeof m === "number") return true;
  if ("exact" in m || "norm" in m || "text" in m || "number" in m || "date" in m) return true;
  if ("one_of" in m) return m.one_of.every(wholeMatcher);
  if ("regex" in m) return m.regex.startsWith("^") && m.regex.endsWith("$") && !/\[sS]\*|\.\*/.test(m.regex);
  return false;
}
const isEmpty = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");

/**
 * The episode's net change against the reference's end state: every changed row is one of the reference's rows
 * (same table and operation, the same key for an update or delete; each reference row taken once), changes only
 * fields the reference changed, and has the reference's value of every field (strings compared up to white space
 * and case), but for the fields a macro's condition on the request that wrote the row names (`named`) and those the
 * author declared free text (`free`): those are the macros' to judge. Nothing is free by default.
 */
function endStateMismatch(
  diff: readonly RowDiff[],
  expected: readonly ExpectedRow[],
  named: (row: RowDiff) => ReadonlySet<string>,
  free: ReadonlySet<string>,
  strip: (row: RowDiff, field: string, text: string) => string,
  undecided: FreeText[],
  instruction: string,
): Failure | null {
  const left = [...expected];
  const pairs: [RowDiff, ExpectedRow][] = [];
  // First every row and field the reference does not change at all (an extra row explains a wrong total), then the
  // values of the fields it does.
  for (const row of diff) {
    const where = rowName(row);
    const i = left.findIndex((e) =>
      e.site === row.site && e.table === row.table && e.op === row.op &&
      (row.op === "insert" || JSON.stringify(e.key) === JSON.stringify(row.key))
    );
    if (i < 0) return fail("unclaimed_write", `unexpected write ${where}: the reference makes no such change`);
    const [want] = left.splice(i, 1);
    pairs.push([row, want]);
    for (const f of row.fields) {
      const v = row.after?.[f];
      if (Object.hasOwn(want.fields, f) || (row.op === "insert" && isEmpty(v))) continue;
      return fail(
        "unclaimed_write",
        `unclaimed field ${where}: ${f} = ${JSON.stringify(v)} (the reference does not change it)`,
      );
    }
  }
  for (const [row, want] of pairs) {
    const where = rowName(row);
    for (const f of row.fields) {
      if (!Object.hasOwn(want.fields, f)) continue;
      const v = row.after?.[f], w = want.fields[f];
      if (sameValue(w, v, (t) => strip(row, f, t), instruction) || named(row).has(f)) continue;
      if (free.has(`${row.table}.${f}`)) {
        // Free text the author declared and no macro accounts for in full: the judge reads it (or it is pending).
        const text = (x: unknown) => typeof x === "string" ? strip(row, f, x) : JSON.stringify(x ?? null);
        undecided.push({ field: `${row.table}.${f}`, value: text(v), reference: text(w) });
        continue;
      }
      return fail(
        "field_mismatch",
        `field ${where}: ${f} = ${JSON.stringify(v)}, the reference's is ${JSON.stringify(w)} (no macro names ${f})`,
      );
    }
  }
  return null;
}

/**
 * The end-state rules of a human grade, once every macro passed: every row the episode changed was written by a
 * request a macro's condition matched, no such write is undone or changed again by an unclaimed write, and the
 * login state at the end is the start's unless the task signs in.
 */
function humanEndStateFailure(
  task: VerifiedTask,
  perCondition: readonly ConditionClaim[],
  ev: Evidence,
  state: HumanEndState,
  undecided: FreeText[],
): Failure | null {
  const claimed = new Set(perCondition.flatMap(({ claim }) => claim.entries));
  const rules = state.rules ?? {};
  const explicit = explicitBookkeeping(state.changes, ev.log, rules);
  const diff = netDiff(state.changes, rules, explicit);
  // A write that changes only bookkeeping fields as a side effect (or a bookkeeping table) is no write.
  const writes = state.changes.filter((c) => isWrite(c, rules, explicit)).map((c) => ({ c, by: causeOf(c, ev.log) }));
  const writers = new Set(writes.map((x) => x.by).filter((e): e is LogEntry => e !== undefined));
  // One condition, one write: the same request made twice (a second booking, a comment posted twice) is a duplicate.
  for (const { label, claim } of perCondition) {
    const wrote = claim.entries.filter((e) => writers.has(e));
    if (wrote.length > 1) {
      return fail(
        "duplicate",
        `${label}: duplicate: ${wrote.length} requests ${wrote[0].method} ${wrote[0].path} matched its ` +
          "condition and each wrote data; the task asks for one",
      );
    }
  }
  const claimedRows = new Set(writes.filter((x) => x.by && claimed.has(x.by)).map((x) => rowKey(x.c)));
  // An irreversible act (a booking made, a comment posted) stays made: it must be a macro's, even if undone later.
  for (const act of irreversibleActs(state.changes, rules, explicit)) {
    const by = causeOf(act.change, ev.log);
    if (by && claimed.has(by)) continue;
    const gone = act.undone ? " (undone afterwards, but it happened)" : "";
    return fail(
      "irreversible_extra",
      `irreversible ${act.name}: ${act.change.site}.${act.change.table} ${act.change.op} key ` +
        `${JSON.stringify(act.change.key)}${gone}, made by a request no macro asks for`,
    );
  }
  const unclaimed = unclaimedWrite(diff.filter((r) => !claimedRows.has(rowKey(r))), []);
  if (unclaimed) return fail("unclaimed_write", unclaimed);
  const changed = new Set(diff.map(rowKey));
  for (const id of claimedRows) {
    const last = writes.filter((x) => rowKey(x.c) === id).at(-1)!;
    if (last.by && claimed.has(last.by)) continue; // claimed to the end (an order placed deletes its cart line)
    if (!changed.has(id)) {
      return fail("reverted", `reverted: ${id} was written as a macro asked, then undone (no change at the end)`);
    }
    return fail(
      "overwritten",
      `overwritten: ${id} was written as a macro asked, then changed again by a write no macro claims`,
    );
  }
  const expected = task.verifier.end_state;
  if (expected) {
    // The body fields a macro's request condition names, per row that request wrote.
    const namedBy = new Map<string, Set<string>>();
    for (const { c, by } of writes) {
      if (!by) continue;
      for (const { claim } of perCondition) {
        if (!claim.entries.includes(by)) continue;
        const set = namedBy.get(rowKey(c)) ?? new Set<string>();
        for (const [k, m] of Object.entries(claim.pattern.body ?? {})) if (wholeMatcher(m)) set.add(k);
        namedBy.set(rowKey(c), set);
      }
    }
    const none = new Set<string>();
    const strip = (r: RowDiff, f: string, text: string) => {
      const additions = additionsOf(rules, r.site, r.table, f);
      return additions ? stripAdditions(text, additions, state.changes) : text;
    };
    const why = endStateMismatch(
      diff,
      expected,
      (r) => namedBy.get(rowKey(r)) ?? none,
      new Set(task.verifier.free),
      strip,
      undecided,
      task.instruction,
    );
    if (why) return why;
  }
  const f = state.final;
  const page = task.verifier.end_page;
  if (page !== undefined && f) {
    // The episode's own origin does not matter, its page does.
    const at = pageOf(f.url, rules), want = pageOf(page, rules);
    const same = at && want && at.path === want.path &&
      JSON.stringify([...at.query].sort()) === JSON.stringify([...want.query].sort());
    if (!same) {
      return fail(
        "final_page",
        `final page ${JSON.stringify(at?.url ?? f.url)} is not the one the task ends on (${page})`,
      );
    }
  }
  if (f && f.logged_in !== null && f.start_logged_in !== null) {
    const signsIn = task.macros.some((m) => /authenticat|log_?in|sign_?in/.test(m));
    if (signsIn && !f.logged_in) return fail("login_state", "signed out at the end (the task signs in)");
    if (!signsIn && f.logged_in !== f.start_logged_in) {
      return fail(
        "login_state",
        `${f.logged_in ? "signed in" : "signed out"} at the end although the task did not ask for it`,
      );
    }
  }
  return null;
}

const cap = (s: string) => s.length > DETAIL_MAX ? s.slice(0, DETAIL_MAX - 1) + "…" : s;

function failure(macros: Record<string, MacroGrade>, first: Failure): HumanGrade {
  const failed = Object.values(macros).filter((m) => m.ok === false).length;
  const more = failed > 1 ? ` (+${failed - 1} more macro(s) failed)` : "";
  return { ok: false, detail: cap(`${first.text}${more}`), reason: first.code, macros };
}

/**
 * Grades a human episode from its trajectory and final answer (null: the episode did not end with done).
 * Checks come first; a failing check decides without asking the LLM tier. Never throws for a missing or failing
 * LLM tier: the grade then has `gradeError: true`.
 */
export async function gradeHuman(
  task: VerifiedTask,
  trajectory: readonly TrajectoryEvent[],
  answer: string | null,
  options: GradeHumanOptions = {},
): Promise<HumanGrade> {
  const evidence = trajectoryEvidence(trajectory, answer);
  // The clipboard, as datagen checks read it: a macro may ask for what was copied.
  if (options.state?.clip) evidence.clip = [...options.state.clip];
  if (options.state?.clipboard) evidence.clipboard = [...options.state.clipboard];
  // The apps' rules: a path an app reads ignoring case is the same page to a macro's `visited`.
  if (options.state?.rules) evidence.rules = options.state.rules;
  const labels = task.macros.filter((m) => task.verifier.macros[m]).concat(
    Object.keys(task.verifier.macros).filter((m) => !task.macros.includes(m)),
  );
  const macros: Record<string, MacroGrade> = {};
  let first: Failure | undefined;
  const perCondition: ConditionClaim[] = [];
  for (const label of labels) {
    const check = task.verifier.macros[label].check;
    if (check === undefined) continue;
    const g = conditionClaims(check, evidence);
    const detail = g.failure === null ? "" : cap(g.failure.text);
    macros[label] = { ok: g.failure === null, detail };
    for (const claim of g.requests) perCondition.push({ label, claim });
    if (g.failure !== null) first ??= fail(g.failure.code, `${label}: ${detail}`);
  }
  if (first) return failure(macros, first);
  const state = options.state;
  const freeTexts: FreeText[] = [];
  if (state) {
    const bound = bindingFailure(task, labels, perCondition);
    const why = bound !== null
      ? fail("binding", bound)
      : humanEndStateFailure(task, perCondition, evidence, state, freeTexts);
    if (why) return { ok: false, detail: cap(why.text), reason: why.code, macros };
  }

  const open: [string, AnswerSpec][] = [];
  for (const label of labels) {
    const spec = task.verifier.macros[label].answer;
    if (spec === undefined) continue;
    const d = decideAnswer(spec, answer, task.instruction);
    if (d.ok === null) {
      open.push([label, spec]);
      macros[label] = { ok: null, detail: d.reason, tier: d.tier };
      continue;
    }
    macros[label] = { ok: d.ok && (macros[label]?.ok ?? true), detail: d.reason, tier: d.tier };
    if (!d.ok) {
      const code = answer === null || answer.trim() === "" ? "answer_missing" : "answer_wrong";
      first ??= fail(code, `${label}: answer ${d.reason} (${d.tier} tier)`);
    }
  }
  if (first) return failure(macros, first);
  if (open.length === 0 && freeTexts.length === 0) return { ok: true, detail: "", macros };

  if (!options.qa) {
    if (open.length === 0) {
      const f = freeTexts[0];
      return {
        ok: false,
        detail: cap(
          `pending: ${f.field} ${JSON.stringify(f.value.slice(0, 80))} is free text no macro accounts for in full; ` +
            "the judge decides (WEBMIX_JUDGE_BASE_URL), regrade with one",
        ),
        reason: "text_unaccounted",
        pending: true,
        macros,
      };
    }
    const which = open.map(([l]) => l).join(", ");
    return {
      ok: false,
      detail: cap(
        `pending: the answer of ${which} needs the LLM tier and no judge endpoint is set ` +
          `(WEBMIX_JUDGE_BASE_URL); regrade with one decides it`,
      ),
      reason: "answer_unaccounted",
      pending: true,
      macros,
    };
  }
  for (const [label, spec] of open) {
    try {
      const v = await options.qa.judgeAnswer(
        { question: task.instruction, expected: spec.expected, answer: answer!, rubric: spec.rubric },
        { signal: options.signal },
      );
      macros[label] = { ok: v.ok, detail: v.reason, tier: "llm" };
      if (!v.ok) {
        first ??= fail(
          "judge_rejected",
          `${label}: answer ${JSON.stringify(answer!.slice(0, 80))} rejected (llm tier): ${v.reason}`,
        );
      }
    } catch (err) {
      if (options.signal?.aborted) throw err;
      return {
        ok: false,
        detail: cap(`grade error: the LLM tier failed for ${label}: ${describeError(err)}`),
        gradeError: true,
        macros,
      };
    }
  }
  for (const f of freeTexts) {
    try {
      const v = await options.qa.judgeAnswer({
        question: task.instruction,
        expected: f.reference,
        answer: f.value,
        rubric: `This is the text the agent wrote in ${f.field}, not an answer. It passes when it says what the task ` +
          "asks of that text (the expected text is one way to say it) and nothing that contradicts or takes it back.",
      }, { signal: options.signal });
      if (!v.ok) {
        first ??= fail(
          "judge_rejected",
          `${f.field} ${JSON.stringify(f.value.slice(0, 80))} rejected (llm tier): ${v.reason}`,
        );
      }
    } catch (err) {
      if (options.signal?.aborted) throw err;
      return {
        ok: false,
        detail: cap(`grade error: the LLM tier failed for ${f.field}: ${describeError(err)}`),
        gradeError: true,
        macros,
      };
    }
  }
  return first ? failure(macros, first) : { ok: true, detail: "", macros };
}
