/**
 * Running an arm over tasks: the resolved run configuration, episodes on the worker pool, results as they end,
 * resume. Regrading (offline) is lib/results'.
 */
export { ARM_NAMES, BUNDLED, isModelArm, type RunConfig, runConfig, type RunConfigInput } from "./config.ts";
export { type EpisodeEnv, type EpisodeSite, openStartPage, runEpisode } from "./episode.ts";
export { neededModels, readSystemPrompt, resolveModelArm } from "./model_arms.ts";
export { type RecordedStep, replyOp, writeRows } from "./rows.ts";
export { resolveArm, runEval, type RunInputs, type RunSummary } from "./run.ts";
