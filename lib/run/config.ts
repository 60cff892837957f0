/**
 * One resolved run configuration: a zod schema turns what a user gave (eval.ts's flags, or a library caller's
 * object) into a typed RunConfig with every default in this one place. eval.ts is a thin shell over it.
 */
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { PLANNER_VERSIONS, type PlannerVersion } from "../agent/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { describeIssues, errorMap } from "../grading/mod.ts";
import { describeRange, inRange, isHttpUrl, isIsoInstant, type NumberRange } from "../io/mod.ts";
import { ROUTED_ARMS } from "../routing/mod.ts";
import { DEFAULT_NOW } from "../sites/mod.ts";
import { ADAPTER_OF_FAMILY, FAMILIES } from "../tasks/mod.ts";
import { MAX_SHARDS, type Shard } from "./shard.ts";

const suiteFile = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The suite's own folder (the repository): a run never writes into it, nor deletes it. */
export const SUITE_ROOT: string = suiteFile("").replace(/\/+$/, "");

/** Where the bundled data lives (resolved from the suite, not the current folder). */
export const BUNDLED: Readonly<Record<"tasks" | "annotations" | "systemPrompt" | "uploads", string>> = {
  tasks: suiteFile("fixtures/tasks.jsonl"),
  annotations: suiteFile("fixtures/annotations"),
  systemPrompt: suiteFile("prompts/system_prompt.md"),
  uploads: suiteFile("fixtures/uploads"),
};

/** The planner arm: a planner model delegates each step to its family's specialist (lib/agent/planner*.ts). */
export const PLANNER_ARM = "agent_planner";

/** Every arm eval.ts runs: the model-free ones, then the model arms (the routed ones, then the planner). */
export const ARM_NAMES: readonly string[] = ["replay", "noop", ...ROUTED_ARMS, PLANNER_ARM];

/** The step cap when none is given; `--max-steps 0` means it too, as in the seed (harness.MAX_STEPS). */
export const DEFAULT_MAX_STEPS = 40;

/**
 * The viewport every episode's browser uses (CSS pixels). The runner passes it to each episode and the system
 * prompt names it, so that what the model is told about pixel coordinates is what the browser has.
 */
export const EPISODE_VIEWPORT: Readonly<{ width: number; height: number }> = { width: 1280, height: 720 };

/** The adapter names the oracle arm can route to (docs/tasks.md, "Macros and families"). */
export const ADAPTER_NAMES: readonly string[] = [...new Set(Object.values(ADAPTER_OF_FAMILY))];

/** The numeric settings. */
export type LimitName =
  | "workers"
  | "repeats"
  | "limit"
  | "timeoutS"
  | "maxSteps"
  | "temperature"
  | "maxTokens"
  | "modelTimeoutS"
  | "maxActions"
  | "subCap"
  | "plannerTurns";

/**
 * The values of every numeric setting; eval.ts's flags take the same. Timeouts stop at a day: a timer of more
 * than 2^31 ms would fire at once.
 */
export const LIMITS: Readonly<Record<LimitName, NumberRange>> = {
  workers: { whole: true, min: 1, max: 256 },
  repeats: { whole: true, min: 1, max: 10_000 },
  limit: { whole: true, min: 0, max: 1_000_000 },
  timeoutS: { whole: true, min: 1, max: 86_400 },
  // 0: DEFAULT_MAX_STEPS (the seed's --max-steps default).
  maxSteps: { whole: true, min: 0, max: 10_000 },
  temperature: { min: 0 },
  maxTokens: { whole: true, min: 1, max: 10_000_000 },
  modelTimeoutS: { min: 0, above: true, max: 86_400 },
  maxActions: { whole: true, min: 1, max: 20 },
  subCap: { whole: true, min: 1, max: 10_000 },
  plannerTurns: { whole: true, min: 1, max: 1_000 },
};

/** A number in LIMITS[name]. */
const ranged = (name: LimitName): z.ZodNumber => {
  const r = LIMITS[name];
  return z.number().refine((n) => inRange(n, r), { message: `must be ${describeRange(r)}` });
};

