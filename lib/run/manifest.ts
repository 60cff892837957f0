/**
 * run.json, the run's manifest: written when a run starts, it says what the folder's episodes were run with (the
 * settings that decide an episode's outcome, the model of every family, the selected tasks' hash and the file they
 * came from) and what with (the served models as the model server listed them, the versions of the suite, Deno,
 * Chromium and puppeteer). `--resume` compares the settings and tasks with the new run's and refuses a folder run
 * otherwise (another arm, another task file, other model settings), naming each difference; `--force-resume` takes
 * the folder anyway. Served models and versions are recorded, never compared: other versions are a warning.
 */
import { join, relative } from "node:path";
import type { Arm } from "../agent/mod.ts";
import { PUPPETEER_VERSION } from "../browser/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { sha256Hex, writeJsonAtomic } from "../io/mod.ts";
import type { EpisodeResult } from "../results/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { isModelArm, type ModelConfig, PLANNER_ARM, type RunConfig, SUITE_ROOT } from "./config.ts";
import { familyModels, PLANNER_PROMPT_FILE, servedModelsOf } from "./model_arms.ts";

/** The manifest's file name inside the out folder. */
export const MANIFEST_FILE = "run.json";

/** What run.json holds. */
export interface RunManifest {
  format: 1;
  created: string;
  /** The settings an episode's outcome depends on (no secrets, no paths that only say where a run was started). */
  settings: Record<string, unknown>;
  /** The selected tasks; `source` (absent in a run.json from before it) is the file or folder they were read from. */
  tasks: { count: number; sha256: string; ids: string[]; source?: TaskSource };
  /** What the model server listed (GET /v1/models) when the run checked it; null for replay and noop. */
  served_models?: readonly string[] | null;
  versions?: RunVersions;
}

/** The task file (or annotations folder) a run read, and the SHA-256 of its content (null: it cannot be read). */
export interface TaskSource {
  path: string;
  sha256: string | null;
}

/** What ran the episodes besides the settings: recorded, never compared (another one is a warning on --resume). */
export interface RunVersions {
  /** The suite checkout's commit (git rev-parse HEAD); null when the suite is no git checkout or git is missing. */
  suite_commit: string | null;
  deno: string;
  /** The browser's version string, e.g. "HeadlessChrome/139.0.7258.154"; null when no browser was started. */
  chromium: string | null;
  puppeteer_core: string;
}

/** What a manifest records besides the configuration and the tasks. */
export interface ManifestContext {
  /** The arm the run uses: a model arm resolved here carries the served models. */
  arm?: Arm;
  /** The started browser's version string. */
  chromium?: string | null;
}

/** The suite's commit, or null when SUITE_ROOT is no git checkout of its own or git cannot run (never an error). */
async function suiteCommit(): Promise<string | null> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", SUITE_ROOT, "rev-parse", "--show-toplevel", "HEAD"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const [top, commit] = new TextDecoder().decode(out.stdout).trim().split("\n");
    const own = top !== undefined && await Deno.realPath(top) === await Deno.realPath(SUITE_ROOT);
    return out.success && own && /^[0-9a-f]{40,64}$/.test(commit ?? "") ? commit : null;
  } catch {
    return null; // no git, no --allow-run, a folder gone: the run goes on without the commit
  }
}

/** The versions of what runs the episodes. */
async function runVersions(chromium: string | null): Promise<RunVersions> {
  return { suite_commit: await suiteCommit(), deno: Deno.version.deno, chromium, puppeteer_core: PUPPETEER_VERSION };
}

/** SHA-256 over a folder's files: one `<path relative to it> <sha256 of the file>` line each, sorted. */
async function folderSha256(root: string): Promise<string> {
  const lines: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (e.isFile) lines.push(`${relative(root, path)} ${await sha256Hex(await Deno.readTextFile(path))}`);
    }
  };
  await walk(root);
  return sha256Hex(lines.sort().join("\n"));
}

/** Where the run's tasks came from: the task file, or with --human the annotations folder. */
async function taskSource(config: RunConfig): Promise<TaskSource> {
  const path = config.tasks.human ? config.tasks.annotations : config.tasks.file;
  const hash = config.tasks.human ? folderSha256(path) : Deno.readTextFile(path).then(sha256Hex);
  return { path, sha256: await hash.catch(() => null) };
}

