/**
 * lib/agent: what acts in an episode. The Arm interface, the action executor (one action of the action language run
 * on an EpisodeSession), the model arms' step loop and messages, and the model-free arms (replay, noop).
 */
export {
  type ActionContext,
  type ActionResult,
  executeAction,
  resolveIndex,
  resolveUrl,
  toViewport,
} from "./actions.ts";
export {
  buildStepMessages,
  type ContentPart,
  type HistoryStep,
  type StepMessage,
  type StepMessagesInput,
  stepText,
  type StepView,
} from "./messages.ts";
export { type AgentSettings, loopSettings, MODEL_ACTIONS, modelArm, type ModelArmOptions } from "./model_arm.ts";
export type { Arm, ArmContext, ArmOutcome, HistoryItem, ObservedState, TraceEntry } from "./arm.ts";
export {
  type StepAction,
  stepAction,
  type StepKind,
  type StepRecord,
  type StepRequest,
  type StepSink,
} from "./step_record.ts";
export { type InteractedElement, interactedElement } from "./history.ts";
export { MODEL_FREE_ARMS, noopArm, replayArm, type ReplayOutcome, replayReference } from "./reference_arms.ts";
export { type LoopEnd, type LoopOutcome, type LoopRun, type LoopSettings, runLoop } from "./loop.ts";
export {
  type DelegatedStep,
  PLANNER_FAMILY,
  PLANNER_VERSIONS,
  plannerArm,
  type PlannerArmOptions,
  plannerSystemPrompt,
  plannerText,
  type PlannerTurn,
  type PlannerVersion,
  type PlannerView,
  specialistTask,
  succeeded,
} from "./planner.ts";
export {
  parsePlannerReply,
  PLAN_FAMILIES,
  type PlannerMove,
  plannerOutputSchema,
  type PlannerReply,
  plannerResponseFormat,
  type PlanStep,
} from "./planner_schema.ts";
