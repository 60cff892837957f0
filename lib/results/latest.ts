/**
 * A run folder's latest grades: the last line of each episode in results.jsonl, replaced by its line in
 * results_regraded.jsonl when the run was regraded, and which episodes that regrade does not cover (never seen by it,
 * or run again after it). The report, the viewer, record_rows.ts and regrade read a run this way.
 * @module
 */
import { join } from "node:path";
import { UsageError } from "../errors/mod.ts";
import { readTextIfExists } from "../io/mod.ts";
import { type EpisodeResult, parseResults, resultKey } from "./store.ts";

/** The last line of each (task_id, repeat), in the order the episodes first appear. */
export function lastPerEpisode(results: readonly EpisodeResult[]): EpisodeResult[] {
  const last = new Map<string, EpisodeResult>();
  for (const r of results) last.set(resultKey(r.task_id, r.repeat), r);
  return [...last.values()];
}

/** The fields a regrade rewrites; the others say which run of an episode a line is of. */
const REGRADE_FIELDS: ReadonlySet<string> = new Set([
  "ok",
  "detail",
  "status",
  "grade_error",
  "regraded",
  "regrade_error",
]);

/** Which run of its episode a line is of: equal for a line and its regrade, different for an episode run again. */
const runOf = (r: EpisodeResult) => JSON.stringify(Object.entries(r).filter(([k]) => !REGRADE_FIELDS.has(k)));

/** What readRunResults gives. */
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
}

/**
 * Every line of the run's results.jsonl, in file order.
 * @throws UsageError when `out` holds no results.jsonl; HarnessError naming the file and line of a malformed line.
 */
export async function readRecorded(out: string): Promise<{ file: string; lines: EpisodeResult[] }> {
  const file = join(out, "results.jsonl");
  const text = await readTextIfExists(file);
  if (text === undefined) throw new UsageError(`"${out}" holds no results.jsonl (expected a run's output folder)`);
  return { file, lines: parseResults(text, file).results };
}

/**
 * Reads the latest grades of the run in `out`.
 * @throws UsageError when `out` holds no results.jsonl; HarnessError naming the file and line of a malformed line.
 */
export async function readRunResults(out: string): Promise<RunResults> {
  const { file, lines } = await readRecorded(out);
  const recorded = lastPerEpisode(lines);
  const superseded = lines.length - recorded.length;
  const regradedFile = join(out, "results_regraded.jsonl");
  const regradedText = await readTextIfExists(regradedFile);
  if (regradedText === undefined) {
    return { results: recorded, file, regraded: false, superseded, unregraded: [], rerun: [] };
  }
  const regrades = new Map(
    lastPerEpisode(parseResults(regradedText, regradedFile).results).map((r) => [resultKey(r.task_id, r.repeat), r]),
  );
  const of = (r: EpisodeResult) => regrades.get(resultKey(r.task_id, r.repeat));
  return {
    results: recorded.map((r) => of(r) ?? r),
    file: regradedFile,
    regraded: true,
    superseded,
    unregraded: recorded.filter((r) => !of(r)),
    rerun: recorded.filter((r) => of(r) && runOf(of(r)!) !== runOf(r)),
  };
}
