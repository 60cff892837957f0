/**
 * Training rows from a finished run, offline (record_rows.ts): the episodes the run's latest grades select (passing
 * ones for rejection sampling, every finished episode of a proposed task with the macro judge's verdict when
 * judge.json exists), written from their step records in the layout the runner's --record-rows writes. A run
 * regraded with other rules yields the rows of its new passing set without running anything again.
 */
import { basename, join } from "node:path";
import { HarnessError, RunFolderError, UsageError } from "../errors/mod.ts";
import {
  type GuardedFolder,
  guardedFolderProblem,
  outFolderNames,
  removeIfExists,
  writeFileAtomic,
} from "../io/mod.ts";
import {
  EPISODE_FILES,
  type EpisodeResult,
  type ExportedEpisode,
  resultKey,
  ROWS_EXPORT,
  type RowsExport,
  RunFolder,
  serialise,
  statusOf,
} from "../run_folder/mod.ts";
import {
  familyOf,
  type HumanSplit,
  inSplit,
  JUDGED_KINDS,
  readGradeInputs,
  rowsOf,
  type RowsSpec,
  savedSites,
  type SiteSplit,
} from "../protocol/mod.ts";
import { episodeRowSources, type RowSource, writeRows } from "./rows.ts";

/** The file at the top of a rows folder that says what it holds (and marks it as one --overwrite may replace). */
export const ROWS_INDEX_FILE = "export.json";

/** Which episodes of a run become rows, and where they go. */
export interface ExportRowsOptions {
  /** The run's output folder. */
  out: string;
  /** The rows folder (created; must be empty unless `overwrite`). */
  to: string;
  /** Only episodes of tasks in this side of `siteSplit` (default all). */
  split?: HumanSplit;
  /** The site split `split` reads (required with train or test). */
  siteSplit?: SiteSplit;
  /** Only episodes of tasks of these families. */
  families?: readonly string[];
  /** Only episodes of these arms (each must have run in `out`). */
  arms?: readonly string[];
  /** Only this repeat. */
  repeat?: number;
  /** One episode per task: the lowest repeat that qualifies. */
  dedupe?: boolean;
  /** Replace an earlier export in `to`. */
  overwrite?: boolean;
  /** Folders `to` must not be nor hold (the out folder is always one). */
  guarded?: readonly GuardedFolder[];
  /** Warnings: a results line a crash cut short (stderr by default). */
  log?: (line: string) => void;
}

/** What an export wrote. */
export interface ExportRowsSummary {
  /** The results file the grades came from (results_regraded.jsonl when the run was regraded). */
  results: string;
  /** The exported episodes, as export.json lists them. */
  episodes: ExportedEpisode[];
  /** The rows written, over every exported episode. */
  rows: number;
}

/** An episode picked for rows: its line, its kind, its rows spec and the judge's verdict. */
interface Picked {
  line: EpisodeResult;
  kind: string;
  spec: RowsSpec;
  judge?: boolean;
}

/**
 * The run's latest grades: results_regraded.jsonl when the run was regraded (it must be the regrade of every
 * episode results.jsonl holds now), else results.jsonl. A results line a crash cut short is reported on `log`.
 */
async function latestResults(
  folder: RunFolder,
  log: (line: string) => void,
): Promise<{ file: string; lines: EpisodeResult[] }> {
  const out = folder.dir;
  const run = await folder.latest();
  for (const p of run.problems) log(`rows: warning: ${p}`);
  const uncovered = new Set([...run.unregraded, ...run.rerun].map((r) => resultKey(r.task_id, r.repeat)));
  const stale = run.results.find((r) => uncovered.has(resultKey(r.task_id, r.repeat)));
  if (stale) {
    throw new UsageError(
      `episode "${stale.episode}" ran again after ${run.file} was written: its grade there is of an earlier run; ` +
        `regrade the run again (deno task regrade --out ${out})`,
    );
  }
  return { file: run.file, lines: run.results };
}

/** Whether `to` can take the rows: not a guarded folder, and empty unless it holds an earlier export to replace. */
export async function checkRowsFolder(
  o: Pick<ExportRowsOptions, "out" | "to" | "guarded" | "overwrite">,
): Promise<void> {
  const guarded = [...(o.out ? [{ path: o.out, what: "the run's folder" }] : []), ...(o.guarded ?? [])];
  const problem = await guardedFolderProblem(o.to, guarded);
  if (problem) throw new UsageError(`--out "${o.to}" ${problem}: name a folder of the rows' own`);
  const names = await outFolderNames(o.to);
  if (!names?.length) return;
  if (!o.overwrite) throw new UsageError(`--out "${o.to}" is not empty: pass --overwrite to replace its rows`);
  if (!names.includes(ROWS_INDEX_FILE)) {
    throw new UsageError(
      `--overwrite: "${o.to}" holds files but no rows export (no ${ROWS_INDEX_FILE} at its top): choose a new or ` +
        "empty folder",
    );
  }
}

/** A proposed episode's judge.json verdict (without the names it repeats), or undefined when not judged yet. */
async function readJudge(folder: RunFolder, episode: string): Promise<Record<string, unknown> | undefined> {
  const verdict = await folder.judge(episode);
  if (verdict === undefined) return undefined;
  const { episode: _episode, task_id: _taskId, format_version: _version, ...rest } = verdict;
  return rest;
}

