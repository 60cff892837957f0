/**
 * Making the step record (its format is lib/run_folder's StepRecord): one line of an episode's steps.jsonl per model
 * request (or per model-free step), handed to the run's sink as each step ends, so an episode that fails or hits a
 * harness error keeps every step up to the failure; history.json (browser-use's layout) is derived from the same
 * steps.
 * @module
 */
import type { ChatReply, ChatRequest, OpenAiModelClient } from "../llm/mod.ts";

/**
 * What the loop asks for each step's reply: the model server's client, or a demonstration's reference
 * (demonstration_arm.ts), which answers the same request with the reference's next action.
 */
export type ChatClient = Pick<OpenAiModelClient, "chat">;
import type { HistoryItem, StepAction, StepRecord, StepRequest } from "../run_folder/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";
import type { ActionResult } from "./actions.ts";
import type { ObservedState } from "./arm.ts";

export type { StepRecord } from "../run_folder/mod.ts";

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
  client: ChatClient,
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
