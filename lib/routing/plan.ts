/** Which macros an episode goes through, and which served model each of them is sent to, per arm. */
import { UsageError } from "../errors/mod.ts";
import { kindOf, type RunTask } from "../tasks/mod.ts";
import { ADAPTER_OF_FAMILY, familyOf, REASONING } from "./families.ts";

/** The fields of a task (datagen or human) that routing reads. */
export interface PlanTask {
  task_id?: string;
  /** "human" for a human-written task (its `macros` are the plan); anything else is a datagen task. */
  kind?: string;
  macro: string;
  macros?: readonly string[];
  start?: { prefix?: { macro?: string | null } | null } | null;
}

/** The arms whose model choice is a fixed list per macro (agent_planner chooses per delegated step instead). */
export const ROUTED_ARMS = ["base", "pooled", "oracle"] as const;
export type RoutedArm = typeof ROUTED_ARMS[number];

/** What the arms choose from: the served base model, the adapters loaded on the server, the pooled adapter. */
export interface ArmModelsOptions {
  baseName: string;
  adapters: ReadonlySet<string>;
  /** Served name of the adapter trained on every family (default "pooled"). */
  pooledName?: string;
}

/**
 * The macro sequence of a task, as its kind plans it (lib/tasks' registry): a human task's annotated macros in
 * order; a datagen task's prefix macro (a mid-chain start) first, then its own; a proposed task's macro.
 * @throws {TaskFormatError} a human task without macros
 */
export function familyPlan(task: PlanTask): string[] {
  return kindOf(task as RunTask).plan(task as never);
}

/** The family of each planned macro, in plan order ("Other" outside the vocabulary). */
export function planFamilies(task: PlanTask): string[] {
  return familyPlan(task).map(familyOf);
}

/**
 * The served model name of each planned step for an arm: `base` and `pooled` use one model throughout; `oracle`
 * uses each step's family adapter when the server has it, else the base model.
 * @throws {UsageError} an arm other than base, pooled and oracle
 */
export function armModels(arm: string, task: PlanTask, options: ArmModelsOptions): string[] {
  if (arm !== "oracle") return [familyModel(arm, undefined, options)];
  return planFamilies(task).map((family) => familyModel(arm, family, options));
}

/**
 * The served model name an arm sends a step of `family` to (run.json records it per family): `base` and `pooled`
 * one model whatever the family; `oracle` the family's adapter when the server has it (a family outside the
 * vocabulary: the rest adapter, like the seed), else the base model.
 * @throws {UsageError} an arm other than base, pooled and oracle
 */
export function familyModel(arm: string, family: string | undefined, options: ArmModelsOptions): string {
  if (arm === "base") return options.baseName;
  if (arm === "pooled") return options.pooledName ?? "pooled";
  if (arm === "oracle") {
    const adapter = ADAPTER_OF_FAMILY[family ?? ""] ?? "rest";
    return options.adapters.has(adapter) ? adapter : options.baseName;
  }
  throw new UsageError(`unknown arm "${arm}" for routing (expected one of: ${ROUTED_ARMS.join(", ")})`);
}

/** What the planner arm's specialists are chosen from. */
export interface SubModelOptions {
  baseName: string;
  adapters: ReadonlySet<string>;
  /** Model for a family whose adapter is not served (default: the base model). */
  fallback?: string;
  /** Send reasoning steps to `fallback` too (default: the reasoning adapter, else the base model). */
  reasoningToFallback?: boolean;
}

/**
 * The specialist for one delegated step of the agent_planner arm: its family's adapter when served, else the
 * fallback; a reasoning step without its adapter goes to the untouched base model (an adapter trained without
 * reasoning rows loses question answering), unless `reasoningToFallback`.
 */
export function subModel(family: string, options: SubModelOptions): string {
  const adapter = ADAPTER_OF_FAMILY[family];
  if (adapter !== undefined && options.adapters.has(adapter)) return adapter;
  if (family === REASONING && !options.reasoningToFallback) return options.baseName;
  return options.fallback ?? options.baseName;
}
