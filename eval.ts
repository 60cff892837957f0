/**
 * eval.ts: run one arm over tasks on the sandbox sites (or external site servers) and grade every episode on the
 * backend's evidence. Writes <out>/results.jsonl (one line per episode) and <out>/<episode>/ artifacts.
 *
 * Modes: a run (default); --regrade DIR (recompute the grades of an earlier run); --dry-run (print the resolved
 * options and the task count). Exit codes: 0 the run finished (whatever the grades), 1 the harness failed
 * (Chromium, the model or a site server unusable at start, nothing written; or every episode a harness error, their
 * lines written), 2 a usage error or a malformed task file (nothing written), 130 interrupted (results so far are
 * kept). Progress goes to stderr (a live line on a terminal), the summary line to stdout.
 */
import { PLANNER_VERSIONS } from "./lib/agent/mod.ts";
import { describeError, HarnessError, TaskFormatError, UsageError } from "./lib/errors/mod.ts";
import { judgeEndpointFromEnv, judgeToReach, OpenAiJudge } from "./lib/llm/mod.ts";
import type { AnswerJudge } from "./lib/grading/mod.ts";
import { join } from "node:path";
import {
  basesFlag,
  checkFolderFlag,
  checkNetAccess,
  choiceFlag,
  type Flags,
  guardedFolderProblem,
  instantFlag,
  listFlag,
  numberFlag,
  parseFlags,
  type Reach,
  readFileFlag,
  Redactor,
  textFlag,
  urlFlag,
} from "./lib/io/mod.ts";
import { refreshViewer } from "./lib/report/mod.ts";
import { regradeRun } from "./lib/results/mod.ts";
import {
  ADAPTER_NAMES,
  ARM_NAMES,
  dryRunReport,
  formatStatusCounts,
  guardedFolders,
  isModelArm,
  type LimitName,
  LIMITS,
  parseShard,
  PLANNER_ARM,
  resolveArm,
  RUN_MARKERS,
  type RunConfig,
  runConfig,
  runEval,
  shardTasks,
} from "./lib/run/mod.ts";
import { APPS, DEFAULT_NOW } from "./lib/sites/mod.ts";
import {
  checkTaskSites,
  FAMILIES,
  filterTasks,
  kindName,
  loadHumanTasks,
  loadTasks,
  type RunTask,
} from "./lib/tasks/mod.ts";

