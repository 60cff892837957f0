/**
 * A run: one arm over tasks × repeats with a pool of workers, each with its own Chromium (relaunched when it
 * dies), on the embedded sandbox or on external site bases. results.jsonl gets one line per episode as it ends;
 * --resume skips (task, repeat) pairs already there.
 */
import { join } from "node:path";
import { type Arm, MODEL_FREE_ARMS } from "../agent/mod.ts";
import { ChromiumBrowser } from "../browser/mod.ts";
import { describeError, HarnessError, OutFolderError, outFolderFault, UsageError } from "../errors/mod.ts";
import type { AnswerJudge } from "../grading/mod.ts";
import { Redactor, removeIfExists, runPool } from "../io/mod.ts";
import { APPS, fetchHealth, type Health, type SitesServer, startSites } from "../sites/mod.ts";
import { checkTaskSites, type RunTask } from "../tasks/mod.ts";
import type { RunConfig } from "./config.ts";
import { type EpisodeEnv, resultHead, runEpisode } from "./episode.ts";
import { liveHolder, lockOut, type RunLock } from "./lock.ts";
import { checkResume, runManifest, writeManifest } from "./manifest.ts";
import { resolveModelArm } from "./model_arms.ts";
import { noCounts, RunProgress, type StatusCounts } from "./progress.ts";
import { type EpisodeResult, resultKey, ResultsStore, statusOf } from "../results/mod.ts";

/** What a run needs besides its configuration. */
export interface RunInputs {
  /** Datagen, human or proposed tasks (they may be mixed). */
  tasks: RunTask[];
  /** The arm (default: the one `config.arm` names, a model arm checked against its server first). */
  arm?: Arm;
  signal?: AbortSignal;
  /** The LLM tier of human verifiers' answer checks. */
  qa?: AnswerJudge;
  /** Hides secrets in what the run writes (default: the configuration's, see runRedactor). */
  redactor?: Redactor;
  /**
   * Receives the progress lines: messages, one line per episode and summary lines (lib/run/progress.ts). Default:
   * stderr, with a live progress line when it is a terminal.
   */
  log?: (line: string) => void;
  /** Seconds for an episode's start, evidence and grading on top of --timeout (default: episode.ts's SAFETY_MARGIN_S). */
  safetyMarginS?: number;
}

/** What a run did: the episodes it ran (not those --resume found done), by status. */
export interface RunSummary {
  ran: number;
  /** How many of the episodes run ended with each status (lib/results statusOf). */
  counts: StatusCounts;
  /** Episodes --resume found already done, not run again. */
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

  /** Worker `worker`'s browser; a new one prepares its first episode's context for `base` at once. */
  async get(worker: number, base: string): Promise<ChromiumBrowser> {
    const current = this.#browsers[worker];
    if (current?.alive) return current;
    await current?.close().catch(() => {});
    const fresh = await ChromiumBrowser.launch({ executablePath: this.chromePath, prewarmOrigins: [base] });
    this.#browsers[worker] = fresh;
    return fresh;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#browsers.map((b) => b?.close().catch(() => {})));
  }
}

/**
 * Runs the configured arm over `tasks` × repeats. results.jsonl gets one line per episode as it ends; with
 * `config.resume`, (task, repeat) pairs already there are skipped and harness failures run again (timeouts too with
 * `config.retryTimeouts`), their new lines carrying `retried`.
 */
