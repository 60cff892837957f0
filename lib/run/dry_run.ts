/**
 * What `eval.ts --dry-run` prints: the whole resolved configuration, and what a run would resolve from it (the
 * Chromium binary, the task count, the served model of each family's steps, the answer judge). Computed from values
 * only: nothing is read or written beyond what resolving the configuration already read.
 */
import { chromiumPath } from "../browser/mod.ts";
import type { JudgeEndpoint } from "../llm/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { everySetting, PLANNER_ARM, type RunConfig } from "./config.ts";
import { familyModels, neededModels } from "./model_arms.ts";
import { runRedactor } from "./run.ts";

/** The served model names a model arm's requests use. */
interface ModelPlan {
  /** agent_planner: the planner's own served name. */
  planner?: string;
  /** Each action family → the served name its steps are sent to. */
  by_family: Record<string, string>;
  /** Every name the run checks the server for (GET /v1/models) before the first episode. */
  needed: string[];
}

/** The served names of a model arm over `tasks`; null for an arm without a model. */
function modelPlan(config: RunConfig, tasks: RunTask[]): ModelPlan | null {
  const byFamily = familyModels(config);
  if (byFamily === null) return null;
  return {
    ...(config.arm === PLANNER_ARM ? { planner: config.model.plannerName } : {}),
    by_family: byFamily,
    needed: neededModels(config, tasks),
  };
}

/**
 * The dry run's report: every setting (unset ones as null), the Chromium binary, the task count, the model plan and
 * the answer judge (its key left out), with the run's secrets redacted.
 */
export function dryRunReport(config: RunConfig, tasks: RunTask[], judge?: JudgeEndpoint): Record<string, unknown> {
  return runRedactor(config).value({
    ...everySetting(config),
    chromium: chromiumPath({ executablePath: config.chromePath }),
    task_count: tasks.length,
    models: modelPlan(config, tasks),
    answer_judge: judge ? { baseURL: judge.baseURL, model: judge.model } : null,
  });
}
