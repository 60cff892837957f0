/**
 * A run folder's records: results.jsonl (one line per episode, appended; resume reads it) and regrading every
 * episode offline from its grade_inputs.json. Loads no browser, no sandbox and no model client.
 */
export { regradeRun, type RegradeSummary } from "./regrade.ts";
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
} from "./store.ts";
