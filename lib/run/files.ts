/** Writing artifacts so that a crash never leaves a half-written file: write a temporary file, then rename. */
import { dirname } from "node:path";

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  if (typeof data === "string") await Deno.writeTextFile(tmp, data);
  else await Deno.writeFile(tmp, data);
  await Deno.rename(tmp, path);
}

export const writeJsonAtomic = (path: string, value: unknown, indent?: number) =>
  writeFileAtomic(path, JSON.stringify(value, null, indent) + "\n");
