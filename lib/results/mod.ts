/**
 * What a run folder's records are made of besides their formats (lib/run_folder): the append-only results store
 * (resume reads it), the folder lock, regrading every episode offline from its grade_inputs.json, merging the folders
 * of a sharded run, and training rows from step records (the runner's --record-rows, record_rows.ts and gen.ts --demonstrations). Loads no
 * browser, no sandbox and no model client.
 * @module
 */
export { episodeRowSources, type RowSource, writeRows } from "./rows.ts";
export {
  checkRowsFolder,
  exportRows,
  type ExportRowsOptions,
  type ExportRowsSummary,
  ROWS_INDEX_FILE,
} from "./export_rows.ts";
export { armFailedFields, ResultsStore, type RetryPolicy } from "./store.ts";
export { liveHolder, lockOut, type RunLock } from "./lock.ts";
export { type MergeOptions, mergeShards, type MergeSummary } from "./merge.ts";
