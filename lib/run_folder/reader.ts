/**
 * The one reader of a run folder, which every offline tool (report, viewer, rows, regrade, merge, the judge) and
 * --resume go through. It checks what the folder holds before anything is believed: run.json's version and fields,
 * every results line (an episode name that would leave the folder is refused), a last line a crash cut short
 * (reported, never silently dropped), each episode file against its format, every file's size against its limit.
 * What cannot be read is a RunFolderError naming the file, the line and the episode.
 * @module
 */
import { join } from "node:path";
import { errorMessage, InputError, RunFolderError } from "../errors/mod.ts";
import { childPath, sha256Hex } from "../io/mod.ts";
import {
  type CutLine,
  type FileFormat,
  type JsonLinesFile,
  LIMITS,
  parseJsonText,
  parseRecord,
  parseRecordLines,
} from "./format.ts";
import {
  EPISODE_FILES,
  HISTORY,
  type HistoryItem,
  JUDGE_VERDICT,
  type JudgeVerdictFile,
  readGradeInputs,
  TRACE,
  type TraceEntry,
} from "./episode_files.ts";
import { RUN_MANIFEST, type RunManifest } from "./manifest.ts";
import { describeCut, type EpisodeResult, parseResults, resultKey } from "./results.ts";
import { STEP_RECORD, type StepRecord } from "./steps.ts";

/** The files and folders at a run folder's top. */
export const RUN_FILES = {
  results: "results.jsonl",
  regraded: "results_regraded.jsonl",
  retried: "retried.jsonl",
  manifest: "run.json",
  lock: "run.lock",
  prompts: "prompts",
} as const;

/** What marks a folder as a run's output (a run writes one of them first): only such a folder takes a run. */
export const RUN_MARKERS: readonly string[] = [RUN_FILES.results, RUN_FILES.manifest, RUN_FILES.lock];

/**
 * A file's text, or undefined when it does not exist. A file past `maxBytes` is refused before it is read.
 * @throws RunFolderError naming the file (and `episode`) when it cannot be read or is too large
 */
export async function readFolderText(file: string, maxBytes: number, episode?: string): Promise<string | undefined> {
  let size: number;
  try {
    // A synchronous stat: a few microseconds, where the asynchronous one costs tens (a regrade reads every episode).
    const info = Deno.statSync(file);
    if (!info.isFile) throw new RunFolderError(`${file} is not a file`, file, episode);
    size = info.size;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    if (err instanceof RunFolderError) throw err;
    throw new RunFolderError(`cannot read ${file}: ${errorMessage(err)}`, file, episode, { cause: err });
  }
  if (size > maxBytes) {
    throw new RunFolderError(`${file} is ${size} bytes, more than the ${maxBytes} it may hold`, file, episode);
  }
  try {
    return await Deno.readTextFile(file);
  } catch (err) {
    throw new RunFolderError(`cannot read ${file}: ${errorMessage(err)}`, file, episode, { cause: err });
  }
}

/**
 * A JSON file of `format`, read and checked; undefined when it does not exist.
 * @throws RunFolderError naming the file (and `episode`)
 */
export async function readFolderJson<T>(format: FileFormat<T>, file: string, episode?: string): Promise<T | undefined> {
  const text = await readFolderText(file, format.maxBytes, episode);
  if (text === undefined) return undefined;
  try {
    return parseRecord(format, parseJsonText(text, file), file);
  } catch (err) {
    throw withEpisode(err, episode);
  }
}

/**
 * A JSON Lines file of `format` (each line a record); undefined when it does not exist.
 * @throws RunFolderError naming the file and line (and `episode`)
 */
async function readFolderLines<T>(
  format: FileFormat<T>,
  file: string,
  episode?: string,
): Promise<JsonLinesFile<T> | undefined> {
  const text = await readFolderText(file, format.maxBytes, episode);
  if (text === undefined) return undefined;
  try {
    return parseRecordLines(format, text, file);
  } catch (err) {
    throw withEpisode(err, episode);
  }
}

/** `err` with the episode it concerns, when it is a RunFolderError that did not say. */
function withEpisode(err: unknown, episode: string | undefined): unknown {
  if (!(err instanceof RunFolderError) || episode === undefined || err.episode !== undefined) return err;
  const Kind = err.constructor as typeof RunFolderError;
  return new Kind(err.message, err.file, episode, { cause: err.cause });
}

/** The last line of each (task_id, repeat), in the order the episodes first appear. */
export function lastPerEpisode(results: readonly EpisodeResult[]): EpisodeResult[] {
  const last = new Map<string, EpisodeResult>();
  for (const r of results) last.set(resultKey(r.task_id, r.repeat), r);
  return [...last.values()];
}

