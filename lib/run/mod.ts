/** Running an arm over tasks: episodes, the worker pool, results, resume and regrading. */
export { MODEL_FREE_ARMS, noopArm, replayArm } from "./arms.ts";
export type { Arm, ArmContext, ArmOutcome, HistoryItem, TraceEntry } from "../agent/mod.ts";
export { type EpisodeOptions, runEpisode } from "./episode.ts";
export { writeFileAtomic, writeJsonAtomic } from "./files.ts";
export { runPool } from "./pool.ts";
export { regradeRun, type RegradeSummary } from "./regrade.ts";
export { episodeName, type EpisodeResult, parseResults, resultKey, ResultsStore } from "./results.ts";
export { runEval, type RunOptions, type RunSummary } from "./run.ts";
export { type EpisodeKind, episodeKind, type RunTask } from "./kinds.ts";
