/**
 * Running an arm over tasks: the resolved run configuration, episodes on the worker pool, results as they end,
 * resume. Regrading (offline) is lib/results'.
 */
export {
  ADAPTER_NAMES,
  ARM_NAMES,
  BUNDLED,
  isModelArm,
  type LimitName,
  LIMITS,
  PLANNER_ARM,
  type RunConfig,
  runConfig,
  type RunConfigInput,
} from "./config.ts";
export { dryRunReport } from "./dry_run.ts";
export { type EpisodeEnv, type EpisodeSite, openStartPage, runEpisode } from "./episode.ts";
export { neededModels, readSystemPrompt, resolveModelArm, type ServedModelArm } from "./model_arms.ts";
export { formatStatusCounts, RunProgress, type StatusCounts } from "./progress.ts";
export { resolveArm, runEval, type RunInputs, runRedactor, type RunSummary } from "./run.ts";
export { guardedFolders, RUN_MARKERS } from "./out_folder.ts";
export { parseShard, type Shard, shardTasks, unshardLists } from "./shard.ts";
export { type MergedManifest, type MergeOptions, mergeShards, type MergeSummary } from "./merge.ts";
