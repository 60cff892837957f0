/**
 * Grading: matchers, conditions, the backend gate and the evidence it reads, and the human verifier with its QA
 * tier chain (docs/grading.md, docs/verifiers.md). Pure functions over data; lib/tasks builds its task schemas on
 * the schemas exported here (never the other way round). The LLM tier is the caller's (an AnswerJudge).
 * @module
 */
export { conditionFailure, gate, type GateOptions, type GateResult, type UndecidedAnswer } from "./gate.ts";
export { type Failure } from "./reasons.ts";
/** Reason codes, defined in lib/protocol (a results line names them), for the areas that grade. */
export { REASON_CODES, type ReasonCode, REASONS } from "../protocol/mod.ts";
export { type Matcher } from "./matcher.ts";
export {
  type Binding,
  type ChangeOp,
  type ChangePattern,
  type Check,
  checkSchema,
  type Condition,
  conditionSchema,
  type FieldMatchers,
  mapConditionMatchers,
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
  type ActionCall,
  type ActionEvent,
  actionEvents,
  type ChangeEntry,
  type ClipEntry,
  type Evidence,
  evidenceSchema,
  type GradeInputs,
  jsonValue,
  type LogEntry,
  parseEvidence,
  type RecordEntry,
  type TraceStep,
} from "./evidence.ts";
export { datesIn, firstDate } from "./text.ts";
export { type SeedCheck, seedCheck, seedFinal } from "./seed.ts";
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
} from "../protocol/mod.ts";
export {
  type AnswerJudge,
  type AnswerQuestion,
  type AnswerSpec,
  type ExpectedRow,
  gradeHuman,
  type GradeHumanOptions,
  type HumanEndState,
  type HumanGrade,
  type HumanVerifier,
  type JudgeVerdict,
  type MacroGrade,
  type MacroVerifier,
  type VerifiedTask,
} from "./verifier.ts";
export { type QaTier } from "./qa.ts";
export { humanTrajectory, type TrajectoryEvent } from "./trajectory.ts";
export {
  type AppRules,
  appRulesSchema,
  type FinalState,
  finalStateSchema,
  type IrreversibleOp,
  netDiff,
  type RowDiff,
  type TextAddition,
} from "./state.ts";
