/**
 * steps.jsonl, the step record: one line per model request (or per model-free step), appended as each step ends, so
 * an episode that fails or hits a harness error keeps every step up to the failure. It holds what the model was
 * shown (the request's text exactly as sent, element list included; the screenshot by file name; the system prompt
 * by hash, its text in the run's prompts/<sha256>.txt), its reply (raw and parsed), the actions executed after any
 * gate with their results, the model, the planned family and the gate. The viewer, the report and the rows read it.
 * @module
 */
import { z } from "zod";
import { type FileFormat, fileFormat, LIMITS, type Same, serialise } from "./format.ts";

/** One action, `{name: params}`. */
const actionCallSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

const stepActionSchema = z.strictObject({
  /** The action as executed (after the router's gate: a premature done is macro_done here). */
  action: actionCallSchema,
  ok: z.boolean(),
  error: z.string().optional(),
  /** Text the action returned (extracted content, done's text). */
  extracted: z.string().optional(),
  /** Set on a done action: the success it claimed. */
  done: z.strictObject({ success: z.boolean() }).optional(),
});

/** A file of the episode folder, by its plain name (never a path that could lead out of the folder). */
const episodeFileName = z.string().regex(
  /^(?!\.)[A-Za-z0-9_.~-]+$/,
  "must be the plain name of a file in the episode folder (letters, digits, _ . ~ -; no leading dot)",
);

const stepRequestSchema = z.strictObject({
  /** SHA-256 (hex) of the system message's text; the text is the run's prompts/<sha256>.txt. */
  system_sha256: z.string().regex(/^[0-9a-f]{64}$/, "expected a SHA-256 in lower-case hex"),
  /** The user message's text exactly as sent. */
  text: z.string(),
  /**
   * The file (in the episode folder) holding the image the request carried, byte for byte: step_<n>.png,
   * planner_<t>.png; null when the request carried none or the run saved no screenshots.
   */
  screenshot: episodeFileName.nullable(),
  /** The image's MIME type when there was one. */
  screenshot_mime: z.string().optional(),
});

/** The step record's schema (docs/output-layout.md, "steps.jsonl"). */
export const stepRecordSchema = z.strictObject({
  format_version: z.number().optional(),
  /** Which loop made the request. */
  kind: z.enum(["agent", "planner", "replay"]),
  /** The episode's step number (from 1; a planner specialist's steps continue the episode's count). */
  step: z.number().int().min(0),
  /** agent_planner: the planner's turn (kind "planner"). */
  turn: z.number().int().min(1).optional(),
  /** The served model name (its adapter); null for a model-free step. */
  model: z.string().nullable(),
  /** The action family the arm planned for this request; null when none. */
  family: z.string().nullable(),
  /** agent_planner: which delegated step (from 1) the request belongs to. */
  delegated: z.number().int().min(1).optional(),
  /** The row family the arm labels this request's training row with (agent_planner: "Planner" or the family). */
  row_family: z.string().optional(),
  /** The page the step saw. */
  url: z.string(),
  title: z.string(),
  /** null for a model-free step (replay, noop). */
  request: stepRequestSchema.nullable(),
  /** The reply's raw text; null when no reply came (the request failed: `error`). */
  reply: z.string().nullable(),
  /** The reply as parsed; null when unusable. */
  parsed: z.record(z.string(), z.unknown()).nullable(),
  actions: z.array(stepActionSchema),
  /** The router turned the reply's premature done into macro_done. */
  gated: z.boolean().optional(),
  /** The router note the request showed (after a gate). */
  note: z.string().optional(),
  /** The request's tokens. */
  usage: z.object({
    prompt_tokens: z.number().optional(),
    completion_tokens: z.number().optional(),
    total_tokens: z.number().optional(),
  }).optional(),
  latency_ms: z.number().optional(),
  attempts: z.number().int().optional(),
  schema_fallback: z.boolean().optional(),
  /** Epoch seconds. */
  start: z.number(),
  end: z.number(),
  /** Why the step failed: an unusable reply, or a request that failed (the harness error that ended the episode). */
  error: z.string().optional(),
});

/** One action, `{name: params}`. */
export type StepActionCall = Record<string, Record<string, unknown>>;

/** One executed action of a step and what it did. */
export interface StepAction {
  /** The action as executed (after the router's gate: a premature done is macro_done here). */
  action: StepActionCall;
  /** Whether it succeeded. */
  ok: boolean;
  /** Why it failed. */
  error?: string;
  /** Text the action returned (extracted content, done's text). */
  extracted?: string;
  /** Set on a done action: the success it claimed. */
  done?: { success: boolean };
}

/** A step's request as sent, its image by reference. */
export interface StepRequest {
  /** SHA-256 (hex) of the system message's text; the text is the run's prompts/<sha256>.txt. */
  system_sha256: string;
  /** The user message's text exactly as sent. */
  text: string;
  /** The episode folder's file holding the image the request carried (step_<n>.png, planner_<t>.png), or null. */
  screenshot: string | null;
  /** The image's MIME type when there was one. */
  screenshot_mime?: string;
}

/** Which loop made the request: a browser-use step, a planner turn, a model-free step. */
export type StepKind = "agent" | "planner" | "replay";

/** One line of steps.jsonl. */
export interface StepRecord {
  /** The record's format (STEP_RECORD's version when written; absent in a record of version 1). */
  format_version?: number;
  /** Which loop made the request. */
  kind: StepKind;
  /** The episode's step number (from 1; a planner specialist's steps continue the episode's count). */
  step: number;
  /** agent_planner: the planner's turn (kind "planner"). */
  turn?: number;
  /** The served model name (its adapter); null for a model-free step. */
  model: string | null;
  /** The action family the arm planned for this request; null when none. */
  family: string | null;
  /** agent_planner: which delegated step (from 1) the request belongs to. */
  delegated?: number;
  /** The row family the arm labels this request's training row with. */
  row_family?: string;
  /** The page the step saw. */
  url: string;
  /** The page's title. */
  title: string;
  /** null for a model-free step (replay, noop). */
  request: StepRequest | null;
  /** The reply's raw text; null when no reply came (the request failed: `error`). */
  reply: string | null;
  /** The reply as parsed; null when unusable. */
  parsed: Record<string, unknown> | null;
  /** Each executed action and what it did. */
  actions: StepAction[];
  /** The router turned the reply's premature done into macro_done. */
  gated?: boolean;
  /** The router note the request showed (after a gate). */
  note?: string;
  /** The request's tokens. */
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  /** How long the request took, in ms. */
  latency_ms?: number;
  /** How many times the request was sent (retries included). */
  attempts?: number;
  /** The reply was decoded under the stripped schema an old vLLM server needs. */
  schema_fallback?: boolean;
  /** Epoch seconds. */
  start: number;
  /** When the step ended (epoch seconds). */
  end: number;
  /** Why the step failed: an unusable reply, or a request that failed (the harness error that ended the episode). */
  error?: string;
}

const _sameFields: Same<z.output<typeof stepRecordSchema>, StepRecord> = true;

/** steps.jsonl's line. */
export const STEP_RECORD: FileFormat<StepRecord> = fileFormat({
  what: "step record",
  version: 1,
  maxBytes: LIMITS.stepsFile,
  maxLineBytes: LIMITS.stepLine,
  schema: stepRecordSchema,
});

/** A step record as steps.jsonl holds it (validated; a newline at its end). */
export function stepLine(record: StepRecord): string {
  return serialise(STEP_RECORD, record, `step ${record.step}'s record`) + "\n";
}
