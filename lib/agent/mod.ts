/**
 * lib/agent: the step loop, message building, the output schema, the action executor and history. This part: the
 * action executor (one action of the action language run on an EpisodeSession).
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
export { MODEL_ACTIONS, modelArm, type ModelArmOptions } from "./model_arm.ts";
export type { Arm, ArmContext, ArmOutcome, HistoryItem, ReferenceStep, TraceEntry } from "./arm.ts";
