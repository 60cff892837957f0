/** What an arm is: the interface the runner drives and each arm (replay, noop, the model arms) implements. */
import type { BrowserState, EpisodeSession } from "../browser/mod.ts";
import type { ChatRecord } from "../llm/mod.ts";
import type { PlanTask } from "../routing/mod.ts";

/** One step in browser-use's AgentHistory layout. */
export interface HistoryItem {
  model_output: { action: Record<string, unknown>[]; [k: string]: unknown } | null;
  result: { is_done?: boolean; success?: boolean | null; error?: string | null; extracted_content?: string | null }[];
  state: { url: string; title: string; tabs: unknown[]; screenshot_path: string | null; interacted_element?: unknown };
  metadata: { step_number: number; step_start_time: number; step_end_time: number; [k: string]: unknown };
}

/** One request of the arm (the router's trace): the model asked, the actions it returned, whether gated. */
export interface TraceEntry {
  model: string | null;
  action: Record<string, unknown>[];
  gated?: boolean;
  [k: string]: unknown;
}

/** A step of a reference solution: the actions to try in turn on the state observed before the step. */
export interface ReferenceStep {
  candidates(state: BrowserState): unknown[];
  /** A step whose failure is not the replay's (a recorded click that may not apply on this run). */
  optional?: boolean;
}

export interface ArmContext {
  /** The task as the router plans it (datagen, human or proposed). */
  task: PlanTask & { task_id: string };
  /** The task's reference solution (what the replay arm executes; empty when it has none). */
  reference: ReferenceStep[];
  /** What the agent is told: the instruction (with an app directory for cross-site tasks). */
  prompt: string;
  session: EpisodeSession;
  base: string;
  signal: AbortSignal;
  maxSteps: number;
  /**
   * Captures the browser state for step `step` (saves its screenshot, keeps its visible text as seen); with
   * `screenshot`, the state carries one even when the run saves no step screenshots.
   */
  observe(step: number, screenshot?: boolean): Promise<BrowserState>;
}

export interface ArmOutcome {
  answer: string | null;
  done: boolean;
  steps: number;
  history: HistoryItem[];
  trace: TraceEntry[];
  errors: string[];
  /** Every model request and reply, when the arm records them (training rows). */
  records?: ChatRecord[];
}

export interface Arm {
  readonly name: string;
  run(ctx: ArmContext): Promise<ArmOutcome>;
}
