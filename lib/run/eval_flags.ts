/**
 * eval.ts's flags as one table: each flag, the setting it gives, how its text is read, and its help. The parser's
 * options, the --help text and the configuration (cli.ts) are all derived from it.
 */
import type { ParseArgsConfig } from "node:util";
import { MAX_GATES } from "../routing/mod.ts";
import { FAMILIES } from "../protocol/mod.ts";
import { ARM_NAMES, ARMS } from "./arms.ts";
import { ADAPTER_NAMES } from "./settings.ts";

/** One flag of eval.ts. */
export interface FlagSpec {
  /** Without its dashes. */
  flag: string;
  /** The argument in the usage line (`--workers N`); none for a switch. */
  arg?: string;
  /** The setting it gives (a dotted RunConfig path); absent for --help and --regrade. */
  path?: string;
  /**
   * How its text becomes the setting's value: as is, a whole or decimal number (other notations are NaN, which the
   * schema refuses), a comma-separated list, one of site base URLs or of ports on 127.0.0.1, or a switch that sets
   * `sets`.
   */
  kind: "text" | "whole" | "number" | "list" | "bases" | "ports" | "switch";
  /** The value a switch sets (default true). */
  sets?: boolean;
  /** Its help: {default} is the setting's default. */
  help: string;
  short?: string;
  /** Another switch of the same setting contradicts it: what to do instead. */
  conflict?: string;
}

/** A flag from its usage (`workers N`), its setting, its kind and its help. */
const flag = (usage: string, path: string | undefined, kind: FlagSpec["kind"], help: string, more = {}): FlagSpec => {
  const [name, arg] = usage.split(" ");
  return { flag: name, ...(arg ? { arg } : {}), ...(path ? { path } : {}), kind, help, ...more };
};

/** The arm whose settings block the planner flags give (agent_planner). */
const PLANNER_OWNER = ARMS.find((a) => a.settings?.key === "planner")!.name;

