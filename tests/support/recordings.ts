/**
 * Proof episodes recorded in the browser once and regraded offline in every test run (issue 36): a file per test,
 * fixtures/recordings/<name>.json.gz, holding each episode's results line and grade_inputs.json by the key of what it
 * does in the browser (`episodeKey`: site, start, solution, script; never the check). Beside them, a hash of the
 * sources that decide what an episode records (the apps, the capture, the browser, the executor and runner, the task
 * kinds' evidence collection): when they change, the file is stale, every episode runs live, and the test fails
 * asking for `deno task record`. One recorded episode in {@link SAMPLE_EVERY} still runs live in every test run, and
 * the proof fails it when the browser and the recording disagree.
 *
 * Modes, from the environment: WEBMIX_RECORD=1 runs live every episode the file lacks (all of them when the sources
 * changed) and writes the file anew with the episodes this run used (`deno task record`);
 * WEBMIX_LIVE=1 runs every episode live and writes nothing (`deno task test:full`); otherwise the file is read.
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { EpisodeRecordings, RecordedEpisode } from "../../lib/gen/mod.ts";
import { sha256Hex } from "../../lib/io/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * What decides an episode's recording: a change here forces a new recording. The npm packages' versions are read
 * from lib/browser's and lib/sites' deno.json (their ranges), not from deno.lock, which a newer Deno may rewrite.
 */
export const RECORDED_SOURCES: readonly string[] = [
  "lib/sites",
  "lib/dom",
  "lib/browser",
  "lib/agent",
  "lib/run",
  "lib/tasks",
  "lib/protocol/macros.ts",
  "lib/protocol/action.ts",
  "lib/protocol/task.ts",
  "lib/protocol/proposed.ts",
  "lib/protocol/evidence.ts",
  "lib/protocol/state.ts",
  "lib/grading/evidence.ts",
  "lib/gen/variants.ts",
];

/** One recorded episode in this many also runs live (chosen by its key, so the same ones each run). */
export const SAMPLE_EVERY = 40;

const FORMAT = 1;

interface RecordingFile {
  format: number;
  sources: string;
  episodes: Record<string, RecordedEpisode>;
}

/** Every file under `path` that is not a test or test data, root-relative and sorted. */
async function sourceFiles(path: string): Promise<string[]> {
  const abs = join(ROOT, path);
  if ((await Deno.stat(abs)).isFile) return [path];
  const out: string[] = [];
  for await (const e of Deno.readDir(abs)) {
    if (e.name.endsWith("_test.ts") || /^_?testdata/.test(e.name)) continue;
    out.push(...await sourceFiles(join(path, e.name)));
  }
  return out.sort();
}

/** The hash of {@link RECORDED_SOURCES}: every file's path and bytes. */
export async function sourcesHash(): Promise<string> {
  const files = (await Promise.all(RECORDED_SOURCES.map(sourceFiles))).flat().sort();
  const parts = await Promise.all(
    files.map(async (f) => `${f}\n${await sha256Hex(await Deno.readTextFile(join(ROOT, f)))}`),
  );
  return sha256Hex(parts.join("\n"));
}

async function readGzipJson(file: string): Promise<unknown> {
  const f = await Deno.open(file);
  const text = await new Response(f.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  return JSON.parse(text);
}

async function writeGzipJson(file: string, value: unknown): Promise<void> {
  const body = new Blob([JSON.stringify(value)]).stream().pipeThrough(new CompressionStream("gzip"));
  const tmp = `${file}.tmp`;
  await Deno.writeFile(tmp, body);
  await Deno.rename(tmp, file);
}

/** A recording file opened for one test. */
export class RecordingStore implements EpisodeRecordings {
  readonly file: string;
  readonly mode: "replay" | "record" | "live";
  /** Why the recordings cannot be used (missing file, changed sources), or undefined. */
  stale?: string;
  /** Episodes asked for that had no recording (run live). */
  missing = 0;
  #episodes: Record<string, RecordedEpisode> = {};
  #sources = "";
  #kept: Record<string, RecordedEpisode> = {};

  private constructor(file: string, mode: RecordingStore["mode"]) {
    this.file = file;
    this.mode = mode;
  }

  /** The store of fixtures/recordings/`name`.json.gz (or of the file `name` when it is a path), in the env's mode. */
  static async open(name: string): Promise<RecordingStore> {
    const mode = Deno.env.get("WEBMIX_RECORD") === "1"
      ? "record"
      : Deno.env.get("WEBMIX_LIVE") === "1"
      ? "live"
      : "replay";
    const file = name.includes("/") ? name : join(ROOT, "fixtures/recordings", `${name}.json.gz`);
    const store = new RecordingStore(file, mode);
    store.#sources = await sourcesHash();
    if (mode === "live") return store;
    const where = relative(ROOT, store.file);
    let data: RecordingFile;
    try {
      data = await readGzipJson(store.file) as RecordingFile;
    } catch (err) {
      store.stale = `${where} cannot be read (${err instanceof Error ? err.message : err})`;
      return store;
    }
    if (data.format !== FORMAT) store.stale = `${where} has format ${data.format}, not ${FORMAT}`;
    else if (data.sources !== store.#sources) {
      store.stale = `${where} was recorded with other sources (${RECORDED_SOURCES.join(", ")} changed)`;
    } else store.#episodes = data.episodes;
    return store;
  }

  get(key: string): RecordedEpisode | undefined {
    const rec = this.#episodes[key];
    if (!rec && this.mode === "replay") this.missing++;
    if (rec && this.mode === "record") this.#kept[key] = rec;
    return rec;
  }

  put(key: string, episode: RecordedEpisode): void {
    if (this.mode === "record") this.#kept[key] = episode;
  }

  sample(key: string): boolean {
    if (this.mode === "record") return false;
    return parseInt(key.slice(0, 8), 16) % SAMPLE_EVERY === 0;
  }

  /** What a test should fail with: the recordings were not usable, or some episodes had none. */
  problem(): string | undefined {
    if (this.mode !== "replay") return undefined; // recording, or everything live on purpose
    const fix = "record them again: deno task record";
    if (this.stale) return `${this.stale}: every episode ran live; ${fix}`;
    if (this.missing) return `episodes without a recording, run live: ${this.missing}; ${fix}`;
    return undefined;
  }

  /** In record mode, writes the episodes this run used (recorded before or just now) with the sources' hash. */
  async save(): Promise<number> {
    if (this.mode !== "record") return 0;
    await Deno.mkdir(dirname(this.file), { recursive: true });
    const sorted = Object.fromEntries(Object.entries(this.#kept).sort(([a], [b]) => a.localeCompare(b)));
    await writeGzipJson(this.file, { format: FORMAT, sources: this.#sources, episodes: sorted });
    return Object.keys(sorted).length;
  }
}
