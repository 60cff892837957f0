/**
 * The browser side of human and proposed episodes (import this file directly: mod.ts stays loadable without a
 * browser, for regrade and judge). A human or proposed episode on a browser session: the start (session flags, start page), the session's streams
 * as the verifier and the judge read them, and running a list of actions (a recording's) through the executor.
 */
import type { EpisodeSession } from "../browser/mod.ts";
import { executeAction } from "../agent/mod.ts";
import { SiteProtocolError } from "../errors/mod.ts";
import type { ReplayStep } from "./replay.ts";
import { resolveStep } from "./resolve.ts";
import type { EpisodeStart } from "./start.ts";

type Entry = Record<string, unknown>;

/**
 * Starts the episode: resets the session (logged out when `start.logout`), loads the start page, and makes it the
 * first history entry (go_back never reaches the session-flags URL, which would reset the session).
 */
export async function prepareEpisode(
  session: EpisodeSession,
  base: string,
  start: Pick<EpisodeStart, "logout" | "startUrl">,
): Promise<void> {
  // Called from Deno with the context's cookies, its session cookie adopted: no page load for a JSON answer.
  await session.adminCall(base, `/_admin/session-flags${start.logout ? "?logout=1" : ""}`);
  await session.goto(start.startUrl);
  await session.resetHistory();
}

/** The session's streams since its reset (the start page included, as the annotator's recording has it), or after `since`. */
export interface SessionStreams {
  record: Entry[];
  log: Entry[];
  changes: Entry[];
  clipboard: Entry[];
}

/**
 * Reads the whole session's streams, after flushing every tab's recorder.
 * @throws SiteProtocolError when an admin endpoint answers without `entries`.
 */
export async function readSessionStreams(session: EpisodeSession, base: string, since = 0): Promise<SessionStreams> {
  await session.flushRecorder();
  const read = async (name: string): Promise<Entry[]> => {
    const body = await session.adminGet(base, `/_admin/${name}${since ? `?since=${since}` : ""}`) as {
      entries?: unknown;
    };
    if (!Array.isArray(body?.entries)) {
      throw new SiteProtocolError(`${base}/_admin/${name} answered without an "entries" list`);
    }
    // A server that ignores ?since= still gives only what came after.
    return (body.entries as Entry[]).filter((e) => typeof e.seq !== "number" || e.seq > since);
  };
  const [record, log, changes, clipboard] = await Promise.all(
    ["record", "log", "changes", "clipboard"].map(read),
  );
  return { record, log, changes, clipboard };
}

/**
 * The actions to try for a replay step, in order, on the state observed before it: the step resolved to the
 * element of its recorded tag and text, then its own action and its alternatives. An optional step runs only
 * when it resolves (no candidates otherwise).
 */
export function stepCandidates(step: ReplayStep, elements: Parameters<typeof resolveStep>[1]): ReplayStep["action"][] {
  const first = resolveStep(step, elements);
  if (step.optional) return first === step.action ? [] : [first];
  return first === step.action ? [step.action, ...step.alternatives] : [first, step.action, ...step.alternatives];
}

/** What running actions did. */
export interface ActionsOutcome {
  /** done's text, or null when no done was reached. */
  answer: string | null;
  steps: number;
  /** The first failing action's error (the run stopped there). */
  error?: string;
  /** Visible text of the screen each action was chosen on, and of the last one. */
  seen: string[];
}

/**
 * Runs replay steps one by one, as the replay arm does: each step resolved against the state captured before it
 * (resolveStep); when that action fails, the step's own action and its alternatives (other locators) are tried in
 * turn; a step none of them can do stops the run. An optional step runs only when it resolves, and may fail.
 */
export async function runSteps(
  session: EpisodeSession,
  base: string,
  steps: readonly ReplayStep[],
): Promise<ActionsOutcome> {
  const out: ActionsOutcome = { answer: null, steps: 0, seen: [] };
  for (const [i, s] of steps.entries()) {
    let result;
    const state = await session.captureState({ screenshot: false });
    out.seen.push(state.visibleText);
    const candidates = stepCandidates(s, state.snapshot.elements);
    if (s.optional) {
      // Its failure is not the replay's.
      if (candidates.length) await executeAction(session, candidates[0], { base, state });
      out.steps++;
      continue;
    }
    for (const [k, action] of candidates.entries()) {
      const fresh = k === 0 ? state : await session.captureState({ screenshot: false });
      result = await executeAction(session, action, { base, state: fresh });
      if (result.ok) break;
    }
    out.steps++;
    if (!result!.ok) {
      out.error = `step ${i + 1} ${JSON.stringify(s.action).slice(0, 120)}: ${result!.error}`;
      break;
    }
    if (result!.done) {
      out.answer = result!.done.text;
      break;
    }
  }
  return out;
}

/** Runs actions one by one on fresh states; the first failure stops the run. */
export function runActions(
  session: EpisodeSession,
  base: string,
  actions: readonly unknown[],
): Promise<ActionsOutcome> {
  return runSteps(session, base, actions.map((a) => ({ action: a as ReplayStep["action"], alternatives: [] })));
}
