/**
 * Resolving a model arm from a run configuration: the client for the server, the system prompt, and the
 * served-models check at start (a name the arm needs that the server does not serve stops the run before any
 * episode).
 */
import { type Arm, modelArm } from "../agent/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { OpenAiModelClient } from "../llm/mod.ts";
import { armModels, ROUTED_ARMS, type RoutedArm } from "../routing/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { isModelArm, type RunConfig } from "./config.ts";

/** Every served name the arm will ask for over these tasks. */
export function neededModels(config: RunConfig, tasks: RunTask[]): string[] {
  const names = new Set<string>();
  const options = { ...config.model, adapters: new Set(config.model.adapters) };
  for (const t of tasks) for (const m of armModels(config.arm, t, options)) names.add(m);
  return [...names].sort();
}

/** The system prompt of a configuration, read from its file. @throws UsageError naming the file. */
export async function readSystemPrompt(config: RunConfig): Promise<string> {
  const file = config.model.systemPromptFile;
  try {
    return (await Deno.readTextFile(file)).replaceAll("{max_actions}", String(config.model.maxActions));
  } catch (err) {
    throw new UsageError(`--system-prompt: cannot read ${file}: ${(err as Error).message}`);
  }
}

/** The model arm, after checking that the server answers and serves every name it needs. */
export async function resolveModelArm(config: RunConfig, tasks: RunTask[]): Promise<Arm> {
  if (!isModelArm(config.arm)) {
    throw new UsageError(`--arm "${config.arm}" is not a model arm (${ROUTED_ARMS.join(", ")})`);
  }
  const m = config.model;
  const systemPrompt = await readSystemPrompt(config);
  const client = new OpenAiModelClient({
    baseURL: m.vllm,
    apiKey: m.apiKey,
    temperature: m.temperature,
    maxTokens: m.maxTokens,
    timeoutMs: m.modelTimeoutS * 1000,
  });
  await client.checkServedModels(neededModels(config, tasks));
  return modelArm({
    arm: config.arm as RoutedArm,
    client,
    systemPrompt,
    now: config.now,
    baseName: m.baseName,
    pooledName: m.pooledName,
    adapters: new Set(m.adapters),
    gateDone: m.gateDone,
    gateNote: m.gateNote,
    maxActionsPerStep: m.maxActions,
    normalizedCoords: m.normalizedCoords,
    record: config.recordRows,
  });
}