const USAGE = `Usage: deno task eval --arm ARM --out DIR [options]

Runs ARM over the tasks and grades each episode on the site backend's evidence.

Arms:
  replay           execute each task's reference solution (proves tasks solvable)
  noop             answer done at once (proves grades can fail)
  base             the base model at every step (--base-name)
  pooled           one adapter for every step (--pooled-name)
  oracle           the adapter of each planned macro's family (--adapters), switched at macro_done
  agent_planner    a planner model (--planner-name) delegates each step to its family's specialist

Options:
  --arm ARM        one of: ${ARM_NAMES.join(", ")} (required)
  --out DIR        output folder: results.jsonl and one folder per episode (required): a new or empty
                   folder, or an earlier run's; never the current folder, one above it, the home folder or
                   the repository
  --tasks FILE     a tasks.jsonl of datagen tasks, or of proposed tasks (kind "proposed"; graded "pending")
                   (default: the bundled fixtures/tasks.jsonl)
  --human          the human-written tasks (annotations with verifiers) instead of --tasks
  --human-split S  --human: test (held-out sites, default), train or all
  --human-macros M1,M2   --human: only tasks with one of these macros
  --annotations DIR      --human: the annotations folder (default fixtures/annotations)
  --task-ids A,B   only these task ids
  --limit N        only the first N tasks (after --task-ids)
  --shard K/N      only part K of N of the selected tasks, K from 0 to N-1 (a Slurm array task:
                   --shard $SLURM_ARRAY_TASK_ID/N); task i goes to part i mod N, with its repeats;
                   deno task merge joins the parts' folders
  --repeats N      run each task N times (episodes task~rK) (default 1)
  --workers N      parallel episodes, one Chromium each, 1 to 256 (default 8)
  --timeout S      seconds the arm may run before the episode is recorded as "timeout", 1 to 86400 (default
                   600); start and grading have their own bounds
  --max-steps N    step cap per episode, 0 to 10000; 0: the default 40
  --resume         skip (task, repeat) pairs already in <out>/results.jsonl; episodes the harness failed
                   (an error other than "timeout") run again, their new line saying so in "retried"
  --retry-timeouts --resume: run timed-out episodes again too
  --force-resume   --resume a folder whose run.json says it was run with other settings
  --overwrite      delete <out>'s earlier run first, once every other check passed (without it or --resume, a
                   non-empty <out>/results.jsonl is an error)
  --regrade DIR    recompute every grade of an earlier run from its grade_inputs.json, then exit (takes only
                   --tasks, or --human and its options, to grade with other checks)
  --bases URLS     external site servers speaking the admin protocol (default: start the embedded sandbox)
  --ports P1,P2    external site servers on 127.0.0.1 ports (the seed's flag; adds to --bases)
  --now ISO        the embedded sandbox's frozen clock (default ${DEFAULT_NOW})
  --no-step-screenshots   save only final.png
  --verifier-only  grade with the backend check + the task's verifier as-is, never the macro judge (eval.ts
                   never uses the macro judge; the flag records the intent in run.json)
  --dry-run        print the resolved configuration as JSON (every setting, the task count, each family's
                   served model), run nothing and write or delete nothing, --overwrite or not
  -h, --help       this text

Model arms (an OpenAI-compatible server; the request's model name picks the LoRA adapter):
  --vllm URL       the server's /v1 base URL (default http://127.0.0.1:8400/v1; key from $WEBMIX_VLLM_API_KEY)
  --base-name N    served name of the base model (default qwen35-4b)
  --pooled-name N  served name of the pooled adapter (default pooled)
  --adapters A,B   adapters the server serves, of: drag, io, select, rest, reasoning (oracle)
  --gate-done      oracle: the router turns a premature done into macro_done (at most 3 times)
  --gate-note      --gate-done, and tell the model the planned steps still left
  --temperature T  sampling temperature (default 0)
  --max-tokens N   reply budget per call (default 1024)
  --model-timeout S   seconds per model call attempt, > 0 (default 120)
  --max-actions N  actions per step, 1 to 20 (default 5)
  --system-prompt FILE   the agent's system prompt (default prompts/system_prompt.md)
  --normalized-coords    click/drag coordinates on a 0-1000 grid over the viewport (the default)
  --pixel-coords   click/drag coordinates in the viewport's CSS pixels instead
  --record-rows    write passing episodes' requests and replies as training rows
  --record-family F      --record-rows: the rows' family, one of: ${FAMILIES.join(", ")}
                   (default: the task macro's)

agent_planner (each flag goes with --arm agent_planner):
  --planner-name N agent_planner: the planner's served model name (default qwen35-4b)
  --sub-cap N      agent_planner: steps per delegated step (of the --max-steps), 1 to 10000 (default 15)
  --planner-turns N      agent_planner: the planner agent's own turns, 1 to 1000 (default 12)
  --agent-version V      agent_planner: planner_agent version, v1 or v2 (default v1)
  --fallback N     agent_planner: model for a family without its adapter (default: the base)
  --reasoning-to-fallback  agent_planner: reasoning steps go to --fallback too (default: the reasoning adapter,
                   else the base)

The LLM tier of human verifiers' answer checks reads WEBMIX_JUDGE_BASE_URL, WEBMIX_JUDGE_API_KEY and
WEBMIX_JUDGE_MODEL (default gemini-3.5-flash-lite); without them such grades are recorded with grade_error and
--regrade completes them later.

deno task eval may reach 127.0.0.1 and localhost only: a --vllm, --bases or judge server on another host is
refused before the run (exit 2) with the command that allows it; deno task eval:remote may reach any host (the
agent's browser still reaches only the sites) (docs/cluster.md, "Permissions").

Paths: relative ones (--out, --tasks, ...) are relative to the current folder, under deno task too; the defaults
(fixtures/, prompts/) are the suite's own, wherever the command runs from.

Examples:
  deno task demo
  deno task eval --arm noop --out out/noop --workers 2
  deno task eval --arm replay --tasks my_tasks.jsonl --task-ids shop_cart_add,mail_send --out out/r1 --resume
  deno task eval --regrade out/r1
  deno task eval --arm replay --human --human-split all --out out/human
  deno task eval --arm replay --shard $SLURM_ARRAY_TASK_ID/3 --out out/r1/$SLURM_ARRAY_TASK_ID --resume
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
  shard: { type: "string" },
  repeats: { type: "string" },
  workers: { type: "string" },
  timeout: { type: "string" },
  "max-steps": { type: "string" },
  resume: { type: "boolean" },
  "force-resume": { type: "boolean" },
  overwrite: { type: "boolean" },
  regrade: { type: "string" },
  bases: { type: "string" },
  ports: { type: "string" },
  now: { type: "string" },
  "no-step-screenshots": { type: "boolean" },
  "verifier-only": { type: "boolean" },
  "retry-timeouts": { type: "boolean" },
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
  "pixel-coords": { type: "boolean" },
  "record-rows": { type: "boolean" },
  "record-family": { type: "string" },
  "planner-name": { type: "string" },
  "sub-cap": { type: "string" },
  "planner-turns": { type: "string" },
  "agent-version": { type: "string" },
  fallback: { type: "string" },
  "reasoning-to-fallback": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Each numeric flag and the setting whose range (LIMITS) it takes. */
const NUMBER_FLAGS: Readonly<Record<string, LimitName>> = {
  workers: "workers",
  repeats: "repeats",
  limit: "limit",
  timeout: "timeoutS",
  "max-steps": "maxSteps",
  temperature: "temperature",
  "max-tokens": "maxTokens",
  "model-timeout": "modelTimeoutS",
  "max-actions": "maxActions",
  "sub-cap": "subCap",
  "planner-turns": "plannerTurns",
};

/** The flags only the planner arm reads: with another arm they would be ignored, so they are refused. */
const PLANNER_FLAGS = [
  "planner-name",
  "sub-cap",
  "planner-turns",
  "agent-version",
  "fallback",
  "reasoning-to-fallback",
];

/** The flags --regrade reads (it runs nothing: any other would be ignored). */
const REGRADE_FLAGS = new Set(["regrade", "tasks", "human", "human-split", "human-macros", "annotations"]);

/** Flags that contradict each other or need another. */
function checkFlagCombinations(flags: Flags): void {
  const given = (name: string) => flags[name] !== undefined && flags[name] !== false;
  if (!flags.human && (given("human-split") || given("human-macros") || given("annotations"))) {
    throw new UsageError("--human-split, --human-macros and --annotations go with --human");
  }
  if (flags.human && given("tasks")) {
    throw new UsageError("--tasks and --human exclude each other: --human reads the annotations folder");
  }
  if (flags.resume && flags.overwrite) throw new UsageError("--resume and --overwrite exclude each other");
  if (flags["force-resume"] && !flags.resume) throw new UsageError("--force-resume goes with --resume");
  if (flags["retry-timeouts"] && !flags.resume) throw new UsageError("--retry-timeouts goes with --resume");
  if (flags["pixel-coords"] && flags["normalized-coords"]) {
    throw new UsageError("--pixel-coords and --normalized-coords exclude each other: choose one coordinate system");
  }
  const planner = PLANNER_FLAGS.find(given);
  if (planner && flags.arm !== PLANNER_ARM) {
    throw new UsageError(`--${planner} goes with --arm ${PLANNER_ARM} (the arm is ${flags.arm})`);
  }
}

/** The coordinate system the flags choose: normalized unless --pixel-coords (undefined: the default). */
function normalizedFlag(flags: Flags): boolean | undefined {
  if (flags["pixel-coords"]) return false;
  return flags["normalized-coords"] ? true : undefined;
}

/** The run configuration the flags say, every value checked here (every default is runConfig's). */
function configFromFlags(flags: Flags): RunConfig {
  checkFlagCombinations(flags);
  const text = (name: string, expected: string) => textFlag(flags, name, expected);
  const bool = (name: string) => Boolean(flags[name]);
  const num = (name: string) => numberFlag(flags, name, LIMITS[NUMBER_FLAGS[name]]);
  return runConfig({
    arm: String(flags.arm),
    out: String(flags.out),
    tasks: {
      file: text("tasks", "a task file"),
      human: bool("human"),
      humanSplit: choiceFlag(flags, "human-split", ["test", "train", "all"] as const),
      humanMacros: listFlag(flags, "human-macros"),
      annotations: text("annotations", "an annotations folder"),
      taskIds: listFlag(flags, "task-ids"),
      limit: num("limit"),
    },
    workers: num("workers"),
    repeats: num("repeats"),
    timeoutS: num("timeout"),
    maxSteps: num("max-steps"),
    resume: bool("resume"),
    retryTimeouts: bool("retry-timeouts"),
    forceResume: bool("force-resume"),
    overwrite: bool("overwrite"),
    dryRun: bool("dry-run"),
    bases: basesFlag(flags),
    now: instantFlag(flags, "now", DEFAULT_NOW),
    stepScreenshots: !flags["no-step-screenshots"],
    recordRows: bool("record-rows"),
    recordFamily: choiceFlag(flags, "record-family", FAMILIES),
    verifierOnly: bool("verifier-only"),
    shard: flags.shard === undefined ? undefined : parseShard(String(flags.shard)),
    model: {
      vllm: urlFlag(flags, "vllm", "http://127.0.0.1:8400/v1"),
      apiKey: Deno.env.get("WEBMIX_VLLM_API_KEY"),
      baseName: text("base-name", "a served model name"),
      pooledName: text("pooled-name", "a served model name"),
      adapters: listFlag(flags, "adapters", ADAPTER_NAMES),
      temperature: num("temperature"),
      maxTokens: num("max-tokens"),
      modelTimeoutS: num("model-timeout"),
      gateDone: bool("gate-done"),
      gateNote: bool("gate-note"),
      systemPromptFile: text("system-prompt", "a file"),
      maxActions: num("max-actions"),
      normalizedCoords: normalizedFlag(flags),
      plannerName: text("planner-name", "a served model name"),
      subCap: num("sub-cap"),
      plannerTurns: num("planner-turns"),
      agentVersion: choiceFlag(flags, "agent-version", PLANNER_VERSIONS),
      fallback: text("fallback", "a served model name"),
      reasoningToFallback: bool("reasoning-to-fallback"),
    },
  });
}

/** The files and folders the flags name exist and can be read (task files are read by the loaders). */
async function checkFlagPaths(flags: Flags): Promise<void> {
  const prompt = flags["system-prompt"];
  if (typeof prompt === "string") await readFileFlag("system-prompt", prompt);
  const annotations = flags.annotations;
  if (typeof annotations === "string") {
    await checkFolderFlag("annotations", annotations, { file: "site_split.json", what: "an annotations folder" });
  }
}

/**
 * The tasks a configuration selects: human annotations, or a task file of datagen and proposed tasks. On the
 * embedded sandbox (no --bases) each task's sites must be its apps; an external server's apps are known only
 * after its /_admin/health, and runEval checks those.
 */
async function loadRunTasks(config: RunConfig, checkSites: boolean): Promise<RunTask[]> {
  const t = config.tasks;
  const tasks: RunTask[] = t.human
    ? await loadHumanTasks({ annotationsDir: t.annotations, split: t.humanSplit, macros: t.humanMacros })
    : await loadTasks(t.file);
  if (checkSites && config.bases.length === 0) checkTaskSites(tasks, APPS.map((a) => a.id));
  const selected = filterTasks(tasks, { taskIds: t.taskIds, limit: t.limit || undefined });
  return config.shard ? shardTasks(selected, config.shard) : selected;
}

/** The LLM answer tier from the environment, or undefined when no endpoint is configured. */
async function answerJudge(): Promise<AnswerJudge | undefined> {
  const endpoint = judgeEndpointFromEnv(Deno.env.toObject());
  return endpoint ? await OpenAiJudge.create(endpoint) : undefined;
}

/**
 * The servers a run connects to: the model server (model arms), the site servers, and the answer judge when a task
 * may need it (a human task's LLM tier; --regrade).
 */
function serversToReach(config: RunConfig | undefined, env: Record<string, string>, judged: boolean): Reach[] {
  const reach: Reach[] = [];
  if (config && isModelArm(config.arm)) reach.push({ what: "--vllm", url: config.model.vllm });
  for (const base of config?.bases ?? []) reach.push({ what: "--bases", url: base });
  return [...reach, ...(judged ? judgeToReach(env) : [])];
}

/** Checks before the run that this process may reach every server it will use (lib/io checkNetAccess). */
function checkNetPermissions(config: RunConfig | undefined, judged: boolean): Promise<void> {
  return checkNetAccess(
    serversToReach(config, Deno.env.toObject(), judged),
    "eval.ts",
    "--allow-read --allow-write --allow-env --allow-run --allow-sys",
  );
}

/** The names in --out, or undefined when it does not exist yet. */
async function folderEntries(path: string): Promise<string[] | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new UsageError(`--out "${path}": ${(err as Error).message}`, { cause: err });
  }
  if (!info.isDirectory) throw new UsageError(`--out "${path}" is a file, not a folder`);
  const names: string[] = [];
  for await (const e of Deno.readDir(path)) names.push(e.name);
  return names;
}

/**
 * Whether --out can take this run, before anything is written or deleted: never the current folder, a folder
 * above it, the filesystem root, the home folder or the repository; a folder that holds files must hold a run
 * (so --overwrite deletes only an earlier run); without --resume or --overwrite, a folder with results is refused.
 */
async function checkOut(config: RunConfig): Promise<void> {
  const out = config.out;
  const problem = await guardedFolderProblem(out, guardedFolders(Deno.cwd(), Deno.env.get("HOME")));
  if (problem) throw new UsageError(`--out "${out}" ${problem}: name a folder of the run's own (e.g. out/r1)`);
  const names = await folderEntries(out);
  if (!names?.length) return;
  if (!RUN_MARKERS.some((m) => names.includes(m))) {
    const flag = config.overwrite ? "--overwrite: " : "--out ";
    throw new UsageError(
      `${flag}"${out}" holds files but no earlier run (no ${RUN_MARKERS.join(", ")} at its top)` +
        (config.overwrite ? ", and --overwrite deletes only a run's folder" : "") +
        ": choose a new or empty folder",
    );
  }
  if (config.overwrite) return;
  const text = names.includes("results.jsonl") ? await Deno.readTextFile(join(out, "results.jsonl")) : "";
  const lines = text.split("\n").filter((l) => l.trim()).length;
  if (lines > 0 && !config.resume) {
    throw new UsageError(
      `${out}/results.jsonl already holds ${lines} episodes: pass --resume to finish that run, --overwrite to start ` +
        `it again, or choose another --out`,
    );
  }
}

