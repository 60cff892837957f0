/**
 * The arm registry: everything that differs between the arms eval.ts runs, one entry per arm, as lib/tasks/kinds.ts
 * is for task kinds. Nothing else branches on an arm's name: the configuration takes the names and the arms' own
 * settings blocks from here, the start check the served names an arm needs, run.json and --dry-run its fields, and
 * runEval the Arm that plays the episodes. A new arm is one new entry.
 */
import { z } from "zod";
import {
  type Arm,
  modelArm,
  noopArm,
  PLAN_FAMILIES,
  PLANNER_VERSIONS,
  plannerArm,
  type PlannerVersion,
  replayArm,
} from "../agent/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { FAMILIES, type ZodSchema } from "../protocol/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { familyAdapter, planFamilies, type RoutePlan, subModel, type SubModelOptions } from "../routing/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import type { ModelConfig, RunConfig } from "./config.ts";
import {
  isServedModelArm,
  modelAgent,
  modelSettings,
  PLANNER_PROMPT_FILE,
  readPromptFile,
  type ServedModelArm,
} from "./model_arms.ts";
import { BASE_MODEL, oneOf, ranged, text } from "./settings.ts";

/** One arm: what it needs, what it records and shows, and how it is made. */
export interface ArmEntry {
  /** The arm's name: --arm's value, results lines' `arm`. */
  readonly name: string;
  /** Its line in eval.ts --help. */
  readonly help: string;
  /** It sends requests to a model server: config.model applies, and the server is checked at start. */
  readonly needsModel: boolean;
  /** Its own settings block in RunConfig (RunConfig[key], null for the other arms) and the block's schema. */
  readonly settings?: { key: keyof ArmBlocks; schema: ZodSchema };
  /** Every served name the start check asks the model server for over these tasks ([] without a model). */
  neededModels(config: RunConfig, tasks: readonly RunTask[]): string[];
  /** The served model of each family's steps (run.json's family_models); null without a model. */
  familyModels(config: RunConfig): Record<string, string> | null;
  /** What --dry-run shows of its models (`models`): each family's served model, the names needed; null without. */
  dryRun(config: RunConfig, tasks: readonly RunTask[]): Record<string, unknown> | null;
  /** Its own fields of run.json's settings, which --resume compares. */
  manifestSettings(config: RunConfig): Promise<Record<string, unknown>>;
  /** The Arm that plays the episodes; a model arm's once its server serves every name it needs. */
  resolve(config: RunConfig, tasks: readonly RunTask[]): Promise<Arm>;
}

/** The agent_planner arm's settings, every default applied. */
export interface PlannerConfig {
  /** The planner's served model name. */
  plannerName: string;
  /** Steps per delegated step (of maxSteps). */
  subCap: number;
  /** The planner agent's own turns. */
  plannerTurns: number;
  /** When the planner is asked again (docs/planner.md). */
  agentVersion: PlannerVersion;
  /** Served model for a family without its adapter (absent: the base model). */
  fallback?: string;
  /** Reasoning steps go to `fallback` too (default: the reasoning adapter, else the base model). */
  reasoningToFallback: boolean;
}

/** The arms' own settings blocks, by their RunConfig key. */
export interface ArmBlocks {
  /** agent_planner's. */
  planner: PlannerConfig;
}

const plannerSchema: z.ZodType<PlannerConfig> = z.strictObject({
  plannerName: text("a served model name").default(BASE_MODEL),
  subCap: ranged({ whole: true, min: 1, max: 10_000 }).default(15),
  plannerTurns: ranged({ whole: true, min: 1, max: 1_000 }).default(12),
  agentVersion: oneOf(PLANNER_VERSIONS).default("v1"),
  fallback: text("a served model name").optional(),
  reasoningToFallback: z.boolean().default(false),
});

const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();
const byFamily = (pick: (family: string) => string) => Object.fromEntries(FAMILIES.map((f) => [f, pick(f)]));

/** An arm without a model. */
function modelFree(name: string, help: string, arm: Arm): ArmEntry {
  return {
    name,
    help,
    needsModel: false,
    neededModels: () => [],
    familyModels: () => null,
    dryRun: () => null,
    manifestSettings: () => Promise.resolve({}),
    resolve: () => Promise.resolve(arm),
  };
}

/**
 * A routed model arm: every request of a step goes to `pick`'s model; with `familyRouted` the steps follow the task's
 * planned families, switching at macro_done, and config.model's done-gating applies.
 */
function routed(
  name: string,
  help: string,
  familyRouted: boolean,
  pick: (m: ModelConfig, family: string) => string,
): ArmEntry {
  const route = (config: RunConfig, task: RunTask): RoutePlan => {
    const m = config.model;
    if (!familyRouted) return { models: [pick(m, "")] };
    const families = planFamilies(task);
    return { models: families.map((f) => pick(m, f)), families, gate: m.gateDone, note: m.gateNote };
  };
  const entry: ArmEntry = {
    name,
    help,
    needsModel: true,
    neededModels: (config, tasks) => sorted(tasks.flatMap((t) => route(config, t).models)),
    familyModels: (config) => byFamily((f) => pick(config.model, f)),
    dryRun: (config, tasks) => ({
      by_family: entry.familyModels(config),
      needed: entry.neededModels(config, tasks),
    }),
    manifestSettings: (config) => modelSettings(config, entry.familyModels(config)!),
    async resolve(config, tasks) {
      const { agent, servedModels } = await modelAgent(config, entry.neededModels(config, tasks));
      const arm = modelArm({ ...agent, name, route: (task) => route(config, task) });
      return Object.assign(arm, { servedModels });
    },
  };
  return entry;
}

