/**
 * Resolving a model arm from the command line: the client for --vllm, the system prompt, and the served-models
 * check at start (a name the arm needs that the server does not serve stops the run before any episode).
 */
import { modelArm } from "../agent/mod.ts";
import type { Arm } from "../agent/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { OpenAiModelClient } from "../llm/mod.ts";
import { armModels, ROUTED_ARMS } from "../routing/mod.ts";
import type { RunTask } from "./kinds.ts";

export interface ModelArmSettings {
  arm: string;
  vllm: string;
  apiKey: string;
  baseName: string;
  pooledName: string;
  adapters: Set<string>;
  temperature: number;
  maxTokens: number;
  /** Seconds per model call attempt. */
  modelTimeoutS: number;
  gateDone: boolean;
  gateNote: boolean;
  systemPrompt: string;
  maxActions: number;
  normalizedCoords: boolean;
  recordRows: boolean;
  now: string;
}

/** True for the arms a model drives. */
export const isModelArm = (arm: string) => (ROUTED_ARMS as readonly string[]).includes(arm);

/** Every served name the arm will ask for over these tasks. */
export function neededModels(s: ModelArmSettings, tasks: RunTask[]): string[] {
  const names = new Set<string>();
  for (const t of tasks) for (const m of armModels(s.arm, t, s)) names.add(m);
  return [...names].sort();
}

/** The model arm, after checking that the server answers and serves every name it needs. */
export async function resolveModelArm(s: ModelArmSettings, tasks: RunTask[]): Promise<Arm> {
  if (!isModelArm(s.arm)) throw new UsageError(`--arm "${s.arm}" is not a model arm (${ROUTED_ARMS.join(", ")})`);
  const client = new OpenAiModelClient({
    baseURL: s.vllm,
    apiKey: s.apiKey,
    temperature: s.temperature,
    maxTokens: s.maxTokens,
    timeoutMs: s.modelTimeoutS * 1000,
  });
  await client.checkServedModels(neededModels(s, tasks));
  return modelArm({
    arm: s.arm as "base" | "pooled" | "oracle",
    client,
    systemPrompt: s.systemPrompt.replaceAll("{max_actions}", String(s.maxActions)),
    now: s.now,
    baseName: s.baseName,
    pooledName: s.pooledName,
    adapters: s.adapters,
    gateDone: s.gateDone,
    gateNote: s.gateNote,
    maxActionsPerStep: s.maxActions,
    normalizedCoords: s.normalizedCoords,
    record: s.recordRows,
  });
}
