/** Writing artifacts so that a crash never leaves a half-written file: write a temporary file, then rename. */
import { dirname } from "node:path";

/** Writes `data` to `path` through a temporary file and a rename (the folder is created). */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  if (typeof data === "string") await Deno.writeTextFile(tmp, data);
  else await Deno.writeFile(tmp, data);
  await Deno.rename(tmp, path);
}

/** `value` as JSON (and a final newline), written atomically. */
export const writeJsonAtomic = (path: string, value: unknown, indent?: number): Promise<void> =>
  writeFileAtomic(path, JSON.stringify(value, null, indent) + "\n");

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
