/**
 * The step record: one line of an episode's steps.jsonl per model request (or per model-free step), appended as
 * each step ends, so an episode that fails or hits a harness error keeps every step up to the failure. It holds
 * what the model was shown (the request's text exactly as sent, element list included; the screenshot by file
 * name; the system prompt by hash, its text in the run's prompts/<sha256>.txt), its reply (raw and parsed), the
 * actions executed after any gate with their results, the model, the planned family and the gate. The viewer, the
 * report and record_rows.ts read it; history.json (browser-use's layout) is derived from the same steps.
 * @module
 */
import type { ChatReply, ChatRequest, OpenAiModelClient } from "../llm/mod.ts";
import type { ActionCall } from "../tasks/mod.ts";
import type { ActionResult } from "./actions.ts";
import type { HistoryItem, ObservedState } from "./arm.ts";

/** Which loop made the request. */
export type StepKind = "agent" | "planner" | "replay";

/** One executed action and what it did. */
export interface StepAction {
  /** The action as executed (after the router's gate: a premature done is macro_done here). */
  action: ActionCall;
  ok: boolean;
  error?: string;
  /** Text the action returned (extracted content, done's text). */
  extracted?: string;
  /** Set on a done action: the success it claimed. */
  done?: { success: boolean };
}

/** The request of a step as sent, images by reference. */
export interface StepRequest {
  /** SHA-256 (hex) of the system message's text; the text is the run's prompts/<sha256>.txt. */
  system_sha256: string;
  /** The user message's text exactly as sent. */
  text: string;
  /**
   * The file (in the episode folder) holding the image the request carried, byte for byte: step_<n>.png,
   * planner_<t>.png; null when the request carried none or the run saved no screenshots.
   */
  screenshot: string | null;
  /** The image's MIME type when there was one. */
  screenshot_mime?: string;
}

/** One line of steps.jsonl. */
export interface StepRecord {
  kind: StepKind;
  /** The episode's step number (from 1; a planner specialist's steps continue the episode's count). */
  step: number;
  /** agent_planner: the planner's turn (kind "planner"). */
  turn?: number;
  /** The served model name (its adapter); null for a model-free step. */
  model: string | null;
  /** The action family the arm planned for this request (oracle's plan, a planner's delegated family, "Planner"); null when none. */
  family: string | null;
  /** agent_planner: which delegated step (from 1) the request belongs to. */
  delegated?: number;
  /** The row family the arm labels this request's training row with (agent_planner: "Planner" or the family). */
  row_family?: string;
  /** The page the step saw. */
  url: string;
  title: string;
  /** null for a model-free step (replay, noop). */
  request: StepRequest | null;
  /** The reply's raw text; null when no reply came (the request failed: `error`). */
  reply: string | null;
  /** The reply as parsed (thinking, evaluation_previous_goal, memory, next_goal, action, or the planner's); null when unusable. */
  parsed: Record<string, unknown> | null;
  actions: StepAction[];
  /** The router turned the reply's premature done into macro_done. */
  gated?: boolean;
  /** The router note the request showed (after a gate). */
  note?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  latency_ms?: number;
  attempts?: number;
  schema_fallback?: boolean;
  /** Epoch seconds. */
  start: number;
  end: number;
  /** Why the step failed: an unusable reply, or a request that failed (the harness error that ended the episode). */
  error?: string;
}

/**
 * Receives each step record as its step ends, with the system prompt's text (stored once per hash) and the step's
 * history.json entry (kept so that an episode that fails mid-way still gets its history).
 */
export type StepSink = (record: StepRecord, extra?: { system?: string; history?: HistoryItem }) => Promise<void>;

/** An executed action as a step record keeps it. */
export function stepAction(action: ActionCall, r: ActionResult): StepAction {
  return {
    action,
    ok: r.ok,
    ...(r.ok ? {} : { error: r.error ?? "failed" }),
    ...(r.done ? { extracted: r.done.text, done: { success: r.done.success } } : {}),
    ...(!r.done && r.extracted ? { extracted: r.extracted } : {}),
  };
}

/** A request's record: the system prompt by hash, the user text as sent, the screenshot by file when it carried one. */
export function stepRequest(
  systemSha256: string,
  text: string,
  state: Pick<ObservedState, "screenshot" | "screenshotFile">,
): StepRequest {
  return {
    system_sha256: systemSha256,
    text,
    screenshot: state.screenshot ? state.screenshotFile : null,
    ...(state.screenshot ? { screenshot_mime: "image/png" } : {}),
  };
}

/** What a reply's call cost, as step records, history metadata, trace entries and planner turns keep it. */
export function callStats(
  answer: ChatReply,
): Required<Pick<StepRecord, "usage" | "latency_ms" | "attempts">> & { schema_fallback?: true } {
  return {
    usage: answer.usage,
    latency_ms: answer.latencyMs,
    attempts: answer.attempts,
    // The server refused the full schema (old vLLM's xgrammar): the reply was decoded under a stripped one.
    ...(answer.schemaFallback ? { schema_fallback: true as const } : {}),
  };
}

/**
 * Ends a step: stamps its end (on its history entry too, when it has one), says why it failed, and hands the record
 * to the run's sink.
 */
export async function endStep(
  sink: StepSink | undefined,
  record: StepRecord,
  extra: { system: string; history?: HistoryItem },
  error?: string,
): Promise<void> {
  record.end = Date.now() / 1000;
  if (extra.history) extra.history.metadata.step_end_time = record.end;
  if (error !== undefined) record.error = error;
  await sink?.(record, extra);
}

/**
 * Sends a step's request and puts the reply on its record. A failed request (server down past the client's retries,
 * unknown model) is the harness failing and ends the episode: the step is recorded with why (`ended`), and the
 * error thrown on.
 */
export async function requestStep(
  client: OpenAiModelClient,
  request: ChatRequest,
  record: StepRecord,
  ended: (error: string) => Promise<void>,
): Promise<ChatReply> {
  let answer;
  try {
    answer = await client.chat(request);
  } catch (err) {
    await ended(`request failed: ${(err as Error)?.message ?? String(err)}`.slice(0, 500)).catch(() => {});
    throw err;
  }
  Object.assign(record, { reply: answer.text, ...callStats(answer) });
  return answer;
}
