/**
 * results.jsonl: one line per finished episode, appended as one write so a crash leaves at most one partial last
 * line, which opening the store for resume cuts off (that episode runs again).
 */
import { dirname, join } from "node:path";
import { HarnessError } from "../errors/mod.ts";
import { parseJsonLines, writeFileAtomic } from "../io/mod.ts";

/** One episode's line, with the seed's fields. */
export interface EpisodeResult {
  task_id: string;
  episode: string;
  macro: string;
  site: string;
  arm: string;
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
  /** Where the episode's time went: a fresh context, session start and setup, the arm, evidence and grading. */
  timing?: { context_ms: number; setup_ms: number; agent_ms: number; finish_ms: number };
  [extra: string]: unknown;
}

/** `task_id` for a single run, `task_id~rN` when a run repeats tasks (the seed's episode names). */
export function episodeName(taskId: string, repeat: number, repeats: number): string {
  return repeats > 1 ? `${taskId}~r${repeat}` : taskId;
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
  private constructor(readonly path: string, readonly previous: EpisodeResult[]) {}

  /**
   * Opens (creating) results.jsonl; cuts a partial last line left by a crash. With `retryErrors` (--resume),
   * episodes the harness failed to finish (an `error`: model server down, browser crash, timeout) leave
   * results.jsonl for retried.jsonl beside it, so they run again and the file keeps one line per episode.
   */
  static async open(path: string, options: { retryErrors?: boolean } = {}): Promise<ResultsStore> {
    let text = "";
    try {
      text = await Deno.readTextFile(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    const { results, partialTail } = parseResults(text, path);
    if (partialTail > 0) {
      const size = new TextEncoder().encode(text).length;
      await Deno.truncate(path, size - partialTail);
    }
    const failed = options.retryErrors ? results.filter((r) => r.error) : [];
    if (failed.length === 0) return new ResultsStore(path, results);
    const kept = results.filter((r) => !r.error);
    const lines = (rs: EpisodeResult[]) => rs.map((r) => JSON.stringify(r) + "\n").join("");
    // Keep the failed lines first, then replace results.jsonl whole: a crash in between loses nothing.
    await Deno.writeTextFile(join(dirname(path), "retried.jsonl"), lines(failed), { append: true });
    await writeFileAtomic(path, lines(kept));
    return new ResultsStore(path, kept);
  }

  /** Keys (task, repeat) of the episodes already recorded. */
  doneKeys(): Set<string> {
    return new Set(this.previous.map((r) => resultKey(r.task_id, r.repeat)));
  }

  /** Appends one line in a single write. */
  async append(result: EpisodeResult): Promise<void> {
    await Deno.writeTextFile(this.path, JSON.stringify(result) + "\n", { append: true, create: true });
  }
}
