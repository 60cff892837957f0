/**
 * One episode: a fresh browser context on one site base, the task's start (session flags, setup actions, start
 * page), the arm, the backend's evidence, the grade, and the episode's artifacts. Whatever fails, the episode
 * returns a result line; only a harness that cannot go on throws.
 */
import { join } from "node:path";
import type { BrowserState, ChromiumBrowser, EpisodeSession } from "../browser/mod.ts";
import { executeAction } from "../agent/mod.ts";
import { BrowserTimeoutError, describeError, HarnessError } from "../errors/mod.ts";
import { actionEvents, type GradeInputs, parseEvidence } from "../grading/mod.ts";
import { familyOf, formatAction, gradeTask, rebaseTask, type Task } from "../tasks/mod.ts";
import { writeTrainingRows } from "./rows.ts";
import type { Arm, ArmOutcome } from "../agent/mod.ts";
import { writeFileAtomic, writeJsonAtomic } from "./files.ts";
import { episodeName, type EpisodeResult } from "./results.ts";

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
  /** Write a passing episode's model exchanges as training rows (rows.jsonl + images + episode.json). */
  recordRows?: boolean;
  /** The rows' family (default: the task macro's). */
  recordFamily?: string;
}

type Entry = { seq?: number; [k: string]: unknown };
const STREAMS = ["log", "changes", "clipboard", "record"] as const;

async function readStreams(session: EpisodeSession, base: string, since: number) {
  const out: Record<string, Entry[]> = {};
  for (const name of STREAMS) {
    const { entries } = await session.adminGet(base, `/_admin/${name}${since ? `?since=${since}` : ""}`) as {
      entries?: Entry[];
    };
    out[name] = (entries ?? []).filter((e) => typeof e.seq !== "number" || e.seq > since);
  }
  return out;
}

/** Session flags, setup actions, start page; returns the last seq before the agent's turn. */
async function prepare(session: EpisodeSession, base: string, task: Task): Promise<number> {
  await session.adminCall(base, `/_admin/session-flags${task.start.logged_out ? "?logout=1" : ""}`);
  const start = new URL(task.start.url, base + "/").href;
  await session.goto(start);
  // The agent's go_back must never reach /_admin/session-flags (it would reset the session).
  await session.resetHistory();
  const setup = task.start.setup ?? [];
  for (const [i, action] of setup.entries()) {
    const state = await session.captureState({ screenshot: false });
    const res = await executeAction(session, formatAction(action), { base, state });
    if (!res.ok) throw new HarnessError(`task "${task.task_id}" setup action ${i + 1} failed: ${res.error}`);
  }
  // The agent begins where setup ended: a mid-chain start (e.g. the cart after adding an item).
  await session.flushRecorder();
  const streams = await readStreams(session, base, 0);
  return Math.max(0, ...Object.values(streams).flat().map((e) => e.seq ?? 0));
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
  original: Task,
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
    // Recorded origins in the start page, setup and solution point at this server.
    const task = rebaseTask(original, base);
    session = await browser.newEpisode({
      allowedOrigins: [new URL(base).origin],
      downloadDir: join(dir, "downloads"),
      uploadDir: opts.uploadDir,
      signal: timeout.signal,
    });
    const s = session;
    await raceAbort(
      (async () => {
        const t1 = performance.now();
        const mark = await prepare(s, base, task);
        const t2 = performance.now();
        const seen: string[] = [];
        let last: BrowserState | undefined;
        const observe = async (step: number, screenshot = false) => {
          last = await s.captureState({ screenshot: opts.stepScreenshots || screenshot });
          seen.push(last.visibleText);
          if (opts.stepScreenshots && last.screenshot) {
            await writeFileAtomic(join(dir, `step_${step}.png`), last.screenshot);
          }
          return last;
        };
        const outcome = await opts.arm.run({
          task,
          prompt: task.instruction,
          session: s,
          base,
          signal: timeout.signal,
          maxSteps: opts.maxSteps,
          observe,
        });
        const t3 = performance.now();
        await finish(s, base, original, mark, outcome, seen, dir, res);
        const ms = (x: number) => Math.round(x);
        res.timing = {
          context_ms: ms(t1 - t0),
          setup_ms: ms(t2 - t1),
          agent_ms: ms(t3 - t2),
          finish_ms: ms(performance.now() - t3),
        };
        if (opts.recordRows && res.ok && outcome.records?.length) {
          res.rows = await writeTrainingRows(dir, outcome.records, {
            episode,
            instruction: task.instruction,
            family: opts.recordFamily ?? familyOf(task.macro),
            source: "rejection_sampling",
          });
        }
      })(),
      timeout.signal,
    );
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

/** Evidence, grade and artifacts once the arm has finished. */
async function finish(
  session: EpisodeSession,
  base: string,
  task: Task,
  mark: number,
  outcome: ArmOutcome,
  seen: string[],
  dir: string,
  res: EpisodeResult,
): Promise<void> {
  const final = await session.captureState({ screenshot: true });
  seen.push(final.visibleText);
  if (final.screenshot) await writeFileAtomic(join(dir, "final.png"), final.screenshot);
  await session.flushRecorder();
  const streams = await readStreams(session, base, mark);
  const clip = streams.clipboard.map((e) => String(e.text ?? ""));
  // Validated on the way in, so a site server that answers the admin protocol wrongly fails here, by name.
  const evidence = parseEvidence({
    base,
    log: streams.log,
    changes: streams.changes,
    clip,
    events: actionEvents(outcome.trace, clip),
    record: streams.record,
    answer: outcome.answer,
    seen,
  }, `${base}/_admin/*`);
  const inputs: GradeInputs & { task: Task } = { ...evidence, blocked: [...session.blocked], task };
  await writeJsonAtomic(join(dir, "grade_inputs.json"), inputs);
  try {
    const verdict = gradeTask(task, evidence);
    res.ok = verdict.ok;
    res.detail = (verdict.ok ? "passed" : verdict.detail).slice(0, 300);
  } catch (err) {
    res.ok = false;
    res.detail = `grade error ${describeError(err)}`.slice(0, 300);
    res.grade_error = true;
  }
  Object.assign(res, {
    steps: outcome.steps,
    answer: outcome.answer,
    done: outcome.done,
    models: outcome.trace.map((t) => t.model).filter((m): m is string => Boolean(m)),
    errors: outcome.errors.slice(0, 5),
  });
  if (outcome.errors.length && !res.error) res.detail = `${res.detail ?? ""}; ${outcome.errors[0]}`.slice(0, 300);
  await writeJsonAtomic(join(dir, "history.json"), { history: outcome.history }, 1);
  await writeJsonAtomic(join(dir, "trace.json"), outcome.trace, 1);
}
