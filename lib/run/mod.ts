/** Running an arm over tasks: episodes, the worker pool, results, resume and regrading. */
export {
  type Arm,
  type ArmContext,
  type ArmOutcome,
  type HistoryItem,
  MODEL_FREE_ARMS,
  noopArm,
  replayArm,
  type TraceEntry,
} from "./arms.ts";
export { type EpisodeOptions, runEpisode } from "./episode.ts";
export { writeFileAtomic, writeJsonAtomic } from "./files.ts";
export { runPool } from "./pool.ts";
export { regradeRun, type RegradeSummary } from "./regrade.ts";
export { episodeName, type EpisodeResult, parseResults, resultKey, ResultsStore } from "./results.ts";
export { runEval, type RunOptions, type RunSummary } from "./run.ts";
