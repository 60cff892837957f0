/**
 * A run: one arm over tasks × repeats with a pool of workers, each with its own Chromium (relaunched when it
 * dies), on the embedded sandbox or on external site bases. results.jsonl gets one line per episode as it ends;
 * --resume skips (task, repeat) pairs already there.
 */
import { join } from "node:path";
import { ChromiumBrowser } from "../browser/mod.ts";
import { describeError, SiteProtocolError } from "../errors/mod.ts";
import { APPS, type SitesServer, startSites } from "../sites/mod.ts";
import type { AnswerJudge } from "../llm/mod.ts";
import type { RunTask } from "./kinds.ts";
import type { Arm } from "../agent/mod.ts";
import { runEpisode } from "./episode.ts";
import { runPool } from "./pool.ts";
import { episodeName, type EpisodeResult, resultKey, ResultsStore } from "./results.ts";

export interface RunOptions {
  /** Datagen, human or proposed tasks (they may be mixed). */
  tasks: RunTask[];
  arm: Arm;
  out: string;
  workers?: number;
  repeats?: number;
  timeoutS?: number;
  maxSteps?: number;
  resume?: boolean;
  /** External site servers; empty: start the embedded sandbox on a free port. */
  bases?: string[];
  /** The embedded sandbox's frozen clock. */
  now?: string;
  uploadDir?: string;
  stepScreenshots?: boolean;
  chromePath?: string;
  signal?: AbortSignal;
  recordRows?: boolean;
  recordFamily?: string;
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

async function checkBase(base: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${base}/_admin/health`, { signal: AbortSignal.timeout(5000) });
  } catch (err) {
    throw new SiteProtocolError(`cannot reach the site server at ${base}: ${(err as Error).message}`, { cause: err });
  }
  const body = await res.text();
  if (!res.ok) throw new SiteProtocolError(`${base}/_admin/health answered ${res.status}: ${body.slice(0, 200)}`);
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

export async function runEval(o: RunOptions): Promise<RunSummary> {
  const log = o.log ?? ((line: string) => console.error(line));
  const repeats = o.repeats ?? 1;
  await Deno.mkdir(o.out, { recursive: true });
  const store = await ResultsStore.open(join(o.out, "results.jsonl"), { retryErrors: o.resume });
  const done = o.resume ? store.doneKeys() : new Set<string>();
  const queue: [RunTask, number][] = [];
  for (const task of o.tasks) {
    for (let r = 0; r < repeats; r++) if (!done.has(resultKey(task.task_id, r))) queue.push([task, r]);
  }
  const skipped = o.tasks.length * repeats - queue.length;
  if (o.resume) log(`resume: ${skipped} episodes already in ${store.path}, ${queue.length} to run`);
  const summary: RunSummary = { ran: 0, ok: 0, fail: 0, skipped, results: [] };
  if (queue.length === 0) return summary;

  let server: SitesServer | undefined;
  const browsers = new WorkerBrowsers(o.chromePath);
  try {
    const bases = o.bases?.length ? o.bases : [(server = await startSites({ apps: APPS, port: 0, now: o.now })).base];
    for (const base of bases) await checkBase(base);
    const episodeOpts = {
      out: o.out,
      arm: o.arm,
      repeats,
      timeoutS: o.timeoutS ?? 600,
      maxSteps: o.maxSteps ?? 40,
      uploadDir: o.uploadDir ?? new URL("../../fixtures/uploads", import.meta.url).pathname,
      stepScreenshots: o.stepScreenshots ?? true,
      signal: o.signal,
      recordRows: o.recordRows,
      recordFamily: o.recordFamily,
      qa: o.qa,
    };
    await runPool(queue, o.workers ?? 1, async ([task, repeat], w) => {
      let result: EpisodeResult;
      try {
        result = await runEpisode(task, repeat, bases[w % bases.length], await browsers.get(w), episodeOpts);
      } catch (err) {
        // Launching the browser failed, or something outside the episode's own try: still one line per episode.
        result = {
          task_id: task.task_id,
          episode: episodeName(task.task_id, repeat, repeats),
          macro: task.macro,
          site: task.site,
          arm: o.arm.name,
          ok: false,
          error: describeError(err).slice(0, 300),
          duration_s: 0,
          repeat,
        };
      }
      if (o.signal?.aborted) {
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
    }, o.signal);
  } finally {
    await browsers.closeAll();
    await server?.close();
  }
  return summary;
}
