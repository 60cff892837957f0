/**
 * Reading a run folder for the report: the manifest (run.json), the episodes' latest grades (results_regraded.jsonl
 * over results.jsonl) and every model request of every episode (steps.jsonl, else trace.json).
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import { errorMessage, HarnessError, UsageError } from "../errors/mod.ts";
import { describeIssues, errorMap } from "../grading/mod.ts";
import { childPath, parseJsonLines, readTextIfExists } from "../io/mod.ts";
import { type EpisodeResult, type EpisodeStatus, readRunResults, statusOf } from "../results/mod.ts";
import { familyOf } from "../tasks/mod.ts";

/** An episode's line with its status and family always set. */
export interface ReportResult extends EpisodeResult {
  status: EpisodeStatus;
  family: string;
}

/** One model request (or model-free step) of an episode, from steps.jsonl or trace.json. */
export interface StepLine {
  episode: string;
  /** The served model (adapter) name; null for a model-free step (replay, noop). */
  model: string | null;
  /** The family the arm planned for the request; null when it planned none or the source does not say. */
  family: string | null;
  gated: boolean;
  /** Whether the request showed a router note; undefined when the source cannot say (trace.json). */
  note?: boolean;
  promptTokens?: number;
  completionTokens?: number;
  latencyMs?: number;
}

/** What run.json says that the report shows. */
export interface ManifestInfo {
  arm?: string;
  repeats?: number;
  taskCount?: number;
  /** A merged run's shards, as run.json lists them. */
  shards?: unknown[];
  /** run.json's settings, whole. */
  settings?: Record<string, unknown>;
}

/** A run folder as the report reads it. */
export interface RunData {
  /** The folder as given. */
  dir: string;
  manifest?: ManifestInfo;
  /** One line per (task_id, repeat): the last one. */
  results: ReportResult[];
  /** Whether the grades come from results_regraded.jsonl. */
  regraded: boolean;
  /** What the reader of the report should know about the inputs (stale or superseded lines). */
  notes: string[];
  steps: StepLine[];
  /** How many episodes' steps came from steps.jsonl, from trace.json, or from neither. */
  stepSources: { steps: number; trace: number; none: number };
}

const manifestSchema = z.object({
  settings: z.object({ arm: z.string().optional(), repeats: z.number().optional() }).loose().optional(),
  tasks: z.object({ count: z.number().optional() }).loose().optional(),
  shards: z.array(z.unknown()).optional(),
}).loose();

// The fields of lib/agent's StepRecord (steps.jsonl) and of a trace.json entry that the report reads.
const stepSchema = z.object({
  model: z.string().nullable().optional(),
  family: z.string().nullable().optional(),
  gated: z.boolean().optional(),
  note: z.string().nullable().optional(),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).loose()
    .nullable().optional(),
  latency_ms: z.number().optional(),
}).loose();

type RawStep = z.infer<typeof stepSchema>;

/** The text of a file, or undefined when it does not exist. */
function readOptional(file: string): Promise<string | undefined> {
  return readTextIfExists(file).catch((err) => {
    throw new HarnessError(`cannot read ${file}: ${errorMessage(err)}`, { cause: err });
  });
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value, { error: errorMap });
  if (!r.success) throw new HarnessError(`cannot read ${where}: ${describeIssues(r.error)}`, { cause: r.error });
  return r.data;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HarnessError(`cannot read ${file}: not JSON: ${errorMessage(err)}`, { cause: err });
  }
}

