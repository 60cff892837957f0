/**
 * Arms: what acts in an episode. `replay` executes the task's reference solution through the same executor a
 * model's actions go through; `noop` answers done at once. Model arms (base, pooled, oracle) implement the same
 * interface in lib/agent.
 */
import type { BrowserState } from "../browser/mod.ts";
import { type Arm, type ArmOutcome, executeAction } from "../agent/mod.ts";
import { formatAction } from "../tasks/mod.ts";

const stateOf = (s: BrowserState, screenshot: string | null) => ({
  url: s.url,
  title: s.title,
  tabs: s.tabs,
  screenshot_path: screenshot,
});

/** The reference solution, step by step; the first failing action ends the episode with its error. */
export const replayArm: Arm = {
  name: "replay",
  async run(ctx) {
    const out: ArmOutcome = { answer: null, done: false, steps: 0, history: [], trace: [], errors: [] };
    const actions = ctx.task.solution ?? [];
    for (const [i, parsed] of actions.entries()) {
      const action = formatAction(parsed);
      if (ctx.signal.aborted || i >= ctx.maxSteps) break;
      const start = Date.now() / 1000;
      const state = await ctx.observe(i + 1);
      const result = await executeAction(ctx.session, action, { base: ctx.base, state });
      out.steps++;
      out.trace.push({ model: null, action: [action] });
      out.history.push({
        model_output: { action: [action] },
        result: [{
          is_done: Boolean(result.done),
          success: result.done ? result.done.success : null,
          error: result.ok ? null : result.error ?? "failed",
          extracted_content: result.done?.text ?? result.extracted ?? null,
        }],
        state: stateOf(state, `step_${i + 1}.png`),
        metadata: { step_number: i + 1, step_start_time: start, step_end_time: Date.now() / 1000 },
      });
      if (!result.ok) {
        out.errors.push(`step ${i + 1} ${Object.keys(action)[0]}: ${result.error}`);
        break;
      }
      if (result.done) {
        out.done = true;
        out.answer = result.done.text;
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
    return {
      answer: "",
      done: true,
      steps: 1,
      trace: [{ model: null, action: [action] }],
      errors: [],
      history: [{
        model_output: { action: [action] },
        result: [{ is_done: true, success: true, error: null, extracted_content: "" }],
        state: stateOf(state, "step_1.png"),
        metadata: { step_number: 1, step_start_time: start, step_end_time: Date.now() / 1000 },
      }],
    };
  },
};

/** The arms that need no model. */
export const MODEL_FREE_ARMS: Record<string, Arm> = { replay: replayArm, noop: noopArm };
