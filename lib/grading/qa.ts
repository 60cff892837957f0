/**
 * The QA tier chain of a human verifier's answer check: regex, exact, precise (number, date) decide what they
 * can; an answer none of them decides goes to the LLM tier. Pure: the LLM tier is the caller's.
 */
import { type AnswerDecision, decideStrictAnswer } from "./answer.ts";
import { describeMatcher } from "./matcher.ts";
import type { AnswerSpec, Matcher } from "../protocol/mod.ts";
import { normaliseText } from "./text.ts";

/** The tier that decided an answer; "none" when no tier did (no answer, or none accepts it and the LLM tier is off). */
export type QaTier = "regex" | "exact" | "number" | "date" | "llm" | "none";

/** What the rule tiers made of an answer: passed, failed, or undecided (null: the LLM tier's turn). */
interface QaDecision {
  ok: boolean | null;
  tier: QaTier;
  reason: string;
}

const quote = (s: string, max = 80) => JSON.stringify(s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A spec's tier matchers, built once per spec (so their compiled forms are reused). */
interface TierMatchers {
  regex?: Matcher;
  number?: Matcher;
  date?: Matcher;
}
const tierMatchers = new WeakMap<AnswerSpec, TierMatchers>();

function matchersOf(spec: AnswerSpec): TierMatchers {
  let t = tierMatchers.get(spec);
  if (!t) {
    t = {
      regex: spec.regex === undefined ? undefined : { regex: spec.regex, flags: spec.flags },
      number: spec.number === undefined ? undefined : { number: spec.number, tol: spec.tol },
      date: spec.date === undefined ? undefined : { date: spec.date },
    };
    tierMatchers.set(spec, t);
  }
  return t;
}

/**
 * Runs the rule tiers in order, each under the strict rules of lib/grading/answer.ts, with `expected` as the
 * reference answer (its words and the values it states are accounted for) and `instruction` as the task's (its
 * words too). A tier that finds nothing of its own in the answer (the regex does not match anywhere; no number;
 * no date) passes the answer on. The first tier that decides wins: it passes an answer whose every word is
 * accounted for (the regex matching the whole answer, or part of it with only accounted words around), and fails
 * a wrong value (`"$35.99"`), a value denied (`"It was not $34.99."`). A tier that finds the expected value with
 * words it cannot account for (a hedge, a second value, an extra claim: `"66 or 61"`) leaves the answer undecided:
 * when no later tier decides it, it goes to the LLM tier whatever `spec.llm` says. Exact accepts only. An empty
 * answer fails at once.
 */
export function decideAnswer(spec: AnswerSpec, answer: string | null, instruction?: string): QaDecision {
  if (answer === null || answer.trim() === "") return { ok: false, tier: "none", reason: "no answer" };
  const t = matchersOf(spec);
  const context = { reference: spec.expected, instruction };
  let undecided: QaDecision | undefined;
  const tier = (m: Matcher | undefined, name: QaTier, passed: string): QaDecision | undefined => {
    if (m === undefined) return undefined;
    const d: AnswerDecision = decideStrictAnswer(m, answer, context);
    if (d.ok === true) return { ok: true, tier: name, reason: passed };
    if (d.ok === null) undecided ??= { ok: null, tier: "llm", reason: `${d.why} (${name} tier): left to the LLM tier` };
    else if (!d.absent) return { ok: false, tier: name, reason: d.why };
    return undefined;
  };
  const byRegex = tier(t.regex, "regex", `matches /${spec.regex}/${spec.flags ?? ""}`);
  if (byRegex) return byRegex;
  if (spec.exact?.some((x) => normaliseText(x) === normaliseText(answer))) {
    return { ok: true, tier: "exact", reason: "is an accepted answer" };
  }
  const decided = tier(t.number, "number", `states ${t.number ? describeMatcher(t.number) : ""}`) ??
    tier(t.date, "date", `states ${spec.date}`);
  if (decided) return decided;
  if (undecided) return undecided;
  if (spec.llm) return { ok: null, tier: "llm", reason: "left to the LLM tier" };
  return {
    ok: false,
    tier: "none",
    reason: `${quote(answer)} is not accepted by any tier (expected ${quote(spec.expected)})`,
  };
}
