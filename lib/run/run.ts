/**
 * A run: one arm over tasks × repeats with a pool of workers, K of them to a Chromium (relaunched when it dies),
 * each episode in its own context, on the embedded sandbox or on external site bases. results.jsonl gets one line per episode as it ends;
 * --resume skips (task, repeat) pairs already there.
 */
import { join } from "node:path";
import type { Arm } from "../agent/mod.ts";
import { ChromiumBrowser } from "../browser/mod.ts";
import { describeError, HarnessError, OutFolderError, outFolderFault, UsageError } from "../errors/mod.ts";
import type { AnswerJudge } from "../grading/mod.ts";
import { Redactor, removeIfExists, runPool } from "../io/mod.ts";
import { type JudgeEndpoint, OpenAiJudge } from "../llm/mod.ts";
import { APPS, fetchHealth, type Health, type SitesServer, startSites } from "../sites/mod.ts";
import { checkTaskSites, type RunTask } from "../tasks/mod.ts";
import { resolveArm } from "./arms.ts";
import type { RunConfig } from "./config.ts";
import { dryRunReport } from "./dry_run.ts";
import { type EpisodeEnv, resultHead, runEpisode } from "./episode.ts";
import { checkResume, runManifest, writeManifest } from "./manifest.ts";
import { prepareRun } from "./prepare.ts";
import { noCounts, RunProgress, type StatusCounts } from "./progress.ts";
import { liveHolder, lockOut, ResultsStore, type RunLock } from "../results/mod.ts";
import {
  describeCut,
  type EpisodeResult,
  type EpisodeStatus,
  resultKey,
  RUN_FILES,
  statusOf,
} from "../run_folder/mod.ts";

/** The progress line's word for each status: the seed's OK and FAIL, and the statuses its summary counts apart. */
const STATUS_LABEL: Readonly<Record<EpisodeStatus, string>> = {
  passed: "OK  ",
  failed: "FAIL",
  error: "ERROR",
  grade_error: "GRADE_ERROR",
  pending: "PENDING",
};

/** What a run needs besides its configuration. */
export interface RunInputs {
  /**
   * The whole task list, datagen, human or proposed tasks (they may be mixed), before selection: config.tasks'
   * taskIds and limit, then config.shard, apply to it. Default: the tasks config.tasks names (its task file, or the
   * human annotations).
   */
  tasks?: readonly RunTask[];
  /** The arm (default: the one `config.arm` names, a model arm checked against its server first). */
  arm?: Arm;
  /** Stops the run: the episodes under way finish, no more start. */
  signal?: AbortSignal;
  /** The LLM tier of human verifiers' answer checks (default: an OpenAiJudge on `judge`, when given). */
  qa?: AnswerJudge;
  /**
   * The answer judge's endpoint (eval.ts: from $WEBMIX_JUDGE_BASE_URL and its siblings): the LLM tier when `qa` is
   * absent; the run checks it may reach it when a task may use it; a dry run shows it.
   */
  judge?: JudgeEndpoint;
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
  /** Episodes run. */
  ran: number;
  /** How many of the episodes run ended with each status (lib/results statusOf). */
  counts: StatusCounts;
  /** Episodes --resume found already done, not run again. */
  skipped: number;
  /** The lines of the episodes run, as results.jsonl has them. */
  results: EpisodeResult[];
  /** With config.dryRun, the dry run's report (dry_run.ts), `task_count` among it; nothing ran. */
  dryRun?: Record<string, unknown>;
}

/**
 * The workers' browsers: worker w runs in browser ⌊w / K⌋ (K = workers per browser), each browser running up to K
 * episodes at once, each in its own context; launched on first use and again after it dies (once for all its
 * workers: the first to find it dead relaunches it, the others wait for that launch). A crash fails only the
 * episodes that browser was running.
 */
class WorkerBrowsers {
  #browsers: (ChromiumBrowser | undefined)[] = [];
  #launching = new Map<number, Promise<ChromiumBrowser>>();
  constructor(
    private readonly perBrowser: number,
    private readonly chromePath?: string,
    private readonly unresponsiveMs?: number,
  ) {}

