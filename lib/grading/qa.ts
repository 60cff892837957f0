/**
 * The QA tier chain of a human verifier's answer check: regex, exact, precise (number, date) decide what they
 * can; only an answer none of them decides goes to the LLM tier. Pure: the LLM tier is the caller's.
 */
import { describeMatcher, testMatcher } from "./matcher.ts";
import { datesIn, firstDate, normaliseText, numbersIn } from "./text.ts";
import type { AnswerSpec } from "./verifier.ts";

export type QaTier = "regex" | "exact" | "number" | "date" | "llm" | "none";

/** What the rule tiers made of an answer: passed, failed, or undecided (null: the LLM tier's turn). */
export interface QaDecision {
  ok: boolean | null;
  tier: QaTier;
  reason: string;
}

const quote = (s: string, max = 80) => JSON.stringify(s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Runs the rule tiers in order. Regex and exact only accept (a miss leaves the answer to the next tier); a precise
 * tier also rejects, when the answer states exactly one number (date) and it is not the expected one. An answer
 * stating several, or none, is left undecided. An empty answer fails at once.
 */
export function decideAnswer(spec: AnswerSpec, answer: string | null): QaDecision {
  if (answer === null || answer.trim() === "") return { ok: false, tier: "none", reason: "no answer" };
  if (spec.regex !== undefined && testMatcher({ regex: spec.regex, flags: spec.flags }, answer)) {
    return { ok: true, tier: "regex", reason: `matches /${spec.regex}/${spec.flags ?? ""}` };
  }
  if (spec.exact?.some((x) => normaliseText(x) === normaliseText(answer))) {
    return { ok: true, tier: "exact", reason: "is an accepted answer" };
  }
  if (spec.number !== undefined) {
    const m = { number: spec.number, tol: spec.tol };
    if (testMatcher(m, answer)) return { ok: true, tier: "number", reason: `states ${describeMatcher(m)}` };
    const found = numbersIn(answer);
    if (found.length === 1) {
      return { ok: false, tier: "number", reason: `${quote(answer)} states ${found[0]}, not ${describeMatcher(m)}` };
    }
  }
  if (spec.date !== undefined) {
    if (testMatcher({ date: spec.date }, answer)) return { ok: true, tier: "date", reason: `states ${spec.date}` };
    const days = [...new Set(datesIn(answer))];
    if (days.length === 1) {
      return { ok: false, tier: "date", reason: `${quote(answer)} states ${days[0]}, not ${firstDate(spec.date)}` };
    }
  }
  if (spec.llm) return { ok: null, tier: "llm", reason: "left to the LLM tier" };
  return {
    ok: false,
    tier: "none",
    reason: `${quote(answer)} is not accepted by any tier (expected ${quote(spec.expected)})`,
  };
}
