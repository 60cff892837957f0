/**
 * Arms: what acts in an episode. `replay` executes the task's reference solution through the same executor a
 * model's actions go through; `noop` answers done at once. The model arms (base, pooled, oracle) implement the same
 * interface (model_arm.ts).
 */
import type { Session } from "../browser/mod.ts";
import { kindOf, type ReferenceStep, type RunTask } from "../tasks/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";
import { type ActionResult, executeAction } from "./actions.ts";
import type { Arm, ArmContext, ArmOutcome, HistoryItem, ObservedState } from "./arm.ts";
import { actionsOnlyOutput, historyResult, historyState } from "./history.ts";
import { stepAction } from "./step_record.ts";

/** A model-free step's history entry and step record, recorded at once (the run's steps.jsonl). */
async function modelFreeStep(
  ctx: ArmContext,
  step: number,
  state: ObservedState,
  action: ActionCall,
  r: ActionResult,
  start: number,
): Promise<HistoryItem> {
  const end = Date.now() / 1000;
  const history: HistoryItem = {
    model_output: actionsOnlyOutput([action]),
    result: [historyResult(r)],
    state: historyState(state, `step_${step}.png`, [action]),
    metadata: { step_number: step, step_start_time: start, step_end_time: end, step_interval: null },
  };
  await ctx.record?.({
    kind: "replay",
    step,
    model: null,
    family: null,
    url: state.url,
    title: state.title,
    request: null,
    reply: null,
    parsed: null,
    actions: [stepAction(action, r)],
    start,
    end,
  }, { history });
  return history;
}

/**
 * The reference solution, step by step: each step's candidate actions are tried in turn (a fresh state before
 * each retry) until one succeeds; a step none can do ends the episode as failed (`failure`), unless it is optional.
 * A browser that dies or a site that breaks the protocol throws instead: a harness error, not a failed reference.
 */
export const replayArm: Arm = {
  name: "replay",
  async run(ctx) {
    const out: ArmOutcome = { answer: null, done: false, steps: 0, history: [], trace: [], errors: [] };
    for (const [i, step] of ctx.reference.entries()) {
      if (ctx.signal.aborted) break;
      if (i >= ctx.maxSteps) {
        out.failure = `reference has ${ctx.reference.length} steps, more than the step cap ${ctx.maxSteps}`;
        break;
      }
      const start = Date.now() / 1000;
      const state = await ctx.observe(i + 1);
      const candidates = step.candidates(state.snapshot.elements);
      if (candidates.length === 0) continue;
      let result: ActionResult | undefined;
      let action = candidates[0];
      for (const [k, candidate] of candidates.entries()) {
        action = candidate;
        const fresh = k === 0 ? state : await ctx.session.captureState({ screenshot: false });
        result = await executeAction(ctx.session, candidate, { base: ctx.base, state: fresh });
        if (result.ok) break;
      }
      const r = result!;
      out.steps++;
      out.trace.push({ model: null, action: [action] });
      out.history.push(await modelFreeStep(ctx, i + 1, state, action, r, start));
      if (!r.ok && step.optional) continue;
      if (!r.ok) {
        const what = `step ${i + 1} ${Object.keys(action)[0]}: ${r.error}`;
        out.errors.push(what);
        out.failure = `reference ${what}`;
        break;
      }
      if (r.done) {
        out.done = true;
        out.answer = r.done.text;
        break;
      }
    }
    return out;
  },
};

/** Does nothing: answers done with an empty text at once. Every task's grade must fail it. */
export const noopArm: Arm = {
  name: "noop",
  async run(ctx) {
    const start = Date.now() / 1000;
    const state = await ctx.observe(1);
    const action = { done: { text: "", success: true } };
    const done: ActionResult = { ok: true, done: { text: "", success: true } };
    return {
      answer: "",
      done: true,
      steps: 1,
      trace: [{ model: null, action: [action] }],
      errors: [],
      history: [await modelFreeStep(ctx, 1, state, action, done, start)],
    };
  },
};

/** What replaying a reference outside a run gives: the arm's outcome and the text of every screen it saw. */
export interface ReplayOutcome extends ArmOutcome {
  /** The visible text of each screen observed, in order. */
  seen: string[];
}

/**
 * Replays reference steps on an open session with the replay arm (no screenshots saved): for tests and scripts
 * that replay a recording without the runner.
 */
export async function replayReference(
  session: Session,
  base: string,
  task: RunTask,
  options: { reference?: ReferenceStep[]; maxSteps?: number; signal?: AbortSignal } = {},
): Promise<ReplayOutcome> {
  const seen: string[] = [];
  const reference = options.reference ?? kindOf(task).reference(task, base);
  const outcome = await replayArm.run({
    task,
    reference,
    prompt: "",
    session,
    base,
    signal: options.signal ?? new AbortController().signal,
    maxSteps: options.maxSteps ?? reference.length,
    observe: async () => {
      const state = await session.captureState({ screenshot: false });
      seen.push(state.visibleText);
      return { ...state, screenshotFile: null };
    },
  });
  return { ...outcome, seen };
}
