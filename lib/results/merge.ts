/**
 * Merging the folders of a sharded run (eval.ts --shard K/N, one per Slurm array task) into one run folder that
 * regrade, the judge, the report and --resume read as if one process had run every episode. Each shard is read with
 * the run-folder reader (every line checked, no episode name followed out of its folder); the shards must be the
 * parts 0..N-1 of one selection of tasks, each once. They are only read: the merged folder is built beside --out and
 * renamed into place once whole.
 */
import { basename, dirname, join, resolve } from "node:path";
import { RunFolderError, UsageError } from "../errors/mod.ts";
import {
  exists,
  type GuardedFolder,
  guardedFolderProblem,
  outFolderNames,
  removeIfExists,
  writeFileAtomic,
} from "../io/mod.ts";
import {
  describeCut,
  type EpisodeResult,
  manifestJson,
  resultKey,
  resultLine,
  RUN_FILES,
  RUN_MARKERS,
  RunFolder,
  type RunManifest,
  type Shard,
  tasksSha256,
} from "../run_folder/mod.ts";
import { readGradeInputs } from "../protocol/mod.ts";
import { liveHolder } from "./lock.ts";

/** What a merge takes. */
export interface MergeOptions {
  /** The shards' folders (any order). */
  shards: readonly string[];
  /** The merged run's folder (new or empty unless `overwrite`). */
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
  /** The shards' count N. */
  count: number;
  /** Lines of the merged results.jsonl. */
  results: number;
  /** Episode folders in the merged folder. */
  episodes: number;
  /** Files of the episode folders and prompts/ hard-linked from a shard. */
  linked: number;
  /** Files of the episode folders and prompts/ copied (appended files, and where a hard link failed). */
  copied: number;
}

interface ShardFolder {
  folder: RunFolder;
  dir: string;
  manifest: RunManifest;
  shard: Shard;
  results: EpisodeResult[];
  retried: EpisodeResult[];
}

/** The whole selection a shard is part of. */
interface Selection {
  count: number;
  sha256: string;
}

const show = (v: unknown) => v === undefined ? "(unset)" : JSON.stringify(v);

/** A shard's folder read: its run.json (which must say its shard), its results; refused while a run holds it. */
async function readShard(dir: string, log: (line: string) => void): Promise<ShardFolder> {
  const folder = await RunFolder.open(dir);
  const manifest = folder.manifest;
  if (!manifest) {
    throw new UsageError(
      `shard folder ${dir} holds no ${RUN_FILES.manifest}: expected the folder of an eval.ts --shard run`,
    );
  }
  const shard = manifest.settings.shard;
  if (!shard) throw new UsageError(`${dir} was not run with --shard (its ${RUN_FILES.manifest} has no shard)`);
  const holder = await liveHolder(dir);
  if (holder) throw new UsageError(`${dir} is still in use by a run (${holder}): merge once it has ended`);
  const read = async (name: string) => {
    const { file, lines, cut } = await folder.resultLines(name);
    if (cut) log(`merge: warning: ${describeCut(file, cut)}`);
    return lines;
  };
  return {
    folder,
    dir,
    manifest,
    shard,
    results: await read(RUN_FILES.results),
    retried: await read(RUN_FILES.retried),
  };
}

/** How many tasks part `index` of `count` of a selection of `total` gets (task i to part i mod count). */
const partSize = (total: number, { index, count }: Shard) => Math.max(0, Math.ceil((total - index) / count));

/**
 * The shards indexed by K, once they are shown to be the parts 0..N-1 of one run, each once: the same N and the
 * same settings but `shard` (their tasks are checked by mergedTasks).
 * @throws UsageError naming the shards and every difference
 */
function checkShards(parts: readonly ShardFolder[]): ShardFolder[] {
  const name = (p: ShardFolder) => `${p.dir} (${p.shard.index}/${p.shard.count})`;
  const counts = new Set(parts.map((p) => p.shard.count));
  if (counts.size > 1) throw new UsageError(`the shards were split in different counts: ${parts.map(name).join(", ")}`);
  const count = parts[0].shard.count;
  const byIndex: (ShardFolder | undefined)[] = Array(count).fill(undefined);
  for (const p of parts) {
    const other = byIndex[p.shard.index];
    if (other) throw new UsageError(`${other.dir} and ${p.dir} are both shard ${p.shard.index}/${count}`);
    byIndex[p.shard.index] = p;
  }
  const missing = byIndex.flatMap((p, k) => p ? [] : [k]);
  if (missing.length) {
    throw new UsageError(
      `no shard ${missing.join(", ")} of ${count}: a merge takes every part 0 to ${count - 1} of the run (run the ` +
        `missing part with eval.ts --shard K/${count}, then merge them all)`,
    );
  }
  const diffs = settingDiffs(parts);
  if (diffs.length) throw notOneRun(diffs);
  return byIndex as ShardFolder[];
}

const notOneRun = (diffs: string[]) =>
  new UsageError(`the shards are not parts of one run:\n${diffs.map((d) => `  ${d}`).join("\n")}`);

