/**
 * Which cluster a task's episodes belong to: the unit a statistic over episodes counts as independent. The instances
 * of one generated template share a page, a widget and a phrasing pattern, and succeed or fail together; a
 * hand-written, human or proposed task is a cluster of its own. Repeats of a task are inside its cluster.
 * @module
 */
import type { RunTask } from "./kinds.ts";
import type { TaskStyle } from "./task.ts";

/** A generated task id: the template's id (dotted: `<app>.<macro>.<name>`), `-`, eight hex digits (lib/gen). */
const GENERATED_ID = /^([^.\s]+\.[^.\s]+\.[^\s]+)-[0-9a-f]{8}$/;

/** A task's cluster: a generated task's template (`gen.template`), else the task's own id. */
export function taskCluster(task: RunTask): string {
  return "gen" in task && task.gen ? task.gen.template : task.task_id;
}

/**
 * The cluster of a task known only by its id (a results line written before lines carried `cluster`): a generated
 * id's template, else the id itself.
 */
export function clusterOfTaskId(taskId: string): string {
  return GENERATED_ID.exec(taskId)?.[1] ?? taskId;
}

/** A task line's `style`, when it has one (a generated task's phrasing style); undefined otherwise. */
export function taskStyle(task: RunTask): TaskStyle | undefined {
  return "style" in task ? task.style : undefined;
}