export async function runEval(config: RunConfig, inputs: RunInputs): Promise<RunSummary> {
  const log = inputs.log ?? ((line: string) => console.error(line));
  const { tasks, signal } = inputs;
  const redactor = inputs.redactor ?? runRedactor(config);
  // Everything that can refuse the run is checked before anything is written: the model server, the site
  // servers, the tasks against their apps, Chromium, the out folder's lock and manifest.
  const arm = inputs.arm ?? await resolveArm(config, tasks);
  let server: SitesServer | undefined;
  const browsers = new WorkerBrowsers(config.chromePath);
  let lock: RunLock | undefined;
  const summary: RunSummary = { ran: 0, counts: noCounts(), skipped: 0, results: [] };
  try {
    const bases = config.bases.length
      ? config.bases
      : [(server = await startSites({ apps: APPS, port: 0, now: config.now })).base];
    const health = new Map<string, Health>();
    for (const base of bases) health.set(base, await fetchHealth(base));
    for (const [base, h] of health) checkTaskSites(tasks, h.apps.map((a) => a.id), base);
    // Chromium too, as the first worker's browser (it runs that worker's episodes: no launch of its own).
    const chromium = await checkChromium(browsers, bases[0]);
    if (config.overwrite) {
      // Only now, every check passed: the earlier run goes (never one that still runs).
      const holder = await liveHolder(config.out);
      if (holder) throw new UsageError(`--overwrite: ${config.out} is in use by another run (${holder})`);
      await removeIfExists(config.out);
    }
    try {
      await Deno.mkdir(config.out, { recursive: true });
      lock = await lockOut(config.out);
    } catch (err) {
      throw outFolderFault(err, config.out) ?? err;
    }
    const store = await ResultsStore.open(join(config.out, "results.jsonl"), {
      retryErrors: config.resume,
      retryTimeouts: config.retryTimeouts,
    });
    const manifest = await runManifest(config, tasks, { arm, chromium });
    const stands = config.resume &&
      await checkResume(config.out, manifest, store.previous, { force: config.forceResume, log });
    if (!stands) await writeManifest(config.out, manifest);
    // Only now, the run going ahead: the lines of the episodes to run again leave results.jsonl.
    await store.setAsideRetries();
    const done = config.resume ? store.doneKeys() : new Set<string>();
    const queue: [RunTask, number][] = [];
    for (const task of tasks) {
      for (let r = 0; r < config.repeats; r++) if (!done.has(resultKey(task.task_id, r))) queue.push([task, r]);
    }
    summary.skipped = tasks.length * config.repeats - queue.length;
    if (config.resume) log(`resume: ${summary.skipped} episodes already in ${store.path}, ${queue.length} to run`);
    if (queue.length === 0) return summary;
    // Closed (its last summary line printed) however the pool ends.
    using progress = new RunProgress({ total: queue.length, log: inputs.log });
    const env: EpisodeEnv = {
      config,
      arm,
      qa: inputs.qa,
      signal,
      redactor,
      safetyMarginS: inputs.safetyMarginS,
      prompts: new Map(),
    };
    await runPool(queue, config.workers, async ([task, repeat], w) => {
      const base = bases[w % bases.length];
      let result: EpisodeResult;
      try {
        const { apps, rules } = health.get(base)!;
        const site = { base, apps, rules, browser: await browsers.get(w, base) };
        result = await runEpisode(task, repeat, site, env);
      } catch (err) {
        // The out folder refuses writes: the run stops (runPool rethrows once the running episodes end).
        if (err instanceof OutFolderError) throw err;
        // Launching the browser failed, or something outside the episode's own try: still one line per episode.
        result = { ...resultHead(task, repeat, config, arm.name), error: describeError(err).slice(0, 300) };
      }
      if (signal?.aborted) {
        // Cut short by the interrupt: not a result. Left out so that --resume runs it again.
        progress.line(`interrupted: ${result.episode} not recorded`);
        return;
      }
      // A rerun says what the run before it ended with (its line is in retried.jsonl).
      const retried = store.retriedFrom(task.task_id, repeat);
      const status = statusOf(result);
      result = redactor.value({ ...result, status, ...(retried ? { retried } : {}) });
      // A failed append (a full or read-only disk) stops the run; the store keeps what is recorded whole.
      await store.append(result);
      summary.ran++;
      summary.results.push(result);
      const why = result.error ?? (result.ok ? "" : result.detail ?? "");
      // Built from the redacted result: it carries no secret.
      progress.episode(
        status,
        `[${summary.ran}/${queue.length}] ${result.ok ? "OK  " : "FAIL"} ${result.episode} ${
          result.steps ?? 0
        } steps ` +
          `${result.duration_s}s ${why.slice(0, 120)}`,
      );
    }, signal);
    summary.counts = progress.snapshot.counts;
  } finally {
    await browsers.closeAll();
    await server?.close();
    await lock?.release();
  }
  return summary;
}

/**
 * Starts the first worker's Chromium before anything is written, and gives its version (run.json records it).
 * @throws HarnessError naming the executable and how to choose another (CHROME_PATH), when it does not start.
 */
async function checkChromium(browsers: WorkerBrowsers, base: string): Promise<string> {
  try {
    return await (await browsers.get(0, base)).version();
  } catch (err) {
    throw new HarnessError(`no episode can run: ${(err as Error).message}`, { cause: err });
  }
}

/** The run's redactor: the model server URL's credentials and the API keys it was given. */
export function runRedactor(config: RunConfig): Redactor {
  return new Redactor([
    config.model.apiKey,
    ...Redactor.secretsOf(config.model.vllm),
    ...config.bases.flatMap((b) => Redactor.secretsOf(b)),
  ]);
}
