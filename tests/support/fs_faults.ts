/**
 * Out folders that refuse writes, for the fault tests: read-only and full. chmod does not stop root, so as root a
 * read-only folder is a read-only bind mount of itself (falling back to `chattr +i`), and a full one is a small
 * tmpfs filled to its last byte. Each helper says which way it used, and undoes it on dispose.
 */
import { join } from "node:path";

const isRoot = () => Deno.uid() === 0;

async function run(cmd: string, args: string[]): Promise<{ ok: boolean; stderr: string }> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output().catch((err) => ({
    success: false,
    stderr: new TextEncoder().encode(String(err)),
  }));
  return { ok: out.success, stderr: new TextDecoder().decode(out.stderr) };
}

/** Whether a file can be created in `dir` (the probe is removed). */
export async function canWrite(dir: string): Promise<boolean> {
  const probe = join(dir, `.probe-${crypto.randomUUID().slice(0, 8)}`);
  try {
    await Deno.writeTextFile(probe, "x");
  } catch {
    return false;
  }
  await Deno.remove(probe);
  return true;
}

/** A folder made read-only, and how. */
export interface ReadOnlyDir extends AsyncDisposable {
  /** "read-only bind mount", "chattr +i" or "chmod 555". */
  how: string;
}

/** Makes `dir` refuse writes (root included); dispose to make it writable again. */
export async function makeReadOnly(dir: string): Promise<ReadOnlyDir> {
  if (!isRoot()) {
    await Deno.chmod(dir, 0o555);
    return { how: "chmod 555", [Symbol.asyncDispose]: () => Deno.chmod(dir, 0o755) };
  }
  if ((await run("mount", ["--bind", dir, dir])).ok) {
    if ((await run("mount", ["-o", "remount,bind,ro", dir])).ok && !(await canWrite(dir))) {
      return { how: "read-only bind mount", [Symbol.asyncDispose]: () => umount(dir) };
    }
    await umount(dir);
  }
  const chattr = await run("chattr", ["+i", dir]);
  if (chattr.ok && !(await canWrite(dir))) {
    return { how: "chattr +i", [Symbol.asyncDispose]: async () => void await run("chattr", ["-i", dir]) };
  }
  throw new Error(`cannot make ${dir} read-only as root: neither a bind mount nor chattr +i worked`);
}

async function umount(dir: string): Promise<void> {
  if (!(await run("umount", [dir])).ok) await run("umount", ["-l", dir]);
}

/** A small tmpfs mounted on a folder. */
export interface SmallDisk extends AsyncDisposable {
  dir: string;
  /** Fills the disk to its last byte with a file of its own (`filler`), so that any further write fails. */
  fill(): Promise<void>;
}

/**
 * Mounts a tmpfs of `sizeKiB` on a new temporary folder (root only).
 * @returns the disk, or the reason it cannot be made here
 */
export async function smallDisk(sizeKiB: number): Promise<SmallDisk | string> {
  if (!isRoot()) return "mounting a small tmpfs needs root";
  const dir = await Deno.makeTempDir({ prefix: "webmix-full-" });
  const mounted = await run("mount", ["-t", "tmpfs", "-o", `size=${sizeKiB}k`, "tmpfs", dir]);
  if (!mounted.ok) {
    await Deno.remove(dir);
    return `mount -t tmpfs failed: ${mounted.stderr.trim()}`;
  }
  return {
    dir,
    fill: () => fillDisk(join(dir, "filler")),
    [Symbol.asyncDispose]: async () => {
      await umount(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Why a small tmpfs cannot be mounted here (undefined: it can); the probe mount is undone at once. */
export async function smallDiskProblem(): Promise<string | undefined> {
  const disk = await smallDisk(4);
  if (typeof disk === "string") return disk;
  await disk[Symbol.asyncDispose]();
  return undefined;
}

/** Appends to `file` until the disk refuses a single byte more. */
export async function fillDisk(file: string): Promise<void> {
  const f = await Deno.open(file, { append: true, create: true });
  try {
    for (const size of [65_536, 4096, 1]) {
      const chunk = new Uint8Array(size);
      for (;;) {
        try {
          if ((await f.write(chunk)) < size) break;
        } catch {
          break;
        }
      }
    }
  } finally {
    f.close();
  }
}
