/**
 * The files of an episode folder besides its step record: grade_inputs.json (the backend's evidence and the task,
 * which every grade reads), trace.json (the seed's list, one entry per model request), history.json and
 * history_<i>.json (browser-use's AgentHistoryList), the planner's planner_history.json and subtasks.json, and the
 * macro judge's judge.json.
 * @module
 */
import { z } from "zod";
import type { ZodSchema } from "../protocol/mod.ts";
import { type FileFormat, fileFormat, LIMITS, parseRecord, type Same, serialise } from "./format.ts";
import type { StepActionCall } from "./steps.ts";

/** The file names inside an episode folder. */
export const EPISODE_FILES = {
  gradeInputs: "grade_inputs.json",
  steps: "steps.jsonl",
  history: "history.json",
  trace: "trace.json",
  judge: "judge.json",
  final: "final.png",
  plannerHistory: "planner_history.json",
  subtasks: "subtasks.json",
} as const;

/**
 * grade_inputs.json's schema, given its content's (lib/tasks' gradeInputsSchema, the union on `kind`): the content
 * with the file's format_version.
 */
export function gradeInputsFileSchema(content: ZodSchema): z.ZodType<object> {
  return z.looseObject({ format_version: z.number().optional() }).and(content);
}

/** grade_inputs.json, its content checked by `content` (the file's owner is run_folder; its content, the kinds'). */
const gradeInputsFormat = (content: ZodSchema): FileFormat<object> =>
  fileFormat({
    what: "grade_inputs.json",
    version: 1,
    maxBytes: LIMITS.episodeFile,
    schema: gradeInputsFileSchema(content),
  });

/**
 * grade_inputs.json's text, validated by `content` (lib/tasks' gradeInputsSchema): run_folder owns the file (its
 * name, version and size), the task kinds own what is in it, so that reading a run folder loads no task kind.
 */
export function gradeInputsJson(inputs: object, content: ZodSchema): string {
  return serialise(gradeInputsFormat(content), inputs, EPISODE_FILES.gradeInputs) + "\n";
}

/** Only the version of grade_inputs.json: its content is its kind's to check. */
const GRADE_INPUTS_VERSION: FileFormat<unknown> = gradeInputsFormat(z.unknown());

/**
 * Reads grade_inputs.json's parsed value with `read` (lib/tasks' parseGradeInputs: its kind's strategy), its version
 * checked first.
 * @throws RunFolderError (a newer version), or what `read` throws (naming the file and the field)
 */
export function readGradeInputs<T>(value: unknown, file: string, read: (value: unknown, file: string) => T): T {
  parseRecord(GRADE_INPUTS_VERSION, value, file);
  return read(value, file);
}

const actionCall = z.record(z.string(), z.record(z.string(), z.unknown()));

/** One trace.json entry's schema. */
export const traceEntrySchema = z.looseObject({
  model: z.string().nullable(),
  action: z.array(actionCall),
  gated: z.boolean().optional(),
  family: z.string().optional(),
  delegated: z.number().int().optional(),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).optional(),
  latency_ms: z.number().optional(),
  attempts: z.number().int().optional(),
  step: z.number().int().optional(),
});

/** One entry of trace.json: a model request (or a replayed step) and the actions it returned. */
export interface TraceEntry {
  /** The served model; null for an arm without one (replay, noop). */
  model: string | null;
  /** The actions the request returned, as executed: `{name: params}` each. */
  action: StepActionCall[];
  /** true when the router turned a premature done into macro_done. */
  gated?: boolean;
  /** agent_planner: the delegated step's family and number. */
  family?: string;
  /** agent_planner: which delegated step (from 1) the request belongs to. */
  delegated?: number;
  /** A run from before step records: the request's tokens (its step record has them since). */
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  /** A run from before step records: how long the request took, in ms. */
  latency_ms?: number;
  /** A run from before step records: how many times the request was sent. */
  attempts?: number;
  /** A run from before step records: the episode's step number. */
  step?: number;
  /** Fields a later version may add. */
  [field: string]: unknown;
}

