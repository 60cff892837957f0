/**
 * run.json, the run's manifest (what a folder's episodes were run with: the settings an episode's outcome depends
 * on, the selected tasks and their hash, the served models and versions), a merged run's shards, and run.lock (who
 * holds the folder). run.json's format_version also covers the files that carry none of their own (trace.json,
 * history.json and the planner's files, training rows).
 * @module
 */
import { z } from "zod";
import { sha256Hex } from "../io/mod.ts";
import { type FileFormat, fileFormat, LIMITS, type Same, serialise } from "./format.ts";

const SHA256 = /^[0-9a-f]{64}$/;
const sha256 = z.string().regex(SHA256, "expected a SHA-256 in lower-case hex");

/** Part `index` (from 0) of `count` of a selection of tasks. */
const shardSchema = z.strictObject({
  index: z.number().int().min(0),
  count: z.number().int().min(1),
}).refine((s) => s.index < s.count, { message: "index must be from 0 to count - 1" });

/**
 * The settings an episode's outcome depends on. The common ones are typed; an arm's own (its models, sampling,
 * gating, the planner's) come from its registry entry and are compared as they are.
 */
const settingsSchema = z.looseObject({
  arm: z.string().min(1),
  repeats: z.number().int().min(1),
  max_steps: z.number().int().min(0),
  timeout_s: z.number().min(0),
  now: z.string(),
  record_rows: z.boolean(),
  record_family: z.string().nullable(),
  human: z.boolean(),
  verifier_only: z.boolean().optional(),
  /** `--shard K/N`; null for a whole run; absent in a merged run and in a run.json from before --shard. */
  shard: shardSchema.nullable().optional(),
});

const tasksSchema = z.strictObject({
  count: z.number().int().min(0),
  /** SHA-256 of the selected tasks (a shard's: its own part's); null only in a merged run.json of format 1. */
  sha256: sha256.nullable(),
  ids: z.array(z.string()),
  /** The task file (or annotations folder) the tasks were read from and its content's hash. */
  source: z.strictObject({ path: z.string(), sha256: sha256.nullable() }).optional(),
  /** A shard's: the whole selection it is a part of (before --shard), which merge checks every part agrees on. */
  selection: z.strictObject({ count: z.number().int().min(0), sha256 }).optional(),
}).refine((t) => t.ids.length === t.count, { message: "ids must list count task ids" });

/** run.json's schema (docs/output-layout.md, "run.json and run.lock"). */
export const manifestSchema = z.strictObject({
  format_version: z.number().optional(),
  created: z.string(),
  settings: settingsSchema,
  tasks: tasksSchema,
  /** What the model server listed (GET /v1/models) when the run checked it; null for replay and noop. */
  served_models: z.array(z.string()).nullable().optional(),
  versions: z.strictObject({
    /** The suite checkout's commit; null when the suite is no git checkout or git is missing. */
    suite_commit: z.string().nullable(),
    deno: z.string(),
    /** The browser's version string; null when no browser was started. */
    chromium: z.string().nullable(),
    puppeteer_core: z.string(),
  }).optional(),
  /** A merged run's parts (merge.ts): each shard's folder, index, count and results lines. */
  shards: z.array(z.strictObject({
    dir: z.string(),
    index: z.number().int().min(0),
    count: z.number().int().min(1),
    episodes: z.number().int().min(0),
  })).optional(),
});

/** Part `index` (from 0) of `count` of a selection of tasks. */
export interface Shard {
  /** Which part, from 0. */
  index: number;
  /** Of how many parts. */
  count: number;
}

/**
 * The settings an episode's outcome depends on (no secrets, no paths that only say where a run was started): the
 * common ones, and each arm's own from its registry entry (models, sampling, gating, the planner's).
 */
