/**
 * results.jsonl (and results_regraded.jsonl, retried.jsonl): one line per episode. The line's schema, its status,
 * and the reader that names the file and line of whatever is wrong, a line a crash cut short included.
 * @module
 */
import { z } from "zod";
import { type CutLine, type FileFormat, fileFormat, LIMITS, parseRecordLines, type Same, serialise } from "./format.ts";

export type { CutLine };

/**
 * What became of an episode: `passed` and `failed` are grades (a timeout is the agent's failure, as in the seed);
 * `error` is the harness failing (no grade: --resume runs it again); `grade_error` a grade that could not be computed
 * (regrade completes it); `pending` a proposed task's episode, which the judge decides.
 */
export type EpisodeStatus = "passed" | "failed" | "error" | "grade_error" | "pending";

/** The statuses in the order summaries list them. */
export const STATUSES: readonly EpisodeStatus[] = ["passed", "failed", "error", "grade_error", "pending"];

/** The `error` of an episode whose arm ran past --timeout. */
export const TIMEOUT_ERROR = "timeout";

/** `task_id` for a single run, `task_id~rN` when a run repeats tasks (the seed's episode names). */
export function episodeName(taskId: string, repeat: number, repeats: number): string {
  return repeats > 1 ? `${taskId}~r${repeat}` : taskId;
}

/** The longest episode name: a task id (lib/tasks MAX_TASK_ID) with its `~r<K>`, and room to spare. */
const MAX_EPISODE_NAME = 200;

/**
 * Why `name` cannot be an episode's folder name, or undefined when it can: one plain name inside the run's folder
 * (no path separator, no leading dot, so neither `.` nor `..`, no control character, at most 200 characters). A
 * name from a results line is data: one that would lead out of the run's folder is never followed.
 */
function episodeNameProblem(name: string): string | undefined {
  const quoted = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  // deno-lint-ignore no-control-regex
  const bad = /[/\\\u0000-\u001f\u007f]/.exec(name)?.[0];
  if (name === "") return "is empty";
  if (bad !== undefined) return `${quoted} holds ${JSON.stringify(bad)}`;
  if (name.startsWith(".")) return `${quoted} starts with a dot`;
  if (name.length > MAX_EPISODE_NAME) {
    return `${quoted} is ${name.length} characters long (at most ${MAX_EPISODE_NAME})`;
  }
  return undefined;
}

const episodeNameSchema = z.string().superRefine((name, ctx) => {
  const problem = episodeNameProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: `cannot name an episode's folder: ${problem}`, input: name });
});

/** The results line's schema (docs/output-layout.md, "results.jsonl"). */
export const resultLineSchema = z.looseObject({
  format_version: z.number().optional(),
  task_id: z.string().min(1),
  episode: episodeNameSchema,
  macro: z.string(),
  site: z.string(),
  arm: z.string(),
  family: z.string().optional(),
  cluster: z.string().min(1).optional(),
  style: z.string().min(1).optional(),
  status: z.enum(["passed", "failed", "error", "grade_error", "pending"]).optional(),
  ok: z.boolean(),
  detail: z.string().optional(),
  reason: z.string().regex(/^[a-z_]+$/).max(40).optional(),
  steps: z.number().int().min(0).optional(),
  answer: z.string().nullable().optional(),
  done: z.boolean().optional(),
  models: z.array(z.string()).optional(),
  errors: z.array(z.string()).optional(),
  duration_s: z.number().min(0),
  error: z.string().optional(),
  grade_error: z.boolean().optional(),
  repeat: z.number().int().min(0),
  schema_fallback: z.boolean().optional(),
  subtasks: z.array(z.tuple([z.string(), z.string(), z.number()])).optional(),
  timing: z.strictObject({
    context_ms: z.number(),
    setup_ms: z.number(),
    agent_ms: z.number(),
    finish_ms: z.number(),
  }).optional(),
  retried: z.strictObject({ error: z.string(), count: z.number().int().min(1) }).optional(),
  arm_failure: z.string().optional(),
  rows: z.number().int().min(0).optional(),
  regraded: z.boolean().optional(),
  regrade_error: z.string().optional(),
  evidence: z.literal("seed").optional(),
});

