/**
 * results.jsonl: one line per finished episode. Appends are serialised and whole: a write the disk cuts short (full,
 * gone read-only) is cut back, so the file holds whole lines only and the append fails naming the file. A crash
 * mid-write can still leave one partial last line, which opening the store cuts off (that episode runs again).
 */
import { dirname, join } from "node:path";
import { errorMessage, HarnessError } from "../errors/mod.ts";
import { appendWhole, writeFileAtomic } from "../io/mod.ts";
import {
  type CutLine,
  type EpisodeResult,
  LIMITS,
  parseResults,
  readFolderText,
  resultKey,
  resultLine,
  type RetriedFrom,
  RUN_FILES,
  TIMEOUT_ERROR,
} from "../run_folder/mod.ts";

/**
 * The fields of an episode whose arm failed its part (a reference step): failed whatever the grade says, which the
 * detail adds. The runner and regrade both label such an episode this way.
 */
export function armFailedFields(
  failure: string,
  verdict: { ok: boolean; detail: string },
): Pick<EpisodeResult, "ok" | "detail" | "arm_failure"> {
  const detail = `${failure} (the grade said: ${verdict.ok ? "passed" : verdict.detail})`;
  return { ok: false, detail: detail.slice(0, 300), arm_failure: failure.slice(0, 300) };
}

/** Which recorded episodes --resume runs again. */
export interface RetryPolicy {
  /** Rerun the harness's failures: an `error` other than a timeout (--resume). */
  retryErrors?: boolean;
  /** Rerun timeouts too (--retry-timeouts). */
  retryTimeouts?: boolean;
}

/**
 * Whether --resume runs an episode again. Only what the harness failed is: its line has an `error` (the browser
 * died, the model server was unreachable or failed past its retries, the site server went away, the episode was
 * given up). A timeout is the seed's recorded failure (the agent was too slow) and stays unless `retryTimeouts`;
 * an agent's failure is a verdict (no `error`) and always stays.
 */
export function isRetried(r: EpisodeResult, policy: RetryPolicy): boolean {
  if (!policy.retryErrors || typeof r.error !== "string" || r.error === "") return false;
  return r.error !== TIMEOUT_ERROR || Boolean(policy.retryTimeouts);
}

/** The append-only results file of a run. */
export class ResultsStore {
  /** The appends under way, one after another: a failed one cuts back only its own bytes. */
  #appending: Promise<unknown> = Promise.resolve();

  /** The lines taken out to run again, by resume key (the last one of each). */
  readonly retrying: ReadonlyMap<string, EpisodeResult>;
  /** Every line taken out to run again, in file order. */
  readonly #failed: readonly EpisodeResult[];

  private constructor(
    readonly path: string,
    readonly previous: EpisodeResult[],
    failed: readonly EpisodeResult[],
    /** The last line a crash had cut short, which opening the store cut off (its episode runs again). */
    readonly cut?: CutLine,
  ) {
    this.#failed = failed;
    this.retrying = new Map(failed.map((r) => [resultKey(r.task_id, r.repeat), r]));
  }

  /**
   * Opens (creating) results.jsonl; cuts a partial last line left by a crash. With `retryErrors` (--resume), the
   * episodes the harness failed to finish (isRetried: an `error` other than "timeout", or any `error` with
   * `retryTimeouts`) are not in `previous`: they run again, once `setAsideRetries` has moved their lines out.
   * @throws HarnessError naming the file when it cannot be read, or written (the folder is read-only or full):
   *   a run finds out before its first episode.
   */
  static async open(path: string, options: RetryPolicy = {}): Promise<ResultsStore> {
    const text = await readFolderText(path, LIMITS.resultsFile) ?? "";
    const { results, cut } = parseResults(text, path);
    const failed = results.filter((r) => isRetried(r, options));
    const kept = results.filter((r) => !isRetried(r, options));
    try {
      // Created now, so that a folder that takes no file stops the run before any episode.
      (await Deno.open(path, { append: true, create: true })).close();
      if (cut) await Deno.truncate(path, new TextEncoder().encode(text).length - cut.bytes);
    } catch (err) {
      throw new HarnessError(`cannot write ${path}: ${errorMessage(err)}`, { cause: err });
    }
    return new ResultsStore(path, kept, failed, cut);
  }

  /**
   * Moves the lines of the episodes to run again (`retrying`) from results.jsonl to retried.jsonl beside it, so the
   * file keeps one line per episode. Called once the run is sure to go ahead: a refused --resume leaves the folder as
   * it was.
   * @throws HarnessError naming the file when it cannot be written.
   */
  async setAsideRetries(): Promise<void> {
    if (this.#failed.length === 0) return;
    const lines = (rs: Iterable<EpisodeResult>) => [...rs].map(resultLine).join("");
    try {
      // Keep the failed lines first, then replace results.jsonl whole: a crash in between loses nothing.
      await Deno.writeTextFile(join(dirname(this.path), RUN_FILES.retried), lines(this.#failed), { append: true });
      await writeFileAtomic(this.path, lines(this.previous));
    } catch (err) {
      throw new HarnessError(`cannot write ${this.path}: ${errorMessage(err)}`, { cause: err });
    }
  }

  /**
   * The `retried` field of the new line of an episode run again (what its previous run ended with), or undefined
   * when the episode was not taken out to run again.
   */
  retriedFrom(taskId: string, repeat: number): RetriedFrom | undefined {
    const before = this.retrying.get(resultKey(taskId, repeat));
    if (!before?.error) return undefined;
    return { error: before.error, count: (before.retried?.count ?? 0) + 1 };
  }

  /** Keys (task, repeat) of the episodes already recorded. */
  doneKeys(): Set<string> {
    return new Set(this.previous.map((r) => resultKey(r.task_id, r.repeat)));
  }

  /**
   * Appends the episode's line, whole or not at all; appends run one after another.
   * @throws HarnessError naming the episode and the file when the line cannot be written (the file is then as it
   *   was before, unless cutting the partial line back failed too: the error says so, and the next open cuts it).
   */
  append(result: EpisodeResult): Promise<void> {
    const line = new TextEncoder().encode(resultLine(result));
    const done = this.#appending.then(() => appendWhole(this.path, line, `the line of episode "${result.episode}"`));
    this.#appending = done.catch(() => {});
    return done;
  }
}
