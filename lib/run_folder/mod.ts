/**
 * The run folder as one contract between the runner and every offline tool: one zod schema per file (results lines,
 * step records, grade_inputs.json, run.json, run.lock, trace.json, history files, the planner's files, judge.json,
 * training rows, episode.json, export.json), each with its type and a format_version, serialised through on the
 * way out and parsed with on the way in, and the one validated reader (RunFolder) that the report, the viewer, the
 * rows, regrade, merge, the judge and --resume read a folder with. Pure but for reading files: no browser, no
 * sandbox, no model client.
 * @module
 */
export { type FileFormat, type JsonLinesFile, LIMITS, serialise, type Validated } from "./format.ts";
export {
  type CutLine,
  describeCut,
  episodeName,
  type EpisodeResult,
  type EpisodeStatus,
  isGraded,
  parseResults,
  resultKey,
  resultLine,
  type ResultsText,
  type RetriedFrom,
  STATUSES,
  statusOf,
  TIMEOUT_ERROR,
} from "./results.ts";
export {
  type StepAction,
  type StepActionCall,
  type StepKind,
  stepLine,
  type StepRecord,
  type StepRequest,
} from "./steps.ts";
export {
  type LockHolder,
  lockJson,
  manifestJson,
  type ManifestSettings,
  type ManifestTasks,
  RUN_LOCK,
  type RunManifest,
  type Shard,
  tasksSha256,
} from "./manifest.ts";
export {
  type ArmFile,
  armFile,
  type DelegatedStep,
  EPISODE_FILES,
  gradeInputsJson,
  HISTORY,
  type HistoryItem,
  type InteractedElement,
  JUDGE_VERDICT,
  type JudgeVerdictFile,
  PLANNER_HISTORY,
  type PlannerHistory,
  type PlannerTurn,
  type PlannerTurnReply,
  type PlanStep,
  readGradeInputs,
  SUBTASKS,
  type Subtasks,
  TRACE,
  type TraceEntry,
} from "./episode_files.ts";
export {
  type ExportedEpisode,
  type ReadRowsEpisode,
  readRowsFolder,
  rowLine,
  ROWS_EXPORT,
  type RowsEpisode,
  rowsEpisodeJson,
  type RowsExport,
  type TrainingRow,
} from "./rows.ts";
export {
  type ClusterJson,
  type ComparisonJson,
  type GroupPairedJson,
  type GroupRateJson,
  type IntervalJson,
  type PairedJson,
  parseReportJson,
  type RateJson,
  type ReportJson,
  reportJson,
  type RunJson,
} from "./report_json.ts";
export {
  lastPerEpisode,
  type PromptReader,
  readFolderJson,
  readFolderText,
  readManifest,
  RUN_FILES,
  RUN_MARKERS,
  RunFolder,
  type RunResults,
} from "./reader.ts";
