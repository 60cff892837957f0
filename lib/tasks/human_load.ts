/**
 * Loading human tasks: annotations/<site>/<task_id>/{task.json, verifier.json, recording.json} and the site split
 * (the seed's human_tasks). A malformed file stops the load with its path and the field.
 */
import { join } from "node:path";
import type { z } from "zod";
import { InputError, TaskFormatError, UsageError } from "../errors/mod.ts";
import {
  describeIssues,
  errorMap,
  type HumanSplit,
  type HumanVerifier,
  inSplit,
  isMacro,
  loadSiteSplit,
  macroLabelSchema,
  quoteText as quote,
  type SiteSplit,
  taskIdProblem,
  VERIFIER_KEYS,
  verifierFileSchema,
} from "../protocol/mod.ts";
import { readUtf8File } from "../io/mod.ts";
import {
  HUMAN_TASK_KEYS,
  type HumanTaskFile,
  type Recording,
  recordingSchema,
  taskFileSchema,
} from "./human_schema.ts";
import { type HumanTask, resolveHumanTask } from "./human_task.ts";

/** What every folder under `<annotations>/<site>/` must hold. */
const TASK_FOLDER = "a task folder holds task.json, verifier.json and optionally recording.json";

/** Where the human tasks are and which of them to take. */
export interface LoadHumanTasksOptions {
  /** The annotations folder (`fixtures/annotations`). */
  annotationsDir: string;
  /**
   * test: tasks whose main site is held out; train: tasks on train sites only; all: every task (default "test"). A
   * cross-site task on a train site that touches a test site is only in all (the seed's human_tasks).
   */
  split?: HumanSplit;
  /** The split file (default `<annotationsDir>/site_split.json`). */
  splitFile?: string;
  /** Only tasks with one of these macros (`search`, or a numbered label `submit_form#2`). */
  macros?: Iterable<string>;
  /** Instead of the split's sites: the tasks on any of these sites. */
  sites?: Iterable<string>;
  /**
   * Refuse what the seed's annotations tolerate (eval --strict): unknown task.json and verifier.json keys, macros
   * outside the vocabulary, a task folder without verifier.json, a task on a site in neither split. Default false:
   * each is loaded (or left out) as the seed does, with one warning (`warn`).
   */
  strict?: boolean;
  /** Receives each warning line of a lenient load (default: stderr). */
  warn?: (line: string) => void;
}

/** How one task folder is read: strictly, or as the seed reads it with warnings. */
interface ReadMode {
  strict: boolean;
  warn: (line: string) => void;
}

const STRICT: ReadMode = { strict: true, warn: () => {} };

/** The largest annotation file (task.json, verifier.json, recording.json) a loader reads (docs/tasks.md, "Limits"). */
const ANNOTATION_FILE_LIMIT = 64 * 1024 * 1024;

/**
 * A JSON file's value (undefined when there is no such file); its bytes must be UTF-8 without a byte order mark, at
 * most ANNOTATION_FILE_LIMIT of them.
 */
async function readJson(file: string): Promise<unknown | undefined> {
  let text: string;
  try {
    const fail = (p: { message: string; line: number }) => new TaskFormatError(`${file} ${p.message}`, file, p.line);
    text = await readUtf8File(file, fail, ANNOTATION_FILE_LIMIT);
  } catch (e) {
    if (e instanceof TaskFormatError) throw e;
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw new TaskFormatError(`cannot read ${file}: ${(e as Error).message}`, file, undefined, { cause: e });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new TaskFormatError(`${file}: not JSON: ${(e as Error).message}`, file, undefined, { cause: e });
  }
}

/** Parses `value` with `schema`; a failure is a TaskFormatError naming the file and the field. */
function parseFile<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const r = schema.safeParse(value, { error: errorMap });
  if (!r.success) throw new TaskFormatError(`${file}: ${describeIssues(r.error)}`, file, undefined, { cause: r.error });
  return r.data;
}

async function folders(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isDirectory && !e.name.startsWith(".")) out.push(e.name);
  } catch (e) {
    throw new TaskFormatError(`cannot read the annotations folder ${dir}: ${(e as Error).message}`, dir, undefined, {
      cause: e,
    });
  }
  return out.sort();
}