  /** Worker `worker`'s browser; a new one prepares its first episode's context for `base` at once. */
  get(worker: number, base: string): Promise<ChromiumBrowser> {
    const slot = Math.floor(worker / this.perBrowser);
    const current = this.#browsers[slot];
    if (current?.alive) return Promise.resolve(current);
    let launch = this.#launching.get(slot);
    if (!launch) {
      launch = (async () => {
        await current?.close().catch(() => {});
        const fresh = await ChromiumBrowser.launch({
          executablePath: this.chromePath,
          prewarmOrigins: [base],
          maxEpisodes: this.perBrowser,
          unresponsiveMs: this.unresponsiveMs,
        });
        this.#browsers[slot] = fresh;
        return fresh;
      })().finally(() => this.#launching.delete(slot));
      this.#launching.set(slot, launch);
    }
    return launch;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#launching.values()]);
    await Promise.all(this.#browsers.map((b) => b?.close().catch(() => {})));
  }
}

/**
 * Runs the configured arm over the selected tasks × repeats. results.jsonl gets one line per episode as it ends;
 * with `config.resume`, (task, repeat) pairs already there are skipped and harness failures run again (timeouts too
 * with `config.retryTimeouts`), their new lines carrying `retried`. With `config.dryRun` it checks everything that
 * needs no server, returns the dry run's report, and writes, deletes and locks nothing.
 * @throws UsageError or TaskFormatError when a check refuses the run, before anything is written or deleted.
 */
export async function runEval(config: RunConfig, inputs: RunInputs = {}): Promise<RunSummary> {
  const log = inputs.log ?? ((line: string) => console.error(line));
  const { signal } = inputs;
  const redactor = inputs.redactor ?? runRedactor(config);
  // Everything that can refuse the run is checked before anything is written: the configuration's files, the tasks,
  // this process's permissions and the out folder (prepare.ts, where a dry run stops), then the model server, the
  // site servers, the tasks against their apps, Chromium, the out folder's lock and manifest.
  const { tasks, selection } = await prepareRun(config, inputs);
  const summary: RunSummary = { ran: 0, counts: noCounts(), skipped: 0, results: [] };
  if (config.dryRun) return { ...summary, dryRun: dryRunReport(config, tasks, inputs.judge, redactor) };
  const arm = inputs.arm ?? await resolveArm(config, tasks);
  const qa = inputs.qa ?? (inputs.judge ? await OpenAiJudge.create(inputs.judge) : undefined);
  const servers: SitesServer[] = [];
  const browsers = new WorkerBrowsers(
    Math.min(config.workersPerBrowser, config.workers),
    config.chromePath,
    config.browserPingTimeoutS * 1000,
  );
  let lock: RunLock | undefined;
  try {
    const bases = await siteBases(config, servers);
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
    const store = await ResultsStore.open(join(config.out, RUN_FILES.results), {
      retryErrors: config.resume,
      retryTimeouts: config.retryTimeouts,
    });
    // A line a crash cut short is said, not silently dropped: its episode runs again.
    if (store.cut) log(`resume: ${describeCut(store.path, store.cut)}`);
    const manifest = await runManifest(config, tasks, { arm, chromium, selection });
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
      qa,
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
        `[${summary.ran}/${queue.length}] ${STATUS_LABEL[status]} ${result.episode} ${result.steps ?? 0} steps ` +
          `${result.duration_s}s ${why.slice(0, 120)}`,
      );
    }, signal);
    summary.counts = progress.snapshot.counts;
  } finally {
    await browsers.closeAll();
    await Promise.all(servers.map((s) => s.close()));
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

/** Whether a TCP server listens on 127.0.0.1:`port`. */
async function listening(port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * The site bases of a run: --bases, then each of --ports (the server listening there, else the embedded sandbox
 * started on it, added to `started`); with neither, the embedded sandbox on a free port.
 * @throws UsageError when a port is free but cannot be listened on.
 */
async function siteBases(config: RunConfig, started: SitesServer[]): Promise<string[]> {
  const start = async (port: number) => {
    try {
      const s = await startSites({ apps: APPS, port, now: config.now });
      started.push(s);
      return s.base;
    } catch (err) {
      throw new UsageError(`--ports ${port}: cannot start the sandbox there: ${(err as Error).message}`);
    }
  };
  if (config.bases.length === 0 && config.ports.length === 0) return [await start(0)];
  const bases = [...config.bases];
  for (const port of config.ports) bases.push(await listening(port) ? `http://127.0.0.1:${port}` : await start(port));
  return bases;
}

/** The run's redactor: the model server URL's credentials and the API keys it was given. */
export function runRedactor(config: RunConfig): Redactor {
  return new Redactor([
    config.model.apiKey,
    ...Redactor.secretsOf(config.model.vllm),
    ...config.bases.flatMap((b) => Redactor.secretsOf(b)),
  ]);
}
