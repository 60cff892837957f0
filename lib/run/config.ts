/**
 * One resolved run configuration: a zod schema turns what a user gave (eval.ts's flags, or a library caller's
 * object) into a typed RunConfig with every default in this one place, and checks every value once. What it refuses
 * comes back as problems that each front end words with its own names (config_problems.ts): a setting path for a
 * library caller, a flag for eval.ts. The rules between settings are config_rules.ts'; an arm's own settings block
 * (agent_planner's `planner`) is its registry entry's (arms.ts).
 */
import { z } from "zod";
import { errorMap, forward, type Split, SPLITS } from "../protocol/mod.ts";
import { DEFAULT_MODEL_SERVER } from "../llm/mod.ts";
import { DEFAULT_NOW } from "../sites/mod.ts";
import { ARM_NAMES, type ArmBlocks, ARMS, findArm } from "./arms.ts";
import { ConfigError, type ConfigProblem, problemsOf, valueAt } from "./config_problems.ts";
import { ruleProblems } from "./config_rules.ts";
import {
  BASE_MODEL,
  BUNDLED,
  DEFAULT_MAX_STEPS,
  httpUrl,
  instant,
  limited,
  oneOf,
  someOf,
  text,
  VALUE_CHECK,
} from "./settings.ts";
import { MAX_SHARDS, type Shard } from "./shard.ts";

export { SUITE_ROOT } from "../io/mod.ts";
export { ADAPTER_NAMES, BUNDLED, EPISODE_VIEWPORT, LIMITS } from "./settings.ts";

/** The model server's /v1 base URL when none is given (lib/llm's default). */
export const DEFAULT_VLLM: string = DEFAULT_MODEL_SERVER;

/**
 * Workers per Chromium when none is given: measured in bench/harness.ts (README "Measured figures"), the Chromium
 * memory and CPU per episode fall up to 4 workers a browser and gain little past it, while a crash takes down
 * every episode its browser runs.
 */
export const DEFAULT_WORKERS_PER_BROWSER = 4;

/** The model arms' settings (ModelConfig says what each is). */
const modelSchema = z.strictObject({
  vllm: httpUrl(DEFAULT_VLLM).default(DEFAULT_VLLM),
  apiKey: z.string().default("EMPTY"),
  baseName: text("a served model name").default(BASE_MODEL),
  pooledName: text("a served model name").default("pooled"),
  adapters: z.array(text("an adapter name")).default([]),
  temperature: limited("temperature").default(0),
  maxTokens: limited("maxTokens").default(1024),
  modelTimeoutS: limited("modelTimeoutS").default(120),
  gateDone: z.boolean().default(false),
  gateNote: z.boolean().default(false),
  systemPromptFile: text("a file").default(BUNDLED.systemPrompt),
  maxActions: limited("maxActions").default(5),
  normalizedCoords: z.boolean().default(true),
});

/** Which tasks a run takes (TasksConfig says what each setting is). */
const tasksSchema = z.strictObject({
  file: text("a task file").default(BUNDLED.tasks),
  human: z.boolean().default(false),
  humanSplit: oneOf(["test", "train", "all"] as const).default("test"),
  humanMacros: someOf(text("a macro")).optional(),
  annotations: text("an annotations folder").default(BUNDLED.annotations),
  siteSplit: text("a file").optional(),
  strict: z.boolean().default(false),
  split: someOf(oneOf(SPLITS)).optional(),
  taskIds: someOf(text("a task id")).optional(),
  limit: limited("limit").default(0),
});

const KN = "(K/N: part K of N, K from 0 to N-1)";
const shardObject = z.strictObject({ index: z.number().int().min(0), count: z.number().int().min(1).max(MAX_SHARDS) })
  .refine((s) => s.index < s.count, { message: "index must be from 0 to count - 1" });

