/**
 * Tasks (docs/tasks.md, docs/verifiers.md): the macro vocabulary and its families (lib/protocol's, re-exported for
 * the areas that run tasks), the action language, datagen task lines, human tasks (annotation folders with verifiers
 * and recordings, the site split) and proposed tasks; loading and filtering them; grading a datagen task portably
 * (origin rebase, relaxed recorded dates); how an episode starts; and the task-kind registry (kinds.ts), the one
 * place that says what differs between kinds. Pure but for reading task files.
 * @module
 */
export {
  type Adapter,
  ADAPTER_OF_FAMILY,
  FAMILIES,
  type Family,
  familyOf,
  type Macro,
  MACRO_FAMILY,
  OTHER_FAMILY,
} from "../protocol/mod.ts";
export {
  type Action,
  ACTION_NAMES,
  type ActionName,
  type ActionParams,
  type ElementLocator,
  type ElementRef,
  formatAction,
  parseAction,
} from "../protocol/mod.ts";
export { type GenInfo, type Split, SPLITS, type Task, type TaskStart, type TaskStyle } from "../protocol/mod.ts";
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
export { clusterOfTaskId } from "../protocol/mod.ts";
export type { HumanTask, Subtask } from "./human_task.ts";
export type { Recording, SiteSplit } from "./human_schema.ts";
export {
  type HumanSplit,
  inSplit,
  loadHumanTask,
  loadHumanTasks,
  type LoadHumanTasksOptions,
  loadSiteSplit,
} from "./human_load.ts";
export type { ProposedTask } from "../protocol/mod.ts";
/** One action, `{name: params}` (defined in lib/protocol, a low layer, so that lib/llm and lib/grading can name it too). */
export type { ActionCall } from "../protocol/mod.ts";
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
  type RowsContext,
  type RowsSpec,
  type RunTask,
  type SavedGradeInputs,
  type SessionStreams,
  type TaskKind,
  type Verdict,
} from "./kinds.ts";
/** grade_inputs.json's formats by kind, defined in lib/protocol (the tools that only read a run read them there). */
export {
  type DatagenGradeInputs,
  gradeInputsSchema,
  type KindName,
  type ProposedGradeInputs,
  SEED_LAYOUT,
  type TrajectoryInputs,
} from "../protocol/mod.ts";
