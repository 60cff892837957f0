/**
 * A run: one arm over tasks × repeats with a pool of workers, each with its own Chromium (relaunched when it
 * dies), on the embedded sandbox or on external site bases. results.jsonl gets one line per episode as it ends;
 * --resume skips (task, repeat) pairs already there.
 */
import { join } from "node:path";
import { type Arm, MODEL_FREE_ARMS } from "../agent/mod.ts";
import { ChromiumBrowser } from "../browser/mod.ts";
import { describeError } from "../errors/mod.ts";
import type { AnswerJudge } from "../grading/mod.ts";
import { runPool } from "../io/mod.ts";
import { APPS, fetchHealth, type Health, type SitesServer, startSites } from "../sites/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import type { RunConfig } from "./config.ts";
import { type EpisodeEnv, resultHead, runEpisode } from "./episode.ts";
import { resolveModelArm } from "./model_arms.ts";
import { type EpisodeResult, resultKey, ResultsStore } from "../results/mod.ts";

/** What a run needs besides its configuration. */
export interface RunInputs {
  /** Datagen, human or proposed tasks (they may be mixed). */
  tasks: RunTask[];
  /** The arm (default: the one `config.arm` names, a model arm checked against its server first). */
  arm?: Arm;
  signal?: AbortSignal;
  /** The LLM tier of human verifiers' answer checks. */
  qa?: AnswerJudge;
  /** Progress lines (stderr by default). */
  log?: (line: string) => void;
}

export interface RunSummary {
  ran: number;
  ok: number;
  fail: number;
  skipped: number;
  results: EpisodeResult[];
}

/** The arm a configuration names: a model-free arm, or a model arm whose server serves every name it needs. */
export async function resolveArm(config: RunConfig, tasks: RunTask[]): Promise<Arm> {
  return MODEL_FREE_ARMS[config.arm] ?? await resolveModelArm(config, tasks);
}

/** One Chromium per worker, launched on first use and again after it dies. */
class WorkerBrowsers {
  #browsers: (ChromiumBrowser | undefined)[] = [];
  constructor(private readonly chromePath?: string) {}

  async get(worker: number): Promise<ChromiumBrowser> {
    const current = this.#browsers[worker];
    if (current?.alive) return current;
    await current?.close().catch(() => {});
    const fresh = await ChromiumBrowser.launch({ executablePath: this.chromePath });
    this.#browsers[worker] = fresh;
    return fresh;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#browsers.map((b) => b?.close().catch(() => {})));
  }
}

/**
 * Runs the configured arm over `tasks` × repeats. results.jsonl gets one line per episode as it ends; with
 * `config.resume`, (task, repeat) pairs already there are skipped and harness failures run again.
 */
export async function runEval(config: RunConfig, inputs: RunInputs): Promise<RunSummary> {
  const log = inputs.log ?? ((line: string) => console.error(line));
  const { tasks, signal } = inputs;
  // A model arm's server is checked before anything is written.
  const arm = inputs.arm ?? await resolveArm(config, tasks);
  await Deno.mkdir(config.out, { recursive: true });
  const store = await ResultsStore.open(join(config.out, "results.jsonl"), { retryErrors: config.resume });
  const done = config.resume ? store.doneKeys() : new Set<string>();
  const queue: [RunTask, number][] = [];
  for (const task of tasks) {
    for (let r = 0; r < config.repeats; r++) if (!done.has(resultKey(task.task_id, r))) queue.push([task, r]);
  }
  const skipped = tasks.length * config.repeats - queue.length;
  if (config.resume) log(`resume: ${skipped} episodes already in ${store.path}, ${queue.length} to run`);
  const summary: RunSummary = { ran: 0, ok: 0, fail: 0, skipped, results: [] };
  if (queue.length === 0) return summary;
  let server: SitesServer | undefined;
  const browsers = new WorkerBrowsers(config.chromePath);
  try {
    const bases = config.bases.length
      ? config.bases
      : [(server = await startSites({ apps: APPS, port: 0, now: config.now })).base];
    const health = new Map<string, Health>();
    for (const base of bases) health.set(base, await fetchHealth(base));
    const env: EpisodeEnv = { config, arm, qa: inputs.qa, signal };
    await runPool(queue, config.workers, async ([task, repeat], w) => {
      const base = bases[w % bases.length];
      let result: EpisodeResult;
      try {
        const { apps, rules } = health.get(base)!;
        const site = { base, apps, rules, browser: await browsers.get(w) };
        result = await runEpisode(task, repeat, site, env);
      } catch (err) {
        // Launching the browser failed, or something outside the episode's own try: still one line per episode.
        result = { ...resultHead(task, repeat, config, arm.name), error: describeError(err).slice(0, 300) };
      }
      if (signal?.aborted) {
        // Cut short by the interrupt: not a result. Left out so that --resume runs it again.
        log(`interrupted: ${result.episode} not recorded`);
        return;
      }
      await store.append(result);
      summary.ran++;
      summary[result.ok ? "ok" : "fail"]++;
      summary.results.push(result);
      const why = result.error ?? (result.ok ? "" : result.detail ?? "");
      log(
        `[${summary.ran}/${queue.length}] ${result.ok ? "OK  " : "FAIL"} ${result.episode} ${
          result.steps ?? 0
        } steps ` +
          `${result.duration_s}s ${why.slice(0, 120)}`,
      );
    }, signal);
  } finally {
    await browsers.closeAll();
    await server?.close();
  }
  return summary;
}