/** Part K of N of the selected tasks, as "K/N" (eval.ts's --shard) or {index, count}; null: all of them. */
const shardSchema = z.unknown().transform((value, ctx): Shard | null => {
  if (value === null) return null;
  if (typeof value !== "string") {
    const r = forward(shardObject, value, ctx);
    return r.ok ? r.data : z.NEVER;
  }
  const fail = (why: string) => {
    ctx.addIssue({ code: "custom", message: `${why} ${KN}`, params: VALUE_CHECK, input: value });
    return z.NEVER;
  };
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!m) return fail("is not K/N with whole numbers K and N");
  const [index, count] = [Number(m[1]), Number(m[2])];
  if (count < 1 || count > MAX_SHARDS) return fail(`: N must be from 1 to ${MAX_SHARDS}`);
  if (index >= count) return fail(`: K must be from 0 to ${count - 1}`);
  return { index, count };
}).default(null);

/** A run's settings but the arms' own blocks (RunConfig says what each is). */
const runConfigSchema = z.strictObject({
  arm: oneOf(ARM_NAMES),
  out: text("the run's output folder"),
  tasks: tasksSchema.default(tasksSchema.parse({})),
  workers: limited("workers").default(8),
  workersPerBrowser: limited("workersPerBrowser").default(DEFAULT_WORKERS_PER_BROWSER),
  repeats: limited("repeats").default(1),
  timeoutS: limited("timeoutS").default(600),
  browserPingTimeoutS: limited("browserPingTimeoutS").default(5),
  maxSteps: limited("maxSteps").default(DEFAULT_MAX_STEPS),
  resume: z.boolean().default(false),
  retryTimeouts: z.boolean().default(false),
  forceResume: z.boolean().default(false),
  overwrite: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  bases: z.array(httpUrl("http://127.0.0.1:8318").transform((b) => b.replace(/\/+$/, ""))).default([]),
  ports: z.array(z.number().int().min(1).max(65535)).default([]),
  now: instant.default(DEFAULT_NOW),
  stepScreenshots: z.boolean().default(true),
  recordRows: z.boolean().default(false),
  recordFamily: text("a family").optional(),
  verifierOnly: z.boolean().default(false),
  shard: shardSchema,
  uploadDir: z.string().default(BUNDLED.uploads),
  chromePath: z.string().optional(),
  model: modelSchema.default(modelSchema.parse({})),
});

/** The model arms' settings, every default applied. */
export interface ModelConfig {
  /** The OpenAI-compatible model server's /v1 base URL. */
  vllm: string;
  /** Its API key ($WEBMIX_VLLM_API_KEY in eval.ts). */
  apiKey: string;
  /** Served name of the base model. */
  baseName: string;
  /** Served name of the adapter trained on every family. */
  pooledName: string;
  /** Adapters the server serves (ADAPTER_NAMES), for the arms that pick one per family. */
  adapters: string[];
  /** Sampling temperature. */
  temperature: number;
  /** Reply budget per call. */
  maxTokens: number;
  /** Seconds per model call attempt. */
  modelTimeoutS: number;
  /** Let the router turn a premature done into macro_done (the arms that route by family). */
  gateDone: boolean;
  /** With gateDone (which it implies): tell the model the planned steps still left. */
  gateNote: boolean;
  /** The agent's system prompt's file. */
  systemPromptFile: string;
  /** Actions per step. */
  maxActions: number;
  /**
   * Click and drag coordinates on a 0-1000 grid over the viewport (the seed turns them on for every single-agent
   * arm); false: CSS pixels. The system prompt says which.
   */
  normalizedCoords: boolean;
}

/** Which tasks a run takes, every default applied. */
export interface TasksConfig {
  /** A task file of datagen and/or proposed tasks (not with `human`). */
  file: string;
  /** The human-written tasks of the annotations folder instead of `file`. */
  human: boolean;
  /** With human: the held-out sites' tasks (test), the others (train) or all. */
  humanSplit: "test" | "train" | "all";
  /** With human: only tasks with one of these macros. */
  humanMacros?: string[];
  /** With human: the annotations folder. */
  annotations: string;
  /**
   * Refuse what the seed's data tolerates (a task file's macro outside the vocabulary; with human: unknown task.json
   * and verifier.json keys, such macros, a task folder without verifier.json, a task on a site in neither split);
   * false: load (or leave out) each as the seed does, with a warning.
   */
  strict: boolean;
  /** With human: the site split file (default: the annotations folder's site_split.json). */
  siteSplit?: string;
  /** A generated set: only instances of these splits (docs/generation.md). */
  split?: Split[];
  /** Only these task ids. */
  taskIds?: string[];
  /** Only the first N tasks (after taskIds); 0: all. */
  limit: number;
}