/** The run's episodes that the options select, each with its rows spec, in (task, repeat) order. */
async function pick(o: ExportRowsOptions, folder: RunFolder, lines: readonly EpisodeResult[]): Promise<Picked[]> {
  if (o.arms) {
    const ran = new Set(lines.map((r) => r.arm));
    const unknown = o.arms.filter((a) => !ran.has(a));
    if (unknown.length) {
      throw new UsageError(`--arm "${unknown[0]}": no episode of ${o.out} ran it (arms: ${[...ran].join(", ")})`);
    }
  }
  const family = folder.manifest?.settings.record_family ?? undefined;
  const candidates = lines.filter((r) => {
    const status = statusOf(r);
    return (status === "passed" || status === "pending") &&
      (!o.arms || o.arms.includes(r.arm)) &&
      (!o.families || o.families.includes(r.family ?? familyOf(r.macro))) &&
      (o.repeat === undefined || r.repeat === o.repeat);
  }).sort((a, b) => a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : a.repeat - b.repeat);
  const picked: Picked[] = [];
  for (const line of candidates) {
    // Sorted by repeat: a task already picked was picked at a lower repeat.
    if (o.dedupe && picked.at(-1)?.line.task_id === line.task_id) continue;
    const saved = await folder.gradeInputs(line.episode, readGradeInputs);
    const task = saved.inputs.task;
    if (o.split && o.split !== "all" && !inSplit(savedSites(task), o.split, o.siteSplit!)) continue;
    const passed = statusOf(line) === "passed";
    const spec = rowsOf(task, passed, { episode: line.episode, family });
    if (!spec) continue;
    const judge = JUDGED_KINDS[saved.kind] ? await readJudge(folder, line.episode) : undefined;
    picked.push({
      line,
      kind: saved.kind,
      spec: judge ? withJudge(spec, judge) : spec,
      judge: judge?.ok as boolean,
    });
  }
  return picked;
}

/** The spec with the judge's verdict added to episode.json. */
function withJudge(spec: RowsSpec, judge: Record<string, unknown>): RowsSpec {
  return { ...spec, episode: (steps) => ({ ...spec.episode(steps), judge }) };
}

/**
 * The row sources of a picked episode.
 * @throws UsageError naming the episode when its step records or their images are missing; RunFolderError when
 *   they cannot be read.
 */
async function sourcesOf(folder: RunFolder, p: Picked): Promise<RowSource[]> {
  const episode = p.line.episode;
  let sources: RowSource[] | null;
  try {
    sources = await episodeRowSources(folder, episode);
  } catch (err) {
    // A file of the run that cannot be read (a damaged line, a newer format) is exit 1, as in every offline tool
    // (docs/output-layout.md); what the run did not save (an image) is the folder's use, exit 2.
    if (!(err instanceof HarnessError) || err instanceof UsageError || err instanceof RunFolderError) throw err;
    throw new UsageError(`episode "${episode}": ${err.message}`, { cause: err });
  }
  if (sources) return sources;
  throw new UsageError(
    `episode "${episode}" has no ${EPISODE_FILES.steps}: the run predates step records, so its rows cannot be rebuilt ` +
      `(run the episode again, e.g. eval.ts --task-ids ${p.line.task_id})`,
  );
}

/**
 * Writes the rows of the episodes `o` selects into `o.to`: `<episode>/` in the runner's --record-rows layout, and
 * export.json listing them. Every selected episode is checked before anything is written.
 * @throws UsageError when `o.out` holds no results.jsonl, its regrade is older than its results, `o.to` cannot
 *   take the rows, an arm did not run, or a selected episode's grade inputs or step records are missing or broken.
 */
export async function exportRows(o: ExportRowsOptions): Promise<ExportRowsSummary> {
  const folder = await RunFolder.open(o.out);
  const { file, lines } = await latestResults(folder, o.log ?? ((line) => console.error(line)));
  await checkRowsFolder(o);
  const picked = await pick(o, folder, lines);
  for (const p of picked) await sourcesOf(folder, p);
  if (o.overwrite) {
    await removeIfExists(o.to);
  }
  await Deno.mkdir(o.to, { recursive: true });
  const episodes: ExportedEpisode[] = [];
  for (const p of picked) {
    // Derived again rather than kept: a big run's request texts need not all sit in memory at once.
    const rows = await writeRows(join(o.to, p.line.episode), await sourcesOf(folder, p), p.spec);
    if (rows === undefined) continue;
    const { episode, task_id, repeat } = p.line;
    const status = statusOf(p.line);
    episodes.push({
      episode,
      task_id,
      repeat,
      kind: p.kind,
      status,
      rows,
      ...(p.judge === undefined ? {} : { judge: p.judge }),
    });
  }
  const filters = {
    split: o.split ?? "all",
    family: o.families ? [...o.families] : null,
    arm: o.arms ? [...o.arms] : null,
    repeat: o.repeat ?? null,
    dedupe: Boolean(o.dedupe),
  };
  const index: RowsExport = {
    created: new Date().toISOString(),
    out: o.out,
    results: basename(file),
    filters,
    episodes,
  };
  await writeFileAtomic(join(o.to, ROWS_INDEX_FILE), serialise(ROWS_EXPORT, index, ROWS_INDEX_FILE, 1) + "\n");
  return { results: file, episodes, rows: episodes.reduce((n, e) => n + e.rows, 0) };
}