/** The model arms' settings. */
const modelSchema = z.strictObject({
  /** The OpenAI-compatible server's /v1 base URL. */
  vllm: z.string().refine(isHttpUrl, { message: "must be an http(s) URL" }).default("http://127.0.0.1:8400/v1"),
  /** Its API key ($WEBMIX_VLLM_API_KEY in eval.ts). */
  apiKey: z.string().default("EMPTY"),
  /** Served name of the base model. */
  baseName: z.string().min(1).default("qwen35-4b"),
  /** Served name of the adapter trained on every family. */
  pooledName: z.string().min(1).default("pooled"),
  /** Adapters the server serves (oracle): drag, io, select, rest, reasoning. */
  adapters: z.array(
    z.string().refine((a) => ADAPTER_NAMES.includes(a), {
      message: `must be one of: ${ADAPTER_NAMES.join(", ")}`,
    }),
  ).default([]),
  temperature: ranged("temperature").default(0),
  /** Reply budget per call. */
  maxTokens: ranged("maxTokens").default(1024),
  /** Seconds per model call attempt. */
  modelTimeoutS: ranged("modelTimeoutS").default(120),
  /** Let the router turn a premature done into macro_done. */
  gateDone: z.boolean().default(false),
  /** With gateDone: tell the model the planned steps still left. */
  gateNote: z.boolean().default(false),
  /** The system prompt's file. */
  systemPromptFile: z.string().min(1).default(BUNDLED.systemPrompt),
  /** Actions per step. */
  maxActions: ranged("maxActions").default(5),
  /**
   * Click and drag coordinates on a 0-1000 grid over the viewport (the seed turns them on for every single-agent
   * arm); false: CSS pixels. The system prompt says which.
   */
  normalizedCoords: z.boolean().default(true),
  /** agent_planner: the planner's served model name. */
  plannerName: z.string().min(1).default("qwen35-4b"),
  /** agent_planner: steps per delegated step (of maxSteps). */
  subCap: ranged("subCap").default(15),
  /** agent_planner: the planner agent's own turns. */
  plannerTurns: ranged("plannerTurns").default(12),
  /** agent_planner: the planner agent's version. */
  agentVersion: z.enum(PLANNER_VERSIONS).default("v1"),
  /** agent_planner: served model for a family without its adapter (absent: the base model). */
  fallback: z.string().min(1).optional(),
  /** agent_planner: reasoning steps go to `fallback` too (default: the reasoning adapter, else the base model). */
  reasoningToFallback: z.boolean().default(false),
});

/** Which tasks a run takes. */
const tasksSchema = z.strictObject({
  /** A task file of datagen and/or proposed tasks (ignored with `human`). */
  file: z.string().min(1).default(BUNDLED.tasks),
  /** The human-written tasks of the annotations folder instead of `file`. */
  human: z.boolean().default(false),
  humanSplit: z.enum(["test", "train", "all"]).default("test"),
  humanMacros: z.array(z.string().min(1)).min(1).optional(),
  annotations: z.string().min(1).default(BUNDLED.annotations),
  taskIds: z.array(z.string().min(1)).min(1).optional(),
  /** Only the first N tasks (after taskIds); 0: all. */
  limit: ranged("limit").default(0),
});

const runConfigSchema: z.ZodType<RunConfig, RunConfigInput> = z.strictObject({
  arm: z.string().refine((a) => ARM_NAMES.includes(a), { message: `is not one of: ${ARM_NAMES.join(", ")}` }),
  out: z.string().min(1),
  tasks: tasksSchema.default(tasksSchema.parse({})),
  /** Parallel episodes, one Chromium each (the seed's default). */
  workers: ranged("workers").default(8),
  /** Episodes per task (task~rK). */
  repeats: ranged("repeats").default(1),
  /** Seconds per episode. */
  timeoutS: ranged("timeoutS").default(600),
  /** Step cap per episode; 0: DEFAULT_MAX_STEPS. */
  maxSteps: ranged("maxSteps").default(DEFAULT_MAX_STEPS),
  resume: z.boolean().default(false),
  /** With resume: rerun timed-out episodes too (by default a timeout stays, a recorded failure as in the seed). */
  retryTimeouts: z.boolean().default(false),
  /** With resume: take a folder whose run.json says it was run otherwise. */
  forceResume: z.boolean().default(false),
  overwrite: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  /** External site servers; empty: the embedded sandbox on a free port. */
  bases: z.array(z.string().refine(isHttpUrl, { message: "must be an http(s) URL" })).default([]),
  /** The embedded sandbox's frozen clock. */
  now: z.string().refine(isIsoInstant, { message: `must be an ISO instant with its zone (e.g. ${DEFAULT_NOW})` })
    .default(DEFAULT_NOW),
  /** A screenshot per step (false: only final.png). */
  stepScreenshots: z.boolean().default(true),
  /** Write model exchanges as training rows (passing episodes; every proposed episode). */
  recordRows: z.boolean().default(false),
  /** The rows' family (default: the task macro's). */
  recordFamily: z.enum(FAMILIES).optional(),
  /**
   * The seed's --verifier-only: grade with the backend check and the task's verifier, never the macro judge. This
   * suite never grades with the macro judge, so it changes nothing; run.json records the intent.
   */
  verifierOnly: z.boolean().default(false),
  /** Only part `index` of `count` of the selected tasks (a Slurm array task; lib/run/shard.ts); null: all of them. */
  shard: z.strictObject({
    index: z.number().int().min(0),
    count: z.number().int().min(1).max(MAX_SHARDS),
  }).refine((s) => s.index < s.count, { message: "index must be from 0 to count - 1" }).nullable().default(null),
  uploadDir: z.string().default(BUNDLED.uploads),
  chromePath: z.string().optional(),
  model: modelSchema.default(modelSchema.parse({})),
}).superRefine((c, ctx) => {
  if (c.resume && c.overwrite) {
    ctx.addIssue({ code: "custom", message: "resume and overwrite contradict each other" });
  }
  if (c.forceResume && !c.resume) ctx.addIssue({ code: "custom", path: ["forceResume"], message: "goes with resume" });
  if (c.retryTimeouts && !c.resume) {
    ctx.addIssue({ code: "custom", path: ["retryTimeouts"], message: "goes with resume" });
  }
});

