/**
 * What every run-folder file format shares: a version this suite writes (`format_version` in the file, or in each
 * line of a JSON Lines file; a file from before the field was written is version 1), a size limit, and the one way a
 * file is checked on the way in and serialised on the way out. A reader given a version newer than its own refuses
 * with the same message whatever tool reads it (report, regrade, rows, merge, resume, the viewer, the judge).
 * @module
 */
import type { z } from "zod";
import { NewerFormatError, RunFolderError } from "../errors/mod.ts";
import { describeInput, describeIssues, errorMap } from "../protocol/mod.ts";
import { parseJsonLines } from "../io/mod.ts";

/** A record checked against its format: its value, or what is wrong with it (the field's path and the problem). */
export type Validated<T> = { ok: true; value: T } | { ok: false; problem: string; cause: Error };

/** One file format of a run folder. */
export interface FileFormat<T = unknown> {
  /** What the file (or a line of it) is called in messages: "results line", "run.json". */
  readonly what: string;
  /** The version this suite writes and reads; older ones are read (migrated where they differ). */
  readonly version: number;
  /** The most bytes the file may hold (a JSON Lines file: the whole file). */
  readonly maxBytes: number;
  /** A JSON Lines file: the most bytes one line may hold. */
  readonly maxLineBytes?: number;
  /** Checks one record (the file's value, or one line's) against the format's schema. */
  validate(value: unknown): Validated<T>;
  /** Brings a record of an older version to this one's layout (the version read is passed). */
  readonly migrate?: (record: Record<string, unknown>, version: number) => Record<string, unknown>;
  /** The key the version is kept under (default `format_version`; run.json before version 2 wrote `format`). */
  readonly legacyKey?: string;
  /**
   * False for a file whose layout another tool owns (trace.json: the seed's list; history.json: browser-use's; a
   * training row): it holds no version of its own, and run.json's format_version covers it.
   */
  readonly versioned?: boolean;
}

/** What a format is made of: its zod schema instead of `validate`. */
type FormatSpec<T> = Omit<FileFormat<T>, "validate"> & { readonly schema: z.ZodType<T> };

/** A file format whose records `spec.schema` checks, its problems worded as the suite words them (errorMap). */
export function fileFormat<T>(spec: FormatSpec<T>): FileFormat<T> {
  const { schema, ...rest } = spec;
  return {
    ...rest,
    validate(value: unknown): Validated<T> {
      const r = schema.safeParse(value, { error: errorMap });
      return r.success ? { ok: true, value: r.data } : { ok: false, problem: describeIssues(r.error), cause: r.error };
    },
  };
}

/**
 * `true` only when A and B are the same type: a record's documented interface checked against its schema's type, so
 * neither can gain a field the other lacks.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const MIB = 1024 * 1024;

/** Size limits, in bytes (docs/output-layout.md, "Limits"). */
export const LIMITS = {
  /** results.jsonl, results_regraded.jsonl, retried.jsonl. */
  resultsFile: 512 * MIB,
  resultLine: 1 * MIB,
  /** An episode's steps.jsonl, and one step record (a request's text with a long page's element list). */
  stepsFile: 512 * MIB,
  stepLine: 64 * MIB,
  /** grade_inputs.json, history.json, trace.json and the planner's files. */
  episodeFile: 256 * MIB,
  /** run.json (a selection of up to a million task ids). */
  manifest: 64 * MIB,
  /** judge.json, run.lock, episode.json. */
  smallFile: 1 * MIB,
  /** A system prompt in prompts/. */
  prompt: 16 * MIB,
  /** export.json and a rows.jsonl. */
  rowsFile: 512 * MIB,
} as const;

/** The `format_version` of a record as written (1 when absent: written before the field was). */
function versionOf(record: Record<string, unknown>, format: FileFormat, where: string, file: string): number {
  const raw = record.format_version ?? (format.legacyKey ? record[format.legacyKey] : undefined) ?? 1;
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 1) {
    throw new RunFolderError(`${where}: format_version: expected a whole number >= 1, got ${describeInput(raw)}`, file);
  }
  if (raw > format.version) throw newerFormat(where, file, format, raw);
  return raw;
}

