/**
 * Grading a human episode (the seed's grade_human): each macro's check over the trajectory (lib/grading's
 * conditions), then each answer through the QA tier chain; the LLM tier only for what the rule tiers leave open.
 * Without an LLM tier, such a grade is an error to complete later (regrade), never a verdict.
 */
import { DETAIL_MAX, gate } from "./gate.ts";
import type { Condition } from "./condition.ts";
import { describeError } from "../errors/mod.ts";
import { decideAnswer, type QaTier } from "./qa.ts";
import { type TrajectoryEvent, trajectoryEvidence } from "./trajectory.ts";

/** An answer check: the QA tier chain (regex, exact, precise number/date, then the LLM tier). */
export interface AnswerSpec {
  /** The reference answer, as a person would write it: what the LLM tier compares against. */
  expected: string;
  /** Tier 1: a regular expression that accepts the answer (flags i, m, s, u). */
  regex?: string;
  flags?: string;
  /** Tier 2: accepted answers, compared normalised (case, spaces, NFKC). */
  exact?: string[];
  /** Tier 3 (precise): the number the answer must state, within `tol` (default 1e-9). */
  number?: number;
  tol?: number;
  /** Tier 3 (precise): the day the answer must state. */
  date?: string;
  /** Tier 4: whether the LLM tier may decide when no tier above did (default true). */
  llm: boolean;
  /** Guidance for the LLM tier ("any answer naming both rooms passes"). */
  rubric?: string;
}

/** What one macro of a human task must show: conditions over the trajectory, and/or an answer check. */
export interface MacroVerifier {
  check?: Condition;
  answer?: AnswerSpec;
}

/** verifier.json: per macro label, its check and/or answer. */
export interface HumanVerifier {
  macros: Record<string, MacroVerifier>;
  notes?: string;
}

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
  ok: boolean;
  reason: string;
}

/** The LLM tier of the QA chain (lib/llm's OpenAiJudge is one). */
export interface AnswerJudge {
  judgeAnswer(q: AnswerQuestion, options?: { signal?: AbortSignal }): Promise<JudgeVerdict>;
}

/** What a human verifier grades: the task's instruction, its macro labels in order, and its verifier. */
export interface VerifiedTask {
  instruction: string;
  macros: readonly string[];
  verifier: HumanVerifier;
}

/** One macro's grade: null `ok` when it was not decided (an earlier failure, or no LLM tier). */
export interface MacroGrade {
  ok: boolean | null;
  detail: string;
  /** The tier that decided its answer. */
  tier?: QaTier;
}

/** A human episode's grade; `gradeError` when it needs the LLM tier and none answered (regrade later). */
export interface HumanGrade {
  ok: boolean;
  /** "" when ok; else the first failing macro and why (at most 300 characters). */
  detail: string;
  gradeError?: boolean;
  macros: Record<string, MacroGrade>;
}

export interface GradeHumanOptions {
  /** The LLM tier; without it a grade that needs it is a grade error. */
  qa?: AnswerJudge;
  signal?: AbortSignal;
}

const cap = (s: string) => s.length > DETAIL_MAX ? s.slice(0, DETAIL_MAX - 1) + "…" : s;

function failure(macros: Record<string, MacroGrade>, first: string, extra = ""): HumanGrade {
  const failed = Object.values(macros).filter((m) => m.ok === false).length;
  const more = failed > 1 ? ` (+${failed - 1} more macro(s) failed)` : "";
  return { ok: false, detail: cap(`${first}${extra}${more}`), macros };
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
  const labels = task.macros.filter((m) => task.verifier.macros[m]).concat(
    Object.keys(task.verifier.macros).filter((m) => !task.macros.includes(m)),
  );
  const macros: Record<string, MacroGrade> = {};
  let first: string | undefined;
  for (const label of labels) {
    const check = task.verifier.macros[label].check;
    if (check === undefined) continue;
    const g = gate(check, null, evidence);
    macros[label] = { ok: g.ok, detail: g.detail };
    if (!g.ok) first ??= `${label}: ${g.detail}`;
  }
  if (first) return failure(macros, first);

  const open: [string, AnswerSpec][] = [];
  for (const label of labels) {
    const spec = task.verifier.macros[label].answer;
    if (spec === undefined) continue;
    const d = decideAnswer(spec, answer);
    if (d.ok === null) {
      open.push([label, spec]);
      macros[label] = { ok: null, detail: d.reason, tier: d.tier };
      continue;
    }
    macros[label] = { ok: d.ok && (macros[label]?.ok ?? true), detail: d.reason, tier: d.tier };
    if (!d.ok) first ??= `${label}: answer ${d.reason} (${d.tier} tier)`;
  }
  if (first) return failure(macros, first);
  if (open.length === 0) return { ok: true, detail: "", macros };

  if (!options.qa) {
    const which = open.map(([l]) => l).join(", ");
    return {
      ok: false,
      detail: cap(
        `grade error: the answer of ${which} needs the LLM tier and no judge endpoint is set ` +
          `(WEBMIX_JUDGE_BASE_URL); regrade once one is`,
      ),
      gradeError: true,
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
      if (!v.ok) first ??= `${label}: answer ${JSON.stringify(answer!.slice(0, 80))} rejected (llm tier): ${v.reason}`;
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
  return first ? failure(macros, first) : { ok: true, detail: "", macros };
}
