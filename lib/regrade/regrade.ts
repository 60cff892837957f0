/**
 * Regrading: every episode's grade recomputed from its saved grade_inputs.json, offline. The check comes from
 * the task file when one is given (rebased onto the episode's base), else from the task saved with the inputs.
 */
import { join } from "node:path";
import { describeError, errorMessage, RunFolderError } from "../errors/mod.ts";
import type { AnswerJudge } from "../grading/mod.ts";
import type { AppRules } from "../protocol/mod.ts";
import { writeFileAtomic } from "../io/mod.ts";
import { type EpisodeResult, lastPerEpisode, resultLine, RUN_FILES, RunFolder, statusOf } from "../run_folder/mod.ts";
import { kindOf, parseGradeInputs, type RunTask, type SavedGradeInputs, type Verdict } from "../tasks/mod.ts";
import { armFailedFields } from "../results/mod.ts";

/** What a regrade did. */
export interface RegradeSummary {
  /** Episodes whose new line passes. */
  ok: number;
  /** Episodes whose new line does not pass (failed, grade errors and harness errors alike). */
  fail: number;
  /** Episodes whose pass or fail differs from their line in results.jsonl. */
  changed: number;
  /**
   * Graded episodes whose grade_inputs.json is missing, cut short or damaged, or whose grade failed: each is now a
   * grade error naming why (never its old grade kept).
   */
  gradeErrors: number;
  /** Episodes the harness never graded (a harness error, a timeout) that saved no grade inputs: kept as they were. */
  ungraded: number;
  /** Episodes graded on the seed's grade inputs (`evidence: "seed"`), grade errors among them included. */
  seed: number;
  /** Seed episodes whose check reads what the seed never saved: grade errors naming it (not in `gradeErrors`). */
  seedMissing: number;
  /** Episodes left as they were because `only` does not name their task. */
  kept: number;
  /** The new line of each episode (the last line of each in results.jsonl), as written to results_regraded.jsonl. */
  results: EpisodeResult[];
}

/** What a regrade may use besides the run's folder. */
export interface RegradeOptions {
  /** The tasks to grade with (matched by task id): needed for the seed's episodes, whose inputs hold no task. */
  tasks?: RunTask[];
  /** The LLM tier of human verifiers' answer checks. */
  qa?: AnswerJudge;
  /** The apps' rules, for grade inputs that saved none (the seed's). */
  rules?: Record<string, AppRules>;
  /** Only the episodes of these task ids are regraded; the others' lines are written as they were (the seed's). */
  only?: ReadonlySet<string>;
}

/**
 * Regrades every episode of the run in `out`. Datagen episodes are graded by their check; human episodes by their
 * verifier, with `qa` as the LLM tier (a grade that needs it and has none keeps grade_error); proposed episodes
 * stay pending. An episode whose grade inputs cannot be read is a grade error, never a kept pass. An episode the
 * seed wrote is graded with its task from `tasks`, and its line says `evidence: "seed"`.
 * @throws UsageError when `out` is not a run's folder; RunFolderError when results.jsonl or run.json cannot be read
 */
export async function regradeRun(out: string, options: RegradeOptions = {}): Promise<RegradeSummary> {
  const folder = await RunFolder.open(out);
  const { lines } = await folder.resultLines();
  const byId = new Map((options.tasks ?? []).map((t) => [t.task_id, t]));
  const summary: RegradeSummary = {
    ok: 0,
    fail: 0,
    changed: 0,
    gradeErrors: 0,
    ungraded: 0,
    seed: 0,
    seedMissing: 0,
    kept: 0,
    results: [],
  };
  for (const r of lastPerEpisode(lines)) {
    const keep = options.only !== undefined && !options.only.has(r.task_id);
    if (keep) summary.kept++;
    const next = keep ? { ...r } : await regradeEpisode(folder, r, byId.get(r.task_id), options, summary);
    next.status = statusOf({ ...next, status: undefined });
    if (next.ok !== r.ok) summary.changed++;
    summary[next.ok ? "ok" : "fail"]++;
    summary.results.push(next);
  }
  await writeFileAtomic(join(out, RUN_FILES.regraded), summary.results.map(resultLine).join(""));
  return summary;
}

/** One episode's line regraded from its saved inputs (with `given`, a task of the same kind, as its task). */
async function regradeEpisode(
  folder: RunFolder,
  r: EpisodeResult,
  given: RunTask | undefined,
  options: RegradeOptions,
  summary: RegradeSummary,
): Promise<EpisodeResult> {
  let saved;
  try {
    saved = await folder.gradeInputs(r.episode, (v, f) => parseGradeInputs(v, f, given));
  } catch (err) {
    if (!(err instanceof RunFolderError)) throw err;
    // An episode the harness failed before grading saved nothing to regrade: its line stands.
    if (r.error) {
      summary.ungraded++;
      return { ...r };
    }
    return gradeErrorLine(r, `grade error: ${errorMessage(err)}`, summary);
  }
  try {
    const { line, verdict } = await regradeLine(r, saved, given, options);
    if (verdict.evidence) summary.seed++;
    if (verdict.evidence && verdict.gradeError) summary.seedMissing++;
    return line;
  } catch (err) {
    // The grade itself failed: a grade error, as the runner records it, not the old grade kept.
    return gradeErrorLine(r, `grade error ${describeError(err)}`, summary);
  }
}

/**
 * The line of episode `r` graded anew from its saved inputs, with `given` as its task when it is of the same kind
 * (else the task saved with the inputs); the proof's recorded episodes are regraded with it too (lib/gen).
 * @throws what the grade throws (the caller records a grade error)
 */
export async function regradeLine(
  r: EpisodeResult,
  saved: SavedGradeInputs,
  given: RunTask | undefined,
  options: Pick<RegradeOptions, "qa" | "rules">,
): Promise<{ line: EpisodeResult; verdict: Verdict }> {
  const { kind, inputs } = saved;
  // A task from the task file replaces the saved one only when it is of the same kind.
  const task = given && kindOf(given) === kind ? given : undefined;
  const v = await kind.grade(inputs, { qa: options.qa, task, rules: options.rules });
  // An arm that failed its part (a reference step) failed the episode whatever the grade says.
  const next: EpisodeResult = typeof r.arm_failure === "string"
    ? { ...r, ...armFailedFields(r.arm_failure, v) }
    : { ...r, ok: v.ok, detail: v.detail.slice(0, 300) };
  next.regraded = true;
  if (v.reason && next.arm_failure === undefined) next.reason = v.reason;
  else delete next.reason;
  if (v.gradeError) next.grade_error = true;
  else delete next.grade_error;
  if (v.evidence) next.evidence = v.evidence;
  else delete next.evidence;
  delete next.regrade_error;
  return { line: next, verdict: v };
}

/** `r` as a grade error saying why (its old grade dropped), counted in the summary. */
function gradeErrorLine(r: EpisodeResult, why: string, summary: RegradeSummary): EpisodeResult {
  summary.gradeErrors++;
  const detail = why.slice(0, 300);
  const { reason: _reason, ...rest } = r;
  return { ...rest, ok: false, detail, grade_error: true, regraded: true, regrade_error: detail };
}
