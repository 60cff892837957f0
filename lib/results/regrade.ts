/**
 * Regrading: every episode's grade recomputed from its saved grade_inputs.json, offline. The check comes from
 * the task file when one is given (rebased onto the episode's base), else from the task saved with the inputs.
 */
import { join } from "node:path";
import { describeError } from "../errors/mod.ts";
import type { AnswerJudge } from "../grading/mod.ts";
import { childPath, writeFileAtomic } from "../io/mod.ts";
import { kindName, parseGradeInputs, type RunTask } from "../tasks/mod.ts";
import { lastPerEpisode, readRecorded } from "./latest.ts";
import { armFailedFields, type EpisodeResult, statusOf } from "./store.ts";

export interface RegradeSummary {
  ok: number;
  fail: number;
  changed: number;
  /** Episodes whose inputs were missing or unreadable (kept as they were). */
  missing: number;
  results: EpisodeResult[];
}

/**
 * Regrades every episode of the run in `out`. Datagen episodes are graded by their check; human episodes by their
 * verifier, with `qa` as the LLM tier (a grade that needs it and has none keeps grade_error); proposed episodes
 * stay pending.
 */
export async function regradeRun(out: string, tasks?: RunTask[], qa?: AnswerJudge): Promise<RegradeSummary> {
  const { lines } = await readRecorded(out);
  const byId = new Map((tasks ?? []).map((t) => [t.task_id, t]));
  const summary: RegradeSummary = { ok: 0, fail: 0, changed: 0, missing: 0, results: [] };
  for (const r of lastPerEpisode(lines)) {
    let next: EpisodeResult = r;
    try {
      // A line's episode names a folder inside the run: one that would lead outside it is not read.
      const file = join(childPath(out, r.episode ?? r.task_id), "grade_inputs.json");
      const { kind, inputs } = parseGradeInputs(await Deno.readTextFile(file), file);
      const given = byId.get(r.task_id);
      // A task from the task file replaces the saved one only when it is of the same kind.
      const task = given && kindName(given) === kind.name ? given : undefined;
      const v = await kind.grade(inputs, { qa, task });
      // An arm that failed its part (a reference step) failed the episode whatever the grade says.
      next = typeof r.arm_failure === "string"
        ? { ...r, ...armFailedFields(r.arm_failure, v) }
        : { ...r, ok: v.ok, detail: v.detail.slice(0, 300) };
      next.regraded = true;
      if (v.gradeError) next.grade_error = true;
      else delete next.grade_error;
      if (next.ok !== r.ok) summary.changed++;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) next = { ...r, regrade_error: describeError(err).slice(0, 300) };
      summary.missing++;
    }
    next.status = statusOf({ ...next, status: undefined });
    summary[next.ok ? "ok" : "fail"]++;
    summary.results.push(next);
  }
  await writeFileAtomic(
    join(out, "results_regraded.jsonl"),
    summary.results.map((r) => JSON.stringify(r) + "\n").join(""),
  );
  return summary;
}
