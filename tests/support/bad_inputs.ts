/**
 * The scaffolding of tests/bad_input_test.ts: a scratch workspace of malformed inputs (task files, annotation
 * folders, run folders), the entry scripts spawned from a chosen folder, a bounded number at a time, and a
 * snapshot of a folder to show that a refused run left it as it was.
 */
import { join } from "node:path";
import { ROOT } from "./cli.ts";

/** Deno's cache folder (`deno info --json`), for a child whose HOME is changed. */
export async function denoCacheDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped", stderr: "null" })
    .output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

/** `fn` over `items`, at most `limit` at a time; the results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Every path under `dir` (folders with a trailing slash) and each file's size, sorted; [] when it does not exist. */
export async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string, rel: string) => {
    for await (const e of Deno.readDir(path)) {
      const child = join(path, e.name), name = rel + e.name;
      if (e.isDirectory) {
        out.push(`${name}/`);
        await walk(child, `${name}/`);
      } else {
        out.push(`${name} ${(await Deno.lstat(child)).size}`);
      }
    }
  };
  await walk(dir, "").catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  return out.sort();
}

/** A datagen task line that loads (the first bundled task), with `patch` applied to its fields. */
export async function taskLine(patch: Record<string, unknown> = {}): Promise<string> {
  const first = (await Deno.readTextFile(join(ROOT, "fixtures/tasks.jsonl"))).split("\n")[0];
  return JSON.stringify({ ...JSON.parse(first), ...patch });
}

/** A proposed task line that loads, with `patch` applied. */
export function proposedLine(patch: Record<string, unknown> = {}): string {
  const task = {
    kind: "proposed",
    task_id: "prop_1",
    site: "shop",
    macro: "search",
    instruction: "Find lamps.",
    start_path: "/shop/",
  };
  return JSON.stringify({ ...task, ...patch });
}

/** The files of a one-task annotations folder (`shop/t1`, a train site), as `path: content`. */
export interface AnnotationFiles {
  [path: string]: string | Uint8Array | null;
}

const VERIFIER = { macros: { search: { check: { visited: { regex: "^/shop/products\\?q=" } } } } };
const TASK = { site: "shop", instruction: "Search for lamps.", macros: ["search"], starting_url: "/shop/" };

/** The scratch folder a table of bad inputs is built in. */
export class Workspace {
  private constructor(readonly dir: string) {}

  static async create(): Promise<Workspace> {
    return new Workspace(await Deno.realPath(await Deno.makeTempDir({ prefix: "webmix-bad-input-" })));
  }

  /** `<dir>/name`. */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** Writes a file (its folder created) and returns its path. */
  async file(name: string, content: string | Uint8Array): Promise<string> {
    const path = this.path(name);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
    return path;
  }

  /**
   * An annotations folder `name` holding one valid task (`shop/t1`: task.json, verifier.json, the site split),
   * with `files` written over it (null deletes a file; `task.json`'s patch object is merged when given as JSON).
   */
  async annotations(
    name: string,
    files: AnnotationFiles = {},
    taskPatch: Record<string, unknown> = {},
  ): Promise<string> {
    const base: AnnotationFiles = {
      "site_split.json": JSON.stringify({ train: ["shop"], test: ["mail"] }),
      "shop/t1/task.json": JSON.stringify({ ...TASK, ...taskPatch }),
      "shop/t1/verifier.json": JSON.stringify(VERIFIER),
    };
    for (const [rel, content] of Object.entries({ ...base, ...files })) {
      if (content !== null) await this.file(join(name, rel), content);
    }
    return this.path(name);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Deno.remove(this.dir, { recursive: true });
  }
}

/** UTF-8 bytes of `text` with a byte order mark in front. */
export const withBom = (text: string): Uint8Array =>
  new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);

/** `text` as Latin-1 bytes (its "é" is one byte, 0xe9, which UTF-8 does not allow there). */
export const latin1 = (text: string): Uint8Array => new Uint8Array([...text].map((c) => c.charCodeAt(0) & 0xff));

/** `text` as UTF-16LE with its byte order mark, as some Windows editors save it. */
export function utf16(text: string): Uint8Array {
  const bytes = [0xff, 0xfe];
  for (let i = 0; i < text.length; i++) bytes.push(text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8);
  return new Uint8Array(bytes);
}