const _sameTrace: Same<z.output<typeof traceEntrySchema>, TraceEntry> = true;

/** trace.json: the seed's list (no version of its own: run.json's covers it). */
export const TRACE: FileFormat<TraceEntry[]> = fileFormat({
  what: "trace.json",
  version: 1,
  maxBytes: LIMITS.episodeFile,
  schema: z.array(traceEntrySchema),
  versioned: false,
});

const nullableText = z.string().nullable().optional();

const interactedElementSchema = z.object({
  node_id: z.number().int(),
  backend_node_id: z.number().int(),
  frame_id: z.string().nullable(),
  node_type: z.literal(1),
  node_value: z.string(),
  node_name: z.string(),
  attributes: z.record(z.string(), z.string()),
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).nullable(),
  x_path: z.string(),
  element_hash: z.number().int(),
});

/** browser-use's DOMInteractedElement, as its to_dict writes it: an element an action named by index. */
export interface InteractedElement {
  /** This suite's element index stands for both CDP ids, which it does not keep. */
  node_id: number;
  /** The element's index again (browser-use's backend node id). */
  backend_node_id: number;
  /** The frame it is in: null (this suite gives elements top-viewport coordinates). */
  frame_id: string | null;
  /** 1: an element node. */
  node_type: 1;
  /** CDP's nodeValue: "" for an element. */
  node_value: string;
  /** The tag, upper case (CDP's nodeName). */
  node_name: string;
  /** Its attributes with string values. */
  attributes: Record<string, string>;
  /** Its rectangle in the viewport (CSS pixels), or null. */
  bounds: { x: number; y: number; width: number; height: number } | null;
  /** This suite indexes elements without XPaths: "". */
  x_path: string;
  /** A hash of its tag, attributes and text (FNV-1a). */
  element_hash: number;
}

const _sameElement: Same<z.output<typeof interactedElementSchema>, InteractedElement> = true;

/** One history.json entry's schema. */
export const historyItemSchema = z.object({
  model_output: z.looseObject({
    thinking: nullableText,
    evaluation_previous_goal: nullableText,
    memory: nullableText,
    next_goal: nullableText,
    action: z.array(actionCall),
  }).nullable(),
  result: z.array(z.object({
    is_done: z.boolean().optional(),
    success: z.boolean().nullable().optional(),
    error: nullableText,
    extracted_content: nullableText,
  })),
  state: z.object({
    url: z.string(),
    title: z.string(),
    tabs: z.array(z.object({
      url: z.string(),
      title: z.string(),
      tab_id: z.string(),
      parent_tab_id: z.string().nullable(),
    })),
    interacted_element: z.array(interactedElementSchema.nullable()),
    screenshot_path: z.string().nullable(),
  }),
  metadata: z.looseObject({
    step_number: z.number().int(),
    step_start_time: z.number(),
    step_end_time: z.number(),
    step_interval: z.number().nullable(),
  }),
});

/** One step in browser-use's AgentHistory layout (docs/output-layout.md says what differs from browser-use's own). */
export interface HistoryItem {
  /** The model's reply, its actions as gated; a model-free arm's has the actions alone (the reply's fields null). */
  model_output: {
    thinking?: string | null;
    evaluation_previous_goal?: string | null;
    memory?: string | null;
    next_goal?: string | null;
    action: StepActionCall[];
    [field: string]: unknown;
  } | null;
  /** One per executed action, in browser-use's ActionResult layout (`success` only on a done). */
  result: { is_done?: boolean; success?: boolean | null; error?: string | null; extracted_content?: string | null }[];
  /** The page the step saw: its URL, title, tabs, the elements its actions named, its screenshot's file. */
  state: {
    url: string;
    title: string;
    tabs: { url: string; title: string; tab_id: string; parent_tab_id: string | null }[];
    /** One per action: the element it named by index, or null. */
    interacted_element: (InteractedElement | null)[];
    screenshot_path: string | null;
  };
  /** browser-use's StepMetadata, with this suite's model, usage, latency_ms and attempts. */
  metadata: {
    step_number: number;
    step_start_time: number;
    step_end_time: number;
    step_interval: number | null;
    [field: string]: unknown;
  };
}