/** Each setting (but `shard`) in which a shard differs from the first. */
function settingDiffs(parts: readonly ShardFolder[]): string[] {
  const [first, ...rest] = parts;
  const diffs: string[] = [];
  for (const p of rest) {
    const a: Record<string, unknown> = first.manifest.settings, b: Record<string, unknown> = p.manifest.settings;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    keys.delete("shard");
    for (const k of keys) {
      if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) {
        diffs.push(`${k}: ${show(a[k])} in ${first.dir}, ${show(b[k])} in ${p.dir}`);
      }
    }
  }
  return diffs;
}

/**
 * The merged run's `tasks`: the whole selection the parts (in K order) were split from. Each part's run.json says
 * which selection it is part of (`tasks.selection`: count and hash); every part must name the same one and hold its
 * share of it. A run.json of format 1 did not say: the parts must then come from the same task file, and the
 * selection's hash is computed from the tasks their episodes saved.
 * @throws UsageError naming each part that is not a part of the same selection
 */
async function mergedTasks(parts: readonly ShardFolder[]): Promise<RunManifest["tasks"]> {
  const ids = unshardLists(parts.map((p) => p.manifest.tasks.ids));
  const { source } = parts[0].manifest.tasks;
  const diffs: string[] = [];
  const checkShare = (total: number) => {
    for (const p of parts) {
      const want = partSize(total, p.shard);
      if (p.manifest.tasks.count !== want) {
        diffs.push(
          `tasks: ${p.dir} holds ${p.manifest.tasks.count} tasks, where part ${p.shard.index} of a ` +
            `selection of ${total} has ${want}`,
        );
      }
    }
  };
  const selections = parts.map((p) => p.manifest.tasks.selection);
  if (selections.every((s) => s !== undefined)) {
    const first = selections[0]!;
    for (const [i, s] of selections.entries()) {
      if (s!.count !== first.count || s!.sha256 !== first.sha256) {
        diffs.push(
          `tasks: ${parts[0].dir} is part of a selection of ${first.count} tasks (sha256 ` +
            `${first.sha256.slice(0, 12)}…), ${parts[i].dir} of ${s!.count} (${s!.sha256.slice(0, 12)}…)`,
        );
      }
    }
    if (diffs.length === 0) checkShare(first.count);
    if (diffs.length) throw notOneRun(diffs);
    return { count: first.count, sha256: first.sha256, ids, ...(source ? { source } : {}) };
  }
  for (const p of parts.slice(1)) {
    const [a, b] = [source, p.manifest.tasks.source];
    if (a?.sha256 !== b?.sha256) {
      diffs.push(
        `tasks: read from ${show(a?.path)} in ${parts[0].dir}, from another file (${show(b?.path)}) in ${p.dir}`,
      );
    }
  }
  checkShare(ids.length);
  if (diffs.length) throw notOneRun(diffs);
  const tasks = unshardLists(await Promise.all(parts.map(savedTasks)));
  return { count: ids.length, sha256: await tasksSha256(tasks), ids, ...(source ? { source } : {}) };
}

/**
 * A format-1 shard's tasks as its episodes saved them (grade_inputs.json's `task`), in its run.json's order, checked
 * against the hash its run.json recorded.
 * @throws UsageError naming the task none of whose episodes saved it
 */
async function savedTasks(p: ShardFolder): Promise<unknown[]> {
  const tasks: unknown[] = [];
  for (const id of p.manifest.tasks.ids) {
    const episodes = [...p.results, ...p.retried].filter((r) => r.task_id === id).map((r) => r.episode);
    let task: unknown;
    for (const e of episodes) {
      task = await p.folder.gradeInputs(e, readGradeInputs).then((g) => g.inputs.task, (err) => {
        if (err instanceof RunFolderError) return undefined;
        throw err;
      });
      if (task !== undefined) break;
    }
    if (task === undefined) {
      throw new UsageError(
        `${p.dir}'s run.json is of format 1 (it does not name its selection), and no episode of task "${id}" saved ` +
          `the task: run that shard again with --resume (it reruns the episode), then merge`,
      );
    }
    tasks.push(task);
  }
  if (await tasksSha256(tasks) !== p.manifest.tasks.sha256) {
    throw new UsageError(`the tasks saved in ${p.dir}'s episodes are not the ones its ${RUN_FILES.manifest} hashed`);
  }
  return tasks;
}

/**
 * The shards' lists interleaved back into the order they were split from (lists[k] is shard k's): the inverse of
 * taking items i, i + N, i + 2N, … for shard i.
 */
function unshardLists<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let j = 0; j < longest; j++) {
    for (const list of lists) if (j < list.length) out.push(list[j]);
  }
  return out;
}

/**
 * The episode folders of each shard (named by its results and retried lines, and present); an episode, a (task,
 * repeat) pair or a folder name, in two shards is refused.
 * @throws UsageError naming both folders
 */
