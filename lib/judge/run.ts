/**
 * The macro judge over a run's saved episodes: every `<out>/<episode>/` with a grade_inputs.json gets a
 * judge.json beside it (`{episode, task_id, model, ok, reason, macros, judged_at}`). An episode the judge cannot
 * judge (the endpoint fails, a malformed reply) gets no file, so a later run retries it.
 */
import { describeError, UsageError } from "../errors/mod.ts";
import type { EpisodeJudge } from "../llm/mod.ts";
import { exists, runPool, writeFileAtomic } from "../io/mod.ts";
import {
  EPISODE_FILES,
  JUDGE_VERDICT,
  type JudgeVerdictFile,
  lastPerEpisode,
  RunFolder,
  serialise,
} from "../run_folder/mod.ts";
import { parseGradeInputs } from "../tasks/mod.ts";
import { judgeInput } from "./input.ts";

/** Which run's saved episodes to judge, with which judge, and how. */
export interface JudgeRunOptions {
  /** The run's output folder. */
  out: string;
  /** The macro judge each episode is shown to. */
  judge: EpisodeJudge;
  /** The judge's model name, written into judge.json. */
  model: string;
  /** Only these episodes (folder names). */
  episodes?: string[];
  /** Judge again episodes that already have a judge.json. */
  overwrite?: boolean;
  /** Episodes judged at once (default 4). */
  workers?: number;
  /** Stops the run: no episode starts once it aborts, and it is passed to each request to the judge. */
  signal?: AbortSignal;
  /** Progress lines (stderr by default). */
  log?: (line: string) => void;
}

/** What a judge run did. */
export interface JudgeRunSummary {
  /** Episodes judged, each now with a judge.json. */
  judged: number;
  /** Judged episodes whose verdict is a pass. */
  passed: number;
  /** Episodes that already had a judge.json, left as they were (without `overwrite`). */
  skipped: number;
  /** Episodes the judge could not judge (no judge.json written), with the error of each. */
  failed: { episode: string; error: string }[];
}

/** The file a verdict is written to. */
export const JUDGE_FILE: string = EPISODE_FILES.judge;

/**
 * The episodes of a run (its results, read with the run-folder reader) that saved grade inputs, sorted.
 * @throws UsageError when `out` is not a run's folder; RunFolderError naming a file of it that cannot be read
 */
export async function savedEpisodes(out: string): Promise<string[]> {
  const folder = await RunFolder.open(out);
  const names: string[] = [];
  for (const r of lastPerEpisode((await folder.resultLines()).lines)) {
    if (await exists(folder.episodeFile(r.episode, EPISODE_FILES.gradeInputs))) names.push(r.episode);
  }
  return names.sort();
}

/**
 * The episodes to judge of `all`, a run's saved episodes: those `wanted` names (in `all`'s order), or every one.
 * @throws UsageError naming each wanted episode without grade inputs in `out`.
 */
export function chooseEpisodes(all: readonly string[], wanted: readonly string[] | undefined, out: string): string[] {
  if (!wanted) return [...all];
  const missing = wanted.filter((e) => !all.includes(e));
  if (missing.length) {
    throw new UsageError(`--episodes: no grade_inputs.json for ${missing.map((e) => `"${e}"`).join(", ")} in ${out}`);
  }
  return all.filter((e) => wanted.includes(e));
}

async function judgeOne(o: JudgeRunOptions, folder: RunFolder, episode: string): Promise<boolean> {
  const { kind, inputs } = await folder.gradeInputs(episode, parseGradeInputs);
  const png = await Deno.readFile(folder.episodeFile(episode, EPISODE_FILES.final)).catch(() => undefined);
  const verdict = await o.judge.judgeEpisode(judgeInput(kind.judgeView(inputs), png), { signal: o.signal });
  const record: JudgeVerdictFile = {
    episode,
    task_id: inputs.task.task_id ?? episode.split("~")[0],
    model: o.model,
    ok: verdict.ok,
    reason: verdict.reason,
    macros: verdict.macros,
    judged_at: new Date().toISOString(),
  };
  await writeFileAtomic(
    folder.episodeFile(episode, JUDGE_FILE),
    serialise(JUDGE_VERDICT, record, JUDGE_FILE, 1) + "\n",
  );
  return verdict.ok;
}

/**
 * Judges the saved episodes of a run.
 * @throws UsageError when `out` does not exist or a requested episode has no grade inputs.
 */
export async function judgeRun(o: JudgeRunOptions): Promise<JudgeRunSummary> {
  const log = o.log ?? ((line: string) => console.error(line));
  const folder = await RunFolder.open(o.out);
  const episodes = chooseEpisodes(await savedEpisodes(o.out), o.episodes, o.out);
  const summary: JudgeRunSummary = { judged: 0, passed: 0, skipped: 0, failed: [] };
  const queue: string[] = [];
  for (const e of episodes) {
    if (!o.overwrite && await exists(folder.episodeFile(e, JUDGE_FILE))) summary.skipped++;
    else queue.push(e);
  }
  await runPool(queue, o.workers ?? 4, async (episode) => {
    try {
      const ok = await judgeOne(o, folder, episode);
      summary.judged++;
      if (ok) summary.passed++;
      log(`[${summary.judged + summary.failed.length}/${queue.length}] ${ok ? "OK  " : "FAIL"} ${episode}`);
    } catch (err) {
      if (o.signal?.aborted) return;
      const error = describeError(err).slice(0, 300);
      summary.failed.push({ episode, error });
      log(`[${summary.judged + summary.failed.length}/${queue.length}] ERROR ${episode} ${error}`);
    }
  }, o.signal);
  return summary;
}
