/**
 * One episode: a fresh browser context on one site base, the task's start (session flags, setup actions, start
 * page), the arm, the backend's evidence, the grade, and the episode's artifacts. Whatever fails, the episode
 * returns a result line; only a harness that cannot go on throws.
 */
import { join } from "node:path";
import type { Arm, ArmOutcome } from "../agent/mod.ts";
import type { BrowserState, ChromiumBrowser, EpisodeSession } from "../browser/mod.ts";
import { BrowserTimeoutError, describeError, HarnessError } from "../errors/mod.ts";
import { type ProposedTask, writeProposedRows } from "../human/mod.ts";
import type { AnswerJudge } from "../llm/mod.ts";
import { familyOf } from "../tasks/mod.ts";
import { writeFileAtomic, writeJsonAtomic } from "./files.ts";
import { type EpisodeKind, episodeKind, type RunTask } from "./kinds.ts";
import { readSessionStreams } from "../human/session.ts";
import { episodeName, type EpisodeResult } from "./results.ts";
import { writeTrainingRows } from "./rows.ts";

export interface EpisodeOptions {
  out: string;
  arm: Arm;
  repeats: number;
  timeoutS: number;
  maxSteps: number;
  uploadDir: string;
  /** Save a screenshot per step (true) or only final.png. */
  stepScreenshots: boolean;
  /** The run's interrupt: aborts the episode (its result is then not to be recorded). */
  signal?: AbortSignal;
  /** Write model exchanges as training rows: passing episodes (rejection sampling), every proposed episode. */
  recordRows?: boolean;
  /** The rows' family (default: the task macro's). */
  recordFamily?: string;
  /** The LLM tier of human verifiers' answer checks (absent: such grades are recorded with grade_error). */
  qa?: AnswerJudge;
}

/**
 * `p`, or a rejection with the signal's reason when it aborts first. The work left behind then fails on its closed
 * session; that late rejection is expected and dropped.
 */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  p.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export async function runEpisode(
  original: RunTask,
  repeat: number,
  base: string,
  browser: ChromiumBrowser,
  opts: EpisodeOptions,
): Promise<EpisodeResult> {
  const t0 = performance.now();
  const episode = episodeName(original.task_id, repeat, opts.repeats);
  const dir = join(opts.out, episode);
  const res: EpisodeResult = {
    task_id: original.task_id,
    episode,
    macro: original.macro,
    site: original.site,
    arm: opts.arm.name,
    ok: false,
    duration_s: 0,
    repeat,
  };
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new BrowserTimeoutError(`episode "${episode}" ran past --timeout ${opts.timeoutS}s`)),
    opts.timeoutS * 1000,
  );
  const interrupt = () => timeout.abort(new HarnessError(`episode "${episode}" interrupted`));
  opts.signal?.addEventListener("abort", interrupt, { once: true });
  let session: EpisodeSession | undefined;
  try {
    await Deno.mkdir(dir, { recursive: true });
    const kind = episodeKind(original, base, opts.qa);
    session = await browser.newEpisode({
      allowedOrigins: [new URL(base).origin],
      downloadDir: join(dir, "downloads"),
      uploadDir: opts.uploadDir,
      signal: timeout.signal,
    });
    const s = session;
    await raceAbort(runInside(s, kind, base, dir, episode, res, opts, timeout.signal, t0), timeout.signal);
  } catch (err) {
    res.error = err instanceof BrowserTimeoutError && timeout.signal.aborted
      ? "timeout"
      : describeError(err).slice(0, 300);
    if (res.error === "timeout") res.detail = `timeout after ${opts.timeoutS}s`;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", interrupt);
    await session?.close().catch(() => {});
    res.duration_s = Math.round((performance.now() - t0) / 100) / 10;
  }
  return res;
}

/** Start, arm, evidence, grade and artifacts: everything that runs on the episode's open session. */
async function runInside(
  s: EpisodeSession,
  kind: EpisodeKind,
  base: string,
  dir: string,
  episode: string,
  res: EpisodeResult,
  opts: EpisodeOptions,
  signal: AbortSignal,
  t0: number,
): Promise<void> {
  const t1 = performance.now();
  const { prompt, mark } = await kind.prepare(s, base);
  const t2 = performance.now();
  const seen: string[] = [];
  const observe = async (step: number, screenshot = false): Promise<BrowserState> => {
    const state = await s.captureState({ screenshot: opts.stepScreenshots || screenshot });
    seen.push(state.visibleText);
    if (opts.stepScreenshots && state.screenshot) {
      await writeFileAtomic(join(dir, `step_${step}.png`), state.screenshot);
    }
    return state;
  };
  const outcome = await opts.arm.run({
    task: kind.task,
    reference: kind.reference(),
    prompt,
    session: s,
    base,
    signal,
    maxSteps: opts.maxSteps,
    observe,
  });
  const t3 = performance.now();
  await finish(s, kind, base, mark, outcome, seen, dir, res, signal);
  const ms = (x: number) => Math.round(x);
  res.timing = {
    context_ms: ms(t1 - t0),
    setup_ms: ms(t2 - t1),
    agent_ms: ms(t3 - t2),
    finish_ms: ms(performance.now() - t3),
  };
  if (!opts.recordRows || !outcome.records?.length) return;
  if ("kind" in kind.task && kind.task.kind === "proposed") {
    res.rows = await writeProposedRows(join(dir, "rows"), kind.task as ProposedTask, outcome.records);
  } else if (res.ok) {
    res.rows = await writeTrainingRows(dir, outcome.records, {
      episode,
      instruction: kind.task.instruction,
      family: opts.recordFamily ?? familyOf(kind.task.macro),
      source: "rejection_sampling",
      macros: kind.task.macros ? [...kind.task.macros] : undefined,
    });
  }
}

/** Evidence, grade and artifacts once the arm has finished. */
async function finish(
  session: EpisodeSession,
  kind: EpisodeKind,
  base: string,
  mark: number,
  outcome: ArmOutcome,
  seen: string[],
  dir: string,
  res: EpisodeResult,
  signal: AbortSignal,
): Promise<void> {
  const final = await session.captureState({ screenshot: true });
  seen.push(final.visibleText);
  if (final.screenshot) await writeFileAtomic(join(dir, "final.png"), final.screenshot);
  const streams = await readSessionStreams(session, base, mark);
  Object.assign(res, {
    steps: outcome.steps,
    answer: outcome.answer,
    done: outcome.done,
    models: outcome.trace.map((t) => t.model).filter((m): m is string => Boolean(m)),
    errors: outcome.errors.slice(0, 5),
  });
  // History and trace first: a grade that fails must not cost the episode's record of what happened.
  await writeJsonAtomic(join(dir, "history.json"), { history: outcome.history }, 1);
  await writeJsonAtomic(join(dir, "trace.json"), outcome.trace, 1);
  const inputs = kind.collect({ session, base, mark, outcome, seen, streams, signal });
  await writeJsonAtomic(join(dir, "grade_inputs.json"), inputs);
  try {
    const verdict = await kind.grade(inputs, signal);
    res.ok = verdict.ok;
    res.detail = verdict.detail.slice(0, 300);
    if (verdict.gradeError) res.grade_error = true;
  } catch (err) {
    res.ok = false;
    res.detail = `grade error ${describeError(err)}`.slice(0, 300);
    res.grade_error = true;
  }
  if (outcome.errors.length && !res.ok) res.detail = `${res.detail ?? ""}; ${outcome.errors[0]}`.slice(0, 300);
}
