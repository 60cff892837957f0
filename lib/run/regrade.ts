/**
 * Regrading: every episode's grade recomputed from its saved grade_inputs.json, offline. The check comes from
 * the task file when one is given (rebased onto the episode's base), else from the task saved with the inputs.
 */
import { join } from "node:path";
import { describeError } from "../errors/mod.ts";
import { parseEvidence } from "../grading/mod.ts";
import { type HumanTask, parseHumanInputs, regradeHuman } from "../human/mod.ts";
import type { AnswerJudge } from "../llm/mod.ts";
import { gradeTask, type Task } from "../tasks/mod.ts";
import type { RunTask } from "./kinds.ts";
import { writeFileAtomic } from "./files.ts";
import { type EpisodeResult, parseResults } from "./results.ts";

export interface RegradeSummary {
  ok: number;
  fail: number;
  changed: number;
  /** Episodes whose inputs were missing or unreadable (kept as they were). */
  missing: number;
  results: EpisodeResult[];
}

/** The latest line of each episode, in first-seen order. */
function latestByEpisode(results: EpisodeResult[]): EpisodeResult[] {
  const last = new Map<string, EpisodeResult>();
  for (const r of results) last.set(r.episode ?? r.task_id, r);
  return [...last.values()];
}

/**
 * Regrades every episode of the run in `out`. Datagen episodes are graded by their check; human episodes by their
 * verifier, with `qa` as the LLM tier (a grade that needs it and has none keeps grade_error); proposed episodes
 * stay pending.
 */
export async function regradeRun(out: string, tasks?: RunTask[], qa?: AnswerJudge): Promise<RegradeSummary> {
  const file = join(out, "results.jsonl");
  const { results } = parseResults(await Deno.readTextFile(file), file);
  const byId = new Map((tasks ?? []).map((t) => [t.task_id, t]));
  const summary: RegradeSummary = { ok: 0, fail: 0, changed: 0, missing: 0, results: [] };
  for (const r of latestByEpisode(results)) {
    let next: EpisodeResult = r;
    const inputs = join(out, r.episode ?? r.task_id, "grade_inputs.json");
    try {
      const raw = JSON.parse(await Deno.readTextFile(inputs));
      if (raw.kind === "human") {
        const g = await regradeHuman(parseHumanInputs(raw, inputs), { qa, task: byId.get(r.task_id) as HumanTask });
        next = { ...r, ok: g.ok, detail: (g.ok ? "passed" : g.detail).slice(0, 300), regraded: true };
        if (g.gradeError) next.grade_error = true;
        else delete next.grade_error;
      } else if (raw.kind === "proposed") {
        next = r;
      } else {
        const evidence = parseEvidence(raw, inputs);
        const task = byId.get(r.task_id) as Task | undefined ?? raw.task as Task | undefined;
        if (!task) throw new Error(`no task "${r.task_id}" in the task file and none saved in ${inputs}`);
        const verdict = gradeTask(task, evidence);
        next = { ...r, ok: verdict.ok, detail: (verdict.ok ? "passed" : verdict.detail).slice(0, 300), regraded: true };
        delete next.grade_error;
      }
      if (next.ok !== r.ok) summary.changed++;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) next = { ...r, regrade_error: describeError(err).slice(0, 300) };
      summary.missing++;
    }
    summary[next.ok ? "ok" : "fail"]++;
    summary.results.push(next);
  }
  await writeFileAtomic(
    join(out, "results_regraded.jsonl"),
    summary.results.map((r) => JSON.stringify(r) + "\n").join(""),
  );
  return summary;
}