/**
 * Settings run.json records that no episode's outcome depends on: written for the record, never a difference that
 * makes --resume refuse the folder (--verifier-only changes nothing here; the seed's flag records the intent).
 */
const RECORDED_ONLY: ReadonlySet<string> = new Set(["verifier_only", "system_prompt_file"]);

/**
 * Settings compared only when the folder's run.json has them: derived from compared ones (the model of each family
 * follows the arm, names and adapters), so a folder from before they were recorded is checked on those. `shard` is
 * absent from a run.json from before --shard and from a merged one (merge.ts): their tasks are compared.
 */
const COMPARED_WHEN_SAVED: ReadonlySet<string> = new Set(["family_models", "shard"]);

/** The planner arm's own settings (agent_planner only: other arms never read them), its prompt's hash included. */
async function plannerSettings(m: ModelConfig): Promise<Record<string, unknown>> {
  return {
    planner_prompt_sha256: await sha256Hex(await Deno.readTextFile(PLANNER_PROMPT_FILE).catch(() => "")),
    planner_name: m.plannerName,
    sub_cap: m.subCap,
    planner_turns: m.plannerTurns,
    agent_version: m.agentVersion,
    fallback: m.fallback ?? null,
    reasoning_to_fallback: m.reasoningToFallback,
  };
}

/** The hash run.json records of a run's selected tasks (merge.ts recomputes it for the shards' union). */
export function tasksSha256(tasks: readonly unknown[]): Promise<string> {
  return sha256Hex(JSON.stringify(tasks));
}

/** The manifest of a run of `config` over `tasks`. */
export async function runManifest(
  config: RunConfig,
  tasks: readonly RunTask[],
  context: ManifestContext = {},
): Promise<RunManifest> {
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
      shard: config.shard,
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
        family_models: familyModels(config),
        system_prompt_file: m.systemPromptFile,
        system_prompt_sha256: await sha256Hex(await Deno.readTextFile(m.systemPromptFile).catch(() => "")),
        ...(config.arm === PLANNER_ARM ? await plannerSettings(m) : {}),
      }),
    },
    tasks: {
      count: tasks.length,
      sha256: await tasksSha256(tasks),
      ids: tasks.map((t) => t.task_id),
      source: await taskSource(config),
    },
    served_models: context.arm ? servedModelsOf(context.arm) : null,
    versions: await runVersions(context.chromium ?? null),
  };
}

/** `path: old → new` for each setting that differs. */
function differences(before: RunManifest, after: RunManifest): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(before.settings ?? {}), ...Object.keys(after.settings)]);
  const show = (v: unknown) => v === undefined ? "(unset)" : JSON.stringify(v);
  for (const k of keys) {
    if (RECORDED_ONLY.has(k) || (COMPARED_WHEN_SAVED.has(k) && before.settings?.[k] === undefined)) continue;
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

/** `name: old → new` for each version that differs (a run.json from before versions were recorded: none). */
function versionChanges(before: RunManifest, after: RunManifest): string[] {
  if (!before.versions || !after.versions) return [];
  const was: Record<string, unknown> = { ...before.versions }, now: Record<string, unknown> = { ...after.versions };
  return Object.keys(now).filter((k) => was[k] !== now[k])
    .map((k) => `${k}: ${JSON.stringify(was[k] ?? null)} → ${JSON.stringify(now[k])}`);
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
  let versions: string[] = [];
  let saved = false;
  try {
    const before = JSON.parse(await Deno.readTextFile(join(out, MANIFEST_FILE))) as RunManifest;
    diffs = differences(before, manifest);
    versions = versionChanges(before, manifest);
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
  const indent = (lines: string[]) => lines.map((d) => `  ${d}`).join("\n");
  if (diffs.length && !options.force) {
    throw new UsageError(
      `--resume: ${out} holds a run with other settings:\n${indent(diffs)}\n` +
        `choose another --out, --overwrite to start it again, or --force-resume to mix them`,
    );
  }
  if (versions.length) {
    options.log(
      `--resume: warning: ${out} was run with other versions, which its episodes now mix:\n${indent(versions)}`,
    );
  }
  if (diffs.length === 0) return saved;
  options.log(`--force-resume: ${out} was run otherwise, resuming anyway:\n${indent(diffs)}`);
  return false;
}

/** Writes run.json (atomically). */
export function writeManifest(out: string, manifest: RunManifest): Promise<void> {
  return writeJsonAtomic(join(out, MANIFEST_FILE), manifest, 2);
}