/**
 * Reads one task folder: task.json and verifier.json (both required; an annotation in progress belongs outside
 * the annotations folder), and recording.json when there is one.
 * @throws TaskFormatError naming the file and field of the first problem.
 */
export async function loadHumanTask(dir: string, key: string): Promise<HumanTask> {
  return (await readHumanTask(dir, key, STRICT))!;
}

/** A task folder, read in `mode`; undefined when a lenient read skips it (no verifier.json). */
async function readHumanTask(dir: string, key: string, mode: ReadMode): Promise<HumanTask | undefined> {
  const taskFile = join(dir, "task.json");
  const verifierFile = join(dir, "verifier.json");
  const taskId = key.split("/").pop()!;
  const idProblem = taskIdProblem(taskId);
  if (idProblem) throw new TaskFormatError(`${dir}: the folder name is not a task id: ${idProblem}`, dir);
  const rawTask = await readJson(taskFile);
  if (rawTask === undefined) throw new TaskFormatError(`${dir}: has no task.json (${TASK_FOLDER})`, taskFile);
  const rawVerifier = await readJson(verifierFile);
  if (rawVerifier === undefined) {
    if (!mode.strict) {
      mode.warn(`${dir}: skipped: task.json but no verifier.json, as the seed skips it (--strict refuses it)`);
      return undefined;
    }
    throw new TaskFormatError(`${dir}: has task.json but no verifier.json (${TASK_FOLDER})`, verifierFile);
  }
  const file: HumanTaskFile = parseFile(
    taskFileSchema(mode.strict),
    lenientKeys(rawTask, taskFile, HUMAN_TASK_KEYS, mode),
    taskFile,
  );
  if (!mode.strict) {
    const outside = file.macros.filter((m) => !isMacro(m.split("#")[0]));
    if (outside.length) {
      mode.warn(
        `${taskFile}: macro(s) ${outside.map((m) => quote(m)).join(", ")} outside the vocabulary: family "Other", ` +
          "routed to the rest adapter as the seed routes them (--strict refuses them)",
      );
    }
  }
  if (file.task_id !== undefined && file.task_id !== taskId) {
    throw new TaskFormatError(`${taskFile}: task_id: "${file.task_id}" differs from its folder "${taskId}"`, taskFile);
  }
  const verifier: HumanVerifier = parseFile(
    verifierFileSchema(mode.strict),
    lenientKeys(rawVerifier, verifierFile, VERIFIER_KEYS, mode),
    verifierFile,
  );
  for (const label of Object.keys(verifier.macros)) {
    if (!file.macros.includes(label)) {
      throw new TaskFormatError(
        `${verifierFile}: macros.${label}: is not one of task.json's macros (${file.macros.join(", ")})`,
        verifierFile,
      );
    }
  }
  const recordingFile = join(dir, "recording.json");
  const rawRecording = await readJson(recordingFile);
  const recording: Recording | null = rawRecording === undefined
    ? null
    : parseFile(recordingSchema, rawRecording, recordingFile);
  return resolveHumanTask(taskId, key, dir, file, verifier, recording);
}

/**
 * task.json or verifier.json without the keys the seed's tooling ignores (`known` are the file's keys), each file's
 * warned once (strict: as it is).
 */
function lenientKeys(raw: unknown, file: string, known: readonly string[], mode: ReadMode): unknown {
  if (mode.strict || typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  if (unknown.length === 0) return raw;
  mode.warn(`${file}: ignored unknown key(s) ${unknown.map((k) => quote(k)).join(", ")} (--strict refuses them)`);
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !unknown.includes(k)));
}

/**
 * The tasks whose every site is in the split file: a site it does not name would leave its task in no split. Strict,
 * such a task is refused; else it is left out, as the seed leaves it out, with one warning naming its task.json.
 */
