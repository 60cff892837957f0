/**
 * Making a task recorded against a generating server portable (docs/grading.md, "Relaxing recorded dates and
 * rebasing origins"): origins rebased onto this run's site base, recorded dates relaxed. Both pure.
 */
import { gate, type GateResult, mapConditionMatchers } from "../grading/mod.ts";
import { type Check, datesIn, type Evidence, firstDate, type Matcher, type Verifier } from "../protocol/mod.ts";

/** A recording server's origin at the start of a string. */
const RECORDED_ORIGIN = /^http:\/\/(?:127\.0\.0\.1|localhost):\d+(?=[/?#]|$)/;

function rebaseValue(value: unknown, base: string): unknown {
  if (typeof value === "string") return RECORDED_ORIGIN.test(value) ? value.replace(RECORDED_ORIGIN, base) : value;
  if (Array.isArray(value)) return value.map((v) => rebaseValue(v, base));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebaseValue(v, base)]));
  }
  return value;
}

type Rebasable = { start?: unknown; check?: unknown; verifier?: unknown; solution?: unknown };

/**
 * A copy of `task` whose strings in `start`, `check`, `verifier` and `solution` that begin with a recorded origin
 * (`http://127.0.0.1:NNNN`, `http://localhost:NNNN`) begin with `base` instead. Instruction and option are kept.
 */
export function rebaseTask<T extends Rebasable>(task: T, base: string): T {
  const b = base.replace(/\/+$/, "");
  const out = { ...task };
  for (const field of ["start", "check", "verifier", "solution"] as const) {
    if (field in task) out[field] = rebaseValue(task[field], b) as T[typeof field];
  }
  return out;
}

/** A date as recorded in a row: `2026-03-01` or an ISO timestamp. */
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function relaxMatcher(m: Matcher, kept: ReadonlySet<string>): Matcher {
  const recorded = (day: string | undefined) => day !== undefined && !kept.has(day);
  const dateLike = (s: string) => DATE_LIKE.test(s.trim()) ? firstDate(s) : undefined;
  if (typeof m === "string") return recorded(dateLike(m)) ? { present: true } : m;
  if (typeof m === "number") return m;
  if ("date" in m) return recorded(firstDate(m.date)) ? { present: true } : m;
  if ("exact" in m) return recorded(dateLike(m.exact)) ? { present: true } : m;
  if ("norm" in m) return recorded(dateLike(m.norm)) ? { present: true } : m;
  if ("one_of" in m) return { one_of: m.one_of.map((x) => relaxMatcher(x, kept)) };
  return m; // not: negated values keep their meaning; contains, regex, number, present: no recorded date
}

/** Relaxes the recorded dates of the conditions that read what the site recorded (not answer, not clipboard). */
function relaxCondition(c: Check, kept: ReadonlySet<string>): Check {
  if (Array.isArray(c)) return c.map((x) => relaxCondition(x, kept));
  if ("all" in c) return { ...c, all: c.all.map((x) => relaxCondition(x, kept)) };
  if ("any" in c) return { ...c, any: c.any.map((x) => relaxCondition(x, kept)) };
  // What the agent says or copies is the task's point, computed from the data the pages show: relaxing its date to
  // "present" would pass every answer. Those are never a recording's artefact.
  if ("answer" in c || "clipboard" in c) return c;
  return mapConditionMatchers(c, (m) => relaxMatcher(m, kept));
}

/**
 * A copy of `check` in which every date matcher, and every exact/norm matcher whose value looks like a date
 * (`YYYY-MM-DD`, ISO timestamps), naming a day that is written in none of `texts` (the instruction, the JSON of
 * the option) becomes `{"present": true}`: such a date was recorded at generation time (a created_at), not asked
 * for. Days are compared in any format datesIn() reads, so "March 18, 2026" in the instruction keeps 2026-03-18.
 * `answer` and `clipboard` conditions are kept whole: their dates are what the task asks the agent to find.
 */
export function relaxRecordedDates(check: Check, texts: readonly (string | null | undefined)[]): Check {
  const kept = new Set(texts.flatMap((t) => t ? datesIn(t) : []));
  return relaxCondition(check, kept);
}

/** The texts whose dates a task asked for: its instruction and the JSON of its option. */
export function askedTexts(task: { instruction: string; option?: unknown }): string[] {
  return [task.instruction, JSON.stringify(task.option ?? null)];
}

/**
 * Grades a datagen task on an episode's evidence the one way runs and regrades both do: rebase the task onto the
 * evidence's base, relax its recorded dates, then gate its check and verifier.
 */
export function gradeTask(
  task: { instruction: string; option?: unknown; check: Check; verifier?: Verifier | null },
  evidence: Evidence,
): GateResult {
  const rebased = rebaseTask(task, evidence.base);
  return gate(relaxRecordedDates(rebased.check, askedTexts(rebased)), rebased.verifier ?? null, evidence, {
    instruction: task.instruction,
  });
}