/** The planner's settings of a configuration (a hand-built one without them: the defaults). */
const plannerOf = (config: RunConfig): PlannerConfig => config.planner ?? plannerSchema.parse({});

/** How the planner arm picks each family's specialist. */
function specialists(config: RunConfig): SubModelOptions {
  const m = config.model, p = plannerOf(config);
  return {
    baseName: m.baseName,
    adapters: new Set(m.adapters),
    fallback: p.fallback,
    reasoningToFallback: p.reasoningToFallback,
  };
}

/** The planner arm's own run.json settings, its prompt's hash included. */
async function plannerSettings(p: PlannerConfig): Promise<Record<string, unknown>> {
  return {
    planner_prompt_sha256: await sha256Hex(await Deno.readTextFile(PLANNER_PROMPT_FILE).catch(() => "")),
    planner_name: p.plannerName,
    sub_cap: p.subCap,
    planner_turns: p.plannerTurns,
    agent_version: p.agentVersion,
    fallback: p.fallback ?? null,
    reasoning_to_fallback: p.reasoningToFallback,
  };
}

/**
 * agent_planner: a planner model delegates each step to its family's specialist. It chooses families as it goes,
 * so it needs the planner and the specialist of every family it could name, whatever the tasks.
 */
const planner: ArmEntry = {
  name: "agent_planner",
  help: "a planner model (--planner-name) delegates each step to its family's specialist",
  needsModel: true,
  settings: { key: "planner", schema: plannerSchema },
  neededModels: (config) =>
    sorted([plannerOf(config).plannerName, ...PLAN_FAMILIES.map((f) => subModel(f, specialists(config)))]),
  familyModels: (config) => byFamily((f) => subModel(f, specialists(config))),
  dryRun: (config, tasks) => ({
    planner: plannerOf(config).plannerName,
    by_family: planner.familyModels(config),
    needed: planner.neededModels(config, tasks),
  }),
  manifestSettings: async (config) => ({
    ...await modelSettings(config, planner.familyModels(config)!),
    ...await plannerSettings(plannerOf(config)),
  }),
  async resolve(config, tasks) {
    const p = plannerOf(config);
    const { agent, servedModels } = await modelAgent(config, planner.neededModels(config, tasks));
    const arm = plannerArm({
      ...agent,
      plannerName: p.plannerName,
      plannerPrompt: await readPromptFile(PLANNER_PROMPT_FILE, "the planner prompt"),
      version: p.agentVersion,
      subCap: p.subCap,
      plannerTurns: p.plannerTurns,
      specialists: specialists(config),
      labelRows: config.recordFamily === undefined,
    });
    return Object.assign(arm, { servedModels });
  },
};

/** The registry, in --help's order: the model-free arms, the routed ones, the planner. */
export const ARMS: readonly ArmEntry[] = [
  modelFree("replay", "execute each task's reference solution (proves tasks solvable)", replayArm),
  modelFree("noop", "answer done at once (proves grades can fail)", noopArm),
  routed("base", "the base model at every step (--base-name)", false, (m) => m.baseName),
  routed("pooled", "one adapter for every step (--pooled-name)", false, (m) => m.pooledName),
  routed(
    "oracle",
    "the adapter of each planned macro's family (--adapters), switched at macro_done",
    true,
    (m, family) => familyAdapter(family, { baseName: m.baseName, adapters: new Set(m.adapters) }),
  ),
  planner,
];

/** Every arm eval.ts runs. */
export const ARM_NAMES: readonly string[] = ARMS.map((a) => a.name);

/** The entry of the arm `name`, or undefined for a name no arm has. */
export function findArm(name: unknown): ArmEntry | undefined {
  return ARMS.find((a) => a.name === name);
}

/**
 * The entry of the arm `name`.
 * @throws UsageError naming the arms.
 */
export function armEntry(name: string): ArmEntry {
  const entry = findArm(name);
  if (!entry) throw new UsageError(`--arm "${name}" is not one of: ${ARM_NAMES.join(", ")}`);
  return entry;
}

/** The arm a configuration names: a model-free arm, or a model arm whose server serves every name it needs. */
export function resolveArm(config: RunConfig, tasks: readonly RunTask[]): Promise<Arm> {
  return armEntry(config.arm).resolve(config, tasks);
}

/** The model arm a configuration names, after checking that the server answers and serves every name it needs. */
export async function resolveModelArm(config: RunConfig, tasks: readonly RunTask[]): Promise<ServedModelArm> {
  const entry = armEntry(config.arm);
  const arm = entry.needsModel ? await entry.resolve(config, tasks) : undefined;
  if (!arm || !isServedModelArm(arm)) {
    const models = ARMS.filter((a) => a.needsModel).map((a) => a.name);
    throw new UsageError(`--arm "${config.arm}" is not a model arm (${models.join(", ")})`);
  }
  return arm;
}