/** The model arms' settings, every default applied. */
export interface ModelConfig {
  vllm: string;
  apiKey: string;
  baseName: string;
  pooledName: string;
  adapters: string[];
  temperature: number;
  maxTokens: number;
  modelTimeoutS: number;
  gateDone: boolean;
  gateNote: boolean;
  systemPromptFile: string;
  maxActions: number;
  normalizedCoords: boolean;
  plannerName: string;
  subCap: number;
  plannerTurns: number;
  agentVersion: PlannerVersion;
  fallback?: string;
  reasoningToFallback: boolean;
}

/** Which tasks a run takes, every default applied. */
export interface TasksConfig {
  file: string;
  human: boolean;
  humanSplit: "test" | "train" | "all";
  humanMacros?: string[];
  annotations: string;
  taskIds?: string[];
  limit: number;
}

/** A run's whole configuration, every default applied (the schema above says what each setting is). */
export interface RunConfig {
  arm: string;
  out: string;
  tasks: TasksConfig;
  workers: number;
  repeats: number;
  timeoutS: number;
  maxSteps: number;
  resume: boolean;
  retryTimeouts: boolean;
  forceResume: boolean;
  overwrite: boolean;
  dryRun: boolean;
  bases: string[];
  now: string;
  stepScreenshots: boolean;
  recordRows: boolean;
  recordFamily?: string;
  verifierOnly: boolean;
  shard: Shard | null;
  uploadDir: string;
  chromePath?: string;
  model: ModelConfig;
}

/** What a caller gives: `arm` and `out`, and any setting to change (undefined: the default). */
export interface RunConfigInput
  extends Partial<Omit<RunConfig, "arm" | "out" | "tasks" | "model">>, Pick<RunConfig, "arm" | "out"> {
  tasks?: Partial<TasksConfig>;
  model?: Partial<ModelConfig>;
}

/**
 * Resolves a run configuration.
 * @throws UsageError naming the setting and what was expected.
 */
export function runConfig(input: RunConfigInput): RunConfig {
  const r = runConfigSchema.safeParse(input, { error: errorMap });
  if (!r.success) throw new UsageError(`run configuration: ${describeIssues(r.error)}`, { cause: r.error });
  const config = r.data;
  if (config.model.gateNote) config.model.gateDone = true;
  if (config.maxSteps === 0) config.maxSteps = DEFAULT_MAX_STEPS;
  return config;
}

/**
 * A configuration with every setting of the schema present, an unset optional one as null (JSON drops undefined),
 * so that --dry-run shows each setting a run has, not only those with a value.
 */
export function everySetting(config: RunConfig): Record<string, unknown> {
  return withEveryKey(runConfigSchema, config) as Record<string, unknown>;
}

function withEveryKey(schema: z.ZodType, value: unknown): unknown {
  let s = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  if (!(s instanceof z.ZodObject) || typeof value !== "object" || value === null) return value ?? null;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(s.shape).map(([k, sub]) => [k, withEveryKey(sub as z.ZodType, record[k])]));
}

/** True for the arms a model drives: the routed arms and the planner. */
export const isModelArm = (arm: string): boolean =>
  (ROUTED_ARMS as readonly string[]).includes(arm) || arm === PLANNER_ARM;
