/**
 * Running an arm over tasks: the arm registry, the resolved run configuration (and eval.ts's flags for it), the
 * checks before a run, episodes on the worker pool, results as they end, resume. Regrading (offline) is
 * lib/results'.
 * @module
 */
export { ARM_NAMES, type ArmBlocks, type ArmEntry, armEntry, type PlannerConfig } from "./arms.ts";
export { configFromFlags, evalUsage } from "./cli.ts";
export {
  type ArmBlockConfig,
  BUNDLED,
  type ModelConfig,
  type RunConfig,
  runConfig,
  type RunConfigInput,
  type TasksConfig,
} from "./config.ts";
export { EVAL_OPTIONS } from "./eval_flags.ts";
export { EVAL_PERMISSIONS } from "./prepare.ts";
export { openStartPage } from "./episode.ts";
export { readSystemPrompt, type ServedModelArm } from "./model_arms.ts";
export { formatStatusCounts, type StatusCounts } from "./progress.ts";
export { runEval, type RunInputs, type RunSummary } from "./run.ts";
export { MAX_SHARDS, type Shard, shardTasks } from "./shard.ts";
