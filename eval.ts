/**
 * eval.ts: run one arm over tasks on the sandbox sites (or external site servers) and grade every episode on the
 * backend's evidence. Writes <out>/results.jsonl (one line per episode) and <out>/<episode>/ artifacts.
 *
 * Modes: a run (default); --regrade DIR (recompute the grades of an earlier run); --dry-run (print the resolved
 * options and the task count). Exit codes: 0 the run finished (whatever the grades), 1 the harness failed,
 * 2 a usage error or a malformed task file (nothing written), 130 interrupted (results so far are kept).
 */
import { describeError, HarnessError, ModelReplyError, TaskFormatError, UsageError } from "./lib/errors/mod.ts";
import { judgeEndpointFromEnv, OpenAiJudge } from "./lib/llm/mod.ts";
import type { AnswerJudge } from "./lib/grading/mod.ts";
import { basesFlag, type Flags, intFlag, listFlag, parseFlags } from "./lib/io/mod.ts";
import { regradeRun } from "./lib/results/mod.ts";
import { ARM_NAMES, type RunConfig, runConfig, runEval } from "./lib/run/mod.ts";
import { DEFAULT_NOW } from "./lib/sites/mod.ts";
import { filterTasks, loadHumanTasks, loadTasks, type RunTask } from "./lib/tasks/mod.ts";

const USAGE = `Usage: deno task eval --arm ARM --out DIR [options]

Runs ARM over the tasks and grades each episode on the site backend's evidence.

Arms:
  replay           execute each task's reference solution (proves tasks solvable)
  noop             answer done at once (proves grades can fail)
  base             the base model at every step (--base-name)
  pooled           one adapter for every step (--pooled-name)
  oracle           the adapter of each planned macro's family (--adapters), switched at macro_done

Options:
  --arm ARM        one of: ${ARM_NAMES.join(", ")} (required)
  --out DIR        output folder: results.jsonl and one folder per episode (required)
  --tasks FILE     a tasks.jsonl of datagen tasks, or of proposed tasks (kind "proposed"; graded "pending")
                   (default: the bundled fixtures/tasks.jsonl)
  --human          the human-written tasks (annotations with verifiers) instead of --tasks
  --human-split S  --human: test (held-out sites, default), train or all
  --human-macros M1,M2   --human: only tasks with one of these macros
  --annotations DIR      --human: the annotations folder (default fixtures/annotations)
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

Model arms (an OpenAI-compatible server; the request's model name picks the LoRA adapter):
  --vllm URL       the server's /v1 base URL (default http://127.0.0.1:8400/v1; key from $WEBMIX_VLLM_API_KEY)
  --base-name N    served name of the base model (default qwen35-4b)
  --pooled-name N  served name of the pooled adapter (default pooled)
  --adapters A,B   adapters the server serves: drag, io, select, rest, reasoning (oracle)
  --gate-done      oracle: the router turns a premature done into macro_done (at most 3 times)
  --gate-note      --gate-done, and tell the model the planned steps still left
  --temperature T  sampling temperature (default 0)
  --max-tokens N   reply budget per call (default 1024)
  --model-timeout S   seconds per model call attempt (default 120)
  --max-actions N  actions per step (default 5)
  --system-prompt FILE   the agent's system prompt (default prompts/system_prompt.md)
  --normalized-coords    click/drag coordinates on a 0-1000 grid
  --record-rows    write passing episodes' requests and replies as training rows
  --record-family F      the rows' family (default: the task macro's)

The LLM tier of human verifiers' answer checks reads WEBMIX_JUDGE_BASE_URL, WEBMIX_JUDGE_API_KEY and
WEBMIX_JUDGE_MODEL (default gemini-3.5-flash-lite); without them such grades are recorded with grade_error and
--regrade completes them later.
  --dry-run        print the resolved options and the task count, run nothing
  -h, --help       this text

Examples:
  deno task demo
  deno task eval --arm noop --out out/noop --workers 2
  deno task eval --arm replay --tasks my_tasks.jsonl --task-ids shop_cart_add,mail_send --out out/r1 --resume
  deno task eval --regrade out/r1
  deno task eval --arm replay --human --human-split all --out out/human
  deno task eval --arm oracle --adapters drag,io,select,rest --gate-done --vllm http://127.0.0.1:8400/v1 --out out/o1
`;

