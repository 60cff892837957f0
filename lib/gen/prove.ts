/**
 * The proof a generated instance passes before it is shipped (docs/generation.md, "The proof"): through the real
 * browser and the real sandbox, its reference solution must pass, doing nothing must fail, and each of its
 * template's near misses must fail with its reason code while its witness holds. An instance that fails any of
 * them is dropped, with why.
 */
import { errorMessage } from "../errors/mod.ts";
import type { ActionCall, Condition, Evidence } from "../grading/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { regradeLine } from "../results/mod.ts";
import { runConfig, runEval } from "../run/mod.ts";
import { EPISODE_FILES, type EpisodeResult, readGradeInputs, RunFolder } from "../run_folder/mod.ts";
import type { RunTask, Task } from "../tasks/mod.ts";
import { seedDb } from "./data.ts";
import type { AnyTemplate, Params } from "./template.ts";
import { type Expectation, outcomeProblem, savedEvidence, type Script, scriptedArm } from "./variants.ts";

/** An instance the proof dropped, and why. */
export interface Dropped {
  /** The instance's task id. */
  task_id: string;
  /** The template it came from. */
  template: string;
  /** Each failed proof: `reference: rejected (...)`, `noop: false pass`, `near miss X: false pass`. */
  problems: string[];
}

/** What a proof run found. */
export interface ProofReport {
  /** The instances that passed every proof, in input order. */
  kept: Task[];
  /** The instances that failed a proof, in input order, each with why. */
  dropped: Dropped[];
  /** Episodes proven (reference, noop, near misses and alternatives), live or recorded. */
  episodes: number;
  /** Of `episodes`, those regraded from a recording instead of run in the browser. */
  recorded: number;
  /** Wall time of the episodes, in seconds. */
  seconds: number;
  /**
   * The macro layer's proofs run, per macro and kind: `"search attack typed_url"`, `"search alternative keyboard"`
   * (an attack failed for its reason, an alternative passed, or the instance was dropped for it).
   */
  layer: Record<string, number>;
}

/** How to run a proof. */
export interface ProofOptions {
  /** Parallel browsers (default 2). */
  workers?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Stops the run: the episodes under way finish, no more start. */
  signal?: AbortSignal;
  /**
   * Episodes recorded in the browser earlier: one whose key ({@link episodeKey}) has a recording is regraded
   * offline from it with the instance's current check instead of being run; every live episode is offered to `put`.
   */
  recordings?: EpisodeRecordings;
}

/** An episode as the browser left it: its results line and its grade_inputs.json, to be regraded later. */
export interface RecordedEpisode {
  result: EpisodeResult;
  inputs: unknown;
}

/** Where a proof finds and keeps recorded episodes (tests/support/recordings.ts keeps them in a file). */
export interface EpisodeRecordings {
  /** The recording of the episode `key` names; undefined runs it live. */
  get(key: string): RecordedEpisode | undefined;
  /** Keeps what a live episode left. */
  put(key: string, episode: RecordedEpisode): void;
  /**
   * Whether the recorded episode `key` also runs live, as a sample: the proof then fails it when the browser's
   * verdict and the recording's (both graded with the current check) disagree.
   */
  sample?(key: string): boolean;
}

const NOOP = "~noop";
const NEAR = "~nm~";
const ALT = "~alt~";

interface Planned {
  task: Task;
  episodes: { id: string; label: string; expect: Expectation; layer?: string; script?: Script }[];
  problems: string[];
}

/** The episodes proving `task`: reference, noop, and its template's near misses. */
function plan(task: Task, byId: ReadonlyMap<string, AnyTemplate>, scripts: Map<string, Script>): Planned {
  const planned: Planned = { task, episodes: [], problems: [] };
  const t = task.gen && byId.get(task.gen.template);
  if (!t) {
    planned.problems.push(task.gen ? `no template "${task.gen.template}"` : "not a generated task (no gen field)");
    return planned;
  }
  planned.episodes.push({ id: task.task_id, label: "reference", expect: { expect: "pass" } });
  scripts.set(task.task_id + NOOP, { steps: [], answer: "" });
  planned.episodes.push({
    id: task.task_id + NOOP,
    script: scripts.get(task.task_id + NOOP),
    label: "noop",
    expect: { expect: "fail" },
  });
  const p = (task.option ?? {}) as Params, db = seedDb(t.site), style = task.style ?? "procedure";
  const misses = t.nearMisses(p, db, style);
  if (misses.length < 2) planned.problems.push(`template ${t.id} gives ${misses.length} near misses, not 2 or more`);
  for (const m of misses) {
    const id = `${task.task_id}${NEAR}${m.name}`;
    scripts.set(id, {
      steps: m.steps as ActionCall[] | undefined,
      after_reference: m.after_reference as ActionCall[] | undefined,
      answer: m.answer,
    });
    planned.episodes.push({
      id,
      script: scripts.get(id),
      label: `${m.attack ? "attack" : "near miss"} ${m.name}`,
      expect: { expect: "fail", reason: m.reason, witness: m.witness as unknown as Condition },
      layer: m.attack && `${m.attack.macro} attack ${m.attack.kind}`,
    });
  }
  for (const a of t.alternatives?.(p, db, style) ?? []) {
    const id = `${task.task_id}${ALT}${a.name}`;
    scripts.set(id, { steps: a.steps as ActionCall[] });
    planned.episodes.push({
      id,
      script: scripts.get(id),
      label: `alternative ${a.name}`,
      expect: { expect: "pass" },
      layer: `${a.macro} alternative ${a.kind}`,
    });
  }
  return planned;
}

