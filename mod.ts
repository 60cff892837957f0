/**
 * webmix-eval as a library, for scripts that run arms, grade or serve the sandbox without the CLI. A run takes the
 * same resolved configuration eval.ts builds from its flags (every default in `runConfig`).
 *
 * ```ts
 * import { loadTasks, runConfig, runEval } from "./mod.ts";
 * const tasks = await loadTasks("fixtures/tasks.jsonl");
 * const config = runConfig({ arm: "replay", out: "out/lib-run", workers: 2 });
 * const summary = await runEval(config, { tasks });
 * ```
 * @module
 */
export {
  ARM_NAMES,
  BUNDLED,
  resolveArm,
  resolveModelArm,
  type RunConfig,
  runConfig,
  type RunConfigInput,
  runEval,
  type RunInputs,
  type RunSummary,
} from "./lib/run/mod.ts";
export { type EpisodeResult, regradeRun, type RegradeSummary } from "./lib/results/mod.ts";
export { judgeRun, type JudgeRunOptions, type JudgeRunSummary } from "./lib/judge/mod.ts";
export {
  type Arm,
  type ArmContext,
  type ArmOutcome,
  executeAction,
  MODEL_FREE_ARMS,
  modelArm,
  replayReference,
} from "./lib/agent/mod.ts";
export {
  filterTasks,
  gradeTask,
  type HumanTask,
  kindOf,
  loadHumanTasks,
  loadTasks,
  parseAction,
  parseGradeInputs,
  parseTaskLines,
  type ProposedTask,
  type RunTask,
  type Task,
} from "./lib/tasks/mod.ts";
export {
  type AnswerJudge,
  type Evidence,
  gate,
  type GateResult,
  gradeHuman,
  parseEvidence,
} from "./lib/grading/mod.ts";
export { APPS, createSandbox, fetchHealth, type SiteApp, startSites } from "./lib/sites/mod.ts";
export { ChromiumBrowser, EpisodeSession } from "./lib/browser/mod.ts";
export { OpenAiJudge, OpenAiModelClient } from "./lib/llm/mod.ts";
export { armModels, createRouter, familyPlan, Router } from "./lib/routing/mod.ts";
export {
  BrowserTimeoutError,
  HarnessError,
  ModelReplyError,
  SiteProtocolError,
  TaskFormatError,
  UsageError,
} from "./lib/errors/mod.ts";
