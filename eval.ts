/**
 * eval.ts: run one arm over tasks on the sandbox sites (or external site servers) and grade every episode on the
 * backend's evidence. Writes <out>/results.jsonl (one line per episode) and <out>/<episode>/ artifacts.
 *
 * Modes: a run (default); --regrade DIR (recompute the grades of an earlier run); --dry-run (print the resolved
 * options and the task count). Exit codes: 0 the run finished (whatever the grades), 1 the harness failed
 * (Chromium, the model or a site server unusable at start, nothing written; or every episode a harness error, their
 * lines written), 2 a usage error or a malformed task file (nothing written), 130 interrupted (results so far are
 * kept). Progress goes to stderr (a live line on a terminal), the summary line to stdout.
 *
 * The flags, their help and the configuration they say are lib/run's (cli.ts); every check before the run, and the
 * dry run, are runEval's: this script parses, runs and maps the outcome to an exit code.
 */
import { join, resolve } from "node:path";
import { describeError, HarnessError, TaskFormatError, UsageError } from "./lib/errors/mod.ts";
import { checkFolderFlag, type Flags, helpHint, parseFlags, Redactor, textFlag } from "./lib/io/mod.ts";
import { readManifest } from "./lib/run_folder/mod.ts";
import { judgeEndpointFromEnv } from "./lib/llm/mod.ts";
import { refreshViewer } from "./lib/report/mod.ts";
import {
  ARM_NAMES,
  configFromFlags,
  EVAL_OPTIONS,
  EVAL_PERMISSIONS,
  evalUsage,
  formatStatusCounts,
  runEval,
} from "./lib/run/mod.ts";
import { REGRADE_TASK_FLAGS, regradeCommand } from "./cli/regrade.ts";

/**
 * --regrade DIR: regrade.ts's code path, with the tasks --tasks or --human name; it runs nothing else. The seed's
 * regrade command lines carry --arm and --out (its parser requires them): they are accepted when they agree with the
 * run (the arm it ran, the folder itself), so that such a line runs unchanged and a wrong one is not silently taken.
 */
async function regrade(flags: Flags): Promise<number> {
  const other = Object.keys(flags).find((f) =>
    f !== "regrade" && f !== "arm" && f !== "out" && !REGRADE_TASK_FLAGS.includes(f) && flags[f] !== undefined
  );
  if (other) throw new UsageError(`--${other} does not go with --regrade (it runs nothing)`);
  const dir = textFlag(flags, "regrade", "a run's output folder")!;
  await checkFolderFlag("regrade", dir, { file: "results.jsonl", what: "a run's output folder" });
  const out = textFlag(flags, "out", "a run's output folder");
  if (out !== undefined && resolve(out) !== resolve(dir)) {
    throw new UsageError(
      `--out "${out}" is not the run --regrade names ("${dir}"): a regrade rewrites that run's grades in place ` +
        "(give the same folder, or no --out)",
    );
  }
  const arm = textFlag(flags, "arm", "an arm");
  if (arm !== undefined) {
    const ran = (await readManifest(dir))?.settings.arm;
    if (ran !== undefined && ran !== arm) throw new UsageError(`--arm ${arm}: the run in "${dir}" ran ${ran}`);
    if (ran === undefined && !ARM_NAMES.includes(arm)) {
      throw new UsageError(`--arm "${arm}" is not one of: ${ARM_NAMES.join(", ")}`);
    }
  }
  return regradeCommand(flags, { script: "eval.ts", permissions: EVAL_PERMISSIONS, folderFlag: "regrade" });
}

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  const flags = parseFlags(argv, EVAL_OPTIONS);
  if (flags.help) {
    console.log(evalUsage());
    return 0;
  }
  if (flags.regrade !== undefined) return await regrade(flags);
  const config = configFromFlags(flags, Deno.env.get("WEBMIX_VLLM_API_KEY"));
  // runEval checks everything before it writes or deletes anything; a dry run stops there.
  const summary = await runEval(config, { signal, judge: judgeEndpointFromEnv(Deno.env.toObject()) });
  if (summary.dryRun) {
    console.log(JSON.stringify(summary.dryRun, null, 2));
    return 0;
  }
  if (summary.ran + summary.skipped > 0) await refreshViewer(config.out, "eval.ts");
  console.log(
    `${config.arm}: ${summary.ran} episodes: ${formatStatusCounts(summary.counts)}` +
      (summary.skipped ? ` (${summary.skipped} already done)` : ""),
  );
  if (signal.aborted) return 130;
  if (summary.ran > 0 && summary.counts.error === summary.ran) {
    // Nothing was evaluated: the harness, not the agent, failed every time (the lines stay, --resume reruns them).
    console.error(
      `eval.ts: every episode (${summary.ran}) hit a harness error, e.g. ${summary.results[0].error}; ` +
        `their lines are in ${join(config.out, "results.jsonl")}, and --resume runs them again`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.main) {
  const controller = new AbortController();
  const onSignal = () => {
    console.error("eval.ts: interrupted; finishing the episodes under way, starting no more");
    controller.abort();
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  // Messages quote flags and URLs: a URL's password and the API key are hidden.
  const clean = new Redactor([Deno.env.get("WEBMIX_VLLM_API_KEY")]);
  const fail = (message: string) => console.error(clean.text(`eval.ts: ${message}`));
  let code: number;
  try {
    code = await main(Deno.args, controller.signal);
  } catch (err) {
    if (err instanceof UsageError) {
      fail(`${err.message}${helpHint(err)}`);
      code = 2;
    } else if (err instanceof TaskFormatError) {
      fail(err.message);
      code = 2;
    } else {
      fail(err instanceof HarnessError ? err.message : describeError(err));
      code = 1;
    }
  }
  Deno.exit(code);
}