/** --regrade DIR: the grades of an earlier run recomputed, with the checks of --tasks or --human when given. */
async function regrade(flags: Flags): Promise<number> {
  const other = Object.keys(flags).find((f) => !REGRADE_FLAGS.has(f) && flags[f] !== undefined);
  if (other) throw new UsageError(`--${other} does not go with --regrade (it runs nothing)`);
  const dir = textFlag(flags, "regrade", "a run's output folder")!;
  await checkFolderFlag("regrade", dir, { file: "results.jsonl", what: "a run's output folder" });
  await checkFlagPaths(flags);
  await checkNetPermissions(undefined, true);
  const tasks = typeof flags.tasks === "string" || flags.human
    ? await loadRunTasks(configFromFlags({ ...flags, arm: "noop", out: dir }), false)
    : undefined;
  const s = await regradeRun(dir, tasks, await answerJudge());
  await refreshViewer(dir, "eval.ts");
  console.log(`regraded ${dir}: ${JSON.stringify({ ok: s.ok, fail: s.fail })} (${s.changed} changed)`);
  return 0;
}

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  const flags = parseFlags(argv, OPTIONS);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (flags.regrade !== undefined) return await regrade(flags);
  if (flags.arm === undefined) throw new UsageError("--arm is required");
  if (!ARM_NAMES.includes(String(flags.arm))) {
    throw new UsageError(`--arm "${flags.arm}" is not one of: ${ARM_NAMES.join(", ")}`);
  }
  if (flags.out === undefined) throw new UsageError("--out is required");
  textFlag(flags, "out", "the run's output folder");
  // Every check comes before anything is written or deleted: flags, the files they name, the tasks, --out.
  const config = configFromFlags(flags);
  await checkFlagPaths(flags);
  const tasks = await loadRunTasks(config, true);
  await checkNetPermissions(config, tasks.some((t) => kindName(t) === "human"));
  await checkOut(config);
  if (config.dryRun) {
    // Before anything is written, deleted or locked: --dry-run --overwrite leaves the earlier run as it was.
    console.log(JSON.stringify(dryRunReport(config, tasks, judgeEndpointFromEnv(Deno.env.toObject())), null, 2));
    return 0;
  }
  // A model arm's server and the answer judge are checked before --overwrite deletes the earlier run (runEval
  // deletes it once the site servers and the lock have been checked too).
  const arm = await resolveArm(config, tasks);
  const qa = await answerJudge();
  const summary = await runEval(config, { tasks, arm, signal, qa });
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
      fail(`${err.message}\nRun with --help for the options.`);
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
