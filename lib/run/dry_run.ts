/**
 * What a dry run reports (`eval.ts --dry-run` prints it): the whole resolved configuration, and what a run would
 * resolve from it (the Chromium binary, the task count, the served model of each family's steps, the answer judge).
 * Computed from values only: nothing is read or written beyond what resolving the configuration already read.
 */
import { chromiumPath } from "../browser/mod.ts";
import type { Redactor } from "../io/mod.ts";
import type { JudgeEndpoint } from "../llm/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { armEntry } from "./arms.ts";
import { everySetting, type RunConfig } from "./config.ts";

/**
 * The dry run's report: every setting (unset ones as null, an arm's settings block null for the other arms), the
 * Chromium binary, the task count, the arm's models (its registry entry's view; null for an arm without a model)
 * and the answer judge (its key left out), with the run's secrets redacted.
 */
export function dryRunReport(
  config: RunConfig,
  tasks: readonly RunTask[],
  judge: JudgeEndpoint | undefined,
  redactor: Redactor,
): Record<string, unknown> {
  return redactor.value({
    ...everySetting(config),
    chromium: chromiumPath({ executablePath: config.chromePath }),
    task_count: tasks.length,
    models: armEntry(config.arm).dryRun(config, tasks),
    answer_judge: judge ? { baseURL: judge.baseURL, model: judge.model } : null,
  });
}
