/**
 * Training rows: an episode's rows.jsonl (one model request each, the messages as sent and the reply as the target),
 * its episode.json, both in the seed's layout (no version of their own: run.json's, or export.json's, covers them),
 * and a rows export's export.json (record_rows.ts).
 * @module
 */
import { z } from "zod";
import { join } from "node:path";
import {
  type FileFormat,
  fileFormat,
  LIMITS,
  parseJsonText,
  parseRecord,
  parseRecordLines,
  type Same,
  serialise,
} from "./format.ts";
import { RunFolderError } from "../errors/mod.ts";

/** A training row's schema. */
export const rowSchema = z.looseObject({
  task_id: z.string(),
  step: z.number().int().min(0),
  family: z.string().optional(),
  source: z.string().optional(),
  model: z.string().optional(),
  segment: z.number().int().optional(),
  macro: z.string().nullable().optional(),
  op: z.string().optional(),
  template: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.enum(["system", "user"]), content: z.unknown() })),
  target: z.string(),
});

/** One training row: a model request exactly as sent, and the reply as its target. */
export interface TrainingRow {
  /** The episode (rejection sampling: task~rK) or the proposed task. */
  task_id: string;
  /** The row's number in its episode, from 0. */
  step: number;
  /**
   * The row's family (the task macro's, --record-family's, the planner's label, by the first action, or a
   * demonstration's segment's).
   */
  family?: string;
  /** Rejection sampling: "rejection_sampling"; a demonstration: "demonstration". */
  source?: string;
  /** Rejection sampling: the served model asked. */
  model?: string;
  /** A proposed task's row (the seed's write_proposed_rows): its segment, macro (null) and first action's name. */
  segment?: number;
  /** A proposed task's row: its macro (null). */
  macro?: string | null;
  /** A proposed task's row and a demonstration's: the reply's first action's name. */
  op?: string;
  /** A demonstration's row: the instance's template. */
  template?: string;
  /** The request as sent: the system message, then the user's text and its image by file. */
  messages: { role: "system" | "user"; content: unknown; [field: string]: unknown }[];
  /** The reply's raw text. */
  target: string;
  /** A task kind's own labels. */
  [field: string]: unknown;
}

const _sameRow: Same<z.output<typeof rowSchema>, TrainingRow> = true;

/** A line of rows.jsonl. */
const TRAINING_ROW: FileFormat<TrainingRow> = fileFormat({
  what: "training row",
  version: 1,
  maxBytes: LIMITS.rowsFile,
  maxLineBytes: LIMITS.stepLine,
  schema: rowSchema,
  versioned: false,
});

/**
 * A training row as rows.jsonl holds it (validated; a newline at its end). Its fields besides the messages and the
 * target are the task kind's (lib/tasks RowsSpec), so it is taken as a plain record and checked here.
 */
export function rowLine(row: Record<string, unknown>): string {
  return serialise(TRAINING_ROW, row as TrainingRow, `training row ${row.step} of "${row.task_id}"`) + "\n";
}

/** episode.json's schema. */
export const rowsEpisodeSchema = z.looseObject({
  task_id: z.string(),
  instruction: z.string(),
  steps: z.number().int().min(0),
  macros: z.array(z.string()).nullable().optional(),
  variant: z.string().optional(),
  site: z.string().optional(),
  start_path: z.string().optional(),
  source: z.string().optional(),
  judge: z.record(z.string(), z.unknown()).optional(),
});

/** Beside an episode's rows: the task they come from (the seed's episode.json, as its task kind labels it). */
export interface RowsEpisode {
  /** The episode (rejection sampling) or the proposed task. */
  task_id: string;
  /** The task's instruction. */
  instruction: string;
  /** How many rows the episode left. */
  steps: number;
  /** Rejection sampling: the task's macros (a human task's; null for a datagen one). */
  macros?: string[] | null;
  /** Rejection sampling: "rejection_sampling". */
  variant?: string;
  /** A proposed task's site. */
  site?: string;
  /** A proposed task's start path. */
  start_path?: string;
  /** A proposed task's: "taskgen". */
  source?: string;
  /** A proposed episode's judge.json verdict, once the judge has read it. */
  judge?: Record<string, unknown>;
  /** A task kind's own fields. */
  [field: string]: unknown;
}

const _sameEpisode: Same<z.output<typeof rowsEpisodeSchema>, RowsEpisode> = true;

/** episode.json beside a rows.jsonl. */
const ROWS_EPISODE: FileFormat<RowsEpisode> = fileFormat({
  what: "episode.json",
  version: 1,
  maxBytes: LIMITS.smallFile,
  schema: rowsEpisodeSchema,
  versioned: false,
});

/** episode.json's text (validated): the task kind's fields (lib/tasks RowsSpec), checked here. */
export function rowsEpisodeJson(episode: Record<string, unknown>): string {
  return serialise(ROWS_EPISODE, episode as RowsEpisode, "episode.json", 1) + "\n";
}

