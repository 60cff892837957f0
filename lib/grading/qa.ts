/**
 * The QA tier chain of a human verifier's answer check: regex, exact, precise (number, date) decide what they
 * can; only an answer none of them decides goes to the LLM tier. Pure: the LLM tier is the caller's.
 */
import { answerCandidates, strictAnswerFailure } from "./answer.ts";
import { describeMatcher, type Matcher, testMatcher } from "./matcher.ts";
import { normaliseText } from "./text.ts";
import type { AnswerSpec } from "./verifier.ts";

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
 * Runs the rule tiers in order, each strict (lib/grading/answer.ts, with `expected` as the reference answer: the hedge
 * words and the context numbers and days it has are allowed). Regex: an answer it matches is accepted, or rejected
 * when it negates or hedges (`"April 8 or April 9"`); no match leaves the answer to the next tier. Exact accepts only.
 * A precise tier (number, date) accepts an answer stating exactly the expected value, and rejects one stating any
 * other value, or a rival besides it (`"66 or 61"`: a hedge); an answer stating none is left to the next tier. An
 * empty answer fails at once.
 */
export function decideAnswer(spec: AnswerSpec, answer: string | null): QaDecision {
  if (answer === null || answer.trim() === "") return { ok: false, tier: "none", reason: "no answer" };
  const t = matchersOf(spec);
  if (t.regex !== undefined && testMatcher(t.regex, answer)) {
    const fail = strictAnswerFailure(t.regex, answer, undefined, spec.expected);
    if (fail !== null) return { ok: false, tier: "regex", reason: fail };
    return { ok: true, tier: "regex", reason: `matches /${spec.regex}/${spec.flags ?? ""}` };
  }
  if (spec.exact?.some((x) => normaliseText(x) === normaliseText(answer))) {
    return { ok: true, tier: "exact", reason: "is an accepted answer" };
  }
  if (t.number !== undefined || t.date !== undefined) {
    const c = answerCandidates(answer);
    if (t.number !== undefined) {
      const fail = strictAnswerFailure(t.number, answer, undefined, spec.expected);
      if (fail === null) return { ok: true, tier: "number", reason: `states ${describeMatcher(t.number)}` };
      if (c.numbers.length + c.labels.length > 0) return { ok: false, tier: "number", reason: fail };
    }
    if (t.date !== undefined) {
      const fail = strictAnswerFailure(t.date, answer, undefined, spec.expected);
      if (fail === null) return { ok: true, tier: "date", reason: `states ${spec.date}` };
      if (c.dates.length > 0) return { ok: false, tier: "date", reason: fail };
    }
  }
  if (spec.llm) return { ok: null, tier: "llm", reason: "left to the LLM tier" };
  return {
    ok: false,
    tier: "none",
    reason: `${quote(answer)} is not accepted by any tier (expected ${quote(spec.expected)})`,
  };
}
