/**
 * browser-use 0.x's step loop, shared by the model arms and the planner arm's specialists. Each step: observe the
 * browser, build the system + user messages with the screenshot, ask the model the router chose (the model name
 * picks the LoRA adapter), parse the reply, let the router gate a premature done, execute the actions, record
 * history. The loop ends at `done`, at `macro_done` when told to, at its step cap, or after `maxFailures`
 * consecutive failed steps (browser-use's max_failures).
 */
import { type ChatMessage, parseAgentReply } from "../llm/mod.ts";
import type { ResponseFormat } from "../llm/mod.ts";
import type { Router } from "../routing/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { executeAction } from "./actions.ts";
import type { ArmContext, HistoryItem, ObservedState, TraceEntry } from "./arm.ts";
import { historyResult, historyState } from "./history.ts";
import { buildStepMessages, type HistoryStep, type StepView } from "./messages.ts";
import {
  callStats,
  type ChatClient,
  endStep,
  requestStep,
  stepAction,
  type StepRecord,
  stepRequest,
} from "./step_record.ts";

/** What every loop of an arm shares. */
export interface LoopSettings {
  client: ChatClient;
  /** The system prompt, its placeholders already filled. */
  systemPrompt: string;
  /** The date the sites show (the sandbox's frozen clock). */
  now: string;
  responseFormat: ResponseFormat;
  maxActions: number;
  maxFailures: number;
  normalizedCoords?: boolean;
}

/** One run of the loop. */
interface LoopRun {
  /** The task the model is shown in <user_request>. */
  task: string;
  /** Chooses the model of each request and gates its replies; its trace is the loop's. */
  router: Router;
  /** Steps this loop may take. */
  maxSteps: number;
  /** The step budget the model is told ("Step i of N"): default maxSteps. */
  shownMaxSteps?: number;
  /** The episode's number of this loop's first step (screenshots and history are numbered per episode). */
  firstStep?: number;
  /** End the loop when the model closes its part with macro_done (the planner's specialists). */
  stopAtMacroDone?: boolean;
  /** What the step records say of this loop's requests (the planner's delegated step); the router's plan otherwise. */
  labels?: { family?: string; delegated?: number; rowFamily?: string };
}

/** How a loop ended. */
type LoopEnd = "done" | "macro_done" | "cap" | "failures";

/** What one loop did. */
interface LoopOutcome {
  end: LoopEnd;
  /** done's text (the answer, or the specialist's report). */
  answer: string | null;
  /** done's success flag; true for macro_done; null when the loop did not end with either. */
  success: boolean | null;
  steps: number;
  history: HistoryItem[];
  /** One entry per usable reply: the router's trace with the call's usage, latency, attempts and step. */
  trace: TraceEntry[];
  errors: string[];
  /** The last usable reply's memory. */
  memory: string;
}

const nameOf = (a: ActionCall) => Object.keys(a)[0] ?? "";
const brief = (a: ActionCall) => `${nameOf(a)} ${JSON.stringify(Object.values(a)[0] ?? {})}`;

