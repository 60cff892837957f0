/**
 * A run folder's records: results.jsonl (one line per episode, appended; resume reads it), regrading every
 * episode offline from its grade_inputs.json, and training rows from its step records (the runner's --record-rows
 * and record_rows.ts). Loads no browser, no sandbox and no model client.
 */
export { regradeRun, type RegradeSummary } from "./regrade.ts";
export { lastPerEpisode, readRecorded, readRunResults, type RunResults } from "./latest.ts";
export { episodeRowSources, promptReader, PROMPTS_DIR, STEPS_FILE, writeRows } from "./rows.ts";
export { exportRows, type ExportRowsOptions, type ExportRowsSummary } from "./export_rows.ts";
export {
  armFailedFields,
  episodeName,
  type EpisodeResult,
  type EpisodeStatus,
  isGraded,
  parseResults,
  resultKey,
  ResultsStore,
  STATUSES,
  statusOf,
  TIMEOUT_ERROR,
} from "./store.ts";
