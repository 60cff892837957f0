/**
 * run.json, the run's manifest: written when a run starts, it says what the folder's episodes were run with (the
 * settings that decide an episode's outcome, the selected tasks' hash). `--resume` compares it with the new run's
 * and refuses a folder run otherwise (another arm, another task file, other model settings), naming each
 * difference; `--force-resume` takes the folder anyway.
 */
import { join } from "node:path";
import { UsageError } from "../errors/mod.ts";
import { writeJsonAtomic } from "../io/mod.ts";
import type { EpisodeResult } from "../results/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { isModelArm, type ModelConfig, PLANNER_ARM, type RunConfig } from "./config.ts";
import { PLANNER_PROMPT_FILE } from "./model_arms.ts";

/** The manifest's file name inside the out folder. */
export const MANIFEST_FILE = "run.json";

/** What run.json holds. */
export interface RunManifest {
  format: 1;
  created: string;
  /** The settings an episode's outcome depends on (no secrets, no paths that only say where a run was started). */
  settings: Record<string, unknown>;
  tasks: { count: number; sha256: string; ids: string[] };
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Settings run.json records that no episode's outcome depends on: written for the record, never a difference that
 * makes --resume refuse the folder (--verifier-only changes nothing here; the seed's flag records the intent).
 */
const RECORDED_ONLY: ReadonlySet<string> = new Set(["verifier_only"]);

/** The planner arm's own settings (agent_planner only: other arms never read them), its prompt's hash included. */
async function plannerSettings(m: ModelConfig): Promise<Record<string, unknown>> {
  return {
    planner_prompt_sha256: await sha256(await Deno.readTextFile(PLANNER_PROMPT_FILE).catch(() => "")),
    planner_name: m.plannerName,
    sub_cap: m.subCap,
    planner_turns: m.plannerTurns,
    agent_version: m.agentVersion,
    fallback: m.fallback ?? null,
    reasoning_to_fallback: m.reasoningToFallback,
  };
}

/** The manifest of a run of `config` over `tasks`. */
export async function runManifest(config: RunConfig, tasks: readonly RunTask[]): Promise<RunManifest> {
  const m = config.model;
  return {
    format: 1,
    created: new Date().toISOString(),
    settings: {
      arm: config.arm,
      repeats: config.repeats,
      max_steps: config.maxSteps,
      timeout_s: config.timeoutS,
      now: config.now,
      record_rows: config.recordRows,
      record_family: config.recordFamily ?? null,
      human: config.tasks.human,
      verifier_only: config.verifierOnly,
      // The model settings matter to the model arms only: a replay run resumed with another --temperature is the same.
      ...(!isModelArm(config.arm) ? {} : {
        base_name: m.baseName,
        pooled_name: m.pooledName,
        adapters: m.adapters,
        temperature: m.temperature,
        max_tokens: m.maxTokens,
        gate_done: m.gateDone,
        gate_note: m.gateNote,
        max_actions: m.maxActions,
        normalized_coords: m.normalizedCoords,
        system_prompt_sha256: await sha256(await Deno.readTextFile(m.systemPromptFile).catch(() => "")),
        ...(config.arm === PLANNER_ARM ? await plannerSettings(m) : {}),
      }),
    },
    tasks: { count: tasks.length, sha256: await sha256(JSON.stringify(tasks)), ids: tasks.map((t) => t.task_id) },
  };
}

/** `path: old → new` for each setting that differs. */
function differences(before: RunManifest, after: RunManifest): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(before.settings ?? {}), ...Object.keys(after.settings)]);
  const show = (v: unknown) => v === undefined ? "(unset)" : JSON.stringify(v);
  for (const k of keys) {
    if (RECORDED_ONLY.has(k)) continue;
    const a = before.settings?.[k], b = after.settings[k];
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${k}: ${show(a)} → ${show(b)}`);
  }
  if (before.tasks?.sha256 !== after.tasks.sha256) {
    const had = new Set(before.tasks?.ids ?? []);
    const added = after.tasks.ids.filter((id) => !had.has(id));
    const now = new Set(after.tasks.ids);
    const gone = (before.tasks?.ids ?? []).filter((id) => !now.has(id));
    const what = added.length || gone.length
      ? `${added.length} added, ${gone.length} gone (e.g. ${[...added, ...gone].slice(0, 3).join(", ")})`
      : "the same ids with other content";
    out.push(`tasks: ${before.tasks?.count ?? "?"} → ${after.tasks.count} tasks, ${what}`);
  }
  return out;
}

/**
 * Checks that `--resume` continues the run that `out` holds: its run.json (or, for a folder from before run.json,
 * its results' arm and task ids) must match. With `force` the differences are only logged.
 * @returns true when the folder's run.json stands as it is (it matches); false when it must be written.
 * @throws UsageError listing the differences.
 */
export async function checkResume(
  out: string,
  manifest: RunManifest,
  previous: readonly EpisodeResult[],
  options: { force: boolean; log: (line: string) => void },
): Promise<boolean> {
  let diffs: string[];
  let saved = false;
  try {
    diffs = differences(JSON.parse(await Deno.readTextFile(join(out, MANIFEST_FILE))) as RunManifest, manifest);
    saved = true;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound) && !(err instanceof SyntaxError)) throw err;
    const arms = [...new Set(previous.map((r) => r.arm))].filter((a) => a !== manifest.settings.arm);
    const ids = new Set(manifest.tasks.ids);
    const foreign = [...new Set(previous.map((r) => r.task_id))].filter((id) => !ids.has(id));
    diffs = [
      ...arms.map((a) => `arm: ${JSON.stringify(a)} → ${JSON.stringify(manifest.settings.arm)}`),
      ...(foreign.length ? [`tasks: results hold ${foreign.length} not in this run (e.g. ${foreign[0]})`] : []),
    ];
  }
  if (diffs.length === 0) return saved;
  const list = diffs.map((d) => `  ${d}`).join("\n");
  if (options.force) {
    options.log(`--force-resume: ${out} was run otherwise, resuming anyway:\n${list}`);
    return false;
  }
  throw new UsageError(
    `--resume: ${out} holds a run with other settings:\n${list}\n` +
      `choose another --out, --overwrite to start it again, or --force-resume to mix them`,
  );
}

/** Writes run.json (atomically). */
export function writeManifest(out: string, manifest: RunManifest): Promise<void> {
  return writeJsonAtomic(join(out, MANIFEST_FILE), manifest, 2);
}
