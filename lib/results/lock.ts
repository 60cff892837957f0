/**
 * One run per out folder at a time: `<out>/run.lock` holds the holder's pid, host and start. A second process on
 * the folder is refused (exit 2, naming the holder); a lock whose process is gone (killed with SIGKILL) is taken
 * over. On another host (a shared file system) liveness cannot be checked: the lock is refused with the file to
 * remove once that run is known to be dead.
 */
import { join } from "node:path";
import { hostname } from "node:os";
import process from "node:process";
import { NewerFormatError, UsageError } from "../errors/mod.ts";
import { type LockHolder as Holder, lockJson, readFolderJson, RUN_FILES, RUN_LOCK } from "../run_folder/mod.ts";

const LOCK_FILE = RUN_FILES.lock;

/** Whether process `pid` of this host still runs (true when it cannot be told, e.g. without --allow-run). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (err) {
    return (err as { code?: string }).code !== "ESRCH";
  }
}

/**
 * The lock's holder; null when there is no lock, or one left unreadable or cut short by a writer that died (a lock
 * whose holder cannot be read holds nothing: a newer suite's lock is refused, see RunFolderError).
 */
async function readHolder(path: string): Promise<Holder | null> {
  try {
    return await readFolderJson(RUN_LOCK, path) ?? null;
  } catch (err) {
    if (err instanceof NewerFormatError) throw err;
    return null;
  }
}

function describe(h: Holder): string {
  return `pid ${h.pid} on ${h.host}, since ${h.started}`;
}

/**
 * `h` described when it is a live process other than this one; null when it holds nothing (none, dead, this one).
 * @throws UsageError when it is on another host (it cannot be checked from here).
 */
function judge(h: Holder | null, out: string): string | null {
  if (!h || (h.host === hostname() && (h.pid === Deno.pid || !alive(h.pid)))) return null;
  if (h.host !== hostname()) {
    throw new UsageError(
      `${out} is locked by a run on another host (${describe(h)}); ` +
        `if that run is dead, delete ${join(out, LOCK_FILE)}`,
    );
  }
  return describe(h);
}

/**
 * The holder of `out`'s lock when it is a live process other than this one (null when the folder is free).
 * @throws UsageError when the holder is on another host (it cannot be checked from here).
 */
export async function liveHolder(out: string): Promise<string | null> {
  return judge(await readHolder(join(out, LOCK_FILE)), out);
}

/** A held lock; `release()` removes it (safe to call twice). */
export interface RunLock {
  /** Removes the lock file while it still names this process; later calls do nothing. */
  release(): Promise<void>;
}

/**
 * Takes `out`'s lock (the folder must exist).
 * @throws UsageError naming the holder when another live run holds it.
 */
export async function lockOut(out: string): Promise<RunLock> {
  const path = join(out, LOCK_FILE);
  const me: Holder = { pid: Deno.pid, host: hostname(), started: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const file = await Deno.open(path, { write: true, createNew: true });
      try {
        await file.write(new TextEncoder().encode(lockJson(me)));
      } finally {
        file.close();
      }
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          const h = await readHolder(path);
          if (h?.pid === me.pid && h.host === me.host) await Deno.remove(path).catch(() => {});
        },
      };
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
    const judged = await readHolder(path);
    if (judged === null && attempt < 3) {
      // Created but not yet written by a process starting right now, or left empty by one that died: look again.
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const holder = judge(judged, out);
    if (holder) {
      throw new UsageError(`${out} is in use by another run (${holder}): wait for it to end, or choose another --out`);
    }
    // A stale lock (its process is gone): take it over, removing it only while it still names the dead holder judged
    // above (another process may have taken it over in between).
    if (JSON.stringify(await readHolder(path)) === JSON.stringify(judged)) await Deno.remove(path).catch(() => {});
  }
  throw new UsageError(`cannot take the lock ${path}: other processes keep taking it`);
}
