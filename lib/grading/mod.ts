/**
 * Grading: matchers, conditions, the backend gate and the evidence it reads, and the human verifier with its QA
 * tier chain (docs/grading.md, docs/verifiers.md). Pure functions over data; lib/tasks builds its task schemas on
 * the schemas exported here (never the other way round). The LLM tier is the caller's (an AnswerJudge).
 * @module
 */
export { conditionFailure, gate, type GateOptions, type GateResult, type UndecidedAnswer } from "./gate.ts";
export { type Failure } from "./reasons.ts";
export { mapConditionMatchers } from "./condition.ts";
export { actionEvents, type TraceStep } from "./evidence.ts";
export { type SeedCheck, seedCheck, seedFinal } from "./seed.ts";
export {
  type AnswerJudge,
  type AnswerQuestion,
  gradeHuman,
  type GradeHumanOptions,
  type HumanEndState,
  type HumanGrade,
  type JudgeVerdict,
  type MacroGrade,
  type VerifiedTask,
} from "./verifier.ts";
export { type QaTier } from "./qa.ts";
export { humanTrajectory, type TrajectoryEvent } from "./trajectory.ts";
export { netDiff, type RowDiff } from "./state.ts";
