/**
 * webmix-eval as a library, for scripts that run arms, load tasks, grade, read run folders or report without the CLI.
 * A run takes the same resolved configuration eval.ts builds from its flags (every default and check in `runConfig`),
 * and `runEval` makes the same checks as eval.ts before it writes anything: the task selection and shard, the out
 * folder, and `dryRun`. Finished run folders are read through `RunFolder`, the validated reader every tool uses.
 *
 * ```ts
 * import { loadRun, RunFolder, runConfig, runEval, writeReport } from "./mod.ts";
 * const config = runConfig({ arm: "replay", out: "out/lib-run", workers: 2, tasks: { limit: 5 } });
 * const summary = await runEval(config); // the bundled tasks, or your own: runEval(config, { tasks })
 * const folder = await RunFolder.open("out/lib-run");
 * const { results } = await folder.latest(); // each episode's latest line, regrades included
 * await writeReport([await loadRun("out/lib-run")], "out/lib-run"); // report.md, report.html, report.json
 * ```
 * @module
 */

// Running an arm over tasks.
export {
  ARM_NAMES,
  type ArmEntry,
  armEntry,
  BUNDLED,
  type RunConfig,
  runConfig,
  type RunConfigInput,
  runEval,
  type RunInputs,
  type RunSummary,
} from "./lib/run/mod.ts";
export type { Arm, ArmContext, ArmOutcome } from "./lib/agent/mod.ts";

// Tasks: loading, selecting, and what each kind's episodes are.
export {
  filterTasks,
  type HumanTask,
  kindOf,
  loadHumanTasks,
  loadTasks,
  parseTaskLines,
  type RunTask,
} from "./lib/tasks/mod.ts";
export type { ProposedTask, Task } from "./lib/protocol/mod.ts";

// Grading, on saved evidence.
export { gradeTask, parseGradeInputs } from "./lib/tasks/mod.ts";
export { type AnswerJudge, gate, type GateResult, gradeHuman } from "./lib/grading/mod.ts";
export type { Evidence } from "./lib/protocol/mod.ts";

// Reading, regrading, merging and exporting a run folder.
export {
  type EpisodeResult,
  type EpisodeStatus,
  RunFolder,
  type RunManifest,
  type RunResults,
  statusOf,
  type StepRecord,
} from "./lib/run_folder/mod.ts";
export { exportRows, type ExportRowsOptions, type MergeOptions, mergeShards } from "./lib/results/mod.ts";
export { regradeRun, type RegradeSummary } from "./lib/regrade/mod.ts";
export { judgeRun, type JudgeRunOptions, type JudgeRunSummary } from "./lib/judge/mod.ts";

// Reports and the viewer.
export { loadRun, type RunData, writeReport, writeViewer } from "./lib/report/mod.ts";

// The sandbox sites, for a person or another harness.
export { APPS, createSandbox, fetchHealth, type SiteApp, startSites } from "./lib/sites/mod.ts";

// The errors callers branch on.
export {
  BrowserTimeoutError,
  HarnessError,
  ModelReplyError,
  NewerFormatError,
  RunFolderError,
  SiteProtocolError,
  TaskFormatError,
  UsageError,
} from "./lib/errors/mod.ts";
