/**
 * What every model arm's entry in the registry (arms.ts) shares: the model server's client with the served-models
 * check at start (a name the arm needs that the server does not serve stops the run before any episode), the
 * system prompt, and the model settings run.json records.
 */
import { fileURLToPath } from "node:url";
import type { AgentSettings, Arm } from "../agent/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { OpenAiModelClient } from "../llm/mod.ts";
import type { RunConfig } from "./config.ts";
import { EPISODE_VIEWPORT } from "./settings.ts";

/** The planner's system prompt (its {families} placeholder is filled with the family hints). */
export const PLANNER_PROMPT_FILE: string = fileURLToPath(new URL("../../prompts/planner_prompt.md", import.meta.url));

/** A model arm, with the names its server listed (GET /v1/models) when the run checked it. */
export interface ServedModelArm extends Arm {
  /** What GET /v1/models listed. */
  readonly servedModels: readonly string[];
}

/** Whether `arm` was resolved against its model server. */
export function isServedModelArm(arm: Arm): arm is ServedModelArm {
  return "servedModels" in arm;
}

/** The names the server listed when `arm` was resolved; null for an arm resolved otherwise (replay, noop, a caller's). */
export function servedModelsOf(arm: Arm): string[] | null {
  return isServedModelArm(arm) ? [...arm.servedModels] : null;
}

/**
 * The sentence that tells the model which coordinate system its click and drag coordinates are in: the 0-1000 grid
 * (normalized) or the viewport's CSS pixels. Without it a model cannot know how its coordinates are read.
 */
function coordinatesSentence(normalized: boolean): string {
  const { width, height } = EPISODE_VIEWPORT;
  return normalized
    ? "Coordinates in click and drag actions are on a 0-1000 grid over the viewport: (0,0) is the top left corner, " +
      "(1000,1000) the bottom right."
    : `Coordinates in click and drag actions are CSS pixels of the viewport, which is ${width}x${height}: ` +
      `(0,0) is the top left corner, (${width},${height}) the bottom right.`;
}

/**
 * The system prompt of a configuration, read from its file, with {max_actions} and {coordinates} filled. A prompt
 * without {coordinates} (a user's own file) gets the sentence appended: the model is always told. The model arms
 * send it; demonstrations (lib/gen) write it into their rows.
 * @throws UsageError naming the file.
 */
export async function readSystemPrompt(config: RunConfig): Promise<string> {
  let text = await readPromptFile(config.model.systemPromptFile, "--system-prompt");
  const coordinates = coordinatesSentence(config.model.normalizedCoords);
  text = text.replaceAll("{max_actions}", String(config.model.maxActions));
  return text.includes("{coordinates}")
    ? text.replaceAll("{coordinates}", coordinates)
    : `${text.trimEnd()}\n\n${coordinates}\n`;
}

/**
 * What a model arm's episodes share: the model server's client, once the server answers and serves every name in
 * `needed`, and the system prompt.
 */
export async function modelAgent(
  config: RunConfig,
  needed: readonly string[],
): Promise<{ agent: AgentSettings; servedModels: readonly string[] }> {
  const m = config.model;
  const systemPrompt = await readSystemPrompt(config);
  const client = new OpenAiModelClient({
    baseURL: m.vllm,
    apiKey: m.apiKey,
    temperature: m.temperature,
    maxTokens: m.maxTokens,
    timeoutMs: m.modelTimeoutS * 1000,
  });
  const servedModels = await client.checkServedModels([...needed]);
  const agent: AgentSettings = {
    client,
    systemPrompt,
    now: config.now,
    maxActionsPerStep: m.maxActions,
    normalizedCoords: m.normalizedCoords,
  };
  return { agent, servedModels };
}

/**
 * The model settings run.json records for a model arm (an arm without a model records none: a replay run resumed
 * with another --temperature is the same), with the served model of each family.
 */
export async function modelSettings(
  config: RunConfig,
  familyModels: Record<string, string>,
): Promise<Record<string, unknown>> {
  const m = config.model;
  return {
    base_name: m.baseName,
    pooled_name: m.pooledName,
    adapters: m.adapters,
    temperature: m.temperature,
    max_tokens: m.maxTokens,
    gate_done: m.gateDone,
    gate_note: m.gateNote,
    max_actions: m.maxActions,
    normalized_coords: m.normalizedCoords,
    family_models: familyModels,
    system_prompt_file: m.systemPromptFile,
    system_prompt_sha256: await sha256Hex(await Deno.readTextFile(m.systemPromptFile).catch(() => "")),
  };
}

/** A prompt file's text. @throws UsageError naming the file. */
export async function readPromptFile(file: string, what: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (err) {
    throw new UsageError(`${what}: cannot read ${file}: ${(err as Error).message}`);
  }
}
