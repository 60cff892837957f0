/**
 * eval.ts: run one arm over tasks on the sandbox sites (or external site servers) and grade every episode on the
 * backend's evidence. Writes <out>/results.jsonl (one line per episode) and <out>/<episode>/ artifacts.
 *
 * Modes: a run (default); --regrade DIR (recompute the grades of an earlier run); --dry-run (print the resolved
 * options and the task count). Exit codes: 0 the run finished (whatever the grades), 1 the harness failed,
 * 2 a usage error or a malformed task file (nothing written), 130 interrupted (results so far are kept).
 */
import { fileURLToPath } from "node:url";
import { describeError, HarnessError, ModelReplyError, TaskFormatError, UsageError } from "./lib/errors/mod.ts";
import { basesFlag, type Flags, intFlag, listFlag, parseFlags } from "./lib/run/cli.ts";
import { MODEL_FREE_ARMS, regradeRun, runEval } from "./lib/run/mod.ts";
import { isModelArm, resolveModelArm } from "./lib/run/model_arms.ts";
import type { Arm } from "./lib/agent/mod.ts";
import { DEFAULT_NOW } from "./lib/sites/mod.ts";
import { filterTasks, loadTasks } from "./lib/tasks/mod.ts";
import { loadHumanTasks, loadProposedTasks } from "./lib/human/mod.ts";
import { type AnswerJudge, judgeEndpointFromEnv, OpenAiJudge } from "./lib/llm/mod.ts";
import type { RunTask } from "./lib/run/mod.ts";

const DEFAULT_TASKS = fileURLToPath(new URL("./fixtures/tasks.jsonl", import.meta.url));
const DEFAULT_ANNOTATIONS = fileURLToPath(new URL("./fixtures/annotations", import.meta.url));
const DEFAULT_PROMPT = fileURLToPath(new URL("./prompts/system_prompt.md", import.meta.url));
const ARMS = [...Object.keys(MODEL_FREE_ARMS), "base", "pooled", "oracle"];

