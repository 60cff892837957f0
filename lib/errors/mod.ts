/**
 * The suite's error tree. Callers branch on the class; the message says what failed, quotes the value and says
 * where (file and line, task id, episode).
 * @module
 */

/** Base of every error the harness raises on purpose. */
export class HarnessError extends Error {
  /** An error with `message`; its name is the class's own (UsageError, TaskFormatError, ...). */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A command line that cannot be run: wrong flag, missing value. Entry scripts exit 2. */
export class UsageError extends HarnessError {}

/**
 * A usage error about what a flag names rather than the options (a folder that is not a run's, a missing file, a
 * selection that leaves no task): exit 2 like any, without the "Run with --help" line, which would not help.
 */
export class InputError extends UsageError {}

/** A task, annotation or verifier file that does not parse; carries the file and line. */
export class TaskFormatError extends HarnessError {
  /** An error about `file` (when known), at 1-based `line` (when known). */
  constructor(message: string, readonly file?: string, readonly line?: number, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * A file of a run folder that cannot be read as its format says: missing, cut short, not JSON, a field of the wrong
 * type, a name that would leave the folder, a format_version newer than this suite reads, a size past its limit.
 * Carries the file, and the episode whose file it is.
 */
export class RunFolderError extends HarnessError {
  /** An error about `file` of the run folder, which belongs to `episode` when it is an episode's file. */
  constructor(message: string, readonly file: string, readonly episode?: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** A run-folder file written by a newer suite (its format_version is past this one's): never read as if it were not. */
export class NewerFormatError extends RunFolderError {}

/** A site server that does not speak the admin protocol as expected. */
export class SiteProtocolError extends HarnessError {}

/** A browser wait or navigation that ran out of time. */
export class BrowserTimeoutError extends HarnessError {}

/** A model server reply that failed or could not be used; `retriable` says whether asking again may help. */
export class ModelReplyError extends HarnessError {
  /** An error about a reply with HTTP `status` (when there was one) and body `replyText` (when there was one). */
  constructor(
    message: string,
    readonly status?: number,
    readonly retriable = false,
    readonly replyText?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The out folder refuses writes (full, read-only, over quota): nothing more can be recorded, so the run stops (exit
 * 1) instead of recording each later episode as an error.
 */
export class OutFolderError extends HarnessError {}

const DISK_CODES = new Set(["ENOSPC", "EROFS", "EDQUOT"]);
// Deno reports some of them only in the message: "No space left on device (os error 28)".
const DISK_OS_ERRORS = /\(os error (28|30|122)\)/;

/** True when `err` (or a cause of it) says the file system refuses writes: full, read-only or over quota. */
function isDiskFault(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutFolderError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && DISK_CODES.has(code)) return true;
    if (e instanceof Error && DISK_OS_ERRORS.test(e.message)) return true;
  }
  return false;
}

/** `err` as the run-stopping OutFolderError naming `out` when it is a disk fault (isDiskFault), else undefined. */
export function outFolderFault(err: unknown, out: string): OutFolderError | undefined {
  if (!isDiskFault(err)) return undefined;
  return new OutFolderError(`cannot write to the out folder ${out}: ${(err as Error).message}`, { cause: err });
}

/** An error's message (a thrown non-Error as text). */
export const errorMessage = (err: unknown): string => err instanceof Error ? err.message : String(err);

/** "ClassName: message", the form results.jsonl records a harness failure in. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `Error: ${String(err)}`;
}
