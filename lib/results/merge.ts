/**
 * Merging the folders of a sharded run (eval.ts --shard K/N, one per Slurm array task) into one run folder that
 * regrade, the judge and the report read as if one process had run every episode. The shard folders are only read:
 * the merged folder is built beside --out and renamed into place once whole.
 */
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "../errors/mod.ts";
import {
  exists,
  type GuardedFolder,
  guardedFolderProblem,
  removeIfExists,
  writeFileAtomic,
  writeJsonAtomic,
} from "../io/mod.ts";
import { type EpisodeResult, parseResults, PROMPTS_DIR, resultKey } from "../results/mod.ts";
import { liveHolder } from "./lock.ts";
import { MANIFEST_FILE, type RunManifest, tasksSha256 } from "./manifest.ts";
import { RUN_MARKERS } from "./out_folder.ts";
import { type Shard, unshardLists } from "./shard.ts";

/** What a merge takes. */
export interface MergeOptions {
  /** The shards' folders (any order). */
  shards: readonly string[];
  out: string;
  /** Replace the run `out` already holds (never one a live run holds). */
  overwrite?: boolean;
  /** Folders `out` must neither be nor hold (the current folder, the repository, the home folder). */
  guarded?: readonly GuardedFolder[];
  /** Warnings (stderr by default). */
  log?: (line: string) => void;
}

/** What a merge wrote. */
export interface MergeSummary {
  /** The shards' count N, and the indexes of the shards not given. */
  count: number;
  missing: number[];
  /** Lines of the merged results.jsonl, episode folders, and their files hard-linked or copied. */
  results: number;
  episodes: number;
  linked: number;
  copied: number;
}

/** One shard's entry in the merged run.json. */
export interface ShardEntry extends Shard {
  dir: string;
  /** Lines of its results.jsonl. */
  episodes: number;
}

/** The merged folder's run.json: the shards' common settings (no `shard`), their tasks' union, the shards. */
export interface MergedManifest extends Omit<RunManifest, "tasks"> {
  /** `sha256` is null when the tasks cannot be read back from the episodes (see savedTasks). */
  tasks: Omit<RunManifest["tasks"], "sha256"> & { sha256: string | null };
  shards: ShardEntry[];
}

interface ShardFolder {
  dir: string;
  manifest: RunManifest;
  shard: Shard;
  results: EpisodeResult[];
  retried: EpisodeResult[];
}

const show = (v: unknown) => v === undefined ? "(unset)" : JSON.stringify(v);

/** A results file's lines (none when it does not exist); a partial last line (a crash) is left out, with a warning. */
async function readLines(file: string, log: (line: string) => void): Promise<EpisodeResult[]> {
  const text = await Deno.readTextFile(file).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  });
  const { results, partialTail } = parseResults(text, file);
  if (partialTail) log(`merge: warning: ${file} ends in a partial line (a crash): left out`);
  return results;
}

/** A shard's folder read: its run.json (which must say its shard), its results; refused while a run holds it. */
async function readShard(dir: string, log: (line: string) => void): Promise<ShardFolder> {
  let manifest: RunManifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(join(dir, MANIFEST_FILE)));
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound ? ` holds no ${MANIFEST_FILE}` : `: ${(err as Error).message}`;
    throw new UsageError(`shard folder ${dir}${why}: expected the folder of an eval.ts --shard run`, { cause: err });
  }
  const shard = manifest.settings?.shard as Shard | null | undefined;
  if (typeof shard?.index !== "number" || typeof shard?.count !== "number") {
    throw new UsageError(`${dir} was not run with --shard (its ${MANIFEST_FILE} has no shard)`);
  }
  const holder = await liveHolder(dir);
  if (holder) throw new UsageError(`${dir} is still in use by a run (${holder}): merge once it has ended`);
  const [results, retried] = await Promise.all(
    ["results.jsonl", "retried.jsonl"].map((f) => readLines(join(dir, f), log)),
  );
  return { dir, manifest, shard, results, retried };
}

/**
 * The shards indexed by K, once they are shown to be parts of one run: the same N, each K once, the same settings
 * but `shard`, tasks from the same source (a missing K is left to the caller).
 * @throws UsageError listing every difference.
 */