const RUN_FLAGS: FlagSpec[] = [
  flag("arm ARM", "arm", "text", `one of: ${ARM_NAMES.join(", ")} (required)`),
  flag(
    "out DIR",
    "out",
    "text",
    "output folder: results.jsonl and one folder per episode (required): a new or empty folder, or an earlier " +
      "run's; never the current folder, one above it, the home folder or the repository",
  ),
  flag(
    "tasks FILE",
    "tasks.file",
    "text",
    'a tasks.jsonl of datagen tasks, or of proposed tasks (kind "proposed"; graded "pending") (default: the ' +
      "bundled {default})",
  ),
  flag("human", "tasks.human", "switch", "the human-written tasks (annotations with verifiers) instead of --tasks"),
  flag("human-split S", "tasks.humanSplit", "text", "--human: test (held-out sites), train or all (default {default})"),
  flag("human-macros M1,M2", "tasks.humanMacros", "list", "--human: only tasks with one of these macros"),
  flag("annotations DIR", "tasks.annotations", "text", "--human: the annotations folder (default {default})"),
  flag(
    "site-split FILE",
    "tasks.siteSplit",
    "text",
    "--human: the site split file (the seed's data/datagen/site_split.json) (default: <annotations>/site_split.json)",
  ),
  flag(
    "strict",
    "tasks.strict",
    "switch",
    "refuse what the seed's data tolerates: a task file's macro outside the vocabulary; with --human, unknown " +
      "task.json and verifier.json keys, such macros, a task folder without verifier.json, a task on a site in " +
      "neither split (default: each loaded, or left out, as the seed does, with one warning line)",
  ),
  flag(
    "split S1,S2",
    "tasks.split",
    "list",
    "a generated set (docs/generation.md): only instances of these splits (train, val, test)",
  ),
  flag("task-ids A,B", "tasks.taskIds", "list", "only these task ids"),
  flag("limit N", "tasks.limit", "whole", "only the first N tasks (after --task-ids)"),
  flag(
    "shard K/N",
    "shard",
    "text",
    "only part K of N of the selected tasks, K from 0 to N-1 (a Slurm array task: --shard $SLURM_ARRAY_TASK_ID/N); " +
      "task i goes to part i mod N, with its repeats; deno task merge joins the parts' folders",
  ),
  flag("repeats N", "repeats", "whole", "run each task N times (episodes task~rK) (default {default})"),
  flag("workers N", "workers", "whole", "parallel episodes, 1 to 256 (default {default})"),
  flag(
    "workers-per-browser K",
    "workersPerBrowser",
    "whole",
    "episodes one Chromium runs at once, each in its own context, 1 to 64 (default {default}); a Chromium crash " +
      "fails only its own episodes (harness errors, run again by --resume)",
  ),
  flag(
    "timeout S",
    "timeoutS",
    "whole",
    'seconds the arm may run before the episode is recorded as "timeout", 1 to 86400 (default {default}); start ' +
      "and grading have their own bounds",
  ),
  flag(
    "browser-ping-timeout S",
    "browserPingTimeoutS",
    "number",
    "seconds a Chromium may leave a DevTools ping unanswered while it runs episodes, > 0 (default {default}): a " +
      "frozen one (SIGSTOP, a suspended job) is killed and relaunched, its episodes harness errors, not timeouts",
  ),
  flag("max-steps N", "maxSteps", "whole", "step cap per episode, 0 to 10000; 0: the default {default}"),
  flag(
    "resume",
    "resume",
    "switch",
    "skip (task, repeat) pairs already in <out>/results.jsonl; episodes the harness failed (an error other than " +
      '"timeout") run again, their new line saying so in "retried"',
  ),
  flag("retry-timeouts", "retryTimeouts", "switch", "--resume: run timed-out episodes again too"),
  flag("force-resume", "forceResume", "switch", "--resume a folder whose run.json says it was run with other settings"),
  flag(
    "overwrite",
    "overwrite",
    "switch",
    "delete <out>'s earlier run first, once every other check passed (without it or --resume, a non-empty " +
      "<out>/results.jsonl is an error)",
  ),
  flag(
    "regrade DIR",
    undefined,
    "text",
    "recompute every grade of an earlier run from its grade_inputs.json, then exit (takes only --tasks, or --human " +
      "and its options, to grade with other checks; and the seed's --arm and --out when they name the run's arm " +
      "and folder)",
  ),
  flag(
    "bases URLS",
    "bases",
    "bases",
    "external site servers speaking the admin protocol (default: start the " +
      "embedded sandbox)",
  ),
  flag(
    "ports P1,P2",
    "ports",
    "ports",
    "site servers on these 127.0.0.1 ports (the seed's flag): a server already listening on a port is used, else " +
      "the embedded sandbox is started on it; with --bases, added to them",
  ),
  flag("now ISO", "now", "text", "the embedded sandbox's frozen clock (default {default})"),
  flag("no-step-screenshots", "stepScreenshots", "switch", "save only final.png", { sets: false }),
  flag(
    "verifier-only",
    "verifierOnly",
    "switch",
    "grade with the backend check + the task's verifier as-is, never the macro judge (eval.ts never uses the macro " +
      "judge; the flag records the intent in run.json)",
  ),
  flag(
    "dry-run",
    "dryRun",
    "switch",
    "print the resolved configuration as JSON (every setting, the task count, each family's served model), run " +
      "nothing and write or delete nothing, --overwrite or not",
  ),
  flag("help", undefined, "switch", "this text", { short: "h" }),
];

const COORDS = { conflict: "choose one coordinate system" };