/**
 * The key of what an episode does in the browser: the task's site, start and reference solution and the script that
 * replaces or extends it. Its check, text and id are left out, so a recording stays valid while a rule changes.
 */
export function episodeKey(task: Task, script: Script | undefined): Promise<string> {
  return sha256Hex(JSON.stringify([task.site, task.start, task.solution, script ?? null]));
}

/** An episode's outcome: its results line and its evidence (read only when a witness needs it). */
interface Outcome {
  result?: EpisodeResult;
  evidence?: Evidence;
  /** Why a recording could not be regraded. */
  problem?: string;
}

/** `episode`'s recording regraded with `task`, the instance's current task. */
async function regradeRecording(rec: RecordedEpisode, task: RunTask, needEvidence: boolean): Promise<Outcome> {
  try {
    const saved = readGradeInputs(rec.inputs, `recording of ${task.task_id}`, task);
    const { line } = await regradeLine({ ...rec.result, task_id: task.task_id }, saved, task, {});
    return { result: line, evidence: needEvidence ? savedEvidence(saved, task.task_id) : undefined };
  } catch (err) {
    return { problem: `recording cannot be regraded: ${errorMessage(err)}` };
  }
}

/** A live outcome, failed when the episode's recording (a sample run both ways) graded otherwise. */
function disagreement(live: Outcome, recorded: Outcome | undefined): Outcome {
  if (!recorded || live.problem) return live;
  const verdict = (o: Outcome) => o.problem ?? (o.result?.ok ? "pass" : `fail (${o.result?.reason ?? "no reason"})`);
  if (verdict(live) === verdict(recorded)) return live;
  return {
    ...live,
    problem: `the browser and its recording disagree: live ${verdict(live)}, recorded ${verdict(recorded)}`,
  };
}

/** Runs `tasks` in the browser; each outcome by task id, and each episode offered to `recordings`. */
async function runLive(
  tasks: RunTask[],
  scripts: Map<string, Script>,
  keys: ReadonlyMap<string, string>,
  options: ProofOptions,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  if (!tasks.length) return outcomes;
  const out = await Deno.makeTempDir({ prefix: "webmix-gen-proof-" });
  try {
    const config = runConfig({ arm: "replay", out, workers: options.workers ?? 2, stepScreenshots: false });
    const summary = await runEval(config, {
      tasks,
      arm: scriptedArm(scripts),
      log: options.log ?? (() => {}),
      signal: options.signal,
    });
    const folder = await RunFolder.open(out);
    for (const result of summary.results) {
      const file = folder.episodeFile(result.episode, EPISODE_FILES.gradeInputs);
      const inputs: unknown = await Deno.readTextFile(file).then(JSON.parse, () => undefined);
      let evidence: Evidence | undefined;
      try {
        if (inputs !== undefined) evidence = savedEvidence(readGradeInputs(inputs, file), result.episode);
      } catch { /* no evidence: a witness then says so */ }
      outcomes.set(result.task_id, { result, evidence });
      const key = keys.get(result.task_id);
      if (key && inputs !== undefined && !result.error) options.recordings?.put(key, { result, inputs });
    }
    return outcomes;
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}

/**
 * Proves `tasks` (generated instances) with the templates that made them: each episode run in the browser, or
 * regraded from its recording when `options.recordings` holds one.
 * @throws UsageError when the run cannot start (no Chromium, a bad configuration).
 */
export async function prove(
  tasks: readonly Task[],
  templates: readonly AnyTemplate[],
  options: ProofOptions = {},
): Promise<ProofReport> {
  const byId = new Map(templates.map((t) => [t.id, t]));
  const scripts = new Map<string, Script>();
  const plans = tasks.map((task) => plan(task, byId, scripts));
  const started = performance.now();
  const outcomes = new Map<string, Outcome>();
  const live: RunTask[] = [];
  const keys = new Map<string, string>();
  let recorded = 0;
  const sampled = new Map<string, Outcome>();
  for (const p of plans.filter((p) => !p.problems.length)) {
    for (const e of p.episodes) {
      const task = { ...p.task, task_id: e.id } as RunTask;
      const key = await episodeKey(p.task, e.script);
      const rec = options.recordings?.get(key);
      const regraded = rec && await regradeRecording(rec, task, e.expect.witness !== undefined);
      if (regraded && !options.recordings?.sample?.(key)) {
        outcomes.set(e.id, regraded);
        recorded++;
        continue;
      }
      if (regraded) sampled.set(e.id, regraded);
      live.push(task);
      keys.set(e.id, key);
    }
  }
  for (const [id, o] of await runLive(live, scripts, keys, options)) outcomes.set(id, disagreement(o, sampled.get(id)));
  const report: ProofReport = {
    kept: [],
    dropped: [],
    episodes: live.length + recorded,
    recorded,
    seconds: 0,
    layer: {},
  };
  for (const p of plans) {
    for (const e of p.episodes) {
      if (e.layer) report.layer[e.layer] = (report.layer[e.layer] ?? 0) + 1;
      const o = outcomes.get(e.id);
      const problem = o?.problem ?? outcomeProblem(e.expect, o?.result, o?.evidence);
      if (problem) p.problems.push(`${e.label}: ${problem}`);
    }
    if (p.problems.length) {
      report.dropped.push({ task_id: p.task.task_id, template: p.task.gen?.template ?? "", problems: p.problems });
    } else report.kept.push(p.task);
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
