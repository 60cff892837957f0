/**
 * Loading human tasks: annotations/<site>/<task_id>/{task.json, verifier.json, recording.json} and the site split
 * (the seed's human_tasks). A malformed file stops the load with its path and the field.
 */
import { join } from "node:path";
import type { z } from "zod";
import { TaskFormatError } from "../errors/mod.ts";
import { describeIssues, errorMap, type HumanVerifier } from "../grading/mod.ts";
import {
  type HumanTaskFile,
  humanTaskFileSchema,
  humanVerifierSchema,
  type Recording,
  recordingSchema,
  type SiteSplit,
  siteSplitSchema,
} from "./human_schema.ts";
import { type HumanTask, resolveHumanTask } from "./human_task.ts";

/** Which human tasks a run takes. */
export type HumanSplit = "test" | "train" | "all";

export interface LoadHumanTasksOptions {
  /** The annotations folder (`fixtures/annotations`). */
  annotationsDir: string;
  /** test: tasks on a held-out site; train: tasks only on train sites; all: both (default "test"). */
  split?: HumanSplit;
  /** The split file (default `<annotationsDir>/site_split.json`). */
  splitFile?: string;
  /** Only tasks with one of these macros (`search`, or a numbered label `submit_form#2`). */
  macros?: Iterable<string>;
  /** Instead of the split's sites: the tasks on any of these sites. */
  sites?: Iterable<string>;
}

async function readJson(file: string): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
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
export function parseFile<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const r = schema.safeParse(value, { error: errorMap });
  if (!r.success) throw new TaskFormatError(`${file}: ${describeIssues(r.error)}`, file, undefined, { cause: r.error });
  return r.data;
}

/**
 * Reads the site split file.
 * @throws TaskFormatError when it is missing or malformed.
 */
export async function loadSiteSplit(file: string): Promise<SiteSplit> {
  const raw = await readJson(file);
  if (raw === undefined) throw new TaskFormatError(`cannot read the site split ${file}: no such file`, file);
  return parseFile(siteSplitSchema, raw, file);
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
 * Reads one task folder. Undefined when it has no task.json or no verifier.json yet (an annotation in progress).
 * @throws TaskFormatError naming the file and field of the first problem.
 */
export async function loadHumanTask(dir: string, key: string): Promise<HumanTask | undefined> {
  const taskFile = join(dir, "task.json");
  const verifierFile = join(dir, "verifier.json");
  const rawTask = await readJson(taskFile);
  const rawVerifier = rawTask === undefined ? undefined : await readJson(verifierFile);
  if (rawTask === undefined || rawVerifier === undefined) return undefined;
  const file: HumanTaskFile = parseFile(humanTaskFileSchema, rawTask, taskFile);
  const taskId = key.split("/").pop()!;
  if (!/^[A-Za-z0-9_.-]+$/.test(taskId)) {
    throw new TaskFormatError(`${dir}: the folder name "${taskId}" is not a task id ([A-Za-z0-9_.-]+)`, dir);
  }
  if (file.task_id !== undefined && file.task_id !== taskId) {
    throw new TaskFormatError(`${taskFile}: task_id: "${file.task_id}" differs from its folder "${taskId}"`, taskFile);
  }
  const verifier: HumanVerifier = parseFile(humanVerifierSchema, rawVerifier, verifierFile);
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

/** Whether the task belongs to the split (the seed's rule; a task is held out when any of its sites is). */
function inSplit(task: HumanTask, split: HumanSplit, s: SiteSplit): boolean {
  const test = task.sites.some((x) => s.test.includes(x));
  if (split === "test") return test;
  const train = task.sites.some((x) => s.train.includes(x));
  return split === "train" ? train && !test : train || test;
}

function hasMacro(task: HumanTask, wanted: Set<string>): boolean {
  return task.macros.some((m) => wanted.has(m) || wanted.has(m.split("#")[0]));
}

/**
 * The human tasks of a split (optionally only those with one of `macros`), sorted by `<site>/<task>`.
 * @throws TaskFormatError naming the file and field of a malformed task, verifier, recording or split file, or
 *   a task id used twice.
 */
export async function loadHumanTasks(options: LoadHumanTasksOptions): Promise<HumanTask[]> {
  const dir = options.annotationsDir;
  const split = options.split ?? "test";
  const sites = options.sites ? new Set(options.sites) : undefined;
  const siteSplit = sites ? undefined : await loadSiteSplit(options.splitFile ?? join(dir, "site_split.json"));
  const macros = options.macros ? new Set(options.macros) : undefined;
  const out: HumanTask[] = [];
  const seen = new Map<string, string>();
  for (const siteDir of await folders(dir)) {
    for (const taskDir of await folders(join(dir, siteDir))) {
      const key = `${siteDir}/${taskDir}`;
      const task = await loadHumanTask(join(dir, siteDir, taskDir), key);
      if (!task) continue;
      const first = seen.get(task.task_id);
      if (first) throw new TaskFormatError(`${join(dir, key)}: task id "${task.task_id}" is also ${first}`, task.dir);
      seen.set(task.task_id, key);
      if (sites ? !task.sites.some((x) => sites.has(x)) : !inSplit(task, split, siteSplit!)) continue;
      if (macros && !hasMacro(task, macros)) continue;
      out.push(task);
    }
  }
  return out;
}