/** One episode's line, with the seed's fields (docs/output-layout.md, "results.jsonl"). */
export interface EpisodeResult {
  /** The line's format (RESULT_LINE's version when written; absent in a line of version 1). */
  format_version?: number;
  /** The task the episode ran. */
  task_id: string;
  /** The episode's folder name: the task id, with `~r<K>` when the run repeats tasks. */
  episode: string;
  /** The task's macro. */
  macro: string;
  /** The task's app. */
  site: string;
  /** The arm that ran. */
  arm: string;
  /** The task macro's action family. */
  family?: string;
  /**
   * The cluster the episode's outcome is not independent of: a generated task's template (`gen.template`), else the
   * task's own id (a hand-written, human or proposed task: a cluster of one, its repeats inside it). Absent in a
   * line written before the field was (the report derives it from the task id).
   */
  cluster?: string;
  /** The task line's `style` (a generated task's phrasing style), when it has one. */
  style?: string;
  /** What became of the episode (statusOf). */
  status?: EpisodeStatus;
  /** The grade. */
  ok: boolean;
  /** The grade's explanation: the first failing condition, or "passed". */
  detail?: string;
  /** A failing grade's rule (lib/grading's reason codes: `unclaimed_write`, `answer_wrong`, ...). */
  reason?: string;
  /** Steps the arm took. */
  steps?: number;
  /** The arm's answer (done's text). */
  answer?: string | null;
  /** Whether the arm ended with done. */
  done?: boolean;
  /** The served model of each request. */
  models?: string[];
  /** The episode's first action errors. */
  errors?: string[];
  /** Wall time of the episode. */
  duration_s: number;
  /** "timeout", or the harness failure `<ErrorClass>: message`. */
  error?: string;
  /** The grade itself could not be computed; regrade completes it. */
  grade_error?: boolean;
  /** Which repeat (from 0). */
  repeat: number;
  /** Some reply was decoded under the stripped schema an old vLLM server needs. */
  schema_fallback?: boolean;
  /** agent_planner: each delegated step as [family, subtask, steps used]. */
  subtasks?: [string, string, number][];
  /** Where the episode's time went, in ms. */
  timing?: { context_ms: number; setup_ms: number; agent_ms: number; finish_ms: number };
  /** A rerun by --resume: what the run before it ended with. */
  retried?: RetriedFrom;
  /** The arm could not play its part (a reference step failed): failed whatever the grade said. */
  arm_failure?: string;
  /** --record-rows: the rows the episode left. */
  rows?: number;
  /** results_regraded.jsonl: the line was regraded. */
  regraded?: boolean;
  /** results_regraded.jsonl: why the grade is a grade error (its inputs could not be read). */
  regrade_error?: string;
  /** results_regraded.jsonl: "seed" when graded on the seed's grade inputs (docs/seed-differences.md). */
  evidence?: "seed";
  /** Fields a later version may add. */
  [extra: string]: unknown;
}

/** What the line of an episode run again by --resume says about the run before. */
export interface RetriedFrom {
  /** The previous run's `error` (a harness failure, or "timeout" with --retry-timeouts). */
  error: string;
  /** How many runs of this episode ended in an error that was run again, this one's previous included. */
  count: number;
}

const _sameFields: Same<z.output<typeof resultLineSchema>, EpisodeResult> = true;

/** A line written before `episode` and `repeat` were: its folder is its task id, its repeat 0. */
function migrateResult(line: Record<string, unknown>): Record<string, unknown> {
  return { ...line, episode: line.episode ?? line.task_id, repeat: line.repeat ?? 0 };
}

/** results.jsonl's line. */
const RESULT_LINE: FileFormat<EpisodeResult> = fileFormat({
  what: "results line",
  // 2: format_version written, and every line has `episode` and `repeat`.
  version: 2,
  maxBytes: LIMITS.resultsFile,
  maxLineBytes: LIMITS.resultLine,
  schema: resultLineSchema,
  // Version 1 (no format_version): the same layout, but a line from before `episode` and `repeat` lacks them.
  migrate: migrateResult,
});

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

/** Whether a status is a grade (it counts in a pass rate): passed or failed. */
export const isGraded = (s: EpisodeStatus): boolean => s === "passed" || s === "failed";

/** The resume key of an episode. */
export const resultKey = (taskId: string, repeat: number): string => `${taskId}\u0000${repeat}`;

/** An episode's line as results.jsonl holds it (validated; a newline at its end). */
export function resultLine(r: EpisodeResult): string {
  return serialise(RESULT_LINE, r, `the line of episode "${r.episode}"`) + "\n";
}

/** What a results file holds. */
export interface ResultsText {
  /** The lines, in file order (a cut last line left out). */
  results: EpisodeResult[];
  /** The last line, when a crash cut it short (its episode is not in `results`: --resume runs it again). */
  cut?: CutLine;
}

/**
 * Parses the text of a results file. A line that is not a results line (not JSON, a field of the wrong type, an
 * episode name that would leave the folder, a newer format_version) is an error naming the file and line; a last line
 * without its newline is a line a crash cut short, returned apart (`cut`), never silently dropped.
 * @throws RunFolderError naming the file and line
 */
export function parseResults(text: string, file: string): ResultsText {
  const { records, cut } = parseRecordLines(RESULT_LINE, text, file);
  return cut ? { results: records, cut } : { results: records };
}

/** The message that reports a cut last line: which file, which line, what becomes of it. */
export function describeCut(file: string, cut: CutLine): string {
  return `${file} line ${cut.line} was cut short (a crash mid-write, ${cut.bytes} bytes without their newline): ` +
    "that episode is not counted, and --resume runs it again";
}
