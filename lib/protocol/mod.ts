/**
 * The protocol: what crosses a process or disk boundary and the names it uses, free of grading logic, so that the
 * tools that only read a run (report, viewer, merge, rows) load none of it. Today: the zod message helpers every
 * parse words its problems with, the reason codes a grade names, the macro vocabulary with its families, and the
 * task-id cluster rule; the formats of matchers, conditions, app rules, final states and evidence. zod and lib/errors only.
 * @module
 */
export {
  describeInput,
  describeIssues,
  errorMap,
  formatPath,
  forward,
  issueParts,
  keyedUnion,
  type ScalarHook,
  type ZodSchema,
} from "./schema_text.ts";
export { editDistance, quote } from "./text.ts";
export { REASON_CODES, type ReasonCode, REASONS } from "./reasons.ts";
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
export { clusterOfTaskId } from "./cluster.ts";
export { datesIn, firstDate, monthOf, MONTHS, ORD } from "./dates.ts";
export { type Matcher, matcherSchema } from "./matcher.ts";
export {
  type Binding,
  type ChangeOp,
  type ChangePattern,
  type Check,
  checkSchema,
  type Condition,
  conditionSchema,
  type FieldMatchers,
  type OpenedPage,
  type PagePattern,
  type QueryMatchers,
  type RequestPattern,
  savedCheckSchema,
  savedVerifierSchema,
  type SeenPage,
  type Verifier,
  verifierSchema,
  type WritePattern,
} from "./condition.ts";
export {
  type AppRules,
  appRulesSchema,
  type FinalState,
  finalStateSchema,
  type IrreversibleOp,
  type TextAddition,
} from "./state.ts";
export {
  type ActionCall,
  type ActionEvent,
  type ChangeEntry,
  changeEntrySchema,
  type ClipEntry,
  clipEntrySchema,
  type Evidence,
  evidenceSchema,
  type GradeInputs,
  jsonValue,
  type LogEntry,
  logEntrySchema,
  parseEvidence,
  type RecordEntry,
} from "./evidence.ts";
export {
  type Action,
  ACTION_NAMES,
  type ActionName,
  type ActionParams,
  actionSchema,
  type ElementLocator,
  type ElementRef,
  formatAction,
  OLD_ACTION_NAMES,
  parseAction,
  savedActionSchema,
} from "./action.ts";
export {
  type GenInfo,
  lenientTaskSchema,
  macroSchema,
  quoteText,
  savedTaskSchema,
  type Split,
  SPLITS,
  startUrlProblem,
  startUrlSchema,
  type Task,
  taskIdProblem,
  taskIdSchema,
  taskSchema,
  type TaskStart,
  type TaskStyle,
} from "./task.ts";
export { type ProposedTask, proposedTaskSchema } from "./proposed.ts";
export {
  type AnswerSpec,
  type ExpectedRow,
  type HumanVerifier,
  humanVerifierSchema,
  macroLabel,
  macroLabelSchema,
  type MacroVerifier,
  VERIFIER_KEYS,
  verifierFileSchema,
} from "./human_verifier.ts";
export {
  type DatagenGradeInputs,
  gradeInputsKind,
  gradeInputsSchema,
  isSeedLayout,
  JUDGED_KINDS,
  type KindName,
  parseDatagenInputs,
  parseProposedInputs,
  parseSavedHumanInputs,
  parseTrajectoryInputs,
  type ProposedGradeInputs,
  readGradeInputs,
  type SavedHumanInputs,
  type SavedHumanTask,
  type SavedInputs,
  savedSites,
  SEED_LAYOUT,
  seedLayoutKind,
  seedLayoutWithoutTask,
  type TrajectoryInputs,
} from "./grade_inputs.ts";
export { type HumanSplit, inSplit, loadSiteSplit, type SiteSplit, siteSplitSchema } from "./site_split.ts";
export { kindName, ROW_FAMILY, type RowsContext, rowsOf, type RowsSpec, type RowsTask } from "./rows.ts";