const USAGE = `Usage: deno task eval --arm ARM --out DIR [options]

Runs ARM over the tasks and grades each episode on the site backend's evidence.

Arms:
  replay           execute each task's reference solution (proves tasks solvable)
  noop             answer done at once (proves grades can fail)
  base             the base model at every step (--base-name)
  pooled           one adapter for every step (--pooled-name)
  oracle           the adapter of each planned macro's family (--adapters), switched at macro_done

Options:
  --arm ARM        one of: ${ARMS.join(", ")} (required)
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

/** The tasks the flags select: human annotations, or a task file of datagen or proposed tasks. */
async function loadSelectedTasks(flags: Flags): Promise<RunTask[]> {
  let tasks: RunTask[];
  if (flags.human) {
    const split = typeof flags["human-split"] === "string" ? flags["human-split"] : "test";
    if (!["test", "train", "all"].includes(split)) {
      throw new UsageError(`--human-split "${split}" is not one of: test, train, all`);
    }
    tasks = await loadHumanTasks({
      annotationsDir: typeof flags.annotations === "string" ? flags.annotations : DEFAULT_ANNOTATIONS,
      split: split as "test" | "train" | "all",
      macros: listFlag(flags, "human-macros"),
    });
  } else {
    if (flags["human-split"] || flags["human-macros"] || flags.annotations) {
      throw new UsageError("--human-split, --human-macros and --annotations go with --human");
    }
    const file = typeof flags.tasks === "string" ? flags.tasks : DEFAULT_TASKS;
    tasks = await isProposedFile(file) ? await loadProposedTasks(file) : await loadTasks(file);
  }
  return filterTasks(tasks, { taskIds: listFlag(flags, "task-ids"), limit: intFlag(flags, "limit", 0) || undefined });
}

/** A task file whose first task says `"kind": "proposed"` holds proposed tasks (the seed's taskgen output). */
async function isProposedFile(file: string): Promise<boolean> {
  const text = await Deno.readTextFile(file).catch(() => "");
  const first = text.split("\n").find((l) => l.trim());
  try {
    return first !== undefined && JSON.parse(first)?.kind === "proposed";
  } catch {
    return false;
  }
}

/** The LLM answer tier from the environment, or undefined when no endpoint is configured. */
async function answerJudge(): Promise<AnswerJudge | undefined> {
  const endpoint = judgeEndpointFromEnv(Deno.env.toObject());
  return endpoint ? await OpenAiJudge.create(endpoint) : undefined;
}

/** The model arm's settings from the flags (the system prompt read from its file). */
async function modelSettings(flags: Flags, now: string) {
  const number = (name: string, fallback: number) => {
    const raw = flags[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} "${raw}" is not a number >= 0`);
    return n;
  };
  const promptFile = typeof flags["system-prompt"] === "string" ? flags["system-prompt"] : DEFAULT_PROMPT;
  let systemPrompt: string;
  try {
    systemPrompt = await Deno.readTextFile(promptFile);
  } catch (err) {
    throw new UsageError(`--system-prompt: cannot read ${promptFile}: ${(err as Error).message}`);
  }
  const str = (name: string, fallback: string) => typeof flags[name] === "string" ? flags[name] as string : fallback;
  return {
    arm: String(flags.arm),
    vllm: str("vllm", "http://127.0.0.1:8400/v1"),
    apiKey: Deno.env.get("WEBMIX_VLLM_API_KEY") ?? "EMPTY",
    baseName: str("base-name", "qwen35-4b"),
    pooledName: str("pooled-name", "pooled"),
    adapters: new Set(listFlag(flags, "adapters") ?? []),
    temperature: number("temperature", 0),
    maxTokens: intFlag(flags, "max-tokens", 1024, 1),
    modelTimeoutS: number("model-timeout", 120),
    gateDone: Boolean(flags["gate-done"] || flags["gate-note"]),
    gateNote: Boolean(flags["gate-note"]),
    systemPrompt,
    maxActions: intFlag(flags, "max-actions", 5, 1, 20),
    normalizedCoords: Boolean(flags["normalized-coords"]),
    recordRows: Boolean(flags["record-rows"]),
    now,
  };
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
    const tasks = typeof flags.tasks === "string" || flags.human ? await loadSelectedTasks(flags) : undefined;
    const s = await regradeRun(flags.regrade, tasks, await answerJudge());
    console.log(`regraded ${flags.regrade}: ${JSON.stringify({ ok: s.ok, fail: s.fail })} (${s.changed} changed)`);
    return 0;
  }
  if (typeof flags.arm !== "string") throw new UsageError("--arm is required");
  if (!ARMS.includes(flags.arm)) throw new UsageError(`--arm "${flags.arm}" is not one of: ${ARMS.join(", ")}`);
  if (typeof flags.out !== "string") throw new UsageError("--out is required");
  const tasks = await loadSelectedTasks(flags);
  const now = typeof flags.now === "string" ? flags.now : DEFAULT_NOW;
  const options = {
    arm: flags.arm,
    out: flags.out,
    tasks: tasks.length,
    workers: intFlag(flags, "workers", 4, 1, 256),
    repeats: intFlag(flags, "repeats", 1, 1, 10_000),
    timeoutS: intFlag(flags, "timeout", 600, 1),
    maxSteps: intFlag(flags, "max-steps", 40, 1),
    resume: Boolean(flags.resume),
    bases: basesFlag(flags),
    now,
    stepScreenshots: !flags["no-step-screenshots"],
    recordRows: Boolean(flags["record-rows"]),
    recordFamily: typeof flags["record-family"] === "string" ? flags["record-family"] : undefined,
  };
  const model = isModelArm(flags.arm) ? await modelSettings(flags, now) : undefined;
  await guardOut(flags.out, Boolean(flags.resume), Boolean(flags.overwrite));
  if (flags["dry-run"]) {
    console.log(JSON.stringify(options, null, 2));
    return 0;
  }
  const arm: Arm = model ? await resolveModelArm(model, tasks) : MODEL_FREE_ARMS[flags.arm];
  const summary = await runEval({ ...options, arm, tasks, signal, qa: await answerJudge() });
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