/** The fields a regrade rewrites; the others say which run of an episode a line is of. */
const REGRADE_FIELDS: ReadonlySet<string> = new Set([
  "format_version",
  "ok",
  "detail",
  "reason",
  "status",
  "grade_error",
  "regraded",
  "regrade_error",
  "evidence",
]);

/** Which run of its episode a line is of: equal for a line and its regrade, different for an episode run again. */
const runOf = (r: EpisodeResult) => JSON.stringify(Object.entries(r).filter(([k]) => !REGRADE_FIELDS.has(k)));

/** A run's latest grades (RunFolder.latest). */
export interface RunResults {
  /** Each episode's latest line: its regrade when results_regraded.jsonl has one, else results.jsonl's last. */
  results: EpisodeResult[];
  /** The file the grades came from: results_regraded.jsonl when the run was regraded. */
  file: string;
  /** Whether results_regraded.jsonl exists. */
  regraded: boolean;
  /** Earlier lines of an episode in results.jsonl that a later one replaced. */
  superseded: number;
  /** Episodes of results.jsonl that the regrade never saw (graded as recorded). */
  unregraded: EpisodeResult[];
  /** Episodes run again after the regrade: their regraded line is of an earlier run. */
  rerun: EpisodeResult[];
  /** What a reader must be told: a results file whose last line a crash cut short (describeCut). */
  problems: string[];
}

/** The system prompt whose SHA-256 is given, from the run's prompts/. */
export type PromptReader = (sha256: string) => Promise<string>;

/** A run's output folder, opened by RunFolder.open. */
export class RunFolder {
  private constructor(readonly dir: string, readonly manifest: RunManifest | undefined) {}

  /**
   * Opens the run folder `dir`: a folder holding results.jsonl, its run.json (when it has one: a run from before
   * run.json has none) read and checked, so a folder written by a newer suite is refused before anything else.
   * @throws UsageError when `dir` is not a folder or holds no results.jsonl; RunFolderError when run.json cannot
   *   be read
   */
  static async open(dir: string): Promise<RunFolder> {
    const info = await Deno.stat(dir).catch((err) => {
      const why = err instanceof Deno.errors.NotFound ? "no such folder" : errorMessage(err);
      throw new InputError(`"${dir}": ${why}`, { cause: err });
    });
    if (!info.isDirectory) throw new InputError(`"${dir}" is a file, not a run's output folder`);
    const results = await Deno.stat(join(dir, RUN_FILES.results)).then((i) => i.isFile, () => false);
    if (!results) throw new InputError(`"${dir}" holds no results.jsonl (expected a run's output folder)`);
    return new RunFolder(dir, await readManifest(dir));
  }

  /** The folder of the run this process is writing (its checks were the run's own, at its start). */
  static ofRun(dir: string): RunFolder {
    return new RunFolder(dir, undefined);
  }

  /** An episode's folder. @throws HarnessError when the name would lead out of the run's folder. */
  episodeDir(episode: string): string {
    return childPath(this.dir, episode);
  }

  /** A file of an episode's folder. */
  episodeFile(episode: string, name: string): string {
    return join(this.episodeDir(episode), name);
  }

  /** Every line of a results file of the folder (results.jsonl by default), and a cut last line. */
  async resultLines(
    name: string = RUN_FILES.results,
  ): Promise<{ file: string; lines: EpisodeResult[]; cut?: CutLine }> {
    const file = join(this.dir, name);
    const text = await readFolderText(file, LIMITS.resultsFile) ?? "";
    const { results, cut } = parseResults(text, file);
    return { file, lines: results, cut };
  }

  /** The run's latest grades: results_regraded.jsonl's line of an episode over results.jsonl's last. */
  async latest(): Promise<RunResults> {
    const { file, lines, cut } = await this.resultLines();
    const problems = cut ? [describeCut(file, cut)] : [];
    const recorded = lastPerEpisode(lines);
    const superseded = lines.length - recorded.length;
    const regradedFile = join(this.dir, RUN_FILES.regraded);
    if (!(await Deno.stat(regradedFile).then(() => true, () => false))) {
      return { results: recorded, file, regraded: false, superseded, unregraded: [], rerun: [], problems };
    }
    const regraded = await this.resultLines(RUN_FILES.regraded);
    if (regraded.cut) problems.push(describeCut(regradedFile, regraded.cut));
    const regrades = new Map(lastPerEpisode(regraded.lines).map((r) => [resultKey(r.task_id, r.repeat), r]));
    const of = (r: EpisodeResult) => regrades.get(resultKey(r.task_id, r.repeat));
    return {
      results: recorded.map((r) => of(r) ?? r),
      file: regradedFile,
      regraded: true,
      superseded,
      unregraded: recorded.filter((r) => !of(r)),
      rerun: recorded.filter((r) => of(r) && runOf(of(r)!) !== runOf(r)),
      problems,
    };
  }

