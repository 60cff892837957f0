/**
 * Grading: matchers, conditions, the backend gate and the evidence it reads (docs/grading.md). Pure functions over
 * data; lib/tasks builds its task schema on the schemas exported here (never the other way round).
 */
export { DETAIL_MAX, gate, type GateResult } from "./gate.ts";
export {
  answerSeen,
  describeMatcher,
  type Matcher,
  matcherSchema,
  prepareSeen,
  type SeenText,
  testMatcher,
} from "./matcher.ts";
export {
  type ChangeOp,
  type ChangePattern,
  type Check,
  checkSchema,
  type Condition,
  conditionSchema,
  type FieldMatchers,
  mapConditionMatchers,
  type RequestPattern,
  type Verifier,
  verifierSchema,
  type WritePattern,
} from "./condition.ts";
export {
  type ActionEvent,
  actionEvents,
  type ChangeEntry,
  type Evidence,
  type GradeInputs,
  jsonValue,
  type LogEntry,
  parseEvidence,
  type RecordEntry,
  type TraceStep,
} from "./evidence.ts";
export { containsWords, datesIn, firstDate, firstNumber, normaliseText, numbersIn, stringForm } from "./text.ts";
export {
  describeInput,
  describeIssues,
  errorMap,
  formatPath,
  forward,
  issueParts,
  keyedUnion,
  type ScalarHook,
} from "./schema_text.ts";