/** The refusal of a record newer than this suite reads: the same words from every tool. */
function newerFormat(where: string, file: string, format: FileFormat, found: number): NewerFormatError {
  return new NewerFormatError(
    `${where}: format_version ${found} is newer than this webmix-eval reads (${format.what} version ` +
      `${format.version}): read it with the webmix-eval that wrote it, or a newer one`,
    file,
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads one record (a parsed JSON value) of `format`: its version checked (a newer one refused), an older one
 * migrated, then validated by the schema.
 * @param where names the record in messages: the file, and the line of a JSON Lines file
 * @throws RunFolderError naming `where` and what is wrong
 */
export function parseRecord<T>(format: FileFormat<T>, value: unknown, where: string, file = where): T {
  let record = value;
  if (format.versioned !== false) {
    if (!isObject(value)) {
      throw new RunFolderError(
        `${where}: expected a JSON object (a ${format.what}), got ${describeInput(value)}`,
        file,
      );
    }
    const version = versionOf(value, format, where, file);
    if (version < format.version && format.migrate) record = format.migrate(value, version);
  }
  const r = format.validate(record);
  if (!r.ok) throw new RunFolderError(`${where}: ${r.problem}`, file, undefined, { cause: r.cause });
  return r.value;
}

/**
 * A record of `format` as JSON, `format_version` first: validated by the schema on the way out, so no writer can
 * write what no reader reads. The record is written as the writer made it (its fields in its order: a training row's
 * messages and target last, as the seed wrote them), once the schema has accepted it.
 * @throws RunFolderError naming `where` when the record breaks its schema (a harness bug, not a user's input)
 */
export function serialise<T>(format: FileFormat<T>, value: T, where: string, indent?: number): string {
  const r = format.validate(value);
  if (!r.ok) throw new RunFolderError(`cannot write ${where}: ${r.problem}`, where, undefined, { cause: r.cause });
  if (format.versioned === false || !isObject(value)) return JSON.stringify(value, null, indent);
  const { format_version: _, ...fields } = value;
  return JSON.stringify({ format_version: format.version, ...fields }, null, indent);
}

/** Parses JSON text of a file, naming it when it is not JSON. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RunFolderError(`${file}: not JSON (cut short or damaged): ${(err as Error).message}`, file, undefined, {
      cause: err,
    });
  }
}

/** A line a crash cut short at the end of a JSON Lines file. */
export interface CutLine {
  /** Its line number. */
  line: number;
  /** Its bytes (a store cuts them off before appending). */
  bytes: number;
}

/** A JSON Lines file's records, and the last line when a crash cut it short. */
export interface JsonLinesFile<T> {
  /** The records, in file order. */
  records: T[];
  /** The last line, when a crash cut it short (not in `records`). */
  cut?: CutLine;
}

/**
 * Parses the text of a JSON Lines file of `format`, each line a record: a line that is not JSON, is longer than its
 * limit or breaks the format is an error naming the file and line; a last line without its newline is one a crash
 * cut short, returned apart (`cut`), never silently dropped.
 * @throws RunFolderError naming the file and line
 */
export function parseRecordLines<T>(format: FileFormat<T>, text: string, file: string): JsonLinesFile<T> {
  const fail = (line: number, message: string, cause?: unknown) =>
    new RunFolderError(`${file} line ${line}: ${message}`, file, undefined, { cause });
  const { lines, partialTail } = parseJsonLines(text, fail, { partialTail: true, maxLineBytes: format.maxLineBytes });
  const records = lines.map(({ line, value }) => parseRecord(format, value, `${file} line ${line}`, file));
  return partialTail ? { records, cut: { line: text.split("\n").length, bytes: partialTail } } : { records };
}
