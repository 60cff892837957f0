/**
 * Tasks (docs/tasks.md, docs/verifiers.md): datagen task files, human tasks (annotation folders with verifiers and
 * recordings) and proposed tasks; loading and filtering them; grading a datagen task portably (origin rebase, relaxed
 * recorded dates); how an episode starts; and the task-kind registry (kinds.ts), the one place that says what differs
 * between kinds. The formats themselves (task lines, the macro vocabulary, actions, grade inputs, the site split) are
 * lib/protocol's, imported from there. Pure but for reading task files.
 * @module
 */
export {
  checkTaskSites,
  filterTasks,
  loadTasks,
  type LoadTasksOptions,
  parseTaskLines,
  type TaskFilter,
} from "./load.ts";
export { gradeTask } from "./portable.ts";
export { taskCluster, taskStyle } from "./cluster.ts";
export type { HumanTask, Subtask } from "./human_task.ts";
export type { Recording } from "./human_schema.ts";
export { loadHumanTask, loadHumanTasks, type LoadHumanTasksOptions } from "./human_load.ts";
export type { ReplayElement } from "./resolve.ts";
export { type AppInfo, type EpisodeStart, humanStart } from "./start.ts";
export {
  type AnyGradeInputs,
  type EpisodeRecord,
  type GradeOptions,
  type HumanGradeInputs,
  type JudgeView,
  kindOf,
  parseGradeInputs,
  type ReferenceStep,
  type RunTask,
  type SavedGradeInputs,
  type SessionStreams,
  type TaskKind,
  type Verdict,
} from "./kinds.ts";
