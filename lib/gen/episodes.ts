/**
 * Scripted episodes (a task's reference, or a script replacing or extending it) run through the harness in the
 * browser, or regraded offline from a recording of the same episode: the proof of generated instances (prove.ts) and
 * the near-miss suite (tests/support/near_misses.ts) both run their episodes here. A recording is found by the key
 * of what the episode does in the browser, never by its check, and is regraded with the task's current check; a
 * sampled recorded episode runs live as well, and a disagreement between the two is the episode's problem.
 */
import { errorMessage } from "../errors/mod.ts";
import type { AnswerJudge } from "../grading/mod.ts";
import type { Evidence } from "../protocol/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { regradeLine } from "../regrade/mod.ts";
import { runConfig, runEval } from "../run/mod.ts";
import { type EpisodeResult, readGradeInputs, RunFolder } from "../run_folder/mod.ts";
import { kindOf, parseGradeInputs, type RunTask } from "../tasks/mod.ts";
import { savedEvidence, type Script, scriptedArm } from "./variants.ts";

/** An episode as the browser left it: its results line and its grade_inputs.json, to be regraded later. */
export interface RecordedEpisode {
  /** Its line of results.jsonl, as the run wrote it (the grade there is redone from `inputs`). */
  result: EpisodeResult;
  /** Its grade_inputs.json, parsed but not yet validated (readGradeInputs validates it on use). */
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

/** One episode to run or regrade: its task (whose id is the episode's) and what replaces its reference. */
export interface ScriptedEpisode {
  /** The task it runs, its task_id the episode's own. */
  task: RunTask;
  /** Absent: the task's reference solution. */
  script?: Script;
  /** Whether a witness will read its evidence. */
  witness: boolean;
}

/** How scripted episodes run. */
export interface ScriptedRunOptions {
  /** Parallel browsers (default 2). */
  workers?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Stops the run: the episodes under way finish, no more start. */
  signal?: AbortSignal;
  /**
   * Episodes recorded in the browser earlier: one whose key ({@link episodeKey}) has a recording is regraded
   * offline from it with its task's current check instead of being run; every live episode is offered to `put`.
   */
  recordings?: EpisodeRecordings;
  /** The LLM tier of human verifiers' answer checks, live and regraded alike. */
  qa?: AnswerJudge;
  /** The episodes include human tasks (the run loads their kind). */
  human?: boolean;
}

/** A task's fields that do not change what its episode does in the browser. */
const NOT_BEHAVIOUR = new Set([
  "task_id",
  "key",
  "dir",
  "check",
  "verifier",
  "instruction",
  "option",
  "split",
  "gen",
  "style",
  "subtasks",
  "macro",
  "macros",
]);

/**
 * The key of what an episode does in the browser: the task's site, start and reference solution (a human task's
 * start, login and recording) and the script that replaces or extends it. Its check or verifier, its text, id and
 * labels are left out, so a recording stays valid while a rule changes.
 */
export function episodeKey(task: RunTask, script: Script | undefined): Promise<string> {
  const t: Record<string, unknown> = { ...task };
  if (kindOf(task).name === "datagen") return sha256Hex(JSON.stringify([t.site, t.start, t.solution, script ?? null]));
  const acts = Object.entries(t).filter(([k]) => !NOT_BEHAVIOUR.has(k)).sort(([a], [b]) => a.localeCompare(b));
  return sha256Hex(JSON.stringify([Object.fromEntries(acts), script ?? null]));
}

/** An episode's outcome: its results line and its evidence. */
export interface Outcome {
  /** Its results line (live) or the line regraded from its recording; absent when the run never reached it. */
  result?: EpisodeResult;
  /** Its evidence, for a witness to read. */
  evidence?: Evidence;
  /** Why the episode cannot be judged: its recording could not be regraded, or its evidence read. */
  problem?: string;
}

/** `episode`'s recording regraded with `task`, the instance's current task. */
async function regradeRecording(
  rec: RecordedEpisode,
  task: RunTask,
  needEvidence: boolean,
  qa: AnswerJudge | undefined,
): Promise<Outcome> {
  try {
    const saved = readGradeInputs(rec.inputs, `recording of ${task.task_id}`, (v, f) => parseGradeInputs(v, f, task));
    const { line } = await regradeLine({ ...rec.result, task_id: task.task_id }, saved, task, { qa });
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

/**
 * Runs `tasks` in the browser; each outcome by task id (its evidence read for the ids in `witnessed`), and each
 * episode with a key offered to `recordings`.
 */
async function runLive(
  tasks: RunTask[],
  scripts: Map<string, Script>,
  keys: ReadonlyMap<string, string>,
  witnessed: ReadonlySet<string>,
  options: ScriptedRunOptions,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  if (!tasks.length) return outcomes;
  const out = await Deno.makeTempDir({ prefix: "webmix-scripted-" });
  try {
    const config = runConfig({
      arm: "replay",
      out,
      workers: options.workers ?? 2,
      stepScreenshots: false,
      ...(options.human ? { tasks: { human: true } } : {}),
    });
    const summary = await runEval(config, {
      tasks,
      arm: scriptedArm(scripts),
      qa: options.qa,
      log: options.log ?? (() => {}),
      signal: options.signal,
    });
    const folder = await RunFolder.open(out);
    for (const result of summary.results) {
      const key = keys.get(result.task_id), witness = witnessed.has(result.task_id);
      const inputs = key || witness ? await folder.gradeInputsValue(result.episode).catch(() => undefined) : undefined;
      let evidence: Evidence | undefined, problem: string | undefined;
      try {
        if (witness && inputs !== undefined) {
          evidence = savedEvidence(
            readGradeInputs(inputs, `${result.episode}: grade inputs`, parseGradeInputs),
            result.episode,
          );
        }
      } catch (err) {
        // Said, not swallowed: a witness with no evidence would only say "no evidence".
        problem = `its evidence cannot be read: ${errorMessage(err)}`;
      }
      outcomes.set(result.task_id, { result, evidence, problem });
      if (key && inputs !== undefined && !result.error) options.recordings?.put(key, { result, inputs });
    }
    return outcomes;
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}

/**
 * Runs or regrades `episodes`: each outcome by episode id, and how many were regraded from a recording.
 * @throws UsageError when a live run cannot start (no Chromium, a bad configuration).
 */
export async function runScripted(
  episodes: readonly ScriptedEpisode[],
  options: ScriptedRunOptions = {},
): Promise<{ outcomes: Map<string, Outcome>; recorded: number }> {
  const outcomes = new Map<string, Outcome>();
  const scripts = new Map<string, Script>();
  const sampled = new Map<string, Outcome>();
  const keys = new Map<string, string>();
  const witnessed = new Set(episodes.filter((e) => e.witness).map((e) => e.task.task_id));
  const live: RunTask[] = [];
  let recorded = 0;
  const store = options.recordings;
  for (const e of episodes) {
    const id = e.task.task_id;
    if (e.script) scripts.set(id, e.script);
    // A proof without recordings (gen --verify) runs everything live and keys nothing.
    const key = store && await episodeKey(e.task, e.script);
    const rec = key ? store?.get(key) : undefined;
    const regraded = rec && await regradeRecording(rec, e.task, e.witness, options.qa);
    if (regraded && key && !store?.sample?.(key)) {
      outcomes.set(id, regraded);
      recorded++;
      continue;
    }
    if (regraded) sampled.set(id, regraded);
    if (key) keys.set(id, key);
    live.push(e.task);
  }
  for (const [id, o] of await runLive(live, scripts, keys, witnessed, options)) {
    outcomes.set(id, disagreement(o, sampled.get(id)));
  }
  return { outcomes, recorded };
}
