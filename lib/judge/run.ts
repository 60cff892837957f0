/**
 * The macro judge over a run's saved episodes: every `<out>/<episode>/` with a grade_inputs.json gets a
 * judge.json beside it (`{episode, task_id, model, ok, reason, macros, judged_at}`). An episode the judge cannot
 * judge (the endpoint fails, a malformed reply) gets no file, so a later run retries it.
 */
import { join } from "node:path";
import { describeError, UsageError } from "../errors/mod.ts";
import type { EpisodeJudge } from "../llm/mod.ts";
import { exists, runPool, writeJsonAtomic } from "../io/mod.ts";
import { parseGradeInputs } from "../tasks/mod.ts";
import { judgeInput } from "./input.ts";

export interface JudgeRunOptions {
  /** The run's output folder. */
  out: string;
  judge: EpisodeJudge;
  /** The judge's model name, written into judge.json. */
  model: string;
  /** Only these episodes (folder names). */
  episodes?: string[];
  /** Judge again episodes that already have a judge.json. */
  overwrite?: boolean;
  /** Episodes judged at once (default 4). */
  workers?: number;
  signal?: AbortSignal;
  /** Progress lines (stderr by default). */
  log?: (line: string) => void;
}

export interface JudgeRunSummary {
  judged: number;
  passed: number;
  skipped: number;
  failed: { episode: string; error: string }[];
}

/** The file a verdict is written to. */
export const JUDGE_FILE = "judge.json";

/** The episode folders of a run that hold grade inputs, sorted. */
export async function savedEpisodes(out: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(out)) {
      if (e.isDirectory && await exists(join(out, e.name, "grade_inputs.json"))) names.push(e.name);
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new UsageError(`--out "${out}" does not exist`);
    throw e;
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

async function judgeOne(o: JudgeRunOptions, episode: string): Promise<boolean> {
  const dir = join(o.out, episode);
  const file = join(dir, "grade_inputs.json");
  const { kind, inputs } = parseGradeInputs(await Deno.readTextFile(file), file);
  const png = await Deno.readFile(join(dir, "final.png")).catch(() => undefined);
  const verdict = await o.judge.judgeEpisode(judgeInput(kind.judgeView(inputs), png), { signal: o.signal });
  const record = {
    episode,
    task_id: inputs.task.task_id ?? episode.split("~")[0],
    model: o.model,
    ok: verdict.ok,
    reason: verdict.reason,
    macros: verdict.macros,
    judged_at: new Date().toISOString(),
  };
  await writeJsonAtomic(join(dir, JUDGE_FILE), record, 1);
  return verdict.ok;
}

/**
 * Judges the saved episodes of a run.
 * @throws UsageError when `out` does not exist or a requested episode has no grade inputs.
 */
export async function judgeRun(o: JudgeRunOptions): Promise<JudgeRunSummary> {
  const log = o.log ?? ((line: string) => console.error(line));
  const episodes = chooseEpisodes(await savedEpisodes(o.out), o.episodes, o.out);
  const summary: JudgeRunSummary = { judged: 0, passed: 0, skipped: 0, failed: [] };
  const queue: string[] = [];
  for (const e of episodes) {
    if (!o.overwrite && await exists(join(o.out, e, JUDGE_FILE))) summary.skipped++;
    else queue.push(e);
  }
  await runPool(queue, o.workers ?? 4, async (episode) => {
    try {
      const ok = await judgeOne(o, episode);
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
