/**
 * One resolved run configuration: a zod schema turns what a user gave (eval.ts's flags, or a library caller's
 * object) into a typed RunConfig with every default in this one place. eval.ts is a thin shell over it.
 */
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { UsageError } from "../errors/mod.ts";
import { describeIssues, errorMap } from "../grading/mod.ts";
import { ROUTED_ARMS } from "../routing/mod.ts";
import { DEFAULT_NOW } from "../sites/mod.ts";

const suiteFile = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Where the bundled data lives (resolved from the suite, not the current folder). */
export const BUNDLED: Readonly<Record<"tasks" | "annotations" | "systemPrompt" | "uploads", string>> = {
  tasks: suiteFile("fixtures/tasks.jsonl"),
  annotations: suiteFile("fixtures/annotations"),
  systemPrompt: suiteFile("prompts/system_prompt.md"),
  uploads: suiteFile("fixtures/uploads"),
};

/** Every arm eval.ts runs: the model-free ones, then the model arms. */
export const ARM_NAMES: readonly string[] = ["replay", "noop", ...ROUTED_ARMS];

const whole = (min: number, max = Number.MAX_SAFE_INTEGER): z.ZodNumber => z.number().int().min(min).max(max);

/** The model arms' settings. */
const modelSchema = z.strictObject({
  /** The OpenAI-compatible server's /v1 base URL. */
  vllm: z.string().default("http://127.0.0.1:8400/v1"),
  /** Its API key ($WEBMIX_VLLM_API_KEY in eval.ts). */
  apiKey: z.string().default("EMPTY"),
  /** Served name of the base model. */
  baseName: z.string().min(1).default("qwen35-4b"),
  /** Served name of the adapter trained on every family. */
  pooledName: z.string().min(1).default("pooled"),
  /** Adapters the server serves (oracle): drag, io, select, rest, reasoning. */
  adapters: z.array(z.string()).default([]),
  temperature: z.number().min(0).default(0),
  /** Reply budget per call. */
  maxTokens: whole(1).default(1024),
  /** Seconds per model call attempt. */
  modelTimeoutS: z.number().positive().default(120),
  /** Let the router turn a premature done into macro_done. */
  gateDone: z.boolean().default(false),
  /** With gateDone: tell the model the planned steps still left. */
  gateNote: z.boolean().default(false),
  /** The system prompt's file. */
  systemPromptFile: z.string().default(BUNDLED.systemPrompt),
  /** Actions per step. */
  maxActions: whole(1, 20).default(5),
  /** Click and drag coordinates on a 0-1000 grid. */
  normalizedCoords: z.boolean().default(false),
});

/** Which tasks a run takes. */
const tasksSchema = z.strictObject({
  /** A task file of datagen and/or proposed tasks (ignored with `human`). */
  file: z.string().default(BUNDLED.tasks),
  /** The human-written tasks of the annotations folder instead of `file`. */
  human: z.boolean().default(false),
  humanSplit: z.enum(["test", "train", "all"]).default("test"),
  humanMacros: z.array(z.string()).optional(),
  annotations: z.string().default(BUNDLED.annotations),
  taskIds: z.array(z.string()).optional(),
  /** Only the first N tasks (after taskIds); 0: all. */
  limit: whole(0).default(0),
});

const runConfigSchema: z.ZodType<RunConfig, RunConfigInput> = z.strictObject({
  arm: z.string().refine((a) => ARM_NAMES.includes(a), { message: `is not one of: ${ARM_NAMES.join(", ")}` }),
  out: z.string().min(1),
  tasks: tasksSchema.default(tasksSchema.parse({})),
  /** Parallel episodes, one Chromium each. */
  workers: whole(1, 256).default(4),
  /** Episodes per task (task~rK). */
  repeats: whole(1, 10_000).default(1),
  /** Seconds per episode. */
  timeoutS: whole(1).default(600),
  /** Step cap per episode. */
  maxSteps: whole(1).default(40),
  resume: z.boolean().default(false),
  overwrite: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  /** External site servers; empty: the embedded sandbox on a free port. */
  bases: z.array(z.string()).default([]),
  /** The embedded sandbox's frozen clock. */
  now: z.string().default(DEFAULT_NOW),
  /** A screenshot per step (false: only final.png). */
  stepScreenshots: z.boolean().default(true),
  /** Write model exchanges as training rows (passing episodes; every proposed episode). */
  recordRows: z.boolean().default(false),
  /** The rows' family (default: the task macro's). */
  recordFamily: z.string().optional(),
  uploadDir: z.string().default(BUNDLED.uploads),
  chromePath: z.string().optional(),
  model: modelSchema.default(modelSchema.parse({})),
}).superRefine((c, ctx) => {
  if (c.resume && c.overwrite) {
    ctx.addIssue({ code: "custom", message: "resume and overwrite contradict each other" });
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
  overwrite: boolean;
  dryRun: boolean;
  bases: string[];
  now: string;
  stepScreenshots: boolean;
  recordRows: boolean;
  recordFamily?: string;
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
  return config;
}

/** True for the arms a model drives. */
export const isModelArm = (arm: string): boolean => (ROUTED_ARMS as readonly string[]).includes(arm);