  /**
   * An episode's grade inputs, read with `read` (lib/tasks' parseGradeInputs, with the task a seed's file, which holds
   * none, is an episode of).
   * @throws RunFolderError naming the file and the episode when it is missing, cut short or damaged, or `read` fails
   */
  async gradeInputs<T>(episode: string, read: (value: unknown, file: string) => T): Promise<T> {
    const file = this.episodeFile(episode, EPISODE_FILES.gradeInputs);
    const value = await this.gradeInputsValue(episode);
    try {
      return readGradeInputs(value, file, read);
    } catch (err) {
      if (err instanceof RunFolderError) throw withEpisode(err, episode);
      throw new RunFolderError(errorMessage(err), file, episode, { cause: err });
    }
  }

  /**
   * An episode's grade_inputs.json as JSON, before its kind reads it (what a recording of the episode keeps).
   * @throws RunFolderError naming the file and the episode when it is missing, too large or not JSON
   */
  async gradeInputsValue(episode: string): Promise<unknown> {
    const file = this.episodeFile(episode, EPISODE_FILES.gradeInputs);
    const text = await readFolderText(file, LIMITS.episodeFile, episode);
    if (text === undefined) {
      throw new RunFolderError(`${file} is missing: episode "${episode}" saved no grade inputs`, file, episode);
    }
    try {
      return parseJsonText(text, file);
    } catch (err) {
      if (err instanceof RunFolderError) throw withEpisode(err, episode);
      throw new RunFolderError(errorMessage(err), file, episode, { cause: err });
    }
  }

  /** An episode's step records (steps.jsonl); undefined when it has none (a run from before step records). */
  steps(episode: string): Promise<JsonLinesFile<StepRecord> | undefined> {
    return readFolderLines(STEP_RECORD, this.episodeFile(episode, EPISODE_FILES.steps), episode);
  }

  /** An episode's trace.json; undefined when it has none. */
  trace(episode: string): Promise<TraceEntry[] | undefined> {
    return readFolderJson(TRACE, this.episodeFile(episode, EPISODE_FILES.trace), episode);
  }

  /** An episode's history.json (or an agent_planner history_<i>.json); undefined when it has none. */
  history(episode: string, name: string = EPISODE_FILES.history): Promise<{ history: HistoryItem[] } | undefined> {
    return readFolderJson(HISTORY, this.episodeFile(episode, name), episode);
  }

  /** An episode's judge.json; undefined when the judge has not read it. */
  judge(episode: string): Promise<JudgeVerdictFile | undefined> {
    return readFolderJson(JUDGE_VERDICT, this.episodeFile(episode, EPISODE_FILES.judge), episode);
  }

  /** The reader of the run's prompts/<sha256>.txt (each read once, checked against its hash). */
  prompts(): PromptReader {
    return promptReader(this.dir);
  }
}

/**
 * The run.json of the run folder `dir`, read and checked; undefined when there is none.
 * @throws RunFolderError naming run.json when it cannot be read, is not JSON, breaks its schema or is newer
 */
export function readManifest(dir: string): Promise<RunManifest | undefined> {
  return readFolderJson(RUN_MANIFEST, join(dir, RUN_FILES.manifest));
}

/**
 * The reader of the prompts/<sha256>.txt of the run folder `out`, each read once, its text checked against its hash.
 * @throws RunFolderError naming the file when it is missing or does not hash to its name
 */
function promptReader(out: string): PromptReader {
  const cache = new Map<string, Promise<string>>();
  const read = async (sha: string) => {
    const file = join(out, RUN_FILES.prompts, `${sha}.txt`);
    const text = await readFolderText(file, LIMITS.prompt);
    if (text === undefined) throw new RunFolderError(`the system prompt ${file} is missing`, file);
    if (await sha256Hex(text) !== sha) {
      throw new RunFolderError(
        `${file} does not hash to its name: it is not the prompt the requests were sent with`,
        file,
      );
    }
    return text;
  };
  return (sha) => {
    let text = cache.get(sha);
    if (!text) cache.set(sha, text = read(sha));
    return text;
  };
}