const MODEL_FLAGS: FlagSpec[] = [
  flag(
    "vllm URL",
    "model.vllm",
    "text",
    "the server's /v1 base URL (default {default}; key from $WEBMIX_VLLM_API_KEY)",
  ),
  flag("base-name N", "model.baseName", "text", "served name of the base model (default {default})"),
  flag("pooled-name N", "model.pooledName", "text", "served name of the pooled adapter (default {default})"),
  flag(
    "adapters A,B",
    "model.adapters",
    "list",
    `adapters the server serves (oracle, agent_planner): a family's steps go to its adapter (${
      ADAPTER_NAMES.join(", ")
    }) when listed; any other name is accepted, as the seed did, and never asked for`,
  ),
  flag(
    "gate-done",
    "model.gateDone",
    "switch",
    `oracle: the router turns a premature done into macro_done (at most ${MAX_GATES} times)`,
  ),
  flag("gate-note", "model.gateNote", "switch", "--gate-done, and tell the model the planned steps still left"),
  flag("temperature T", "model.temperature", "number", "sampling temperature (default {default})"),
  flag("max-tokens N", "model.maxTokens", "whole", "reply budget per call (default {default})"),
  flag("model-timeout S", "model.modelTimeoutS", "number", "seconds per model call attempt, > 0 (default {default})"),
  flag("max-actions N", "model.maxActions", "whole", "actions per step, 1 to 20 (default {default})"),
  flag("system-prompt FILE", "model.systemPromptFile", "text", "the agent's system prompt (default {default})"),
  flag(
    "normalized-coords",
    "model.normalizedCoords",
    "switch",
    "click/drag coordinates on a 0-1000 grid over the viewport (the default)",
    COORDS,
  ),
  flag(
    "pixel-coords",
    "model.normalizedCoords",
    "switch",
    "click/drag coordinates in the viewport's CSS pixels instead",
    { ...COORDS, sets: false },
  ),
  flag("record-rows", "recordRows", "switch", "write passing episodes' requests and replies as training rows"),
  flag(
    "record-family F",
    "recordFamily",
    "text",
    `--record-rows: the rows' family, any label, as the seed took it (the vocabulary's: ${
      FAMILIES.join(", ")
    }) (default: the task macro's)`,
  ),
];

const PLANNER_FLAGS: FlagSpec[] = [
  flag("planner-name N", "planner.plannerName", "text", "the planner's served model name (default {default})"),
  flag(
    "sub-cap N",
    "planner.subCap",
    "whole",
    "steps per delegated step (of the --max-steps), 1 to 10000 (default {default})",
  ),
  flag(
    "planner-turns N",
    "planner.plannerTurns",
    "whole",
    "the planner agent's own turns, 1 to 1000 (default {default})",
  ),
  flag("agent-version V", "planner.agentVersion", "text", "planner_agent version, v1 or v2 (default {default})"),
  flag("fallback N", "planner.fallback", "text", "model for a family without its adapter (default: the base)"),
  flag(
    "reasoning-to-fallback",
    "planner.reasoningToFallback",
    "switch",
    "reasoning steps go to --fallback too (default: the reasoning adapter, else the base)",
  ),
].map((f) => ({ ...f, help: `${PLANNER_OWNER}: ${f.help}` }));

/** Every flag of eval.ts, by --help's sections. */
export const FLAG_SECTIONS: readonly { title: string; flags: readonly FlagSpec[] }[] = [
  { title: "Options:", flags: RUN_FLAGS },
  {
    title: "Model arms (an OpenAI-compatible server; the request's model name picks the LoRA adapter):",
    flags: MODEL_FLAGS,
  },
  { title: `${PLANNER_OWNER} (each flag goes with --arm ${PLANNER_OWNER}):`, flags: PLANNER_FLAGS },
];

/** Every flag of eval.ts, in --help's order. */
export const EVAL_FLAGS: readonly FlagSpec[] = FLAG_SECTIONS.flatMap((s) => s.flags);

/** eval.ts's options for parseArgs. */
export const EVAL_OPTIONS: NonNullable<ParseArgsConfig["options"]> = Object.fromEntries(
  EVAL_FLAGS.map((
    f,
  ) => [f.flag, { type: f.kind === "switch" ? "boolean" : "string", ...(f.short ? { short: f.short } : {}) }]),
);