function viewOf(state: ObservedState): StepView {
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

/**
 * Runs the step loop on the episode's session. A failed request (server down past the client's retries, unknown
 * model) is the harness failing: it throws, and --resume runs the episode again. An aborted episode throws the
 * signal's reason.
 */
export async function runLoop(ctx: ArmContext, s: LoopSettings, run: LoopRun): Promise<LoopOutcome> {
  const first = run.firstStep ?? 1;
  const out: LoopOutcome = {
    end: "cap",
    answer: null,
    success: null,
    steps: 0,
    history: [],
    trace: [],
    errors: [],
    memory: "",
  };
  const shown: HistoryStep[] = [];
  const calls: Record<string, unknown>[] = [];
  const systemSha = await sha256Hex(s.systemPrompt);
  let failures = 0;
  let readState: string | undefined;
  for (let local = 1; local <= run.maxSteps && !ctx.signal.aborted; local++) {
    const step = first + local - 1;
    const started = Date.now() / 1000;
    const state = await ctx.observe(step, true);
    const note = run.router.pendingNote();
    const messages = buildStepMessages({
      systemPrompt: s.systemPrompt,
      task: run.task,
      step: local,
      maxSteps: run.shownMaxSteps ?? run.maxSteps,
      now: s.now,
      history: shown,
      view: viewOf(state),
      readState,
      routerNote: note,
    });
    readState = undefined;
    const model = run.router.modelForNextRequest();
    out.steps++;
    const item: HistoryItem = {
      model_output: null,
      result: [],
      state: historyState(state, `step_${step}.png`, []),
      metadata: { step_number: step, step_start_time: started, step_end_time: 0, step_interval: null, model },
    };
    out.history.push(item);
    const record: StepRecord = {
      kind: "agent",
      step,
      model,
      family: run.labels?.family ?? run.router.familyForNextRequest() ?? null,
      ...(run.labels?.delegated === undefined ? {} : { delegated: run.labels.delegated }),
      ...(run.labels?.rowFamily === undefined ? {} : { row_family: run.labels.rowFamily }),
      url: state.url,
      title: state.title,
      request: stepRequest(systemSha, (messages[1].content as { text?: string }[])[0].text ?? "", state),
      reply: null,
      parsed: null,
      actions: [],
      ...(note === undefined ? {} : { note }),
      start: started,
      end: 0,
    };
    const ended = (error?: string) => endStep(ctx.record, record, { system: s.systemPrompt, history: item }, error);
    const answer = await requestStep(
      s.client,
      {
        model,
        messages: messages as ChatMessage[],
        responseFormat: s.responseFormat,
        signal: ctx.signal,
      },
      record,
      ended,
    );
    const call = { ...callStats(answer), step };
    Object.assign(item.metadata, call);
    let reply;
    try {
      reply = parseAgentReply(answer.text);
    } catch (err) {
      // A reply the agent cannot use is the agent failing the step (its text is kept in the error).
      const why = (err as Error).message.slice(0, 300);
      out.errors.push(`step ${step}: ${why}`);
      item.result.push({ is_done: false, success: null, error: why, extracted_content: null });
      shown.push({ step: local, results: [], error: why });
      await ended(why);
      if (++failures >= s.maxFailures) {
        out.end = "failures";
        break;
      }
      continue;
    }
    const routed = run.router.observe(reply.action.slice(0, s.maxActions));
    calls.push(call);
    item.model_output = { ...reply, action: routed.actions };
    item.state = historyState(state, `step_${step}.png`, routed.actions);
    record.parsed = { ...reply };
    if (routed.gated) record.gated = true;
    out.memory = reply.memory;
    const results: string[] = [];
    let failed = false;
    for (const action of routed.actions) {
      const before = state.url;
      const r = await executeAction(ctx.session, action, {
        base: ctx.base,
        state,
        normalizedCoords: s.normalizedCoords,
      });
      item.result.push(historyResult(r));
      record.actions.push(stepAction(action, r));
      results.push(`${brief(action)}: ${r.ok ? (r.extracted ?? "ok") : `error: ${r.error}`}`);
      if (!r.ok) {
        failed = true;
        out.errors.push(`step ${step} ${nameOf(action)}: ${r.error}`);
        break;
      }
      if (r.extracted && r.read) readState = r.extracted; // also under an older name (get_dropdown_options)
      if (r.done) {
        out.end = "done";
        out.answer = r.done.text;
        out.success = r.done.success;
        break;
      }
      if (r.macroDone && run.stopAtMacroDone) {
        out.end = "macro_done";
        out.success = true;
        break;
      }
      // browser-use stops a step's action sequence once the page changed under it.
      if (ctx.session.currentUrl() !== before) break;
    }
    shown.push({
      step: local,
      evaluation: reply.evaluation_previous_goal,
      memory: reply.memory,
      nextGoal: reply.next_goal,
      results,
    });
    await ended();
    if (out.end === "done" || out.end === "macro_done") break;
    failures = failed ? failures + 1 : 0;
    if (failures >= s.maxFailures) {
      out.end = "failures";
      break;
    }
  }
  // One router trace entry per reply it observed, in order: each gets its call's usage and latency.
  out.trace = run.router.trace.map((t, i) => ({ ...t, ...calls[i] }));
  return out;
}
