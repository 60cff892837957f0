/**
 * answer_question: a fact read off the app and given as the answer. Its outcome, under both styles, is the answer (the
 * rules of lib/grading's answer.ts) shown on some screen the agent saw: any page that shows it (a detail page, the
 * search results, a list) is evidence that it was read. A procedure phrasing that names the page to read it on adds
 * the page: the answer must be shown there. Its attack is the hedge: the answer and a runner-up beside it (the rules
 * cannot account for it, under both styles); reading it on another page that shows it is its alternative under a goal
 * phrasing, which names no page.
 */
import type { ActionJson, ConditionJson, NearMiss } from "../template.ts";
import { dayOfYear } from "../text.ts";
import { visitedPath, visitedWith } from "./evidence.ts";
import type { Alternative, Attack, Segment } from "./macro.ts";

/** What an answer_question segment needs. */
export interface AnswerOptions {
  /** The reference answer (done's text). */
  answer: string;
  /** The answer matcher (`{contains: ...}`, `{number: ...}`, `{date: ...}`). */
  matcher: ConditionJson;
  /** The other candidates of the same kind: naming one instead fails, beside the answer is a hedge. */
  others?: readonly string[];
  /** The page a procedure phrasing names to read the answer on (its path, and query keys it must have). */
  page?: { path: string; query?: Record<string, string> };
  /** The steps that bring the answer into view on the page the chain reached (a sort, a scroll, a tab). */
  read?: ActionJson[];
  /** A runner-up (another value or candidate): the hedge attack names it beside the answer. */
  rival?: string;
  /** Steps that read the answer on another page that shows it (a goal's other route). */
  elsewhere?: ActionJson[];
  /** The answer is computed from what a page shows (a sum, a count), not shown itself: why (no `seen` binding). */
  computed?: string;
}

/** The hedge's witness: the answer given names two values joined by "or". */
const hedged: ConditionJson = { event: { action: "answer", value: { contains: " or " } } };

/** The answer_question segment. */
export function answerQuestion(o: AnswerOptions): Segment {
  const read = o.read ?? [];
  const answer = (seen: unknown): ConditionJson => ({
    answer: o.matcher,
    seen,
    ...(seen === false ? { why: o.computed } : {}),
    ...(o.others?.length ? { others: [...o.others] } : {}),
  });
  const attacks: Attack[] = o.rival === undefined ? [] : [{
    kind: "extra_wrong",
    steps: [...read, { done: { text: `${o.answer} or ${o.rival}` } }],
    reason: "answer_unaccounted",
    witness: hedged,
    method: false,
  }];
  const alternatives: Alternative[] = o.elsewhere === undefined
    ? []
    : [{ kind: "other_route", steps: [...o.elsewhere, { done: { text: o.answer } }], styles: ["goal"] }];
  return {
    macro: "answer_question",
    steps: [...read, { done: { text: o.answer } }],
    reached: [],
    outcome: [answer(o.computed === undefined ? true : false)],
    // A computed answer is read off the page's list: the page visited is what the procedure can ask for.
    method: o.page
      ? [
        o.computed === undefined
          ? answer(o.page)
          : (o.page.query ? visitedWith(o.page.path, Object.entries(o.page.query)) : visitedPath(o.page.path)),
      ]
      : [],
    attacks,
    alternatives,
  };
}

/**
 * The near miss of a date answer (`iso`, `YYYY-MM-DD`) whose day is right and whose year is the one before the
 * task's (`10 March (2025)`): it must fail `answer_wrong` (lib/grading's answer.ts, "Another year").
 */
export function anotherYear(iso: string): NearMiss {
  const year = Number(iso.slice(0, 4)) - 1;
  return {
    name: "day_of_another_year",
    category: "wrong_item",
    after_reference: [],
    answer: dayOfYear(iso, year),
    reason: "answer_wrong",
    witness: { event: { action: "answer", value: { contains: `(${year})` } } },
  };
}

/**
 * The near miss of an answer naming another item's value (a runner-up, a neighbour, one more): `value` answered
 * instead of the right one, which must fail `answer_wrong`; its witness is that answer, matched `exact` or as the
 * grader normalises text (`norm`).
 */
export function answeredInstead(name: string, value: string, match: "exact" | "norm" = "exact"): NearMiss {
  return {
    name,
    category: "wrong_item",
    after_reference: [],
    answer: value,
    reason: "answer_wrong",
    witness: { event: { action: "answer", value: { [match]: value } } },
  };
}
