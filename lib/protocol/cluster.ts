/**
 * The task-id cluster rule: the cluster of a task known only by its id, as results lines and reports name it
 * (lib/tasks' taskCluster gives a whole task's).
 * @module
 */

/** A generated task id: the template's id (dotted: `<app>.<macro>.<name>`), `-`, eight hex digits (lib/gen). */
const GENERATED_ID = /^([^.\s]+\.[^.\s]+\.[^\s]+)-[0-9a-f]{8}$/;

/**
 * The cluster of a task known only by its id (a results line written before lines carried `cluster`): a generated
 * id's template, else the id itself.
 */
export function clusterOfTaskId(taskId: string): string {
  return GENERATED_ID.exec(taskId)?.[1] ?? taskId;
}
