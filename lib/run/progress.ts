/**
 * A run's progress on stderr. On a terminal: one live line, redrawn in place every second and after each episode
 * (done/total, elapsed, ETA, running pass rate, errors), with each episode's line printed above it. In a log (no
 * terminal: a Slurm job, a pipe): each episode's line, plus a summary line every 60 s or every 25 episodes,
 * whichever comes first, and one at the end. The formatters are pure; RunProgress only decides when to print.
 */
import { type EpisodeStatus, isGraded, STATUSES } from "../run_folder/mod.ts";

/** How many episodes ended with each status. */
export type StatusCounts = Record<EpisodeStatus, number>;

/** Every status at 0. */
export const noCounts = (): StatusCounts => Object.fromEntries(STATUSES.map((s) => [s, 0])) as StatusCounts;

/** Where a run stands. */
interface ProgressSnapshot {
  done: number;
  total: number;
  elapsedMs: number;
  counts: StatusCounts;
}

/** A duration as "45s", "3m05s" or "2h07m". */
export function formatDuration(ms: number): string {
  const s = Math.round(Math.max(0, ms) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** The time still to go at the pace so far (episodes end in parallel: elapsed per episode done); undefined before the first. */
export function etaMs(elapsedMs: number, done: number, total: number): number | undefined {
  if (done <= 0) return undefined;
  return (elapsedMs / done) * Math.max(0, total - done);
}

/** The pass rate over graded episodes (passed and failed; errors and pending left out), e.g. "87.5% of 8 graded". */
export function passRate(counts: StatusCounts): string {
  const graded = STATUSES.filter(isGraded).reduce((n, s) => n + counts[s], 0);
  return graded === 0 ? "none graded" : `${(100 * counts.passed / graded).toFixed(1)}% of ${graded} graded`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "56 passed, 0 failed (100.0% of 56 graded); 0 errors, 0 grade errors, 0 pending": the grades, then errors apart. */
export function formatStatusCounts(counts: StatusCounts): string {
  return `${counts.passed} passed, ${counts.failed} failed (${passRate(counts)}); ` +
    `${plural(counts.error, "error", "errors")}, ${plural(counts.grade_error, "grade error", "grade errors")}, ` +
    `${counts.pending} pending`;
}

/** The ETA while episodes are left ("" once none is): ", ETA 4m10s" (", ETA ?" before the first ends). */
function eta(p: ProgressSnapshot): string {
  if (p.done >= p.total) return "";
  const ms = etaMs(p.elapsedMs, p.done, p.total);
  return `, ETA ${ms === undefined ? "?" : formatDuration(ms)}`;
}

/** The log's summary line: "progress: 25/56 episodes, 3m05s elapsed, ETA 4m10s; 20 passed, 3 failed (…); …". */
export function formatProgress(p: ProgressSnapshot): string {
  return `progress: ${p.done}/${p.total} episodes, ${formatDuration(p.elapsedMs)} elapsed${eta(p)}; ` +
    formatStatusCounts(p.counts);
}

/** The terminal's live line, at most `columns` - 1 characters: "[########........] 28/56 1m10s, ETA 1m10s | …". */
export function formatBar(p: ProgressSnapshot, columns = 80): string {
  const width = 16;
  const filled = p.total > 0 ? Math.round((width * p.done) / p.total) : width;
  const bar = `[${"#".repeat(filled)}${".".repeat(width - filled)}]`;
  const text = `${bar} ${p.done}/${p.total} ${formatDuration(p.elapsedMs)}${eta(p)} | pass ${passRate(p.counts)} | ` +
    plural(p.counts.error, "error", "errors");
  return text.length < columns ? text : text.slice(0, Math.max(0, columns - 2)) + "…";
}

/** When RunProgress prints, and where. */
interface ProgressOptions {
  /** Episodes the run will run. */
  total: number;
  /**
   * Receives every line, in the log's form (episode lines and summary lines). Default: stderr, with the live line
   * when stderr is a terminal.
   */
  log?: (line: string) => void;
  /** The clock, in ms (tests). */
  now?: () => number;
  /** How often the clock ticks (redraw on a terminal, a due summary in a log); 0: never, tests call tick(). */
  tickMs?: number;
  /** In a log: a summary line at least this often (ms) ... */
  summaryEveryMs?: number;
  /** ... or after this many episodes, whichever comes first. */
  summaryEveryEpisodes?: number;
}

/** Writes text to stderr whole (writeSync may write part of it). */
function writeStderr(text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let n = 0; n < bytes.length;) n += Deno.stderr.writeSync(bytes.subarray(n));
}

/** The terminal's width, 80 when it cannot be read (or reads 0, as a pseudo-terminal without a size does). */
function columns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}

/** Erases the terminal's current line. */
const CLEAR_LINE = "\r\x1b[2K";

/** A run's progress display: a live line on a terminal, periodic summary lines in a log (see the module doc). */
export class RunProgress implements Disposable {
  readonly #total: number;
  readonly #log: ((line: string) => void) | undefined;
  readonly #now: () => number;
  readonly #start: number;
  readonly #everyMs: number;
  readonly #everyEpisodes: number;
  readonly #counts: StatusCounts = noCounts();
  readonly #timer: ReturnType<typeof setInterval> | undefined;
  #done = 0;
  #summarized = { at: 0, done: 0 };
  #closed = false;

  constructor(options: ProgressOptions) {
    this.#total = options.total;
    // A caller's log takes the log's form; stderr does when it is no terminal.
    this.#log = options.log ?? (Deno.stderr.isTerminal() ? undefined : (line) => writeStderr(`${line}\n`));
    this.#now = options.now ?? (() => performance.now());
    this.#start = this.#now();
    this.#summarized.at = this.#start;
    this.#everyMs = options.summaryEveryMs ?? 60_000;
    this.#everyEpisodes = options.summaryEveryEpisodes ?? 25;
    const tickMs = options.tickMs ?? 1000;
    if (tickMs > 0) this.#timer = setInterval(() => this.tick(), tickMs);
    this.#redraw();
  }

  /** Where the run stands now. */
  get snapshot(): ProgressSnapshot {
    return { done: this.#done, total: this.#total, elapsedMs: this.#now() - this.#start, counts: { ...this.#counts } };
  }

  /** A line of its own (a message): above the live line on a terminal. */
  line(text: string): void {
    if (this.#log) this.#log(text);
    else writeStderr(`${CLEAR_LINE}${text}\n${this.#closed ? "" : formatBar(this.snapshot, columns())}`);
  }

  /** An episode ended with `status`: its line is printed, then the live line or, when one is due, a summary line. */
  episode(status: EpisodeStatus, text: string): void {
    this.#done++;
    this.#counts[status]++;
    this.line(text);
    const due = this.#done - this.#summarized.done >= this.#everyEpisodes ||
      this.#now() - this.#summarized.at >= this.#everyMs;
    if (this.#log && due) this.#summary();
  }

  /** The clock's tick: the live line redrawn (elapsed, ETA), or in a log a summary once 60 s passed without one. */
  tick(): void {
    if (this.#closed) return;
    if (!this.#log) this.#redraw();
    else if (this.#now() - this.#summarized.at >= this.#everyMs) this.#summary();
  }

  /** Stops the clock and prints the final summary line (in place of the live line on a terminal). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    if (!this.#log) writeStderr(`${CLEAR_LINE}${formatProgress(this.snapshot)}\n`);
    else if (this.#summarized.done !== this.#done || this.#done === 0) this.#summary();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #summary(): void {
    this.#summarized = { at: this.#now(), done: this.#done };
    this.#log?.(formatProgress(this.snapshot));
  }

  #redraw(): void {
    if (!this.#log && !this.#closed) writeStderr(CLEAR_LINE + formatBar(this.snapshot, columns()));
  }
}
