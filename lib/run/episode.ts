/**
 * One episode: a fresh browser context on one site base, the task's start (session flags, start page, setup
 * actions), the arm, the backend's evidence, the grade, and the episode's artifacts. What differs between task
 * kinds comes from lib/tasks' registry. Whatever fails, the episode returns a result line; only a harness that
 * cannot go on throws.
 */
import { join } from "node:path";
import type { Arm, ArmOutcome, ObservedState } from "../agent/mod.ts";
import { executeAction } from "../agent/mod.ts";
import type { ChromiumBrowser, EpisodeSession } from "../browser/mod.ts";
import { BrowserTimeoutError, describeError, HarnessError, outFolderFault } from "../errors/mod.ts";
import type { AnswerJudge } from "../grading/mod.ts";
import { type AppRules, familyOf, formatAction, gradeInputsSchema } from "../protocol/mod.ts";
import { childPath, type Redactor, writeFileAtomic } from "../io/mod.ts";
import {
  CookieChannel,
  type DirectoryApp,
  endSession,
  lastSeq,
  readLoginState,
  readSessionStreams,
  type StartedSession,
  startSession,
} from "../sites/mod.ts";
import {
  type AnyGradeInputs,
  type EpisodeStart,
  kindOf,
  type RunTask,
  taskCluster,
  type TaskKind,
  taskStyle,
  type Verdict,
} from "../tasks/mod.ts";
import { EPISODE_VIEWPORT, type RunConfig } from "./config.ts";
import { armFailedFields, episodeRowSources, writeRows } from "../results/mod.ts";
import {
  EPISODE_FILES,
  episodeName,
  type EpisodeResult,
  type FileFormat,
  gradeInputsJson,
  HISTORY,
  RunFolder,
  serialise,
  TIMEOUT_ERROR,
  TRACE,
} from "../run_folder/mod.ts";
import { StepLog } from "./steps.ts";

/** What every episode of a run shares. */
export interface EpisodeEnv {
  config: RunConfig;
  arm: Arm;
  /** The LLM tier of human verifiers' answer checks (absent: such grades are recorded with grade_error). */
  qa?: AnswerJudge;
  /** The run's interrupt: aborts the episode (its result is then not to be recorded). */
  signal?: AbortSignal;
  /** Hides secrets in the episode's files (run.ts's runRedactor). */
  redactor: Redactor;
  /** Seconds for start, evidence and grading on top of --timeout before the episode is given up (SAFETY_MARGIN_S). */
  safetyMarginS?: number;
  /** The run's system prompt writes (prompts/<sha256>.txt), shared by its episodes. */
  prompts: Map<string, Promise<void>>;
}

/** Where an episode runs: a site base, its server's app directory, and a worker's browser. */
interface EpisodeSite {
  base: string;
  apps: readonly DirectoryApp[];
  /** Each app's grading rules, as the server's /_admin/health declares them. */
  rules: Record<string, Record<string, unknown>>;
  browser: ChromiumBrowser;
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

/**
 * Starts a session on `base` as an episode start says (reset, logged out or not) and opens its start page, which
 * becomes the first history entry: go_back never reaches the session-flags call. The runner, the recording script
 * and the replay tests start episodes this way.
 */
export async function openStartPage(
  session: EpisodeSession,
  base: string,
  start: Pick<EpisodeStart, "logout" | "startUrl">,
): Promise<StartedSession> {
  const started = await startSession(session, base, { logout: start.logout });
  await session.goto(start.startUrl);
  await session.resetHistory();
  return started;
}

/** The fields every result line has, before anything ran. */
export function resultHead(task: RunTask, repeat: number, config: RunConfig, arm: string): EpisodeResult {
  return {
    task_id: task.task_id,
    episode: episodeName(task.task_id, repeat, config.repeats),
    macro: task.macro,
    site: task.site,
    arm,
    family: familyOf(task.macro),
    cluster: taskCluster(task),
    ...(taskStyle(task) === undefined ? {} : { style: taskStyle(task) }),
    ok: false,
    duration_s: 0,
    repeat,
  };
}

/**
 * Seconds an episode may spend on its start, evidence and grading on top of --timeout before it is given up. As in
 * the seed (`asyncio.wait_for(agent.run(...), timeout)`), --timeout covers the arm's run only: the start and the
 * evidence reads have their own browser and HTTP timeouts, and the answer judge its model timeout (60 s an attempt,
 * 4 attempts). This bound fires only when one of those hangs anyway, so that no episode holds the run forever; it
 * is a harness error (--resume reruns it), never "timeout".
 */
const SAFETY_MARGIN_S = 600;

/**
 * What stops an episode: its arm running past --timeout (the "timeout" of results.jsonl), the whole episode running
 * past its safety bound (--timeout + the margin), or the run's interrupt. One signal for the session and the arm.
 */
class EpisodeStop implements Disposable {
  readonly #controller = new AbortController();
  readonly #armTimeout: BrowserTimeoutError;
  readonly #bound: ReturnType<typeof setTimeout>;
  #armTimer?: ReturnType<typeof setTimeout>;

