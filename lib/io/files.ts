/** Writing artifacts so that a crash never leaves a half-written file: write a temporary file, then rename. */
import { dirname, isAbsolute, join, parse, relative, resolve } from "node:path";
import { errorMessage, HarnessError, UsageError } from "../errors/mod.ts";

/** Writes `data` to `path` through a temporary file and a rename (the folder is created). */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    if (typeof data === "string") await Deno.writeTextFile(tmp, data);
    else await Deno.writeFile(tmp, data);
    await Deno.rename(tmp, path);
  } catch (err) {
    // A full disk must not also leave a temporary file behind.
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** `value` as JSON (and a final newline), written atomically. */
export const writeJsonAtomic = (path: string, value: unknown, indent?: number): Promise<void> =>
  writeFileAtomic(path, JSON.stringify(value, null, indent) + "\n");

/**
 * Appends `bytes` to `path` (created) whole or not at all: a write the disk cuts short (full, gone read-only) is cut
 * back to the size the file had. Callers serialise their appends to one file.
 * @param what names the bytes in the error ("the line of episode \"x\"")
 * @throws HarnessError naming `what` and the file (saying so when cutting the partial write back failed too: the
 *   file then ends in a partial line, which a JSON Lines reader with partialTail cuts off)
 */
export async function appendWhole(path: string, bytes: Uint8Array, what: string): Promise<void> {
  const fail = (err: unknown, more = "") =>
    new HarnessError(`cannot append ${what} to ${path}: ${errorMessage(err)}${more}`, { cause: err });
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { append: true, create: true });
  } catch (err) {
    throw fail(err);
  }
  let size: number | undefined;
  try {
    size = (await file.stat()).size;
    for (let n = 0; n < bytes.length;) n += await file.write(bytes.subarray(n));
  } catch (err) {
    if (size === undefined) throw fail(err);
    try {
      await file.truncate(size);
    } catch (cut) {
      throw fail(err, `; cutting the partial line back failed too (${errorMessage(cut)}), reopening cuts it`);
    }
    throw fail(err);
  } finally {
    file.close();
  }
}

/** SHA-256 of a text, as lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Removes a file or folder (recursively); one that is not there is fine. */
export async function removeIfExists(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

/**
 * The names in the output folder `path` a flag names, or undefined when it does not exist yet (a run, a merge or an
 * export creates it).
 * @throws UsageError naming the flag when `path` is a file, or cannot be looked at
 */
export async function outFolderNames(path: string, flag = "out"): Promise<string[] | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new UsageError(`--${flag} "${path}": ${errorMessage(err)}`, { cause: err });
  }
  if (!info.isDirectory) throw new UsageError(`--${flag} "${path}" is a file, not a folder`);
  const names: string[] = [];
  for await (const e of Deno.readDir(path)) names.push(e.name);
  return names;
}

/** Whether a path exists (any other error than NotFound is thrown). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Why a file's bytes are not UTF-8 text: what is wrong, at which byte (0-based) and on which line (1-based). */
export interface TextProblem {
  /** What is wrong, as the end of a sentence about the file ("is not UTF-8: byte 0xff at ..."). */
  message: string;
  /** The 0-based byte offset of the problem. */
  offset: number;
  /** The 1-based line of the problem. */
  line: number;
}

