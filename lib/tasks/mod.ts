/**
 * Tasks (docs/tasks.md, docs/verifiers.md): the macro vocabulary and its families, the action language, datagen task
 * lines, human tasks (annotation folders with verifiers and recordings, the site split) and proposed tasks; loading
 * and filtering them; making recorded tasks portable (origin rebase, relaxed recorded dates); and the task-kind
 * registry (kinds.ts), the one place that says what differs between kinds. Pure but for reading task files.
 */
export {
  type Adapter,
  ADAPTER_OF_FAMILY,
  FAMILIES,
  type Family,
  familyOf,
  isMacro,
  type Macro,
  MACRO_FAMILY,
  MACROS,
  OTHER_FAMILY,
} from "./macros.ts";
export {
  type Action,
  ACTION_NAMES,
  type ActionName,
  type ActionParams,
  actionSchema,
  type ElementLocator,
  type ElementRef,
  formatAction,
  parseAction,
} from "./action.ts";
export { macroSchema, type Task, taskSchema, type TaskStart } from "./task.ts";
export { checkTaskSites, filterTasks, loadTasks, parseTaskLines, type TaskFilter } from "./load.ts";
export { askedTexts, gradeTask, rebaseTask, relaxRecordedDates } from "./portable.ts";
export { type HumanTask, type Subtask } from "./human_task.ts";
export {
  type HumanTaskFile,
  humanTaskFileSchema,
  humanVerifierSchema,
  macroLabelSchema,
  type Recording,
  recordingSchema,
  type SiteSplit,
  siteSplitSchema,
} from "./human_schema.ts";
export {
  type HumanSplit,
  inSplit,
  loadHumanTask,
  loadHumanTasks,
  type LoadHumanTasksOptions,
  loadSiteSplit,
  parseFile,
} from "./human_load.ts";
export { type ProposedTask, proposedTaskSchema } from "./proposed.ts";
/** One action, `{name: params}` (defined in lib/grading, the lowest layer, so that lib/llm can name it too). */
export type { ActionCall } from "../grading/mod.ts";
export {
  parseTarget,
  recordingActions,
  recordingReplaySteps,
  recordingSteps,
  type ReplayStep,
  selectorFor,
  type TargetDescription,
} from "./recording.ts";
export { findElement, type ReplayElement, resolveStep, stepCandidates } from "./resolve.ts";
export { appDirectory, type AppInfo, type EpisodeStart, humanStart, proposedStart, resolveStartUrl } from "./start.ts";
export {
  type AnyGradeInputs,
  type DatagenGradeInputs,
  type EpisodeRecord,
  gradeInputsSchema,
  type GradeOptions,
  type HumanGradeInputs,
  type JudgeView,
  type KindName,
  kindName,
  kindOf,
  KINDS,
  parseGradeInputs,
  PROPOSED_PENDING,
  type ProposedGradeInputs,
  type ReferenceStep,
  ROW_FAMILY,
  type RowsContext,
  type RowsSpec,
  type RunTask,
  type SessionStreams,
  type TaskKind,
  type Verdict,
} from "./kinds.ts";
