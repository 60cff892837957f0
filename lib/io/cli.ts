/**
 * Command-line parsing shared by the entry scripts: flags in --kebab-case, each value checked once, here, and a
 * wrong one a UsageError (exit 2) that names the flag, quotes the value and says what was expected.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { dirname, join, resolve } from "node:path";
import { InputError, UsageError } from "../errors/mod.ts";
import { editDistance } from "../protocol/mod.ts";
import { readUtf8File } from "./files.ts";

/** Parsed flags by name (without the leading `--`): a string value, a boolean for a boolean flag, or absent. */
export type Flags = Record<string, string | boolean | undefined>;

/** parseArgs, strict, with its errors as UsageErrors; a unique prefix of a flag is that flag (as argparse takes it). */
function parseStrict(argv: string[], options: ParseArgsConfig["options"], allowPositionals: boolean) {
  const names = Object.keys(options ?? {});
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv.indexOf("--") >= 0 && i > argv.indexOf("--") ? argv[i] : expandPrefix(argv[i], names);
    // A negative number after a flag that takes a value is its value (`--limit -1`), as argparse reads it; the
    // value's own check then says what the flag takes.
    const name = a.startsWith("--") ? a.slice(2) : "";
    if (options?.[name]?.type === "string" && /^-\d/.test(argv[i + 1] ?? "")) args.push(`${a}=${argv[++i]}`);
    else args.push(a);
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    const unknown = /Unknown option '--([^']+)'/.exec((err as Error).message)?.[1];
    const near = unknown === undefined ? undefined : nearestFlag(unknown, names);
    const hint = near ? ` (did you mean --${near}?)` : "";
    throw new UsageError(`${(err as Error).message}${hint}`, { cause: err });
  }
}

/**
 * `--rep` (or `--rep=2`) as the one flag it begins (`--repeats`), as argparse's allow_abbrev reads it; an exact name
 * wins, a prefix of several is refused naming them.
 * @throws UsageError for an ambiguous prefix
 */
function expandPrefix(arg: string, names: readonly string[]): string {
  const m = /^--([^=]+)(=.*)?$/s.exec(arg);
  if (!m || names.includes(m[1])) return arg;
  const candidates = names.filter((n) => n.startsWith(m[1]));
  if (candidates.length === 1) return `--${candidates[0]}${m[2] ?? ""}`;
  if (candidates.length > 1) {
    throw new UsageError(`--${m[1]} is ambiguous: it could be ${candidates.map((c) => `--${c}`).join(", ")}`);
  }
  return arg;
}

/** The flag nearest to an unknown one (at most a third of its letters off), for "did you mean". */
function nearestFlag(name: string, names: readonly string[]): string | undefined {
  const best = names.map((n) => ({ n, d: editDistance(name, n) })).sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.n : undefined;
}

/** Parses `argv` against `options`; an unknown flag or a missing value is a UsageError. */
export function parseFlags(argv: string[], options: ParseArgsConfig["options"]): Flags {
  return parseStrict(argv, options, false).values as Flags;
}

/**
 * Parses `argv` against `options`, with arguments that are not flags (`deno task rows OUT --out ROWS`): an unknown
 * flag or a missing value is a UsageError.
 */
export function parseCommandLine(
  argv: string[],
  options: ParseArgsConfig["options"],
): { flags: Flags; positionals: string[] } {
  const { values, positionals } = parseStrict(argv, options, true);
  return { flags: values as Flags, positionals };
}

/** The values a number flag takes. */
export interface NumberRange {
  /** Whole numbers only. */
  whole?: boolean;
  /** The least value; with `above`, the value must be greater than it. */
  min: number;
  /** The value must be greater than `min`, not merely equal to it or greater. */
  above?: boolean;
  /** The greatest value (default: none). */
  max?: number;
}

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A flag's text as a number, decimal notation only (whole numbers only with `whole`): NaN for "0x10", "", "1,5" or
 * "1.5" as a whole number, so that the range check that follows refuses it, quoting the text.
 */
export function numberText(text: string, whole = false): number {
  const t = text.trim();
  return (whole ? WHOLE : DECIMAL).test(t) ? Number(t) : NaN;
}

/** "a whole number from 1 to 256", "a number > 0 and <= 86400". */
export function describeRange(r: NumberRange): string {
  const kind = r.whole ? "a whole number" : "a number";
  if (r.max !== undefined && !r.above) return `${kind} from ${r.min} to ${r.max}`;
  return `${kind} ${r.above ? ">" : ">="} ${r.min}${r.max === undefined ? "" : ` and <= ${r.max}`}`;
}

/** Whether `n` is in `r`. */
export function inRange(n: number, r: NumberRange): boolean {
  if (!Number.isFinite(n) || (r.whole && !Number.isInteger(n))) return false;
  if (r.above ? n <= r.min : n < r.min) return false;
  return r.max === undefined || n <= r.max;
}

/**
 * A number flag within `range` (decimal notation only: "0x10", "" and "1,5" are errors); undefined when absent.
 * @throws UsageError `--workers "1.5" is not a whole number from 1 to 256`.
 */
export function numberFlag(flags: Flags, name: string, range: NumberRange): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = numberText(String(raw), range.whole);
  if (!inRange(n, range)) throw new UsageError(`--${name} "${raw}" is not ${describeRange(range)}`);
  return n;
}

/**
 * A string flag that must say something; undefined when absent.
 * @throws UsageError when it is empty or blank: `--out "" is empty: expected a folder`.
 */