/** The byte offset of the first sequence that is not well-formed UTF-8 (RFC 3629), or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // The length of the sequence and the range its second byte must be in (no overlongs, no surrogates, <= U+10FFFF).
    const [n, lo, hi] = b >= 0xc2 && b <= 0xdf
      ? [2, 0x80, 0xbf]
      : b === 0xe0
      ? [3, 0xa0, 0xbf]
      : b === 0xed
      ? [3, 0x80, 0x9f]
      : b >= 0xe1 && b <= 0xef
      ? [3, 0x80, 0xbf]
      : b === 0xf0
      ? [4, 0x90, 0xbf]
      : b === 0xf4
      ? [4, 0x80, 0x8f]
      : b >= 0xf1 && b <= 0xf3
      ? [4, 0x80, 0xbf]
      : [0, 0, 0];
    if (n === 0 || i + n > bytes.length || bytes[i + 1] < lo || bytes[i + 1] > hi) return i;
    for (let k = 2; k < n; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i;
    i += n;
  }
  return -1;
}

const lineAt = (bytes: Uint8Array, offset: number) => bytes.subarray(0, offset).filter((b) => b === 0x0a).length + 1;

/**
 * Decodes UTF-8 text strictly: a byte order mark or a byte sequence that is not UTF-8 is reported through
 * `fail`, never replaced or guessed at.
 */
export function decodeUtf8(bytes: Uint8Array, fail: (problem: TextProblem) => Error): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw fail({ message: "starts with a UTF-8 byte order mark; save it without one", offset: 0, line: 1 });
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const offset = Math.max(0, firstInvalidUtf8(bytes));
    const hex = bytes[offset].toString(16).padStart(2, "0");
    const line = lineAt(bytes, offset);
    throw fail({
      message: `is not UTF-8: byte 0x${hex} at byte offset ${offset} (line ${line}) is not valid UTF-8 text`,
      offset,
      line,
    });
  }
}

/**
 * Reads a text file strictly (decodeUtf8). A file that cannot be read is thrown as Deno's error; a decoding
 * problem, or a file of more than `maxBytes`, goes through `fail`.
 */
export async function readUtf8File(
  path: string,
  fail: (problem: TextProblem) => Error,
  maxBytes?: number,
): Promise<string> {
  if (maxBytes !== undefined) {
    // Asked before it is read: a file past its limit is never read whole.
    const { size } = await Deno.stat(path);
    if (size > maxBytes) {
      throw fail({ message: `is ${size} bytes, more than the ${maxBytes} it may hold`, offset: 0, line: 1 });
    }
  }
  return decodeUtf8(await Deno.readFile(path), fail);
}

/** Why `name` cannot be a single folder or file name inside another folder, or undefined when it can. */
function pathNameProblem(name: string): string | undefined {
  if (name === "") return "is empty";
  if (/[/\\]/.test(name)) return "holds a path separator";
  if (name === "." || name === "..") return "is a relative folder name";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return "holds a control character";
  return undefined;
}

/**
 * `parent/name`, for a name that comes from data (a task id, an episode name): a name that would leave `parent`
 * (a separator, `..`) or is not one plain name is an error, so no input can write outside the run's folder.
 * @throws HarnessError naming the name and why.
 */
export function childPath(parent: string, name: string): string {
  const problem = pathNameProblem(name);
  if (problem) throw new HarnessError(`${JSON.stringify(name)} cannot name a folder inside ${parent}: it ${problem}`);
  return join(parent, name);
}

/** A folder no run may write into or delete, nor any folder above it: `what` names it in messages. */
export interface GuardedFolder {
  /** The folder's path. */
  path: string;
  /** The folder in words, for messages ("the home folder"). */
  what: string;
}

async function realOrResolved(path: string): Promise<string> {
  return await Deno.realPath(path).catch(() => resolve(path));
}

/**
 * Why `path` must not be a run's output folder: it is the filesystem root, or one of `guarded` (the current
 * folder, the home folder, the repository) or a folder above one; undefined when it may be. Symbolic links are
 * followed.
 */
export async function guardedFolderProblem(
  path: string,
  guarded: readonly GuardedFolder[],
): Promise<string | undefined> {
  const target = await realOrResolved(path);
  if (target === parse(target).root) return "is the filesystem root";
  for (const g of guarded) {
    const folder = await realOrResolved(g.path);
    if (folder === target) return `is ${g.what}`;
    const rel = relative(target, folder);
    if (rel && !rel.startsWith("..") && !isAbsolute(rel)) return `holds ${g.what} (${folder})`;
  }
  return undefined;
}
