/** Loading task files (JSON Lines), choosing the tasks of a run, and checking them against a server's apps. */
import { InputError, TaskFormatError, UsageError } from "../errors/mod.ts";
import { describeInput, describeIssues, errorMap } from "../protocol/mod.ts";
import { parseJsonLines, readUtf8File } from "../io/mod.ts";
import { kindOf, LINE_KIND_RULE, lineKind, type RunTask } from "./kinds.ts";
import type { ProposedTask } from "../protocol/mod.ts";
import { isMacro } from "../protocol/mod.ts";
import { quoteText as quote, type Task } from "../protocol/mod.ts";

const MIB = 1024 * 1024;

/** The largest task file and task line a loader reads (docs/tasks.md, "Limits"): past them, a file is refused. */
export const TASK_LIMITS: Readonly<{ file: number; line: number }> = { file: 256 * MIB, line: 1 * MIB };

/** Where a parsed task line came from, for errors found after parsing (an app the server does not serve). */
const ORIGIN = new WeakMap<object, { file: string; line: number }>();

function lineError(file: string, line: number, taskId: unknown, message: string, cause?: unknown): TaskFormatError {
  const task = typeof taskId === "string" && taskId ? `task ${quote(taskId)}: ` : "";
  return new TaskFormatError(`${file} line ${line}: ${task}${message}`, file, line, { cause });
}

/** How a task file is read: strictly (the default), or as the seed reads it, with one warning per file. */
export interface LoadTasksOptions {
  /**
   * Refuse what the seed's task files tolerate: a macro outside the vocabulary (the seed's family Other, routed to
   * the rest adapter). Default true; false loads it with one warning naming the file, the lines and the macros.
   */
  strict?: boolean;
  /** Receives the warning line of a lenient load (default: stderr). */
  warn?: (line: string) => void;
}

/**
 * Parses a JSON Lines task file's text (blank lines allowed): datagen task lines, and proposed task lines (those
 * with `"kind": "proposed"`), which may be mixed.
 * @throws TaskFormatError on the first bad line or duplicate id, or when the text holds no task:
 *   `fixtures/tasks.jsonl line 14: task "shop_017": start.url: is missing`.
 */
export function parseTaskLines(
  text: string,
  fileName: string,
  options: LoadTasksOptions = {},
): (Task | ProposedTask)[] {
  const lenient = options.strict === false;
  const outside: string[] = [];
  const tasks: (Task | ProposedTask)[] = [];
  const firstLine = new Map<string, number>();
  const fail = (line: number, message: string, cause: unknown) => lineError(fileName, line, undefined, message, cause);
  for (const { line, value: raw } of parseJsonLines(text, fail, { maxLineBytes: TASK_LIMITS.line }).lines) {
    const id = typeof raw === "object" && raw !== null ? (raw as { task_id?: unknown }).task_id : undefined;
    const kind = typeof raw === "object" && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
    // Only the kinds read from task files may be named: any other (a typo, a human task) would be misread.
    const spec = lineKind(kind)?.line;
    if (!spec) throw lineError(fileName, line, id, `kind: ${LINE_KIND_RULE}, got ${describeInput(kind)}`);
    const r = ((lenient && spec.lenient) || spec.schema).safeParse(raw, { error: errorMap });
    if (!r.success) throw lineError(fileName, line, id, describeIssues(r.error), r.error);
    const macro = (r.data as { macro?: string }).macro;
    if (lenient && macro !== undefined && !isMacro(macro)) outside.push(`line ${line} ${quote(macro)}`);
    const seen = firstLine.get(r.data.task_id);
    if (seen !== undefined) throw lineError(fileName, line, id, `duplicate task_id (first on line ${seen})`);
    firstLine.set(r.data.task_id, line);
    ORIGIN.set(r.data, { file: fileName, line });
    tasks.push(r.data);
  }
  if (tasks.length === 0) {
    const what = text.length === 0 ? "it is empty" : "it holds only blank lines";
    throw new TaskFormatError(`${fileName} has no tasks (${what}): expected one JSON task per line`, fileName);
  }
  if (outside.length) {
    (options.warn ?? ((l) => console.error(`warning: ${l}`)))(
      `${fileName}: macro(s) outside the vocabulary (${outside.slice(0, 5).join(", ")}` +
        `${outside.length > 5 ? `, +${outside.length - 5} more` : ""}): family "Other", routed to the rest adapter ` +
        "as the seed routes them (--strict refuses them)",
    );
  }
  return tasks;
}