const OPTIONS = {
  arm: { type: "string" },
  out: { type: "string" },
  tasks: { type: "string" },
  human: { type: "boolean" },
  "human-split": { type: "string" },
  "human-macros": { type: "string" },
  annotations: { type: "string" },
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
  vllm: { type: "string" },
  "base-name": { type: "string" },
  "pooled-name": { type: "string" },
  adapters: { type: "string" },
  "gate-done": { type: "boolean" },
  "gate-note": { type: "boolean" },
  temperature: { type: "string" },
  "max-tokens": { type: "string" },
  "model-timeout": { type: "string" },
  "max-actions": { type: "string" },
  "system-prompt": { type: "string" },
  "normalized-coords": { type: "boolean" },
  "record-rows": { type: "boolean" },
  "record-family": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The run configuration the flags say (every default is runConfig's). */
function configFromFlags(flags: Flags): RunConfig {
  const str = (name: string) => typeof flags[name] === "string" ? flags[name] as string : undefined;
  const bool = (name: string) => Boolean(flags[name]);
  const number = (name: string) => {
    const raw = flags[name];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} "${raw}" is not a number >= 0`);
    return n;
  };
  const split = str("human-split");
  if (split !== undefined && !["test", "train", "all"].includes(split)) {
    throw new UsageError(`--human-split "${split}" is not one of: test, train, all`);
  }
  if (!flags.human && (flags["human-split"] || flags["human-macros"] || flags.annotations)) {
    throw new UsageError("--human-split, --human-macros and --annotations go with --human");
  }
  return runConfig({
    arm: String(flags.arm),
    out: String(flags.out),
    tasks: {
      file: str("tasks"),
      human: bool("human"),
      humanSplit: split as "test" | "train" | "all" | undefined,
      humanMacros: listFlag(flags, "human-macros"),
      annotations: str("annotations"),
      taskIds: listFlag(flags, "task-ids"),
      limit: intFlag(flags, "limit", 0),
    },
    workers: intFlag(flags, "workers", undefined, 1, 256),
    repeats: intFlag(flags, "repeats", undefined, 1, 10_000),
    timeoutS: intFlag(flags, "timeout", undefined, 1),
    maxSteps: intFlag(flags, "max-steps", undefined, 1),
    resume: bool("resume"),
    overwrite: bool("overwrite"),
    dryRun: bool("dry-run"),
    bases: basesFlag(flags),
    now: str("now"),
    stepScreenshots: !flags["no-step-screenshots"],
    recordRows: bool("record-rows"),
    recordFamily: str("record-family"),
    model: {
      vllm: str("vllm"),
      apiKey: Deno.env.get("WEBMIX_VLLM_API_KEY"),
      baseName: str("base-name"),
      pooledName: str("pooled-name"),
      adapters: listFlag(flags, "adapters"),
      temperature: number("temperature"),
      maxTokens: intFlag(flags, "max-tokens", undefined, 1),
      modelTimeoutS: number("model-timeout"),
      gateDone: bool("gate-done"),
      gateNote: bool("gate-note"),
      systemPromptFile: str("system-prompt"),
      maxActions: intFlag(flags, "max-actions", undefined, 1, 20),
      normalizedCoords: bool("normalized-coords"),
    },
  });
}

/** The tasks a configuration selects: human annotations, or a task file of datagen and proposed tasks. */
async function loadRunTasks(config: RunConfig): Promise<RunTask[]> {
  const t = config.tasks;
  const tasks: RunTask[] = t.human
    ? await loadHumanTasks({ annotationsDir: t.annotations, split: t.humanSplit, macros: t.humanMacros })
    : await loadTasks(t.file);
  return filterTasks(tasks, { taskIds: t.taskIds, limit: t.limit || undefined });
}

/** The LLM answer tier from the environment, or undefined when no endpoint is configured. */
async function answerJudge(): Promise<AnswerJudge | undefined> {
  const endpoint = judgeEndpointFromEnv(Deno.env.toObject());
  return endpoint ? await OpenAiJudge.create(endpoint) : undefined;
}

/** A run never appends to an earlier run's results by accident. */
async function guardOut(out: string, resume: boolean, overwrite: boolean): Promise<void> {
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
    const tasks = typeof flags.tasks === "string" || flags.human
      ? await loadRunTasks(configFromFlags({ ...flags, arm: "noop", out: flags.regrade }))
      : undefined;
    const s = await regradeRun(flags.regrade, tasks, await answerJudge());
    console.log(`regraded ${flags.regrade}: ${JSON.stringify({ ok: s.ok, fail: s.fail })} (${s.changed} changed)`);
    return 0;
  }
  if (typeof flags.arm !== "string") throw new UsageError("--arm is required");
  if (!ARM_NAMES.includes(flags.arm)) {
    throw new UsageError(`--arm "${flags.arm}" is not one of: ${ARM_NAMES.join(", ")}`);
  }
  if (typeof flags.out !== "string") throw new UsageError("--out is required");
  const config = configFromFlags(flags);
  const tasks = await loadRunTasks(config);
  await guardOut(config.out, config.resume, config.overwrite);
  if (config.dryRun) {
    console.log(JSON.stringify({ ...config, task_count: tasks.length }, null, 2));
    return 0;
  }
  const summary = await runEval(config, { tasks, signal, qa: await answerJudge() });
  console.log(
    `${config.arm}: ${JSON.stringify({ ok: summary.ok, fail: summary.fail })}` +
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
    } else if (err instanceof ModelReplyError) {
      console.error(`eval.ts: ${err.message}`);
      code = 1;
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