/** export.json's schema. */
export const exportSchema = z.strictObject({
  format_version: z.number().optional(),
  created: z.string(),
  out: z.string(),
  results: z.string(),
  filters: z.strictObject({
    split: z.string(),
    family: z.array(z.string()).nullable(),
    arm: z.array(z.string()).nullable(),
    repeat: z.number().int().nullable(),
    dedupe: z.boolean(),
  }),
  episodes: z.array(z.strictObject({
    episode: z.string(),
    task_id: z.string(),
    repeat: z.number().int().min(0),
    kind: z.string(),
    status: z.string(),
    rows: z.number().int().min(0),
    judge: z.boolean().optional(),
  })),
});

/** One exported episode, as export.json lists it. */
export interface ExportedEpisode {
  /** The episode's folder name. */
  episode: string;
  /** Its task. */
  task_id: string;
  /** Its repeat (from 0). */
  repeat: number;
  /** Its task's kind: datagen, human or proposed. */
  kind: string;
  /** Its status in the grades the rows came from. */
  status: string;
  /** How many rows it left. */
  rows: number;
  /** A proposed episode's judge.json verdict, when the judge has read it. */
  judge?: boolean;
}

/** export.json, at the top of a rows folder: what was exported, from which run, with which filters. */
export interface RowsExport {
  /** export.json's format (ROWS_EXPORT's version when written; format 1 wrote `format`). */
  format_version?: number;
  /** When the rows were written (ISO). */
  created: string;
  /** The run folder the rows came from, and the results file its grades were read from. */
  out: string;
  /** The results file of the run the grades came from (results_regraded.jsonl when regraded). */
  results: string;
  /** The filters as given: split, families, arms, repeat, dedupe. */
  filters: { split: string; family: string[] | null; arm: string[] | null; repeat: number | null; dedupe: boolean };
  /** One entry per exported episode. */
  episodes: ExportedEpisode[];
}

const _sameExport: Same<z.output<typeof exportSchema>, RowsExport> = true;

/** export.json. */
export const ROWS_EXPORT: FileFormat<RowsExport> = fileFormat({
  what: "export.json",
  // 2: format_version (was `format`).
  version: 2,
  maxBytes: LIMITS.rowsFile,
  schema: exportSchema,
  legacyKey: "format",
  migrate: ({ format: _, ...rest }) => rest,
});

/** One exported episode's rows as a reader gets them. */
export interface ReadRowsEpisode {
  /** The episode's entry in export.json. */
  entry: ExportedEpisode;
  /** The folder holding its rows.jsonl (row images are named relative to it). */
  dir: string;
  /** Its rows, in order. */
  rows: TrainingRow[];
  /** Its episode.json. */
  episode: RowsEpisode;
}

/** Reads a file of a rows folder, or undefined when it is not there. */
async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/**
 * Reads a rows folder (record_rows.ts's, --record-rows' as exported, or gen.ts --demonstrations'): export.json, and
 * each listed episode's rows.jsonl and episode.json (in `<episode>/`, or `<episode>/rows/` for a proposed task's).
 * @throws RunFolderError naming the file (and line) that is missing, cut short or breaks its format
 */
export async function readRowsFolder(dir: string): Promise<{ index: RowsExport; episodes: ReadRowsEpisode[] }> {
  const indexFile = join(dir, "export.json");
  const text = await readIfThere(indexFile);
  if (text === undefined) throw new RunFolderError(`${indexFile} is missing: ${dir} is not a rows folder`, indexFile);
  const index = parseRecord(ROWS_EXPORT, parseJsonText(text, indexFile), indexFile);
  const episodes: ReadRowsEpisode[] = [];
  for (const entry of index.episodes) {
    let at = join(dir, entry.episode);
    let rowsText = await readIfThere(join(at, "rows.jsonl"));
    if (rowsText === undefined) {
      at = join(at, "rows");
      rowsText = await readIfThere(join(at, "rows.jsonl"));
    }
    const file = join(at, "rows.jsonl");
    if (rowsText === undefined) throw new RunFolderError(`${file} is missing (export.json lists it)`, file);
    const lines = parseRecordLines(TRAINING_ROW, rowsText, file);
    if (lines.cut) throw new RunFolderError(`${file} line ${lines.cut.line} was cut short`, file);
    const episodeFile = join(at, "episode.json");
    const episodeText = await readIfThere(episodeFile);
    if (episodeText === undefined) throw new RunFolderError(`${episodeFile} is missing`, episodeFile);
    const episode = parseRecord(ROWS_EPISODE, parseJsonText(episodeText, episodeFile), episodeFile);
    episodes.push({ entry, dir: at, rows: lines.records, episode });
  }
  return { index, episodes };
}