function checkShards(parts: readonly ShardFolder[]): (ShardFolder | undefined)[] {
  const name = (p: ShardFolder) => `${p.dir} (${p.shard.index}/${p.shard.count})`;
  const counts = new Set(parts.map((p) => p.shard.count));
  if (counts.size > 1) throw new UsageError(`the shards were split in different counts: ${parts.map(name).join(", ")}`);
  const byIndex: (ShardFolder | undefined)[] = Array(parts[0].shard.count).fill(undefined);
  for (const p of parts) {
    const other = byIndex[p.shard.index];
    if (other) throw new UsageError(`${other.dir} and ${p.dir} are both shard ${p.shard.index}/${p.shard.count}`);
    byIndex[p.shard.index] = p;
  }
  const [first, ...rest] = parts;
  const diffs: string[] = [];
  for (const p of rest) {
    const keys = new Set([...Object.keys(first.manifest.settings), ...Object.keys(p.manifest.settings)]);
    keys.delete("shard");
    for (const k of keys) {
      const a = first.manifest.settings[k], b = p.manifest.settings[k];
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        diffs.push(`${k}: ${show(a)} in ${first.dir}, ${show(b)} in ${p.dir}`);
      }
    }
    const [sa, sb] = [first.manifest.tasks?.source, p.manifest.tasks?.source];
    if (sa && sb && sa.sha256 !== sb.sha256) {
      diffs.push(`tasks: read from ${show(sa.path)} in ${first.dir}, from another file (${show(sb.path)}) in ${p.dir}`);
    }
  }
  if (diffs.length) {
    throw new UsageError(`the shards were run with other settings:\n${diffs.map((d) => `  ${d}`).join("\n")}`);
  }
  return byIndex;
}

/**
 * The episode folders of each shard (named by its results and retried lines, and present); an episode, a (task,
 * repeat) pair or a folder name, in two shards is refused.
 * @throws UsageError naming both folders.
 */
async function episodeFolders(parts: readonly ShardFolder[]): Promise<Map<ShardFolder, string[]>> {
  const keyOwner = new Map<string, string>();
  const folderOwner = new Map<string, string>();
  const out = new Map<ShardFolder, string[]>();
  for (const p of parts) {
    for (const r of p.results) {
      const key = resultKey(r.task_id, r.repeat ?? 0);
      const other = keyOwner.get(key);
      if (other && other !== p.dir) {
        throw new UsageError(`task "${r.task_id}" repeat ${r.repeat ?? 0} is in both ${other} and ${p.dir}`);
      }
      keyOwner.set(key, p.dir);
    }
    const names = [...new Set([...p.results, ...p.retried].map((r) => r.episode ?? r.task_id))];
    const present: string[] = [];
    for (const n of names) {
      if (!(await Deno.stat(join(p.dir, n)).then((i) => i.isDirectory, () => false))) continue;
      const other = folderOwner.get(n);
      if (other) throw new UsageError(`the episode folder "${n}" is in both ${other} and ${p.dir}`);
      folderOwner.set(n, p.dir);
      present.push(n);
    }
    out.set(p, present);
  }
  return out;
}

/**
 * Whether `out` can take the merge: never a guarded folder or a shard (nor one above or inside a shard); a folder
 * holding files must hold a run, replaced only with `overwrite` and never while a run holds it.
 * @throws UsageError saying why not.
 */
async function checkOut(options: MergeOptions): Promise<void> {
  const { out, shards } = options;
  const guarded = [...options.guarded ?? [], ...shards.map((d) => ({ path: d, what: `the shard folder ${d}` }))];
  const problem = await guardedFolderProblem(out, guarded);
  if (problem) throw new UsageError(`--out "${out}" ${problem}: name a folder of the merge's own`);
  for (const dir of shards) {
    if (await guardedFolderProblem(dir, [{ path: out, what: "--out" }])) {
      throw new UsageError(`--out "${out}" is inside the shard folder ${dir}: the shards are never written to`);
    }
  }
  if (!(await exists(out))) return;
  const names: string[] = [];
  for await (const e of Deno.readDir(out)) names.push(e.name);
  if (names.length === 0) return;
  if (!RUN_MARKERS.some((m) => names.includes(m))) {
    throw new UsageError(`--out "${out}" holds files but no run (no ${RUN_MARKERS.join(", ")}): choose a new folder`);
  }
  if (!options.overwrite) {
    throw new UsageError(`--out "${out}" already holds a run: --overwrite replaces it, or choose another --out`);
  }
  const holder = await liveHolder(out);
  if (holder) throw new UsageError(`--overwrite: ${out} is in use by a run (${holder})`);
}

/**
 * The shard's tasks as its episodes saved them (grade_inputs.json's `task`), in its run.json's order, when they give
 * back the hash its run.json recorded; else why not (an episode that ended before grading saved none).
 */
async function savedTasks(p: ShardFolder, folders: readonly string[]): Promise<unknown[] | string> {
  const present = new Set(folders);
  const tasks: unknown[] = [];
  for (const id of p.manifest.tasks.ids) {
    const episodes = [...p.results, ...p.retried].filter((r) => r.task_id === id).map((r) => r.episode ?? id);
    let task: unknown;
    for (const e of episodes.filter((e) => present.has(e))) {
      task = await Deno.readTextFile(join(p.dir, e, "grade_inputs.json")).then((t) => JSON.parse(t).task, () => {});
      if (task !== undefined) break;
    }
    if (task === undefined) return `no episode of task "${id}" in ${p.dir} saved it (grade_inputs.json)`;
    tasks.push(task);
  }
  const ok = await tasksSha256(tasks) === p.manifest.tasks.sha256;
  return ok ? tasks : `the tasks saved in ${p.dir}'s episodes are not the ones its ${MANIFEST_FILE} hashed`;
}

