/** What an arm is: the interface the runner drives and each arm (replay, noop, the model arms) implements. */
import type { BrowserState, EpisodeSession } from "../browser/mod.ts";
import type { AgentReply, ChatRecord } from "../llm/mod.ts";
import type { TraceEntry } from "../routing/mod.ts";
import type { ActionCall, ReferenceStep, RunTask } from "../tasks/mod.ts";
import type { EpisodeResult } from "../results/mod.ts";

export type { TraceEntry };

/** One step in browser-use's AgentHistory layout. */
export interface HistoryItem {
  /** The model's reply, its actions as gated; a model-free arm's has the actions alone. */
  model_output: (Partial<Omit<AgentReply, "action">> & { action: ActionCall[] }) | null;
  result: { is_done?: boolean; success?: boolean | null; error?: string | null; extracted_content?: string | null }[];
  state: { url: string; title: string; tabs: unknown[]; screenshot_path: string | null; interacted_element?: unknown };
  metadata: { step_number: number; step_start_time: number; step_end_time: number; [k: string]: unknown };
}

export interface ArmContext {
  /** The task as the router plans it (datagen, human or proposed). */
  task: RunTask;
  /** The task's reference solution (what the replay arm executes; empty when it has none). */
  reference: ReferenceStep[];
  /** What the agent is told: the instruction (with an app directory for cross-site tasks). */
  prompt: string;
  session: EpisodeSession;
  base: string;
  signal: AbortSignal;
  maxSteps: number;
  /**
   * Captures the browser state for step `step` (saves its screenshot as step_<step>.png, or <step>.png for a name
   * such as "planner_1", and keeps its visible text as seen); with `screenshot`, the state carries one even when the
   * run saves no step screenshots.
   */
  observe(step: number | string, screenshot?: boolean): Promise<BrowserState>;
}

export interface ArmOutcome {
  answer: string | null;
  done: boolean;
  steps: number;
  history: HistoryItem[];
  trace: TraceEntry[];
  errors: string[];
  /**
   * Set when the arm could not play its part (a step of the reference solution failed): the episode fails whatever
   * the grade says. Agent mistakes are not failures of the arm: they are in `errors` and the grade judges the end.
   */
  failure?: string;
  /** Every model request and reply, when the arm records them (training rows); `family` labels a row's family. */
  records?: (ChatRecord & { family?: string })[];
  /**
   * JSON files of the arm's own, written into the episode folder (redacted) before the grade: the planner arm's
   * planner_history.json, history_<i>.json and subtasks.json.
   */
  files?: Record<string, unknown>;
  /** Fields the arm adds to, or sets on, the result line (the planner arm's `subtasks` and `models`). */
  fields?: Partial<EpisodeResult>;
}

export interface Arm {
  readonly name: string;
  run(ctx: ArmContext): Promise<ArmOutcome>;
}
