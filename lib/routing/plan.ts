/** Which macros an episode goes through, and which served model a step of each family is sent to. */
import { kindOf, type RunTask } from "../tasks/mod.ts";
import { ADAPTER_OF_FAMILY, familyOf, REASONING } from "./families.ts";

/**
 * The macro sequence of a task, as its kind plans it (lib/tasks' registry): a human task's annotated macros in
 * order; a datagen task's prefix macro (a mid-chain start) first, then its own; a proposed task's macro.
 * @throws {TaskFormatError} a human task without macros
 */
export function familyPlan(task: RunTask): string[] {
  return kindOf(task).plan(task);
}

/** The family of each planned macro, in plan order ("Other" outside the vocabulary). */
export function planFamilies(task: RunTask): string[] {
  return familyPlan(task).map(familyOf);
}

/** What a family's model is chosen from: the served base model and the adapters loaded on the server. */
export interface AdapterOptions {
  /** Served name of the base model. */
  baseName: string;
  /** The adapters the server serves. */
  adapters: ReadonlySet<string>;
}

/**
 * The served model a step of `family` goes to when each family has its own adapter: the family's adapter when the
 * server has it (a family outside the vocabulary: the rest adapter, like the seed), else the base model.
 */
export function familyAdapter(family: string, options: AdapterOptions): string {
  const adapter = ADAPTER_OF_FAMILY[family] ?? "rest";
  return options.adapters.has(adapter) ? adapter : options.baseName;
}

/** What a delegated step's specialist is chosen from. */
export interface SubModelOptions extends AdapterOptions {
  /** Model for a family whose adapter is not served (default: the base model). */
  fallback?: string;
  /** Send reasoning steps to `fallback` too (default: the reasoning adapter, else the base model). */
  reasoningToFallback?: boolean;
}

/**
 * The specialist for one delegated step: its family's adapter when served, else the fallback; a reasoning step
 * without its adapter goes to the untouched base model (an adapter trained without reasoning rows loses question
 * answering), unless `reasoningToFallback`.
 */
export function subModel(family: string, options: SubModelOptions): string {
  const adapter = ADAPTER_OF_FAMILY[family];
  if (adapter !== undefined && options.adapters.has(adapter)) return adapter;
  if (family === REASONING && !options.reasoningToFallback) return options.baseName;
  return options.fallback ?? options.baseName;
}