function splitSites(tasks: readonly HumanTask[], s: SiteSplit, splitFile: string, mode: ReadMode): HumanTask[] {
  const named = new Set([...s.train, ...s.test]);
  const kept: HumanTask[] = [];
  for (const task of tasks) {
    const site = task.sites.find((x) => !named.has(x));
    if (site === undefined) {
      kept.push(task);
      continue;
    }
    const file = join(task.dir, "task.json");
    const why = `${file}: ${task.sites.length > 1 ? "sites" : "site"}: ${quote(site)} is in neither split of ` +
      `${splitFile} (train: ${s.train.join(", ") || "none"}; test: ${s.test.join(", ")})`;
    if (mode.strict) throw new TaskFormatError(why, file);
    mode.warn(`${why}: left out, as the seed leaves it out (--strict refuses it)`);
  }
  return kept;
}

function hasMacro(task: HumanTask, wanted: Set<string>): boolean {
  return task.macros.some((m) => wanted.has(m) || wanted.has(m.split("#")[0]));
}

/** The macro labels of a selection, each checked (a typo would select nothing). */
function wantedMacros(macros: Iterable<string>): Set<string> {
  const wanted = new Set(macros);
  if (wanted.size === 0) throw new UsageError("--human-macros names no macro");
  for (const m of wanted) {
    const r = macroLabelSchema.safeParse(m);
    if (!r.success) throw new UsageError(`--human-macros: ${r.error.issues[0].message}`);
  }
  return wanted;
}

/** Every task of the annotations folder, checked, with no task id used twice. */
async function loadAllHumanTasks(dir: string, mode: ReadMode): Promise<HumanTask[]> {
  const all: HumanTask[] = [];
  const seen = new Map<string, string>();
  for (const siteDir of await folders(dir)) {
    for (const taskDir of await folders(join(dir, siteDir))) {
      const key = `${siteDir}/${taskDir}`;
      const task = await readHumanTask(join(dir, siteDir, taskDir), key, mode);
      if (task === undefined) continue;
      const first = seen.get(task.task_id);
      if (first) {
        throw new TaskFormatError(`${join(dir, key)}: task id ${quote(task.task_id)} is also ${first}`, task.dir);
      }
      seen.set(task.task_id, key);
      all.push(task);
    }
  }
  if (all.length === 0) {
    throw new TaskFormatError(`${dir} has no human tasks (expected <site>/<task_id>/ folders: ${TASK_FOLDER})`, dir);
  }
  return all;
}

/**
 * The human tasks of a split (optionally only those with one of `macros`), sorted by `<site>/<task>`.
 * @throws TaskFormatError naming the file and field of a malformed task, verifier, recording or split file, a
 *   task folder without its files, a task id used twice, or an annotations folder without tasks.
 * @throws UsageError when `macros` names something that is not a macro label, or the selection leaves no task.
 */
export async function loadHumanTasks(options: LoadHumanTasksOptions): Promise<HumanTask[]> {
  const dir = options.annotationsDir;
  const split = options.split ?? "test";
  const sites = options.sites ? new Set(options.sites) : undefined;
  const splitFile = options.splitFile ?? join(dir, "site_split.json");
  const siteSplit = sites ? undefined : await loadSiteSplit(splitFile);
  const macros = options.macros ? wantedMacros(options.macros) : undefined;
  const mode: ReadMode = {
    strict: options.strict ?? false,
    warn: options.warn ?? ((line) => console.error(`warning: ${line}`)),
  };
  const loaded = await loadAllHumanTasks(dir, mode);
  const all = siteSplit ? splitSites(loaded, siteSplit, splitFile, mode) : loaded;
  const inSites = all.filter((t) => sites ? t.sites.some((x) => sites.has(x)) : inSplit(t, split, siteSplit!));
  if (inSites.length === 0) {
    throw new InputError(
      sites
        ? `no human task in ${dir} is on one of the sites ${[...sites].map(quote).join(", ")}`
        : `--human-split ${quote(split)}: no human task in ${dir} is on its sites`,
    );
  }
  if (!macros) return inSites;
  const picked = inSites.filter((t) => hasMacro(t, macros));
  if (picked.length === 0) {
    const list = quote([...macros].join(","));
    throw new InputError(
      all.some((t) => hasMacro(t, macros))
        ? `--human-macros ${list}: no task of --human-split ${quote(split)} has one of these macros`
        : `--human-macros ${list}: no human task in ${dir} has one of these macros`,
    );
  }
  return picked;
}