/** Each arm's own settings block: set, every default applied, for its arm; null for the others. */
export type ArmBlockConfig = { [K in keyof ArmBlocks]: ArmBlocks[K] | null };

/** A run's whole configuration, every default applied. */
export interface RunConfig extends ArmBlockConfig {
  /** The arm (ARM_NAMES). */
  arm: string;
  /** The output folder: results.jsonl and one folder per episode. */
  out: string;
  /** Which tasks it takes. */
  tasks: TasksConfig;
  /** Parallel episodes (the seed's default 8). */
  workers: number;
  /**
   * Workers one Chromium serves, each episode in its own context (DEFAULT_WORKERS_PER_BROWSER; README "Measured
   * figures" says how it was chosen).
   */
  workersPerBrowser: number;
  /** Episodes per task (task~rK). */
  repeats: number;
  /** Seconds the arm may run per episode. */
  timeoutS: number;
  /**
   * Seconds a Chromium may leave a DevTools ping unanswered while it runs episodes before it counts as frozen: it is
   * killed and relaunched, its episodes harness errors (--resume reruns them), never the agent's timeout.
   */
  browserPingTimeoutS: number;
  /** Step cap per episode (0 given: DEFAULT_MAX_STEPS). */
  maxSteps: number;
  /** Skip the (task, repeat) pairs already in out's results; rerun harness failures. */
  resume: boolean;
  /** With resume: rerun timed-out episodes too (by default a timeout stays, a recorded failure as in the seed). */
  retryTimeouts: boolean;
  /** With resume: take a folder whose run.json says it was run otherwise. */
  forceResume: boolean;
  /** Delete out's earlier run first, once every other check passed (only a run's folder). */
  overwrite: boolean;
  /** Check everything, return the report (RunSummary.dryRun), and write, delete or lock nothing. */
  dryRun: boolean;
  /** External site servers, without trailing slashes; empty (and no ports): the embedded sandbox on a free port. */
  bases: string[];
  /**
   * The seed's --ports: site servers on these 127.0.0.1 ports, after `bases`: one already listening on a port is
   * used, else the embedded sandbox is started on it (as the seed's Servers(ports=…) did).
   */
  ports: number[];
  /** The embedded sandbox's frozen clock. */
  now: string;
  /** A screenshot per step (false: only final.png). */
  stepScreenshots: boolean;
  /** Write model exchanges as training rows (passing episodes; every proposed episode). */
  recordRows: boolean;
  /** The rows' family (default: the task macro's). */
  recordFamily?: string;
  /**
   * The seed's --verifier-only: grade with the backend check and the task's verifier, never the macro judge. This
   * suite never grades with the macro judge, so it changes nothing; run.json records the intent.
   */
  verifierOnly: boolean;
  /** Only part `index` of `count` of the selected tasks (a Slurm array task); null: all of them. */
  shard: Shard | null;
  /** Where upload actions take their files from. */
  uploadDir: string;
  /** The Chromium binary (default: chromiumPath's choice). */
  chromePath?: string;
  /** The model arms' settings. */
  model: ModelConfig;
}

/** What a caller gives: `arm` and `out`, and any setting to change (undefined: the default). */
export interface RunConfigInput
  extends
    Partial<Omit<RunConfig, "arm" | "out" | "tasks" | "model" | "shard" | keyof ArmBlocks>>,
    Partial<{ [K in keyof ArmBlocks]: Partial<ArmBlocks[K]> }> {
  /** The arm (ARM_NAMES). */
  arm: string;
  /** The output folder. */
  out: string;
  /** Which tasks it takes. */
  tasks?: Partial<TasksConfig>;
  /** The model arms' settings. */
  model?: Partial<ModelConfig>;
  /** Only part K of N of the selected tasks: "K/N" or {index, count}. */
  shard?: Shard | string | null;
}

