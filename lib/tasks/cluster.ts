/**
 * Which cluster a task's episodes belong to: the unit a statistic over episodes counts as independent. The instances
 * of one generated template share a page, a widget and a phrasing pattern, and succeed or fail together; a
 * hand-written, human or proposed task is a cluster of its own. Repeats of a task are inside its cluster.
 * @module
 */
import type { RunTask } from "./kinds.ts";
import type { TaskStyle } from "../protocol/mod.ts";

/** A task's cluster: a generated task's template (`gen.template`), else the task's own id. */
export function taskCluster(task: RunTask): string {
  return "gen" in task && task.gen ? task.gen.template : task.task_id;
}

/** A task line's `style`, when it has one (a generated task's phrasing style); undefined otherwise. */
export function taskStyle(task: RunTask): TaskStyle | undefined {
  return "style" in task ? task.style : undefined;
}