export function textFlag(flags: Flags, name: string, expected = "a value"): string | undefined {
  const raw = flags[name];
  if (typeof raw !== "string") return undefined;
  if (!raw.trim()) throw new UsageError(`--${name} "${raw}" is empty: expected ${expected}`);
  return raw;
}

/**
 * One of `choices`; undefined when absent.
 * @throws UsageError `--human-split "dev" is not one of: test, train, all`.
 */
export function choiceFlag<C extends string>(flags: Flags, name: string, choices: readonly C[]): C | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  if (!(choices as readonly unknown[]).includes(raw)) {
    throw new UsageError(`--${name} "${raw}" is not one of: ${choices.join(", ")}`);
  }
  return raw as C;
}

/**
 * A comma-separated list flag (blank items dropped); with `choices`, every item must be one of them. Undefined
 * when absent.
 * @throws UsageError when the list names nothing (`--task-ids ","`) or an item is not a choice.
 */
export function listFlag(flags: Flags, name: string, choices?: readonly string[]): string[] | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const items = String(raw).split(",").map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} "${raw}" names nothing: expected a comma-separated list`);
  const unknown = choices ? items.filter((i) => !choices.includes(i)) : [];
  if (unknown.length) {
    const which = items.length > 1 ? `"${raw}": "${unknown[0]}"` : `"${unknown[0]}"`;
    throw new UsageError(`--${name} ${which} is not one of: ${choices!.join(", ")}`);
  }
  return items;
}

/** Whether `text` is an absolute http(s) URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Whether `text` is an ISO 8601 day (`2026-03-15`, midnight UTC) or instant with its zone (`...T10:00:00Z`). */
export function isIsoInstant(text: string): boolean {
  const m = INSTANT.exec(text);
  if (!m) return false;
  const [y, mo, d, h = "0", mi = "0", s = "0"] = m.slice(1);
  const day = new Date(Date.UTC(+y, +mo - 1, +d));
  const real = day.getUTCFullYear() === +y && day.getUTCMonth() === +mo - 1 && day.getUTCDate() === +d;
  return real && +h < 24 && +mi < 60 && +s < 60 && Number.isFinite(Date.parse(text));
}

/** Deno's error for a path, as a short reason. */
function pathReason(err: unknown, kind: "file" | "folder"): string {
  if (err instanceof Deno.errors.NotFound) return `no such ${kind}`;
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  return (err as Error).message;
}

/**
 * Checks that a flag's folder exists (and, with `needs`, holds that file at its top).
 * @throws UsageError `--regrade "out/x": no such folder`, `--regrade "out/x" holds no results.jsonl (expected a
 *   run's output folder)`.
 */
export async function checkFolderFlag(
  name: string,
  path: string,
  needs?: { file: string; what: string },
): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    throw new InputError(`--${name} "${path}": ${pathReason(err, "folder")}`, { cause: err });
  }
  if (!info.isDirectory) throw new InputError(`--${name} "${path}" is a file, not a folder`);
  if (!needs) return;
  const found = await Deno.stat(join(path, needs.file)).then((i) => i.isFile, () => false);
  if (!found) throw new InputError(`--${name} "${path}" holds no ${needs.file} (expected ${needs.what})`);
}

/**
 * The text of a flag's file, read strictly as UTF-8 (no byte order mark).
 * @throws UsageError `--system-prompt "p.md": no such file`, or its encoding problem with the byte offset.
 */
export async function readFileFlag(name: string, path: string): Promise<string> {
  const fail = (p: { message: string }) => new InputError(`--${name} "${path}" ${p.message}`);
  try {
    return await readUtf8File(path, fail);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const why = err instanceof Deno.errors.IsADirectory ? "is a folder, not a file" : pathReason(err, "file");
    throw new UsageError(`--${name} "${path}": ${why}`, { cause: err });
  }
}

/**
 * Checks, before any work, that an output can be written where `label` (`--out`, or `OUT` for an argument) says:
 * the folder (kind "folder") or the file's folder, or the nearest existing folder above it when it does not exist
 * yet (it is then made), takes a new file. A probe file is written there and removed; nothing else is made.
 * @throws UsageError `--out "notes.txt/rows" cannot be created: ".../notes.txt" is a file`, `--out "ro/x" cannot be
 *   written: Read-only file system (os error 30)`, `--out "runs" is a folder, not a file`.
 */
export async function checkOutputPath(label: string, path: string, kind: "file" | "folder"): Promise<void> {
  const fail = (why: string, cause?: unknown) => new UsageError(`${label} "${path}" ${why}`, { cause });
  const target = resolve(path);
  const info = await Deno.stat(target).catch(() => null);
  if (info && kind === "file" && info.isDirectory) throw fail("is a folder, not a file");
  if (info && kind === "folder" && !info.isDirectory) throw fail("is a file, not a folder");
  let dir = kind === "folder" ? target : dirname(target);
  for (;;) {
    const here = await Deno.stat(dir).catch((err) => err as Error);
    if (here instanceof Error) {
      if (!(here instanceof Deno.errors.NotFound || here instanceof Deno.errors.NotADirectory)) {
        throw fail(`cannot be written: ${here.message}`, here);
      }
      if (dirname(dir) === dir) throw fail("cannot be created: no folder above it exists");
      dir = dirname(dir);
      continue;
    }
    if (!here.isDirectory) throw fail(`cannot be created: "${dir}" is a file`);
    break;
  }
  try {
    await Deno.remove(await Deno.makeTempFile({ dir, prefix: ".webmix-probe-" }));
  } catch (err) {
    throw fail(`cannot be written: ${dir === target ? "" : `"${dir}": `}${(err as Error).message}`, err);
  }
}
