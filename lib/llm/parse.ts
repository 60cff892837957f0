/** Reading an agent reply: strict by schema, tolerant only of the wrappers models put around the JSON. */
import { ModelReplyError } from "../errors/mod.ts";
import { type AgentReply, agentReplySchema } from "./schema.ts";

/** What parseAgentReply checks besides the shape. */
export interface ParseAgentReplyOptions {
  /** The actions the agent may use; any other name is an error. */
  actionNames?: readonly string[];
}

/**
 * Parses a model reply into an agent output. Accepts the JSON object alone, inside a ``` fence, or after a
 * `<think>…</think>` block; nothing else is repaired.
 * @throws {ModelReplyError} not JSON, or not an agent output; the reply text is kept
 */
export function parseAgentReply(text: string, options: ParseAgentReplyOptions = {}): AgentReply {
  const value = extractJson(text);
  const parsed = agentReplySchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw invalid(text, `is not an agent output (${issues.join("; ")})`);
  }
  const { thinking, ...reply } = parsed.data as Omit<AgentReply, "thinking"> & { thinking?: string | null };
  if (options.actionNames) {
    const known = new Set(options.actionNames);
    const unknown = reply.action.map((a) => Object.keys(a)[0]).filter((n) => !known.has(n));
    if (unknown.length) throw invalid(text, `uses unknown action ${unknown.map((n) => `"${n}"`).join(", ")}`);
  }
  return typeof thinking === "string" ? { thinking, ...reply } : reply;
}

/**
 * The JSON object of a model reply: alone, inside a ``` fence, or after a `<think>…</think>` block.
 * @throws {ModelReplyError} the reply holds none
 */
export function extractJson(text: string): unknown {
  const afterThink = text.includes("</think>") ? text.slice(text.lastIndexOf("</think>") + "</think>".length) : text;
  const candidates = [afterThink.trim()];
  const fence = afterThink.match(/```[A-Za-z]*[ \t]*\r?\n?([\s\S]*?)```/);
  if (fence) candidates.push(fence[1].trim());
  for (const candidate of candidates) {
    if (!candidate.startsWith("{")) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next candidate
    }
  }
  throw invalid(text, "holds no JSON object");
}

function invalid(text: string, what: string): ModelReplyError {
  const preview = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return new ModelReplyError(`model reply ${what}: ${JSON.stringify(preview)}`, undefined, false, text);
}