/** Hard-links `from`'s files into `to` (copies where links fail: another file system), folders recreated. */
async function linkTree(from: string, to: string, counts: { linked: number; copied: number }): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    const [src, dst] = [join(from, e.name), join(to, e.name)];
    if (e.isDirectory) {
      await linkTree(src, dst, counts);
      continue;
    }
    if (await exists(dst)) continue; // prompts/: named by their content's hash, the same file in every shard
    // A file appended in place (steps.jsonl, rows.jsonl) is copied: an append in the merged folder never reaches a
    // shard. Every other artifact is replaced whole (written, then renamed), so a shared inode stays the shard's.
    const linked = !e.name.endsWith(".jsonl") && await Deno.link(src, dst).then(() => true, () => false);
    if (!linked) await Deno.copyFile(src, dst);
    counts[linked ? "linked" : "copied"]++;
  }
}

/** The merged run.json: the first shard's manifest with the common settings, the tasks' union and the shards. */
async function mergedManifest(
  byIndex: readonly (ShardFolder | undefined)[],
  folders: Map<ShardFolder, string[]>,
  log: (line: string) => void,
): Promise<MergedManifest> {
  const parts = byIndex.filter((p): p is ShardFolder => p !== undefined);
  const first = parts[0].manifest;
  for (const [key, value] of Object.entries(first)) {
    if (["format", "created", "settings", "tasks"].includes(key)) continue;
    const other = parts.find((p) =>
      JSON.stringify((p.manifest as unknown as Record<string, unknown>)[key]) !== JSON.stringify(value)
    );
    if (other) {
      log(`merge: warning: ${other.dir} differs from ${parts[0].dir} in ${key}: run.json keeps ${parts[0].dir}'s`);
    }
  }
  const saved = await Promise.all(byIndex.map((p) => p ? savedTasks(p, folders.get(p)!) : undefined));
  const why = saved.find((s): s is string => typeof s === "string");
  if (why) log(`merge: warning: run.json's tasks.sha256 is null: ${why}`);
  const ids = unshardLists(byIndex.map((p) => p?.manifest.tasks.ids));
  const { shard: _, ...settings } = first.settings;
  return {
    ...first,
    created: new Date().toISOString(),
    settings,
    tasks: {
      ...first.tasks,
      count: ids.length,
      sha256: why ? null : await tasksSha256(unshardLists(saved as (unknown[] | undefined)[])),
      ids,
    },
    shards: parts.map((p) => ({ dir: p.dir, ...p.shard, episodes: p.results.length })),
  };
}

/**
 * Merges the shards' folders into `out`: every results.jsonl and retried.jsonl line, the episode folders, the
 * run-level prompts/ (their union) and a run.json listing the shards.
 * @throws UsageError when the shards are not parts of one run, one is still running, or `out` cannot take the merge.
 */
export async function mergeShards(options: MergeOptions): Promise<MergeSummary> {
  const log = options.log ?? ((line: string) => console.error(line));
  if (options.shards.length === 0) throw new UsageError("no shard folder given");
  const parts = await Promise.all(options.shards.map((d) => readShard(d, log)));
  const byIndex = checkShards(parts);
  const folders = await episodeFolders(parts);
  await checkOut(options);
  const missing = byIndex.flatMap((p, k) => p ? [] : [k]);
  if (missing.length) {
    log(`merge: warning: no shard ${missing.join(", ")} (K from 0 to ${byIndex.length - 1}): merging the others`);
  }
  const ordered = byIndex.filter((p): p is ShardFolder => p !== undefined);
  const out = resolve(options.out);
  const tmp = join(dirname(out), `.${basename(out)}.merging-${crypto.randomUUID().slice(0, 8)}`);
  const counts = { linked: 0, copied: 0 };
  const lines = (pick: (p: ShardFolder) => EpisodeResult[]) =>
    ordered.flatMap(pick).map((r) => JSON.stringify(r) + "\n").join("");
  try {
    await Deno.mkdir(tmp, { recursive: true });
    for (const p of ordered) {
      for (const name of folders.get(p)!) await linkTree(join(p.dir, name), join(tmp, name), counts);
      if (await exists(join(p.dir, PROMPTS_DIR))) {
        await linkTree(join(p.dir, PROMPTS_DIR), join(tmp, PROMPTS_DIR), counts);
      }
    }
    await writeFileAtomic(join(tmp, "results.jsonl"), lines((p) => p.results));
    const retried = lines((p) => p.retried);
    if (retried) await writeFileAtomic(join(tmp, "retried.jsonl"), retried);
    await writeJsonAtomic(join(tmp, MANIFEST_FILE), await mergedManifest(byIndex, folders, log), 2);
    // Only now, the merge whole: the earlier run goes (checkOut allowed it), the merged folder takes its place.
    if (options.overwrite) {
      await removeIfExists(out);
    }
    await Deno.rename(tmp, out);
  } catch (err) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw err;
  }
  return {
    count: byIndex.length,
    missing,
    results: ordered.reduce((n, p) => n + p.results.length, 0),
    episodes: [...folders.values()].reduce((n, f) => n + f.length, 0),
    ...counts,
  };
}
