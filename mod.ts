/**
 * webmix-eval as a library, for scripts that run arms, grade or serve the sandbox without the CLI.
 *
 * ```ts
 * import { loadTasks, MODEL_FREE_ARMS, runEval } from "./mod.ts";
 * const tasks = await loadTasks("fixtures/tasks.jsonl");
 * const summary = await runEval({ tasks, arm: MODEL_FREE_ARMS.replay, out: "out/lib-run", workers: 2 });
 * ```
 * @module
 */
export {
  type EpisodeResult,
  MODEL_FREE_ARMS,
  regradeRun,
  type RegradeSummary,
  runEval,
  type RunOptions,
  type RunSummary,
} from "./lib/run/mod.ts";
export { type ModelArmSettings, resolveModelArm } from "./lib/run/model_arms.ts";
export { type Arm, type ArmContext, type ArmOutcome, executeAction, modelArm } from "./lib/agent/mod.ts";
export { filterTasks, gradeTask, loadTasks, parseAction, parseTaskLines, type Task } from "./lib/tasks/mod.ts";
export { type Evidence, gate, type GateResult, parseEvidence } from "./lib/grading/mod.ts";
export { APPS, createSandbox, type SiteApp, startSites } from "./lib/sites/mod.ts";
export { ChromiumBrowser, EpisodeSession } from "./lib/browser/mod.ts";
export { OpenAiModelClient } from "./lib/llm/mod.ts";
export { armModels, createRouter, familyPlan, Router } from "./lib/routing/mod.ts";
export {
  BrowserTimeoutError,
  HarnessError,
  ModelReplyError,
  SiteProtocolError,
  TaskFormatError,
  UsageError,
} from "./lib/errors/mod.ts";
