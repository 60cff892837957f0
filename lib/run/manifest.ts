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
import { NewerFormatError, RunFolderError, UsageError } from "../errors/mod.ts";
import { sha256Hex, writeFileAtomic } from "../io/mod.ts";
import {
  type EpisodeResult,
  manifestJson,
  readManifest,
  RUN_FILES,
  type RunManifest,
  tasksSha256,
} from "../run_folder/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { armEntry } from "./arms.ts";
import { type RunConfig, SUITE_ROOT } from "./config.ts";
import { servedModelsOf } from "./model_arms.ts";

/** run.json's `versions`: what ran the episodes besides the settings (recorded, never compared). */
type RunVersions = NonNullable<RunManifest["versions"]>;

/** run.json's `tasks.source`: the task file (or annotations folder) a run read, and its content's SHA-256. */
type TaskSource = NonNullable<RunManifest["tasks"]["source"]>;

/** What a manifest records besides the configuration and the tasks. */
interface ManifestContext {
  /** The arm the run uses: a model arm resolved here carries the served models. */
  arm?: Arm;
  /** The started browser's version string. */
  chromium?: string | null;
  /** A shard's: the whole selection its tasks are part of (run.json's `tasks.selection`, which merge checks). */
  selection?: readonly RunTask[];
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

/** The manifest of a run of `config` over `tasks`. */
export async function runManifest(
  config: RunConfig,
  tasks: readonly RunTask[],
  context: ManifestContext = {},
): Promise<RunManifest> {
  return {
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
      // The arm's own (arms.ts): a model arm's model settings, the planner's too; replay and noop record none.
      ...await armEntry(config.arm).manifestSettings(config),
    },
    tasks: {
      count: tasks.length,
      sha256: await tasksSha256(tasks),
      ids: tasks.map((t) => t.task_id),
      source: await taskSource(config),
      ...(context.selection
        ? { selection: { count: context.selection.length, sha256: await tasksSha256(context.selection) } }
        : {}),
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
 * its results' arm and task ids) must match. With `force` the differences are only logged. A run.json that cannot be
 * read (cut short, damaged, written by a newer suite) is never taken for a missing one: --resume refuses it, naming
 * the file (with `force`, a damaged one is replaced and said so; a newer one is refused even then).
 * @returns true when the folder's run.json stands as it is (it matches); false when it must be written.
 * @throws UsageError listing the differences, or naming run.json when it cannot be read
 */
export async function checkResume(
  out: string,
  manifest: RunManifest,
  previous: readonly EpisodeResult[],
  options: { force: boolean; log: (line: string) => void },
): Promise<boolean> {
  let diffs: string[];
  let versions: string[] = [];
  let before: RunManifest | undefined;
  try {
    before = await readManifest(out);
  } catch (err) {
    if (!(err instanceof RunFolderError) || !options.force || err instanceof NewerFormatError) {
      throw new UsageError(
        `--resume: ${err instanceof Error ? err.message : String(err)}: ${out}'s run cannot be checked` +
          (err instanceof NewerFormatError ? "" : "; --force-resume replaces that run.json with this run's"),
        { cause: err },
      );
    }
    options.log(`--force-resume: ${(err as Error).message}: replaced with this run's run.json`);
    return false;
  }
  if (before) {
    diffs = differences(before, manifest);
    versions = versionChanges(before, manifest);
  } else {
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
  if (diffs.length === 0) return before !== undefined;
  options.log(`--force-resume: ${out} was run otherwise, resuming anyway:\n${indent(diffs)}`);
  return false;
}

/** Writes run.json (atomically, validated by its format). */
export function writeManifest(out: string, manifest: RunManifest): Promise<void> {
  return writeFileAtomic(join(out, RUN_FILES.manifest), manifestJson(manifest));
}