/** The episodes' latest grades (lib/results readRunResults), with status and family always set. */
async function loadResults(dir: string): Promise<Pick<RunData, "results" | "regraded" | "notes">> {
  const run = await readRunResults(dir);
  const notes: string[] = [];
  if (run.superseded) {
    notes.push(`${run.superseded} earlier line(s) of an episode in results.jsonl: the last one of each is used`);
  }
  if (run.unregraded.length) {
    notes.push(
      `${run.unregraded.length} episode(s) of results.jsonl are not in results_regraded.jsonl: graded as recorded`,
    );
  }
  if (run.rerun.length) {
    notes.push(
      `${run.rerun.length} episode(s) ran again after results_regraded.jsonl was written: run regrade again for ` +
        `current grades`,
    );
  }
  const results = run.results.map((r) => ({
    ...r,
    status: r.status ?? statusOf(r),
    family: r.family ?? familyOf(r.macro ?? ""),
  }));
  return { results, regraded: run.regraded, notes };
}

function stepLine(episode: string, s: RawStep, withNote: boolean): StepLine {
  return {
    episode,
    model: s.model ?? null,
    family: s.family ?? null,
    gated: s.gated === true,
    ...(withNote ? { note: typeof s.note === "string" && s.note !== "" } : {}),
    promptTokens: s.usage?.prompt_tokens,
    completionTokens: s.usage?.completion_tokens,
    latencyMs: s.latency_ms,
  };
}

/** An episode's steps from steps.jsonl (a crash's partial last line skipped), else trace.json; undefined when neither. */
async function loadSteps(
  dir: string,
  episode: string,
): Promise<{ from: "steps" | "trace"; steps: StepLine[] } | undefined> {
  const folder = childPath(dir, episode);
  const stepsFile = join(folder, "steps.jsonl");
  const jsonl = await readOptional(stepsFile);
  if (jsonl !== undefined) {
    const fail = (line: number, why: string, cause?: unknown) =>
      new HarnessError(`cannot read ${stepsFile} line ${line}: ${why}`, { cause });
    const { lines } = parseJsonLines(jsonl, fail, { partialTail: true });
    const steps = lines.map((l) =>
      stepLine(episode, parseWith(stepSchema, l.value, `${stepsFile} line ${l.line}`), true)
    );
    return { from: "steps", steps };
  }
  const traceFile = join(folder, "trace.json");
  const trace = await readOptional(traceFile);
  if (trace === undefined) return undefined;
  const entries = parseWith(z.array(stepSchema), parseJson(trace, traceFile), traceFile);
  return { from: "trace", steps: entries.map((s) => stepLine(episode, s, false)) };
}

/**
 * Reads the run folder `dir`; with `steps: false`, not its episodes' model requests (`steps` stays empty: the viewer
 * reads each episode's steps itself).
 * @throws UsageError when it is not a folder or holds no results.jsonl; HarnessError naming the file (and line) of
 *   anything that cannot be read.
 */
export async function loadRun(dir: string, options: { steps?: boolean } = {}): Promise<RunData> {
  const info = await Deno.stat(dir).catch((err) => {
    const why = err instanceof Deno.errors.NotFound ? "no such folder" : errorMessage(err);
    throw new UsageError(`"${dir}": ${why}`, { cause: err });
  });
  if (!info.isDirectory) throw new UsageError(`"${dir}" is a file, not a run's output folder`);
  const { results, regraded, notes } = await loadResults(dir);
  const manifestFile = join(dir, "run.json");
  const manifestText = await readOptional(manifestFile);
  const m = manifestText === undefined
    ? undefined
    : parseWith(manifestSchema, parseJson(manifestText, manifestFile), manifestFile);
  const manifest = m && {
    arm: m.settings?.arm,
    repeats: m.settings?.repeats,
    taskCount: m.tasks?.count,
    shards: m.shards,
    settings: m.settings,
  };
  const steps: StepLine[] = [];
  const stepSources = { steps: 0, trace: 0, none: 0 };
  for (const r of options.steps === false ? [] : results) {
    const found = await loadSteps(dir, r.episode ?? r.task_id);
    stepSources[found?.from ?? "none"]++;
    if (found) steps.push(...found.steps);
  }
  return { dir, manifest, results, regraded, notes, steps, stepSources };
}