const _sameHistory: Same<z.output<typeof historyItemSchema>, HistoryItem> = true;

/** history.json and the planner's history_<i>.json: browser-use's AgentHistoryList (no version of its own). */
export const HISTORY: FileFormat<{ history: HistoryItem[] }> = fileFormat({
  what: "history.json",
  version: 1,
  maxBytes: LIMITS.episodeFile,
  schema: z.object({ history: z.array(historyItemSchema) }),
  versioned: false,
});

const planStepSchema = z.object({ family: z.string(), subtask: z.string() });

/** One step of a planner's plan: the family whose specialist runs it, and its text. */
export interface PlanStep {
  /** The family whose specialist runs the step. */
  family: string;
  /** What the step is to do, in the planner's words. */
  subtask: string;
}

const usageSchema = z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() });

const plannerTurnSchema = z.strictObject({
  turn: z.number().int().min(1),
  model: z.string(),
  text: z.string(),
  screenshot_path: z.string(),
  reply: z.discriminatedUnion("next", [
    z.looseObject({
      thinking: z.string(),
      plan: z.array(planStepSchema),
      next: z.literal("delegate"),
      step: z.number(),
    }),
    z.looseObject({
      thinking: z.string(),
      plan: z.array(planStepSchema),
      next: z.literal("finish"),
      answer: z.string(),
    }),
  ]).nullable(),
  raw: z.string().optional(),
  error: z.string().optional(),
  usage: usageSchema,
  latency_ms: z.number(),
  attempts: z.number().int(),
  schema_fallback: z.literal(true).optional(),
});

/** A planner's reply as planner_history.json keeps it: its plan and its next move. */
export type PlannerTurnReply =
  & { thinking: string; plan: PlanStep[]; [field: string]: unknown }
  & ({ next: "delegate"; step: number } | { next: "finish"; answer: string });

/** One planner request and its reply, as planner_history.json keeps it. */
export interface PlannerTurn {
  /** The turn's number, from 1. */
  turn: number;
  /** The planner's served model name. */
  model: string;
  /** The request's text (the screenshot is the file named in screenshot_path). */
  text: string;
  /** The file of the screenshot the request carried (planner_<turn>.png). */
  screenshot_path: string;
  /** The parsed reply; null when it could not be used (`error` says why, `raw` holds it). */
  reply: PlannerTurnReply | null;
  /** The reply's raw text, kept when it could not be used. */
  raw?: string;
  /** Why the reply could not be used. */
  error?: string;
  /** The request's tokens. */
  usage: { prompt_tokens?: number; completion_tokens?: number };
  /** How long the request took, in ms. */
  latency_ms: number;
  /** How many times the request was sent (retries included). */
  attempts: number;
  /** The reply was decoded under the stripped schema an old vLLM server needs. */
  schema_fallback?: true;
}

const _sameTurn: Same<z.output<typeof plannerTurnSchema>, PlannerTurn> = true;

/** planner_history.json: the planner's version and model, and its turns. */
export interface PlannerHistory {
  /** The planner agent's version (v1, v2). */
  version: string;
  /** The planner's served model name. */
  model: string;
  /** Each planner request and its reply, in order. */
  turns: PlannerTurn[];
}

/** agent_planner's planner_history.json: the planner's turns (docs/planner.md). */
export const PLANNER_HISTORY: FileFormat<PlannerHistory> = fileFormat({
  what: "planner_history.json",
  version: 1,
  maxBytes: LIMITS.episodeFile,
  schema: z.strictObject({ version: z.string(), model: z.string(), turns: z.array(plannerTurnSchema) }),
  versioned: false,
});

const delegatedStepSchema = z.strictObject({
  index: z.number().int().min(1),
  plan_step: z.number().int().min(1),
  family: z.string(),
  subtask: z.string(),
  model: z.string(),
  steps: z.number().int().min(0),
  first_step: z.number().int().min(1),
  cap: z.number().int().min(0),
  end: z.enum(["done", "macro_done", "cap", "failures"]),
  success: z.boolean().nullable(),
  result: z.string().nullable(),
  memory: z.string(),
  url: z.string(),
  title: z.string(),
});

