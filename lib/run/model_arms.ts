/**
 * Resolving a model arm from a run configuration: the client for the server, the system prompt, and the
 * served-models check at start (a name the arm needs that the server does not serve stops the run before any
 * episode).
 */
import { fileURLToPath } from "node:url";
import { type AgentSettings, type Arm, modelArm, PLAN_FAMILIES, plannerArm } from "../agent/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { OpenAiModelClient } from "../llm/mod.ts";
import { armModels, familyModel, type RoutedArm, subModel, type SubModelOptions } from "../routing/mod.ts";
import { FAMILIES, type RunTask } from "../tasks/mod.ts";
import { ARM_NAMES, EPISODE_VIEWPORT, isModelArm, PLANNER_ARM, type RunConfig } from "./config.ts";

/** The planner's system prompt (its {families} placeholder is filled with the family hints). */
export const PLANNER_PROMPT_FILE: string = fileURLToPath(new URL("../../prompts/planner_prompt.md", import.meta.url));

/** How the planner arm picks each family's specialist, from a configuration. */
function specialistOptions(config: RunConfig): SubModelOptions {
  const m = config.model;
  return {
    baseName: m.baseName,
    adapters: new Set(m.adapters),
    fallback: m.fallback,
    reasoningToFallback: m.reasoningToFallback,
  };
}

/**
 * Every served name the arm will ask for over these tasks. The planner arm chooses families as it goes, so it needs
 * the planner and the specialist of every family it could name.
 */
export function neededModels(config: RunConfig, tasks: RunTask[]): string[] {
  const names = new Set<string>();
  if (config.arm === PLANNER_ARM) {
    names.add(config.model.plannerName);
    for (const family of PLAN_FAMILIES) names.add(subModel(family, specialistOptions(config)));
    return [...names].sort();
  }
  const options = { ...config.model, adapters: new Set(config.model.adapters) };
  for (const t of tasks) for (const m of armModels(config.arm, t, options)) names.add(m);
  return [...names].sort();
}

/**
 * The served model each family's steps go to, as the arm's router (or the planner's specialist choice) picks it;
 * null for an arm without a model. run.json records it.
 */
export function familyModels(config: RunConfig): Record<string, string> | null {
  if (!isModelArm(config.arm)) return null;
  const pick = config.arm === PLANNER_ARM
    ? (family: string) => subModel(family, specialistOptions(config))
    : (family: string) =>
      familyModel(config.arm, family, { ...config.model, adapters: new Set(config.model.adapters) });
  return Object.fromEntries(FAMILIES.map((family) => [family, pick(family)]));
}

/** A model arm, with the names its server listed (GET /v1/models) when the run checked it. */
export interface ServedModelArm extends Arm {
  readonly servedModels: readonly string[];
}

/** The names the server listed when `arm` was resolved; null for an arm resolved otherwise (replay, noop, a caller's). */
export function servedModelsOf(arm: Arm): readonly string[] | null {
  return "servedModels" in arm ? (arm as ServedModelArm).servedModels : null;
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
 * without {coordinates} (a user's own file) gets the sentence appended: the model is always told.
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

/** The model arm, after checking that the server answers and serves every name it needs. */
export async function resolveModelArm(config: RunConfig, tasks: RunTask[]): Promise<ServedModelArm> {
  if (!isModelArm(config.arm)) {
    throw new UsageError(`--arm "${config.arm}" is not a model arm (${ARM_NAMES.filter(isModelArm).join(", ")})`);
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
  const servedModels = await client.checkServedModels(neededModels(config, tasks));
  const agent: AgentSettings = {
    client,
    systemPrompt,
    now: config.now,
    maxActionsPerStep: m.maxActions,
    normalizedCoords: m.normalizedCoords,
  };
  const arm = config.arm === PLANNER_ARM
    ? plannerArm({
      ...agent,
      plannerName: m.plannerName,
      plannerPrompt: await readPromptFile(PLANNER_PROMPT_FILE, "the planner prompt"),
      version: m.agentVersion,
      subCap: m.subCap,
      plannerTurns: m.plannerTurns,
      specialists: specialistOptions(config),
      labelRows: config.recordFamily === undefined,
    })
    : modelArm({
      ...agent,
      arm: config.arm as RoutedArm,
      baseName: m.baseName,
      pooledName: m.pooledName,
      adapters: new Set(m.adapters),
      gateDone: m.gateDone,
      gateNote: m.gateNote,
    });
  return Object.assign(arm, { servedModels });
}

/** A prompt file's text. @throws UsageError naming the file. */
async function readPromptFile(file: string, what: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (err) {
    throw new UsageError(`${what}: cannot read ${file}: ${(err as Error).message}`);
  }
}
