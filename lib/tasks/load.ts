/** Loading task files (JSON Lines) and choosing the tasks of a run. */
import { TaskFormatError, UsageError } from "../errors/mod.ts";
import { describeInput, describeIssues, errorMap } from "../grading/mod.ts";
import type { z } from "zod";
import { parseJsonLines } from "../io/mod.ts";
import { kindName } from "./kinds.ts";
import { type ProposedTask, proposedTaskSchema } from "./proposed.ts";
import { type Task, taskSchema } from "./task.ts";

function lineError(file: string, line: number, taskId: unknown, message: string, cause?: unknown): TaskFormatError {
  const task = typeof taskId === "string" && taskId ? `task "${taskId}": ` : "";
  return new TaskFormatError(`${file} line ${line}: ${task}${message}`, file, line, { cause });
}

/**
 * Parses a JSON Lines task file's text (blank lines allowed): datagen task lines, and proposed task lines (those
 * with `"kind": "proposed"`), which may be mixed.
 * @throws TaskFormatError on the first bad line or duplicate id:
 *   `fixtures/tasks.jsonl line 14: task "shop_017": start.url: is missing`.
 */
export function parseTaskLines(text: string, fileName: string): (Task | ProposedTask)[] {
  const tasks: (Task | ProposedTask)[] = [];
  const firstLine = new Map<string, number>();
  const fail = (line: number, message: string, cause: unknown) => lineError(fileName, line, undefined, message, cause);
  for (const { line, value: raw } of parseJsonLines(text, fail).lines) {
    const id = typeof raw === "object" && raw !== null ? (raw as { task_id?: unknown }).task_id : undefined;
    const kind = typeof raw === "object" && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
    // Only proposed lines name a kind: any other (a typo, a human task) would be misread as a datagen line.
    if (kind !== undefined && kind !== "proposed") {
      throw lineError(
        fileName,
        line,
        id,
        `kind: must be "proposed" (a datagen task has none), got ${describeInput(kind)}`,
      );
    }
    const schema = kindName(raw as { kind?: unknown }) === "proposed" ? proposedTaskSchema : taskSchema;
    const r = (schema as z.ZodType<Task | ProposedTask>).safeParse(raw, { error: errorMap });
    if (!r.success) throw lineError(fileName, line, id, describeIssues(r.error), r.error);
    const seen = firstLine.get(r.data.task_id);
    if (seen !== undefined) throw lineError(fileName, line, id, `duplicate task_id (first on line ${seen})`);
    firstLine.set(r.data.task_id, line);
    tasks.push(r.data);
  }
  return tasks;
}

/**
 * Reads and parses a task file.
 * @throws TaskFormatError when the file cannot be read or a line is bad.
 */
export async function loadTasks(path: string): Promise<(Task | ProposedTask)[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new TaskFormatError(`cannot read task file "${path}": ${(e as Error).message}`, path, undefined, {
      cause: e,
    });
  }
  return parseTaskLines(text, path);
}

/** Which tasks a run takes. */
export interface TaskFilter {
  /** Only these ids (in file order). */
  taskIds?: Iterable<string>;
  /** At most this many (after `taskIds`); 0 or absent: no limit. */
  limit?: number;
}

/**
 * The tasks a run takes, in file order.
 * @throws UsageError when a requested id is not in the tasks (a typo would silently run nothing).
 */
export function filterTasks<T extends { task_id: string }>(tasks: readonly T[], filter: TaskFilter = {}): T[] {
  let out = [...tasks];
  if (filter.taskIds !== undefined) {
    const wanted = new Set(filter.taskIds);
    const known = new Set(tasks.map((t) => t.task_id));
    const unknown = [...wanted].filter((id) => !known.has(id));
    if (unknown.length) {
      throw new UsageError(`no task with id ${unknown.slice(0, 5).map((id) => `"${id}"`).join(", ")}`);
    }
    out = out.filter((t) => wanted.has(t.task_id));
  }
  if (filter.limit) out = out.slice(0, filter.limit);
  return out;
}
