/**
 * Datagen tasks (docs/tasks.md): the macro vocabulary and its families, the action language, the task line schema,
 * loading and filtering task files, and making recorded tasks portable (origin rebase, relaxed recorded dates).
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
export { filterTasks, loadTasks, parseTaskLines, type TaskFilter } from "./load.ts";
export { askedTexts, gradeTask, rebaseTask, relaxRecordedDates } from "./portable.ts";