  constructor(
    readonly episode: string,
    readonly timeoutS: number,
    marginS: number,
    readonly interrupt?: AbortSignal,
  ) {
    this.#armTimeout = new BrowserTimeoutError(`episode "${episode}" ran past --timeout ${timeoutS}s`);
    const bound = new HarnessError(
      `episode "${episode}" ran past its safety bound (--timeout ${timeoutS}s + ${marginS}s for start, evidence ` +
        `and grading)`,
    );
    this.#bound = setTimeout(() => this.#controller.abort(bound), (timeoutS + marginS) * 1000);
    if (interrupt?.aborted) this.#onInterrupt();
    else interrupt?.addEventListener("abort", this.#onInterrupt, { once: true });
  }

  readonly #onInterrupt = () => this.#controller.abort(new HarnessError(`episode "${this.episode}" interrupted`));

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Starts the arm's clock: --timeout from now. */
  armStarted(): void {
    this.#armTimer = setTimeout(() => this.#controller.abort(this.#armTimeout), this.timeoutS * 1000);
  }

  /** The arm is over: its clock stops (start, evidence and grading have their own bounds). */
  armEnded(): void {
    clearTimeout(this.#armTimer);
  }

  /** Whether the episode stopped because its arm ran past --timeout. */
  get timedOut(): boolean {
    return this.signal.aborted && this.signal.reason === this.#armTimeout;
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#armTimer);
    clearTimeout(this.#bound);
    this.interrupt?.removeEventListener("abort", this.#onInterrupt);
  }
}

/**
 * Runs repeat `repeat` of `task` on `site` and returns its result line: a failure, a timeout or a harness error is
 * the line's `error`, and the session is closed and ended whatever happens.
 * @throws OutFolderError when the out folder refuses writes (no later episode could be recorded either).
 */
export async function runEpisode(
  task: RunTask,
  repeat: number,
  site: EpisodeSite,
  env: EpisodeEnv,
): Promise<EpisodeResult> {
  const t0 = performance.now();
  const { config } = env;
  const head = resultHead(task, repeat, config, env.arm.name);
  const dir = childPath(config.out, head.episode);
  using stop = new EpisodeStop(head.episode, config.timeoutS, env.safetyMarginS ?? SAFETY_MARGIN_S, env.signal);
  let session: EpisodeSession | undefined;
  // The site session the episode started, ended once the episode is over (failed and timed-out ones too).
  const held: { started?: StartedSession; historyWritten?: boolean } = {};
  const steps = new StepLog(config.out, dir, env.prompts, env.redactor);
  let body: Partial<EpisodeResult>;
  try {
    await Deno.mkdir(dir, { recursive: true });
    session = await site.browser.newEpisode({
      allowedOrigins: [new URL(site.base).origin],
      downloadDir: join(dir, "downloads"),
      uploadDir: config.uploadDir,
      viewport: { ...EPISODE_VIEWPORT },
      signal: stop.signal,
    });
    const s = session;
    body = await raceAbort(play(s, task, site, dir, head.episode, env, stop, t0, held, steps), stop.signal);
  } catch (err) {
    // The out folder refuses writes: no later episode can be recorded either, so the run stops (run.ts).
    const fault = outFolderFault(err, config.out);
    if (fault) throw fault;
    // A browser that stopped answering (frozen, then killed) is the harness's fault, even past --timeout.
    const frozen = site.browser.failure ?? (stop.timedOut ? await site.browser.unresponsive() : null);
    body = frozen
      ? { error: describeError(frozen).slice(0, 300) }
      : stop.timedOut
      ? { error: TIMEOUT_ERROR, detail: `timeout after ${config.timeoutS}s` }
      : { error: describeError(err).slice(0, 300) };
    // The arm never returned its history: the steps it recorded up to the failure are the episode's history.
    if (!held.historyWritten && steps.history.length > 0) {
      await writeEpisodeFile(dir, EPISODE_FILES.history, HISTORY, { history: steps.history }, env.redactor)
        .catch(() => {});
    }
  } finally {
    // The cookie is read before the context closes; the end goes out of band (the episode's signal may be aborted).
    const cookie = held.started ? await session?.cookieHeader(site.base).catch(() => "") : undefined;
    await session?.close().catch(() => {});
    if (held.started) await endSession(new CookieChannel(cookie ?? ""), site.base).catch(() => {});
  }
  return { ...head, ...body, duration_s: Math.round((performance.now() - t0) / 100) / 10 };
}

/** Start, arm, evidence, grade and artifacts: everything that runs on the episode's open session. */
async function play(
  s: EpisodeSession,
  task: RunTask,
  site: EpisodeSite,
  dir: string,
  episode: string,
  env: EpisodeEnv,
  stop: EpisodeStop,
  t0: number,
  held: { started?: StartedSession; historyWritten?: boolean },
  steps: StepLog,
): Promise<Partial<EpisodeResult>> {
  const { config } = env;
  const signal = stop.signal;
  const kind = kindOf(task);
  const t1 = performance.now();
  const start = kind.start(task, site.base, site.apps);
  const started = held.started = await openStartPage(s, site.base, start);
  for (const [i, action] of start.setup.entries()) {
    const state = await s.captureState({ screenshot: false });
    const res = await executeAction(s, formatAction(action), { base: site.base, state });
    if (!res.ok) throw new HarnessError(`task "${task.task_id}" setup action ${i + 1} failed: ${res.error}`);
  }
  const [mark, startLoggedIn] = await Promise.all([
    start.evidenceFrom === "arm" ? readSessionStreams(s, site.base, started).then(lastSeq) : 0,
    readLoginState(s, site.base, started),
  ]);
  const t2 = performance.now();
  const seen: Seen = { texts: [], urls: [] };
  // Training rows take their images from the step screenshots: --record-rows saves them whatever the flag says.
  const save = config.stepScreenshots || config.recordRows;
  let prepared = false;
  const observe = async (step: number | string, screenshot = false): Promise<ObservedState> => {
    const state = await s.captureState({ screenshot: save || screenshot });
    if (!prepared) {
      // The start is over and the model is about to answer the first step: the worker's next episode gets its
      // context meanwhile (started during the start, it would slow the start's page loads down).
      prepared = true;
      void site.browser.prepareNext();
    }
    seen.texts.push(state.visibleText);
    seen.urls.push(state.url);
    let screenshotFile: string | null = null;
    if (save && state.screenshot) {
      // A numbered step is step_<n>.png; a named capture (the planner's "planner_1") is <name>.png.
      screenshotFile = typeof step === "number" ? `step_${step}.png` : `${step}.png`;
      await writeFileAtomic(childPath(dir, screenshotFile), state.screenshot);
    }
    return { ...state, screenshotFile };
  };
  stop.armStarted();
  let outcome: ArmOutcome;
  try {
    outcome = await env.arm.run({
      task,
      reference: kind.reference(task, site.base),
      prompt: start.prompt,
      session: s,
      base: site.base,
      signal,
      maxSteps: config.maxSteps,
      observe,
      record: steps.sink,
    });
  } finally {
    stop.armEnded();
  }
  const t3 = performance.now();
  const played = await finish(s, kind, task, site, { started, mark, startLoggedIn }, outcome, seen, dir, env, signal);
  held.historyWritten = true;
  const ms = (x: number) => Math.round(x);
  const timing = {
    context_ms: ms(t1 - t0),
    setup_ms: ms(t2 - t1),
    agent_ms: ms(t3 - t2),
    finish_ms: ms(performance.now() - t3),
  };
  const spec = config.recordRows ? kind.rows(task, played.ok === true, { episode, family: config.recordFamily }) : null;
  // Rebuilt from the step records just written, as record_rows.ts rebuilds them after the run: the same rows.
  const sources = spec ? await episodeRowSources(RunFolder.ofRun(config.out), episode) : null;
  const rows = spec ? await writeRows(dir, sources ?? [], spec) : undefined;
  return { ...played, timing, ...(rows === undefined ? {} : { rows }) };
}

/** The visible text of every screen the agent saw, and the URL each was at (the same order). */
interface Seen {
  texts: string[];
  urls: string[];
}

/** Writes a file of the episode folder in its run-folder format, its secrets redacted first. */
function writeEpisodeFile<T>(
  dir: string,
  name: string,
  format: FileFormat<T>,
  value: T,
  redactor: Redactor,
): Promise<void> {
  return writeFileAtomic(childPath(dir, name), serialise(format, redactor.value(value), name, 1) + "\n");
}

/** The fields a verdict gives a result line; an arm that failed its part fails the episode whatever the grade. */
function graded(verdict: Verdict, outcome: ArmOutcome): Partial<EpisodeResult> {
  if (outcome.failure) return armFailedFields(outcome.failure, verdict);
  let detail = verdict.detail.slice(0, 300);
  if (outcome.errors.length && !verdict.ok) detail = `${detail}; ${outcome.errors[0]}`.slice(0, 300);
  return {
    ok: verdict.ok,
    detail,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
    ...(verdict.gradeError ? { grade_error: true } : {}),
  };
}

/** Evidence, grade and artifacts once the arm has finished. */
async function finish(
  session: EpisodeSession,
  kind: TaskKind<RunTask, AnyGradeInputs>,
  task: RunTask,
  site: EpisodeSite,
  from: { started: StartedSession; mark: number; startLoggedIn: boolean | null },
  outcome: ArmOutcome,
  seen: Seen,
  dir: string,
  env: EpisodeEnv,
  signal: AbortSignal,
): Promise<Partial<EpisodeResult>> {
  const final = await session.captureState({ screenshot: true });
  seen.texts.push(final.visibleText);
  seen.urls.push(final.url);
  if (final.screenshot) await writeFileAtomic(join(dir, EPISODE_FILES.final), final.screenshot);
  const base = site.base;
  const [streams, loggedIn] = await Promise.all([
    readSessionStreams(session, base, { ...from.started, since: from.mark }),
    readLoginState(session, base, from.started),
  ]);
  const played = {
    steps: outcome.steps,
    answer: outcome.answer,
    done: outcome.done,
    models: outcome.trace.map((t) => t.model).filter((m): m is string => Boolean(m)),
    errors: outcome.errors.slice(0, 5),
  };
  // History and trace first: a grade that fails must not cost the episode's record of what happened.
  const clean = env.redactor;
  await writeEpisodeFile(dir, EPISODE_FILES.history, HISTORY, { history: outcome.history }, clean);
  await writeEpisodeFile(dir, EPISODE_FILES.trace, TRACE, outcome.trace, clean);
  for (const file of outcome.files ?? []) await writeEpisodeFile(dir, file.name, file.format, file.value, clean);
  const inputs = kind.collect(task, {
    base,
    streams,
    trace: outcome.trace,
    answer: outcome.answer,
    seen: seen.texts,
    seenUrls: seen.urls,
    blocked: [...session.blocked],
    final: {
      url: final.url,
      urls: final.tabs.map((t) => t.url),
      logged_in: loggedIn,
      start_logged_in: from.startLoggedIn,
    },
    rules: site.rules as Record<string, AppRules>,
  });
  await writeFileAtomic(join(dir, EPISODE_FILES.gradeInputs), gradeInputsJson(clean.value(inputs), gradeInputsSchema));
  let verdict: Verdict;
  try {
    verdict = await kind.grade(inputs, { qa: env.qa, signal });
  } catch (err) {
    verdict = { ok: false, detail: `grade error ${describeError(err)}`, gradeError: true };
  }
  return { ...played, ...outcome.fields, ...graded(verdict, outcome) };
}
