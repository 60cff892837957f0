/**
 * The model arms (base, pooled, oracle): browser-use 0.x's step loop against an OpenAI-compatible server. Each
 * step: observe the browser, build the system + user messages with the screenshot, ask the model the router
 * chose (the model name picks the LoRA adapter), parse the reply, let the router gate a premature done, execute
 * the actions, record history. `max_failures` consecutive failed steps end the episode, as in browser-use.
 */
import { HarnessError } from "../errors/mod.ts";
import {
  agentResponseFormat,
  type ChatMessage,
  MemoryRecorder,
  type OpenAiModelClient,
  parseAgentReply,
} from "../llm/mod.ts";
import { createRouter, type CreateRouterOptions } from "../routing/mod.ts";
import type { Arm, ArmContext, ArmOutcome, HistoryItem } from "./arm.ts";
import { ACTION_NAMES, type ActionCall } from "../tasks/mod.ts";
import { executeAction } from "./actions.ts";
import { buildStepMessages, type HistoryStep, type StepView } from "./messages.ts";

/** The actions a model may answer with: the action language without the replay-only locators. */
export const MODEL_ACTIONS = ACTION_NAMES;

export interface ModelArmOptions extends CreateRouterOptions {
  arm: "base" | "pooled" | "oracle";
  client: OpenAiModelClient;
  /** The system prompt, its {max_actions} placeholder already filled. */
  systemPrompt: string;
  /** The date the sites show (the sandbox's frozen clock). */
  now: string;
  maxActionsPerStep?: number;
  maxFailures?: number;
  normalizedCoords?: boolean;
  /** Keep every request and reply (for training rows). */
  record?: boolean;
}

const nameOf = (a: ActionCall) => Object.keys(a)[0] ?? "";
const brief = (a: ActionCall) => `${nameOf(a)} ${JSON.stringify(Object.values(a)[0] ?? {})}`;

function viewOf(state: Awaited<ReturnType<ArmContext["observe"]>>): StepView {
  const s = state.snapshot;
  return {
    url: state.url,
    title: state.title,
    tabs: state.tabs,
    currentTab: state.tabId,
    elementsText: state.elementsText,
    pixelsAbove: s.pixelsAbove,
    pixelsBelow: s.pixelsBelow,
    viewport: s.viewport,
    screenshot: state.screenshot,
    screenshotMime: "image/png",
  };
}

/** A model-driven arm. The client is shared by all episodes; the router is made per episode. */
export function modelArm(o: ModelArmOptions): Arm {
  const maxActions = o.maxActionsPerStep ?? 5;
  const maxFailures = o.maxFailures ?? 3;
  const responseFormat = agentResponseFormat(MODEL_ACTIONS, { maxActions });
  return {
    name: o.arm,
    async run(ctx: ArmContext): Promise<ArmOutcome> {
      const router = createRouter(o.arm, ctx.task, o);
      const recorder = o.record ? new MemoryRecorder() : undefined;
      const client = recorder ? o.client.withRecorder(recorder) : o.client;
      const out: ArmOutcome = { answer: null, done: false, steps: 0, history: [], trace: [], errors: [] };
      const shown: HistoryStep[] = [];
      let failures = 0;
      const calls: { usage: unknown; latency_ms: number; attempts: number; step: number }[] = [];
      let readState: string | undefined;
      for (let step = 1; step <= ctx.maxSteps && !ctx.signal.aborted && !out.done; step++) {
        const started = Date.now() / 1000;
        const state = await ctx.observe(step, true);
        const messages = buildStepMessages({
          systemPrompt: o.systemPrompt,
          task: ctx.prompt,
          step,
          maxSteps: ctx.maxSteps,
          now: o.now,
          history: shown,
          view: viewOf(state),
          readState,
          routerNote: router.pendingNote(),
        });
        readState = undefined;
        const model = router.modelForNextRequest();
        out.steps++;
        const item: HistoryItem = {
          model_output: null,
          result: [],
          state: { url: state.url, title: state.title, tabs: state.tabs, screenshot_path: `step_${step}.png` },
          metadata: { step_number: step, step_start_time: started, step_end_time: 0, model },
        };
        out.history.push(item);
        // A failed request (server down past the client's retries, unknown model) is the harness failing: it
        // ends the episode with its error class, and --resume runs the episode again.
        const answer = await client.chat({
          model,
          messages: messages as ChatMessage[],
          responseFormat,
          signal: ctx.signal,
        });
        Object.assign(item.metadata, { usage: answer.usage, latency_ms: answer.latencyMs, attempts: answer.attempts });
        let reply;
        try {
          reply = parseAgentReply(answer.text);
        } catch (err) {
          // A reply the agent cannot use is the agent failing the step (its text is kept in the error).
          const why = (err as Error).message.slice(0, 300);
          out.errors.push(`step ${step}: ${why}`);
          item.result.push({ is_done: false, success: null, error: why, extracted_content: null });
          shown.push({ step, results: [], error: why });
          item.metadata.step_end_time = Date.now() / 1000;
          if (++failures >= maxFailures) break;
          continue;
        }
        const routed = router.observe(reply.action.slice(0, maxActions));
        calls.push({ usage: answer.usage, latency_ms: answer.latencyMs, attempts: answer.attempts, step });
        item.model_output = { ...reply, action: routed.actions };
        const results: string[] = [];
        let failed = false;
        for (const action of routed.actions) {
          const before = state.url;
          const r = await executeAction(ctx.session, action, {
            base: ctx.base,
            state,
            normalizedCoords: o.normalizedCoords,
          });
          item.result.push({
            is_done: Boolean(r.done),
            success: r.done ? r.done.success : null,
            error: r.ok ? null : r.error ?? "failed",
            extracted_content: r.done?.text ?? r.extracted ?? null,
          });
          results.push(`${brief(action)}: ${r.ok ? (r.extracted ?? "ok") : `error: ${r.error}`}`);
          if (!r.ok) {
            failed = true;
            out.errors.push(`step ${step} ${nameOf(action)}: ${r.error}`);
            break;
          }
          if (r.extracted && ["dropdown_options", "clipboard_read"].includes(nameOf(action))) readState = r.extracted;
          if (r.done) {
            out.done = true;
            out.answer = r.done.text;
            break;
          }
          // browser-use stops a step's action sequence once the page changed under it.
          if (ctx.session.currentUrl() !== before) break;
        }
        shown.push({
          step,
          evaluation: reply.evaluation_previous_goal,
          memory: reply.memory,
          nextGoal: reply.next_goal,
          results,
        });
        item.metadata.step_end_time = Date.now() / 1000;
        failures = failed ? failures + 1 : 0;
        if (failures >= maxFailures) break;
      }
      // One router trace entry per reply it observed, in order: each gets its call's usage and latency.
      out.trace = router.trace.map((t, i) => ({ ...t, ...calls[i] }));
      if (recorder) out.records = recorder.records;
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new HarnessError("episode aborted");
      return out;
    },
  };
}
