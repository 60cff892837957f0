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
} from "../human/mod.ts";
import { prepareEpisode, readSessionStreams, type SessionStreams, stepCandidates } from "../human/session.ts";
import type { AnswerJudge } from "../llm/mod.ts";
import type { PlanTask } from "../routing/mod.ts";
import { formatAction, gradeTask, rebaseTask, type Task } from "../tasks/mod.ts";

/** Any task a run can hold. */
export type RunTask = Task | HumanTask | ProposedTask;

export type Streams = SessionStreams;

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

const clipTexts = (s: Streams) => s.clipboard.map((e) => String(e.text ?? ""));

function datagenKind(original: Task, base: string): EpisodeKind {
  // Recorded origins in the start page, setup and solution point at this server.
  const task = rebaseTask(original, base);
  return {
    task,
    async prepare(session) {
      await prepareEpisode(session, base, {
        logout: task.start.logged_out,
        startUrl: new URL(task.start.url, base + "/").href,
      });
      for (const [i, action] of task.start.setup.entries()) {
        const state = await session.captureState({ screenshot: false });
        const res = await executeAction(session, formatAction(action), { base, state });
        if (!res.ok) throw new HarnessError(`task "${task.task_id}" setup action ${i + 1} failed: ${res.error}`);
      }
      // The agent begins where setup ended (a mid-chain start); what came before is not evidence.
      const streams = await readSessionStreams(session, base);
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
      await prepareEpisode(session, base, s);
      return { prompt: s.prompt, mark: 0 };
    },
    reference: () =>
      recordingReplaySteps(task).map((step) => ({
        optional: step.optional,
        candidates: (state) => stepCandidates(step, state.snapshot.elements),
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
      await prepareEpisode(session, base, s);
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