/**
 * Reads and parses a task file; its bytes must be UTF-8 without a byte order mark.
 * @throws TaskFormatError when the file cannot be read, is not UTF-8, holds no task or a line is bad.
 */
export async function loadTasks(path: string, options: LoadTasksOptions = {}): Promise<(Task | ProposedTask)[]> {
  let text: string;
  try {
    text = await readUtf8File(path, (p) => new TaskFormatError(`${path} ${p.message}`, path, p.line), TASK_LIMITS.file);
  } catch (e) {
    if (e instanceof TaskFormatError) throw e;
    const why = e instanceof Deno.errors.IsADirectory ? "it is a folder" : (e as Error).message;
    throw new TaskFormatError(`cannot read task file "${path}": ${why}`, path, undefined, { cause: e });
  }
  return parseTaskLines(text, path, options);
}

/** Which tasks a run takes. */
export interface TaskFilter {
  /** Only generated instances of these splits (a task without a split is not one). */
  split?: readonly string[];
  /** Only these ids (in file order). */
  taskIds?: Iterable<string>;
  /** At most this many (after `taskIds`); 0 or absent: no limit. */
  limit?: number;
}

/**
 * The tasks a run takes, in file order.
 * @throws UsageError when a requested id is not in the tasks (a typo would silently run nothing), the ids name
 *   none, or nothing is left.
 */
export function filterTasks<T extends { task_id: string }>(tasks: readonly T[], filter: TaskFilter = {}): T[] {
  let out = [...tasks];
  if (filter.split !== undefined) {
    const splits = new Set(filter.split);
    out = out.filter((t) => splits.has((t as { split?: string }).split ?? ""));
    if (out.length === 0) {
      const why = tasks.some((t) => (t as { split?: string }).split) ? "none is in it" : "no task has a split";
      throw new UsageError(`--split ${filter.split.join(",")}: ${why} (generated sets have one: docs/generation.md)`);
    }
  }
  if (filter.taskIds !== undefined) {
    const wanted = new Set(filter.taskIds);
    if (wanted.size === 0) throw new UsageError("--task-ids names no task id");
    const known = new Set(tasks.map((t) => t.task_id));
    const unknown = [...wanted].filter((id) => !known.has(id));
    if (unknown.length) {
      throw new InputError(`--task-ids: no task with id ${unknown.slice(0, 5).map(quote).join(", ")}`);
    }
    out = out.filter((t) => wanted.has(t.task_id));
  }
  if (filter.limit !== undefined && (!Number.isInteger(filter.limit) || filter.limit < 0)) {
    throw new UsageError(`--limit ${filter.limit} is not a whole number >= 0`);
  }
  if (filter.limit) out = out.slice(0, filter.limit);
  if (out.length === 0) throw new InputError("the selection leaves no task to run");
  return out;
}

/** An error about `task` that names where it came from: its file and line, or its task.json. */
function taskError(task: RunTask, message: string): TaskFormatError {
  const origin = ORIGIN.get(task);
  if (origin) return lineError(origin.file, origin.line, task.task_id, message);
  const file = kindOf(task).sourceFile(task);
  if (file !== undefined) return new TaskFormatError(`${file}: ${message}`, file);
  return new TaskFormatError(`task ${quote(task.task_id)}: ${message}`);
}

/**
 * Checks that every site of every task (a human task's `sites`, else its `site`) is one of `appIds`, the apps
 * the site server serves: the embedded sandbox's bundled apps, or what an external server's /_admin/health lists
 * (`base` names it in the message).
 * @throws TaskFormatError naming the task's file and line (or task.json), the site and the apps served:
 *   `tasks.jsonl line 3: task "t1": site: "bank" is not an app of the sandbox (shop, mail, tracker, bookings)`.
 */
export function checkTaskSites(tasks: readonly RunTask[], appIds: readonly string[], base?: string): void {
  const known = new Set(appIds);
  const server = base ? `the site server at ${base}` : "the sandbox";
  for (const task of tasks) {
    const sites = kindOf(task).sites(task);
    const unknown = sites.find((s) => !known.has(s));
    if (unknown === undefined) continue;
    const field = sites.length > 1 ? "sites" : "site";
    const served = appIds.length ? appIds.join(", ") : "it serves none";
    throw taskError(task, `${field}: ${quote(unknown)} is not an app of ${server} (${served})`);
  }
}
