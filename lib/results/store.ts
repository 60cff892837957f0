/**
 * results.jsonl: one line per finished episode. Appends are serialised and whole: a write the disk cuts short (full,
 * gone read-only) is cut back, so the file holds whole lines only and the append fails naming the file. A crash
 * mid-write can still leave one partial last line, which opening the store cuts off (that episode runs again).
 */
import { dirname, join } from "node:path";
import { errorMessage, HarnessError } from "../errors/mod.ts";
import { appendWhole, parseJsonLines, writeFileAtomic } from "../io/mod.ts";

/**
 * What became of an episode: `passed` and `failed` are grades (a timeout is the agent's failure, as in the seed);
 * `error` is the harness failing (no grade: --resume runs it again); `grade_error` a grade that could not be computed
 * (regrade completes it); `pending` a proposed task's episode, which the judge decides.
 */
export type EpisodeStatus = "passed" | "failed" | "error" | "grade_error" | "pending";

/** The statuses in the order summaries list them. */
export const STATUSES: readonly EpisodeStatus[] = ["passed", "failed", "error", "grade_error", "pending"];

/** Whether a status is a grade (it counts in a pass rate): passed or failed. */
export const isGraded = (s: EpisodeStatus): boolean => s === "passed" || s === "failed";

/**
 * The status of a result line from its fields (a line from before `status` was written gets the same answer):
 * an `error` other than "timeout" is the harness's; a `grade_error` is one; a proposed episode's pending grade
 * ("pending: …", or `status: "pending"`) stays pending; else the grade.
 */
export function statusOf(r: Pick<EpisodeResult, "ok" | "error" | "grade_error" | "detail" | "status">): EpisodeStatus {
  if (typeof r.error === "string" && r.error !== "" && r.error !== TIMEOUT_ERROR) return "error";
  if (r.grade_error) return "grade_error";
  if (r.status === "pending" || (!r.ok && typeof r.detail === "string" && r.detail.startsWith("pending:"))) {
    return "pending";
  }
  return r.ok ? "passed" : "failed";
}

/** One episode's line, with the seed's fields. */
export interface EpisodeResult {
  task_id: string;
  episode: string;
  macro: string;
  site: string;
  arm: string;
  /** The task's action family (from its macro: lib/tasks familyOf). */
  family?: string;
  /** What became of the episode (statusOf), written with every line. */
  status?: EpisodeStatus;
  ok: boolean;
  detail?: string;
  steps?: number;
  answer?: string | null;
  done?: boolean;
  models?: string[];
  errors?: string[];
  duration_s: number;
  error?: string;
  /** Set when the grade itself could not be computed; regrade.ts completes it. */
  grade_error?: boolean;
  repeat: number;
  /** Some model reply was decoded under the stripped schema an old vLLM server needs (docs/serving.md). */
  schema_fallback?: boolean;
  /** agent_planner: each delegated step as [family, subtask, steps used]. */
  subtasks?: [string, string, number][];
  /** Where the episode's time went: a fresh context, session start and setup, the arm, evidence and grading. */
  timing?: { context_ms: number; setup_ms: number; agent_ms: number; finish_ms: number };
  /** Set on the line of an episode --resume ran again: what the previous run of it ended with (retried.jsonl). */
  retried?: RetriedFrom;
  [extra: string]: unknown;
}

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

/** `task_id` for a single run, `task_id~rN` when a run repeats tasks (the seed's episode names). */
export function episodeName(taskId: string, repeat: number, repeats: number): string {
  return repeats > 1 ? `${taskId}~r${repeat}` : taskId;
}

/** What the line of an episode run again by --resume says about the run before. */
export interface RetriedFrom {
  /** The previous run's `error` (a harness failure, or "timeout" with --retry-timeouts). */
  error: string;
  /** How many runs of this episode ended in an error that was run again, this one's previous included. */
  count: number;
}

/** The `error` of an episode whose arm ran past --timeout. */
export const TIMEOUT_ERROR = "timeout";

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

/** The resume key of an episode. */
export const resultKey = (taskId: string, repeat: number) => `${taskId}\u0000${repeat}`;

/** Parses results.jsonl text; a malformed line is an error naming the file and line, except a partial last line. */
export function parseResults(text: string, file: string): { results: EpisodeResult[]; partialTail: number } {
  const fail = (line: number, message: string, cause?: unknown) =>
    new HarnessError(`cannot read ${file} line ${line}: ${message}`, { cause });
  // The text after the last newline is "" or a line cut short by a crash.
  const { lines, partialTail } = parseJsonLines(text, fail, { partialTail: true });
  const results = lines.map(({ line, value }) => {
    const r = value as EpisodeResult;
    if (typeof r?.task_id !== "string") throw fail(line, "task_id is missing");
    return { ...r, repeat: typeof r.repeat === "number" ? r.repeat : 0 };
  });
  return { results, partialTail };
}

/** The append-only results file of a run. */
export class ResultsStore {
  /** The appends under way, one after another: a failed one cuts back only its own bytes. */
  #appending: Promise<unknown> = Promise.resolve();

  /** The lines taken out to run again, by resume key (the last one of each). */
  readonly retrying: ReadonlyMap<string, EpisodeResult>;
  /** Every line taken out to run again, in file order. */
  readonly #failed: readonly EpisodeResult[];

  private constructor(readonly path: string, readonly previous: EpisodeResult[], failed: readonly EpisodeResult[]) {
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
    let text = "";
    try {
      text = await Deno.readTextFile(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) {
        throw new HarnessError(`cannot read ${path}: ${errorMessage(err)}`, { cause: err });
      }
    }
    const { results, partialTail } = parseResults(text, path);
    const failed = results.filter((r) => isRetried(r, options));
    const kept = results.filter((r) => !isRetried(r, options));
    try {
      // Created now, so that a folder that takes no file stops the run before any episode.
      (await Deno.open(path, { append: true, create: true })).close();
      if (partialTail > 0) await Deno.truncate(path, new TextEncoder().encode(text).length - partialTail);
    } catch (err) {
      throw new HarnessError(`cannot write ${path}: ${errorMessage(err)}`, { cause: err });
    }
    return new ResultsStore(path, kept, failed);
  }

  /**
   * Moves the lines of the episodes to run again (`retrying`) from results.jsonl to retried.jsonl beside it, so the
   * file keeps one line per episode. Called once the run is sure to go ahead: a refused --resume leaves the folder as
   * it was.
   * @throws HarnessError naming the file when it cannot be written.
   */
  async setAsideRetries(): Promise<void> {
    if (this.#failed.length === 0) return;
    const lines = (rs: Iterable<EpisodeResult>) => [...rs].map((r) => JSON.stringify(r) + "\n").join("");
    try {
      // Keep the failed lines first, then replace results.jsonl whole: a crash in between loses nothing.
      await Deno.writeTextFile(join(dirname(this.path), "retried.jsonl"), lines(this.#failed), { append: true });
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
    const line = new TextEncoder().encode(JSON.stringify(result) + "\n");
    const done = this.#appending.then(() => appendWhole(this.path, line, `the line of episode "${result.episode}"`));
    this.#appending = done.catch(() => {});
    return done;
  }
}
