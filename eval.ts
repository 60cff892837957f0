/**
 * eval.ts: run one arm over tasks on the sandbox sites (or external site servers) and grade every episode on the
 * backend's evidence. Writes <out>/results.jsonl (one line per episode) and <out>/<episode>/ artifacts.
 *
 * Modes: a run (default); --regrade DIR (recompute the grades of an earlier run); --dry-run (print the resolved
 * options and the task count). Exit codes: 0 the run finished (whatever the grades), 1 the harness failed,
 * 2 a usage error or a malformed task file (nothing written), 130 interrupted (results so far are kept).
 */
import { fileURLToPath } from "node:url";
import { describeError, HarnessError, TaskFormatError, UsageError } from "./lib/errors/mod.ts";
import { basesFlag, type Flags, intFlag, listFlag, parseFlags } from "./lib/run/cli.ts";
import { MODEL_FREE_ARMS, regradeRun, runEval } from "./lib/run/mod.ts";
import { DEFAULT_NOW } from "./lib/sites/mod.ts";
import { filterTasks, loadTasks } from "./lib/tasks/mod.ts";

const DEFAULT_TASKS = fileURLToPath(new URL("./fixtures/tasks.jsonl", import.meta.url));
const ARMS = Object.keys(MODEL_FREE_ARMS);

const USAGE = `Usage: deno task eval --arm ARM --out DIR [options]

Runs ARM over the tasks and grades each episode on the site backend's evidence.

Arms:
  replay           execute each task's reference solution (proves tasks solvable)
  noop             answer done at once (proves grades can fail)

Options:
  --arm ARM        one of: ${ARMS.join(", ")} (required)
  --out DIR        output folder: results.jsonl and one folder per episode (required)
  --tasks FILE     a tasks.jsonl (default: the bundled fixtures/tasks.jsonl)
  --task-ids A,B   only these task ids
  --limit N        only the first N tasks (after --task-ids)
  --repeats N      run each task N times (episodes task~rK) (default 1)
  --workers N      parallel episodes, one Chromium each (default 4)
  --timeout S      seconds per episode before it is recorded as "timeout" (default 600)
  --max-steps N    step cap per episode (default 40)
  --resume         skip (task, repeat) pairs already in <out>/results.jsonl
  --overwrite      delete <out> first (without it or --resume, a non-empty <out>/results.jsonl is an error)
  --regrade DIR    recompute every grade of an earlier run from its grade_inputs.json, then exit
  --bases URLS     external site servers speaking the admin protocol (default: start the embedded sandbox)
  --ports P1,P2    external site servers on 127.0.0.1 ports (the seed's flag; adds to --bases)
  --now ISO        the embedded sandbox's frozen clock (default ${DEFAULT_NOW})
  --no-step-screenshots   save only final.png
  --dry-run        print the resolved options and the task count, run nothing
  -h, --help       this text

Examples:
  deno task demo
  deno task eval --arm noop --out out/noop --workers 2
  deno task eval --arm replay --tasks my_tasks.jsonl --task-ids shop_cart_add,mail_send --out out/r1 --resume
  deno task eval --regrade out/r1
`;

const OPTIONS = {
  arm: { type: "string" },
  out: { type: "string" },
  tasks: { type: "string" },
  "task-ids": { type: "string" },
  limit: { type: "string" },
  repeats: { type: "string" },
  workers: { type: "string" },
  timeout: { type: "string" },
  "max-steps": { type: "string" },
  resume: { type: "boolean" },
  overwrite: { type: "boolean" },
  regrade: { type: "string" },
  bases: { type: "string" },
  ports: { type: "string" },
  now: { type: "string" },
  "no-step-screenshots": { type: "boolean" },
  "dry-run": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

async function loadSelectedTasks(flags: Flags) {
  const tasks = await loadTasks(typeof flags.tasks === "string" ? flags.tasks : DEFAULT_TASKS);
  return filterTasks(tasks, { taskIds: listFlag(flags, "task-ids"), limit: intFlag(flags, "limit", 0) || undefined });
}

/** A run never appends to an earlier run's results by accident. */
async function guardOut(out: string, resume: boolean, overwrite: boolean): Promise<void> {
  if (resume && overwrite) throw new UsageError("--resume and --overwrite contradict each other");
  if (overwrite) {
    await Deno.remove(out, { recursive: true }).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
    return;
  }
  const text = await Deno.readTextFile(`${out}/results.jsonl`).catch(() => "");
  const lines = text.split("\n").filter((l) => l.trim()).length;
  if (lines > 0 && !resume) {
    throw new UsageError(
      `${out}/results.jsonl already holds ${lines} episodes: pass --resume to finish that run, --overwrite to start ` +
        `it again, or choose another --out`,
    );
  }
}

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  const flags = parseFlags(argv, OPTIONS);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (typeof flags.regrade === "string") {
    const tasks = typeof flags.tasks === "string" ? await loadSelectedTasks(flags) : undefined;
    const s = await regradeRun(flags.regrade, tasks);
    console.log(`regraded ${flags.regrade}: ${JSON.stringify({ ok: s.ok, fail: s.fail })} (${s.changed} changed)`);
    return 0;
  }
  if (typeof flags.arm !== "string") throw new UsageError("--arm is required");
  const arm = MODEL_FREE_ARMS[flags.arm];
  if (!arm) throw new UsageError(`--arm "${flags.arm}" is not one of: ${ARMS.join(", ")}`);
  if (typeof flags.out !== "string") throw new UsageError("--out is required");
  const tasks = await loadSelectedTasks(flags);
  const options = {
    arm: arm.name,
    out: flags.out,
    tasks: tasks.length,
    workers: intFlag(flags, "workers", 4, 1, 256),
    repeats: intFlag(flags, "repeats", 1, 1, 10_000),
    timeoutS: intFlag(flags, "timeout", 600, 1),
    maxSteps: intFlag(flags, "max-steps", 40, 1),
    resume: Boolean(flags.resume),
    bases: basesFlag(flags),
    now: typeof flags.now === "string" ? flags.now : DEFAULT_NOW,
    stepScreenshots: !flags["no-step-screenshots"],
  };
  await guardOut(flags.out, Boolean(flags.resume), Boolean(flags.overwrite));
  if (flags["dry-run"]) {
    console.log(JSON.stringify(options, null, 2));
    return 0;
  }
  const summary = await runEval({ ...options, arm, tasks, signal });
  console.log(
    `${arm.name}: ${JSON.stringify({ ok: summary.ok, fail: summary.fail })}` +
      (summary.skipped ? ` (${summary.skipped} already done)` : ""),
  );
  return signal.aborted ? 130 : 0;
}

if (import.meta.main) {
  const controller = new AbortController();
  const onSignal = () => {
    console.error("eval.ts: interrupted; finishing the episodes under way, starting no more");
    controller.abort();
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  let code: number;
  try {
    code = await main(Deno.args, controller.signal);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`eval.ts: ${err.message}\nRun with --help for the options.`);
      code = 2;
    } else if (err instanceof TaskFormatError) {
      console.error(`eval.ts: ${err.message}`);
      code = 2;
    } else {
      console.error(`eval.ts: ${err instanceof HarnessError ? err.message : describeError(err)}`);
      code = 1;
    }
  }
  Deno.exit(code);
}