export interface ManifestSettings {
  /** The arm that ran. */
  arm: string;
  /** Episodes per task. */
  repeats: number;
  /** The step cap per episode. */
  max_steps: number;
  /** Seconds the arm may run per episode (--timeout). */
  timeout_s: number;
  /** The sandbox's frozen clock. */
  now: string;
  /** Whether passing episodes were written as training rows. */
  record_rows: boolean;
  /** The rows' family (--record-family), or null for the task macro's. */
  record_family: string | null;
  /** Whether the tasks were the human-written ones (--human). */
  human: boolean;
  /** The seed's --verifier-only (recorded, never compared: it changes nothing here). */
  verifier_only?: boolean;
  /** `--shard K/N`; null for a whole run; absent in a merged run and in a run.json from before --shard. */
  shard?: Shard | null;
  /** An arm's own settings. */
  [setting: string]: unknown;
}

/** run.json's `tasks`: the selected tasks. */
export interface ManifestTasks {
  /** How many tasks were selected. */
  count: number;
  /** SHA-256 of the selected tasks (tasksSha256); null only in a merged run.json of format 1. */
  sha256: string | null;
  /** The selected tasks' ids, in the selection's order. */
  ids: string[];
  /** The task file (or annotations folder) the tasks were read from, and its content's SHA-256. */
  source?: { path: string; sha256: string | null };
  /** A shard's: the whole selection it is a part of (before --shard), which merge checks every part agrees on. */
  selection?: { count: number; sha256: string };
}

/** What run.json holds (docs/output-layout.md, "run.json and run.lock"). */
export interface RunManifest {
  /** run.json's format (RUN_MANIFEST's version when written). */
  format_version?: number;
  /** When the run (or the merge) started (ISO). */
  created: string;
  /** The settings an episode's outcome depends on. */
  settings: ManifestSettings;
  /** The selected tasks. */
  tasks: ManifestTasks;
  /** What the model server listed (GET /v1/models) when the run checked it; null for replay and noop. */
  served_models?: string[] | null;
  /** What ran the episodes besides the settings: recorded, never compared. */
  versions?: { suite_commit: string | null; deno: string; chromium: string | null; puppeteer_core: string };
  /** A merged run's parts: each shard's folder, index, count and results lines. */
  shards?: (Shard & { dir: string; episodes: number })[];
}

const _sameFields: Same<z.output<typeof manifestSchema>, RunManifest> = true;

/**
 * Version 1 (`"format": 1`): the same fields, without `tasks.selection` (merge reads a version 1 shard's selection
 * back from its episodes' saved tasks).
 */
function migrateManifest(m: Record<string, unknown>): Record<string, unknown> {
  const { format: _, ...rest } = m;
  return rest;
}

/** run.json. */
export const RUN_MANIFEST: FileFormat<RunManifest> = fileFormat({
  what: "run.json",
  // 2: format_version (was `format`), tasks.selection on a shard's.
  version: 2,
  maxBytes: LIMITS.manifest,
  schema: manifestSchema,
  migrate: migrateManifest,
  legacyKey: "format",
});

/**
 * run.json's `tasks.sha256`: the SHA-256 of the selected tasks as JSON, in their order (a merge's is its parts'
 * selection's, which an unsplit run of the same selection has too).
 */
export function tasksSha256(tasks: readonly unknown[]): Promise<string> {
  return sha256Hex(JSON.stringify(tasks));
}

/** run.json's text (validated, indented). */
export function manifestJson(manifest: RunManifest): string {
  return serialise(RUN_MANIFEST, manifest, "run.json", 2) + "\n";
}

/** run.lock's schema. */
export const lockSchema = z.strictObject({
  format_version: z.number().optional(),
  pid: z.number().int(),
  host: z.string(),
  started: z.string(),
});

/** Who holds a run folder: run.lock. */
export interface LockHolder {
  /** run.lock's format (RUN_LOCK's version when written). */
  format_version?: number;
  /** The holder's process id, on `host`. */
  pid: number;
  /** The host that process runs on. */
  host: string;
  /** When it took the lock. */
  started: string;
}

const _sameLock: Same<z.output<typeof lockSchema>, LockHolder> = true;

/** run.lock. */
export const RUN_LOCK: FileFormat<LockHolder> = fileFormat({
  what: "run.lock",
  version: 1,
  maxBytes: LIMITS.smallFile,
  schema: lockSchema,
});

/** run.lock's text. */
export function lockJson(holder: LockHolder): string {
  return serialise(RUN_LOCK, holder, "run.lock") + "\n";
}
