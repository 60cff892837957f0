/**
 * Reading a run folder for the report: the manifest (run.json), the episodes' latest grades (results_regraded.jsonl
 * over results.jsonl) and every model request of every episode (steps.jsonl, else trace.json).
 * @module
 */
import {
  type EpisodeResult,
  type EpisodeStatus,
  type ManifestSettings,
  RunFolder,
  statusOf,
  type StepRecord,
  type TraceEntry,
} from "../run_folder/mod.ts";
import { clusterOfTaskId, familyOf } from "../protocol/mod.ts";

/** An episode's line with its status and family always set. */
export interface ReportResult extends EpisodeResult {
  /** The episode's status: the line's own, else the one its fields give (statusOf). */
  status: EpisodeStatus;
  /** The task's family: the line's own, else its macro's. */
  family: string;
  /** The episode's cluster: the line's own, else derived from its task id (clusterOfTaskId); --cluster-by's key. */
  cluster: string;
}

/** One model request (or model-free step) of an episode, from steps.jsonl or trace.json. */
export interface StepLine {
  /** The episode's folder name. */
  episode: string;
  /** The served model (adapter) name; null for a model-free step (replay, noop). */
  model: string | null;
  /** The family the arm planned for the request; null when it planned none or the source does not say. */
  family: string | null;
  /** Whether the router turned the reply's premature done into macro_done. */
  gated: boolean;
  /** Whether the request showed a router note; undefined when the source cannot say (trace.json). */
  note?: boolean;
  /** The request's prompt tokens; undefined when not recorded. */
  promptTokens?: number;
  /** The request's completion tokens; undefined when not recorded. */
  completionTokens?: number;
  /** How long the request took, in ms; undefined when not recorded. */
  latencyMs?: number;
}

/** What run.json says that the report shows. */
export interface ManifestInfo {
  /** The arm that ran. */
  arm: string;
  /** Episodes per task. */
  repeats: number;
  /** How many tasks were selected. */
  taskCount: number;
  /** A merged run's shards, as run.json lists them. */
  shards?: unknown[];
  /** run.json's settings, whole. */
  settings: ManifestSettings;
}

/** A run folder as the report reads it. */
export interface RunData {
  /** The folder as given. */
  dir: string;
  /** The folder, opened with the run-folder reader (the viewer reads its episodes through it). */
  folder: RunFolder;
  /** What run.json says; undefined when the folder has none. */
  manifest?: ManifestInfo;
  /** One line per (task_id, repeat): the last one. */
  results: ReportResult[];
  /** Whether the grades come from results_regraded.jsonl. */
  regraded: boolean;
  /** What the reader of the report should know about the inputs (stale, superseded or cut-short lines). */
  notes: string[];
  /** The notes that are damage a user should be warned of: lines a crash cut short. */
  problems: string[];
  /** Every model request of every episode, in the results' order (empty when loaded with `steps: false`). */
  steps: StepLine[];
  /** How many episodes' steps came from steps.jsonl, from trace.json, or from neither. */
  stepSources: { steps: number; trace: number; none: number };
}

/** The episodes' latest grades (RunFolder.latest), with status and family always set. */
async function loadResults(folder: RunFolder): Promise<Pick<RunData, "results" | "regraded" | "notes" | "problems">> {
  const run = await folder.latest();
  const notes: string[] = [...run.problems];
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
    cluster: r.cluster ?? clusterOfTaskId(r.task_id),
  }));
  const derived = run.results.filter((r) => r.cluster === undefined).length;
  if (derived) {
    notes.push(
      `${derived} line(s) carry no \`cluster\` (written before it was): each one's cluster is derived from its ` +
        "task id (a generated id's template, else the task itself)",
    );
  }
  return { results, regraded: run.regraded, notes, problems: [...run.problems] };
}

/** A step record's line (steps.jsonl). */
function recordLine(episode: string, s: StepRecord): StepLine {
  return {
    episode,
    model: s.model,
    family: s.family,
    gated: s.gated === true,
    note: typeof s.note === "string" && s.note !== "",
    promptTokens: s.usage?.prompt_tokens,
    completionTokens: s.usage?.completion_tokens,
    latencyMs: s.latency_ms,
  };
}

/** A trace.json entry's line (a run from before step records): no router note recorded. */
function traceLine(episode: string, t: TraceEntry): StepLine {
  return {
    episode,
    model: t.model,
    family: t.family ?? null,
    gated: t.gated === true,
    promptTokens: t.usage?.prompt_tokens,
    completionTokens: t.usage?.completion_tokens,
    latencyMs: t.latency_ms,
  };
}

/**
 * An episode's steps from steps.jsonl (a last line a crash cut short is noted, the steps before it kept), else
 * trace.json; undefined when neither.
 */
async function loadSteps(
  folder: RunFolder,
  episode: string,
  problems: string[],
): Promise<{ from: "steps" | "trace"; steps: StepLine[] } | undefined> {
  const records = await folder.steps(episode);
  if (records) {
    if (records.cut) {
      problems.push(`episode "${episode}": steps.jsonl line ${records.cut.line} was cut short (a crash mid-write)`);
    }
    return { from: "steps", steps: records.records.map((s) => recordLine(episode, s)) };
  }
  const trace = await folder.trace(episode);
  if (trace === undefined) return undefined;
  return { from: "trace", steps: trace.map((t) => traceLine(episode, t)) };
}

/**
 * Reads the run folder `dir` with the run-folder reader; with `steps: false`, not its episodes' model requests
 * (`steps` stays empty: the viewer reads each episode's steps itself).
 * @throws UsageError when it is not a folder or holds no results.jsonl; RunFolderError naming the file (and line) of
 *   anything that cannot be read
 */
export async function loadRun(dir: string, options: { steps?: boolean } = {}): Promise<RunData> {
  const folder = await RunFolder.open(dir);
  const { results, regraded, notes, problems } = await loadResults(folder);
  const m = folder.manifest;
  const manifest = m && {
    arm: m.settings.arm,
    repeats: m.settings.repeats,
    taskCount: m.tasks.count,
    shards: m.shards,
    settings: m.settings,
  };
  const steps: StepLine[] = [];
  const stepSources = { steps: 0, trace: 0, none: 0 };
  for (const r of options.steps === false ? [] : results) {
    const found = await loadSteps(folder, r.episode, problems);
    stepSources[found?.from ?? "none"]++;
    if (found) steps.push(...found.steps);
  }
  // A problem is told where the report's reader sees it: among the notes.
  const told = new Set(notes);
  return {
    dir,
    folder,
    manifest,
    results,
    regraded,
    notes: [...notes, ...problems.filter((p) => !told.has(p))],
    problems,
    steps,
    stepSources,
  };
}