/** One delegated step as subtasks.json's `trace` keeps it. */
export interface DelegatedStep {
  /** 1 for the first delegated step: its history is history_<index - 1>.json. */
  index: number;
  /** The plan step it ran (1-based). */
  plan_step: number;
  /** The family whose specialist ran it. */
  family: string;
  /** The plan step's text. */
  subtask: string;
  /** The specialist's served model name. */
  model: string;
  /** Steps it took, and the episode step it started at. */
  steps: number;
  /** The episode step it started at. */
  first_step: number;
  /** The steps it was allowed. */
  cap: number;
  /** How its loop ended. */
  end: "done" | "macro_done" | "cap" | "failures";
  /** The success its done claimed; null when it ended otherwise. */
  success: boolean | null;
  /** The specialist's final report (done's text), its last memory, and the page it ended on. */
  result: string | null;
  /** The specialist's last memory. */
  memory: string;
  /** The page it ended on. */
  url: string;
  /** That page's title. */
  title: string;
}

const _sameDelegated: Same<z.output<typeof delegatedStepSchema>, DelegatedStep> = true;

/** subtasks.json: each delegated step, and each plan the planner gave (at the turn it gave it). */
export interface Subtasks {
  /** Each delegated step, in order. */
  trace: DelegatedStep[];
  /** Each plan the planner gave, with the turn it gave it at. */
  plans: { turn: number; plan: PlanStep[] }[];
}

/** agent_planner's subtasks.json. */
export const SUBTASKS: FileFormat<Subtasks> = fileFormat({
  what: "subtasks.json",
  version: 1,
  maxBytes: LIMITS.episodeFile,
  schema: z.strictObject({
    trace: z.array(delegatedStepSchema),
    plans: z.array(z.strictObject({ turn: z.number().int().min(1), plan: z.array(planStepSchema) })),
  }),
  versioned: false,
});

/** judge.json's schema. */
export const judgeVerdictSchema = z.looseObject({
  format_version: z.number().optional(),
  episode: z.string(),
  task_id: z.string(),
  model: z.string(),
  ok: z.boolean(),
  reason: z.string(),
  macros: z.array(z.looseObject({ macro: z.string(), ok: z.boolean(), reason: z.string() })),
  judged_at: z.string(),
});

/** The macro judge's verdict on an episode (judge.json). */
export interface JudgeVerdictFile {
  /** judge.json's format (JUDGE_VERDICT's version when written). */
  format_version?: number;
  /** The episode judged (its folder). */
  episode: string;
  /** Its task. */
  task_id: string;
  /** The judge's model. */
  model: string;
  /** Accomplished: every macro was. */
  ok: boolean;
  /** Why, in the judge's words. */
  reason: string;
  /** The verdict on each macro of the task. */
  macros: { macro: string; ok: boolean; reason: string; [field: string]: unknown }[];
  /** When the judge read it (ISO). */
  judged_at: string;
  /** Fields a later version may add. */
  [field: string]: unknown;
}

const _sameJudge: Same<z.output<typeof judgeVerdictSchema>, JudgeVerdictFile> = true;

/** judge.json (judge.ts). */
export const JUDGE_VERDICT: FileFormat<JudgeVerdictFile> = fileFormat({
  what: "judge.json",
  version: 1,
  maxBytes: LIMITS.smallFile,
  schema: judgeVerdictSchema,
});

/** A file an arm writes into the episode folder beside history.json, with the format it is written in. */
export interface ArmFile {
  /** Its name in the episode folder. */
  name: string;
  /** The format it is written in. */
  format: FileFormat<unknown>;
  /** The record written. */
  value: unknown;
}

/** An arm's file, type-checked against its format. */
export function armFile<T>(name: string, format: FileFormat<T>, value: T): ArmFile {
  return { name, format: format as FileFormat<unknown>, value };
}