async function episodeFolders(parts: readonly ShardFolder[]): Promise<Map<ShardFolder, string[]>> {
  const keyOwner = new Map<string, string>();
  const folderOwner = new Map<string, string>();
  const out = new Map<ShardFolder, string[]>();
  for (const p of parts) {
    for (const r of p.results) {
      const key = resultKey(r.task_id, r.repeat);
      const other = keyOwner.get(key);
      if (other && other !== p.dir) {
        throw new UsageError(`task "${r.task_id}" repeat ${r.repeat} is in both ${other} and ${p.dir}`);
      }
      keyOwner.set(key, p.dir);
    }
    const names = [...new Set([...p.results, ...p.retried].map((r) => r.episode))];
    const present: string[] = [];
    for (const n of names) {
      if (!(await Deno.stat(p.folder.episodeDir(n)).then((i) => i.isDirectory, () => false))) continue;
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
 * @throws UsageError saying why not
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
  const names = await outFolderNames(out);
  if (!names?.length) return;
  if (!RUN_MARKERS.some((m) => names.includes(m))) {
    throw new UsageError(`--out "${out}" holds files but no run (no ${RUN_MARKERS.join(", ")}): choose a new folder`);
  }
  if (!options.overwrite) {
    throw new UsageError(`--out "${out}" already holds a run: --overwrite replaces it, or choose another --out`);
  }
  const holder = await liveHolder(out);
  if (holder) throw new UsageError(`--overwrite: ${out} is in use by a run (${holder})`);
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
    if (!e.isFile) continue; // a symbolic link could point anywhere: not followed into the merge
    if (await exists(dst)) continue; // prompts/: named by their content's hash, the same file in every shard
    // A file appended in place (steps.jsonl, rows.jsonl) is copied: an append in the merged folder never reaches a
    // shard. Every other artifact is replaced whole (written, then renamed), so a shared inode stays the shard's.
    const linked = !e.name.endsWith(".jsonl") && await Deno.link(src, dst).then(() => true, () => false);
    if (!linked) await Deno.copyFile(src, dst);
    counts[linked ? "linked" : "copied"]++;
  }
}

/** The merged run.json: the first shard's manifest with the common settings, the whole selection and the shards. */
async function mergedManifest(parts: readonly ShardFolder[], log: (line: string) => void): Promise<RunManifest> {
  const first = parts[0].manifest;
  for (const key of ["served_models", "versions"] as const) {
    const other = parts.find((p) => JSON.stringify(p.manifest[key]) !== JSON.stringify(first[key]));
    if (other) {
      log(`merge: warning: ${other.dir} differs from ${parts[0].dir} in ${key}: run.json keeps ${parts[0].dir}'s`);
    }
  }
  const { shard: _, ...settings } = first.settings;
  return {
    ...first,
    created: new Date().toISOString(),
    settings,
    tasks: await mergedTasks(parts),
    shards: parts.map((p) => ({ dir: p.dir, ...p.shard, episodes: p.results.length })),
  };
}

/**
 * Merges the shards' folders into `out`: every results.jsonl and retried.jsonl line, the episode folders, the
 * run-level prompts/ (their union) and a run.json listing the shards.
 * @throws UsageError when the shards are not the parts of one run, one is still running, or `out` cannot take the
 *   merge; RunFolderError naming the file and line of a shard's file that cannot be read
 */
export async function mergeShards(options: MergeOptions): Promise<MergeSummary> {
  const log = options.log ?? ((line: string) => console.error(line));
  if (options.shards.length === 0) throw new UsageError("no shard folder given");
  const parts = checkShards(await Promise.all(options.shards.map((d) => readShard(d, log))));
  const folders = await episodeFolders(parts);
  await checkOut(options);
  const manifest = await mergedManifest(parts, log);
  const out = resolve(options.out);
  const tmp = join(dirname(out), `.${basename(out)}.merging-${crypto.randomUUID().slice(0, 8)}`);
  const counts = { linked: 0, copied: 0 };
  const lines = (pick: (p: ShardFolder) => EpisodeResult[]) => parts.flatMap(pick).map(resultLine).join("");
  try {
    await Deno.mkdir(tmp, { recursive: true });
    for (const p of parts) {
      for (const name of folders.get(p)!) await linkTree(p.folder.episodeDir(name), join(tmp, name), counts);
      const prompts = join(p.dir, RUN_FILES.prompts);
      if (await exists(prompts)) await linkTree(prompts, join(tmp, RUN_FILES.prompts), counts);
    }
    await writeFileAtomic(join(tmp, RUN_FILES.results), lines((p) => p.results));
    const retried = lines((p) => p.retried);
    if (retried) await writeFileAtomic(join(tmp, RUN_FILES.retried), retried);
    await writeFileAtomic(join(tmp, RUN_FILES.manifest), manifestJson(manifest));
    // Only now, the merge whole: the earlier run goes (checkOut allowed it), the merged folder takes its place.
    if (options.overwrite) await removeIfExists(out);
    await Deno.rename(tmp, out);
  } catch (err) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw err;
  }
  return {
    count: parts.length,
    results: parts.reduce((n, p) => n + p.results.length, 0),
    episodes: [...folders.values()].reduce((n, f) => n + f.length, 0),
    ...counts,
  };
}