/** The settings without a default, whose problems come first (the run cannot be named without them). */
const REQUIRED = Object.entries(runConfigSchema.shape).filter(([, s]) => !s.safeParse(undefined).success)
  .map(([k]) => k);

/** The RunConfig keys of the arms' own settings blocks. */
const BLOCK_KEYS: readonly string[] = ARMS.flatMap((a) => a.settings ? [a.settings.key] : []);

/** Each arm's settings block of `input`: resolved for its arm, null for the others (blockRule refuses those given). */
function resolveBlocks(input: Record<string, unknown>): { blocks: ArmBlockConfig; problems: ConfigProblem[] } {
  const blocks: Record<string, unknown> = Object.fromEntries(BLOCK_KEYS.map((k) => [k, null]));
  const own = findArm(input.arm)?.settings;
  if (!own) return { blocks: blocks as ArmBlockConfig, problems: [] };
  const r = own.schema.safeParse(input[own.key] ?? {}, { error: errorMap });
  if (r.success) blocks[own.key] = r.data;
  const problems = r.success
    ? []
    : problemsOf(r.error, input[own.key]).map((p) => ({ ...p, path: [own.key, ...p.path] }));
  return { blocks: blocks as ArmBlockConfig, problems };
}

/**
 * Resolves a run configuration: every value checked, every default applied.
 * @throws ConfigError (a UsageError) with every problem, the first in its message: `run configuration: workers 0 is
 *   not a whole number from 1 to 256`.
 */
export function runConfig(input: RunConfigInput): RunConfig {
  const all = input as unknown as Record<string, unknown>;
  const common = Object.fromEntries(Object.entries(all).filter(([k]) => !BLOCK_KEYS.includes(k)));
  const r = runConfigSchema.safeParse(common, { error: errorMap });
  const { blocks, problems: blockProblems } = resolveBlocks(all);
  const valueProblems = r.success ? [] : problemsOf(r.error, common);
  const first = (p: ConfigProblem) => REQUIRED.includes(String(p.path[0]));
  const problems = [
    ...valueProblems.filter(first),
    ...ruleProblems(all),
    ...valueProblems.filter((p) => !first(p)),
    ...blockProblems,
  ];
  if (problems.length || !r.success) throw new ConfigError(problems, { cause: r.error });
  const config: RunConfig = { ...r.data, ...blocks };
  if (config.model.gateNote) config.model.gateDone = true;
  if (config.maxSteps === 0) config.maxSteps = DEFAULT_MAX_STEPS;
  return config;
}

/**
 * A configuration with every setting of the schema present, an unset optional one as null (JSON drops undefined),
 * so that --dry-run shows each setting a run has, not only those with a value.
 */
export function everySetting(config: RunConfig): Record<string, unknown> {
  const record = config as unknown as Record<string, unknown>;
  const blocks = ARMS.flatMap((a) =>
    a.settings ? [[a.settings.key, withEveryKey(a.settings.schema, record[a.settings.key])]] : []
  );
  return { ...withEveryKey(runConfigSchema, config) as Record<string, unknown>, ...Object.fromEntries(blocks) };
}

function withEveryKey(schema: z.ZodType, value: unknown): unknown {
  let s = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  if (!(s instanceof z.ZodObject) || typeof value !== "object" || value === null) return value ?? null;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(s.shape).map(([k, sub]) => [k, withEveryKey(sub as z.ZodType, record[k])]));
}

/** The default of each setting, for eval.ts's --help: the value at `path` (`model.vllm`, `planner.subCap`). */
export function settingDefault(path: string): unknown {
  const [key, ...rest] = path.split(".");
  const owner = ARMS.find((a) => a.settings?.key === key) ?? ARMS[0];
  return valueAt(runConfig({ arm: owner.name, out: "." }), [key, ...rest]);
}
