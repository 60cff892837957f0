/**
 * lib/agent: what acts in an episode. The Arm interface (what an arm is given and what it returns), the action
 * executor (one action of the action language run on a Session: lib/browser's EpisodeSession over Chromium, or a fake in tests), the routed model arms and the
 * agent_planner arm with the step records they hand the runner, the model-free arms (replay, noop), and the demonstration arm (the reference
 * answering a model's requests).
 * @module
 */
export { type ActionContext, type ActionResult, executeAction } from "./actions.ts";
export { type AgentSettings, modelArm, type ModelArmOptions } from "./model_arm.ts";
export type { Arm, ArmContext, ArmOutcome, HistoryItem, ObservedState } from "./arm.ts";
export type { ChatClient, StepRecord, StepSink } from "./step_record.ts";
export { demonstrationArm, DemonstrationError, type DemonstrationOptions } from "./demonstration_arm.ts";
export { noopArm, replayArm, type ReplayOutcome, replayReference } from "./reference_arms.ts";
export { PLANNER_VERSIONS, plannerArm, type PlannerArmOptions, type PlannerVersion } from "./planner.ts";
export { PLAN_FAMILIES } from "./planner_schema.ts";
