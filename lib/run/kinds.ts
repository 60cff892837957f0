/**
 * What differs between task kinds, as strategies the episode runner calls: how an episode starts, the
 * reference solution the replay arm executes, and what is saved and graded afterwards.
 * - datagen (fixtures/tasks.jsonl): setup actions, evidence after the start, graded by the backend gate;
 * - human (fixtures/annotations): the seed's prepare_human, the whole session's trajectory, graded by the task's
 *   verifier with the QA tier chain (LLM tier from the environment);
 * - proposed: started logged in on start_path, graded "pending" (judge.ts decides), rows for data generation.
 */
import type { ArmOutcome, ReferenceStep } from "../agent/mod.ts";
import { executeAction } from "../agent/mod.ts";
import type { EpisodeSession } from "../browser/mod.ts";
import { HarnessError } from "../errors/mod.ts";
import { actionEvents, type GradeInputs, parseEvidence } from "../grading/mod.ts";
import {
  gradeHuman,
  type HumanGradeInputs,
  humanGradeInputs,
  humanStart,
  type HumanTask,
  PROPOSED_PENDING,
  proposedGradeInputs,
  proposedStart,
  type ProposedTask,
  recordingReplaySteps,
  resolveStep,
} from "../human/mod.ts";
import type { AnswerJudge } from "../llm/mod.ts";
import type { PlanTask } from "../routing/mod.ts";
import { formatAction, gradeTask, rebaseTask, type Task } from "../tasks/mod.ts";

/** Any task a run can hold. */
export type RunTask = Task | HumanTask | ProposedTask;

export type Entry = { seq?: number; [k: string]: unknown };
export type Streams = Record<"log" | "changes" | "clipboard" | "record", Entry[]>;

/** What finishing an episode hands its kind. */
export interface Finished {
  session: EpisodeSession;
  base: string;
  mark: number;
  outcome: ArmOutcome;
  seen: string[];
  streams: Streams;
  signal: AbortSignal;
}

export interface Verdict {
  ok: boolean;
  detail: string;
  gradeError?: boolean;
}

export interface EpisodeKind {
  readonly task: PlanTask & { task_id: string; site: string; macro: string; instruction: string };
  /** Starts the session on its start page; `mark` is the last seq that is not evidence (0: the whole session). */
  prepare(session: EpisodeSession, base: string): Promise<{ prompt: string; mark: number }>;
  reference(): ReferenceStep[];
  /** grade_inputs.json: everything the grade reads, saved before grading so regrade can always redo it. */
  collect(f: Finished): unknown;
  grade(inputs: unknown, signal: AbortSignal): Promise<Verdict>;
}

/** Reads the four streams of the calling session, entries after `since`. */
export async function readStreams(session: EpisodeSession, base: string, since: number): Promise<Streams> {
  const read = async (name: string) => {
    const body = await session.adminGet(base, `/_admin/${name}${since ? `?since=${since}` : ""}`) as {
      entries?: Entry[];
    };
    return (body.entries ?? []).filter((e) => typeof e.seq !== "number" || e.seq > since);
  };
  const [log, changes, clipboard, record] = await Promise.all(["log", "changes", "clipboard", "record"].map(read));
  return { log, changes, clipboard, record };
}

/** Session flags (from Deno, adopting the session cookie), the start page, history starting there. */
async function start(session: EpisodeSession, base: string, url: string, logout: boolean): Promise<void> {
  await session.adminCall(base, `/_admin/session-flags${logout ? "?logout=1" : ""}`);
  await session.goto(url);
  // The agent's go_back must never reach /_admin/session-flags (it would reset the session).
  await session.resetHistory();
}

const clipTexts = (s: Streams) => s.clipboard.map((e) => String(e.text ?? ""));

function datagenKind(original: Task, base: string): EpisodeKind {
  // Recorded origins in the start page, setup and solution point at this server.
  const task = rebaseTask(original, base);
  return {
    task,
    async prepare(session) {
      await start(session, base, new URL(task.start.url, base + "/").href, task.start.logged_out);
      for (const [i, action] of task.start.setup.entries()) {
        const state = await session.captureState({ screenshot: false });
        const res = await executeAction(session, formatAction(action), { base, state });
        if (!res.ok) throw new HarnessError(`task "${task.task_id}" setup action ${i + 1} failed: ${res.error}`);
      }
      // The agent begins where setup ended (a mid-chain start); what came before is not evidence.
      await session.flushRecorder();
      const streams = await readStreams(session, base, 0);
      return { prompt: task.instruction, mark: Math.max(0, ...Object.values(streams).flat().map((e) => e.seq ?? 0)) };
    },
    reference: () => task.solution.map((a) => ({ candidates: () => [formatAction(a)] })),
    collect({ session, outcome, seen, streams }) {
      const clip = clipTexts(streams);
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
      const inputs: GradeInputs & { task: Task } = { ...evidence, blocked: [...session.blocked], task: original };
      return inputs;
    },
    grade(inputs) {
      const verdict = gradeTask(original, inputs as GradeInputs);
      return Promise.resolve({ ok: verdict.ok, detail: verdict.ok ? "passed" : verdict.detail });
    },
  };
}

function humanKind(task: HumanTask, base: string, qa: AnswerJudge | undefined): EpisodeKind {
  const s = humanStart(task, base);
  return {
    task,
    async prepare(session) {
      await start(session, base, s.startUrl, s.logout);
      return { prompt: s.prompt, mark: 0 };
    },
    reference: () =>
      recordingReplaySteps(task).map((step) => ({
        optional: step.optional,
        candidates: (state) => {
          const first = resolveStep(step, state.snapshot.elements);
          // An optional step runs only on the element of its recorded tag and text.
          if (step.optional) return first === step.action ? [] : [first];
          return first === step.action
            ? [step.action, ...step.alternatives]
            : [first, step.action, ...step.alternatives];
        },
      })),
    collect({ session, outcome, seen, streams }) {
      const actions = outcome.trace.flatMap((t) => t.action);
      const clip = clipTexts(streams);
      const inputs = humanGradeInputs(task, { base, ...streams, clip, seen, answer: outcome.answer, actions });
      return { ...inputs, blocked: [...session.blocked] };
    },
    async grade(inputs, signal) {
      const { traj, answer } = inputs as HumanGradeInputs;
      const g = await gradeHuman(task, traj, answer, { qa, signal });
      return { ok: g.ok, detail: g.ok ? "passed" : g.detail, gradeError: g.gradeError };
    },
  };
}

function proposedKind(task: ProposedTask, base: string): EpisodeKind {
  const s = proposedStart(task, base);
  return {
    task,
    async prepare(session) {
      await start(session, base, s.startUrl, false);
      return { prompt: s.prompt, mark: 0 };
    },
    reference: () => [],
    collect({ session, outcome, seen, streams }) {
      const actions = outcome.trace.flatMap((t) => t.action);
      const clip = clipTexts(streams);
      const inputs = proposedGradeInputs(task, { base, ...streams, clip, seen, answer: outcome.answer, actions });
      return { ...inputs, blocked: [...session.blocked] };
    },
    grade: () => Promise.resolve({ ...PROPOSED_PENDING }),
  };
}

/** The kind of a task, bound to the site base its episode runs on. */
export function episodeKind(task: RunTask, base: string, qa?: AnswerJudge): EpisodeKind {
  if ("kind" in task && task.kind === "human") return humanKind(task, base, qa);
  if ("kind" in task && task.kind === "proposed") return proposedKind(task, base);
  return datagenKind(task as Task, base);
}
