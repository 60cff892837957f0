/** What an arm is: the interface the runner drives and each arm (replay, noop, the model arms) implements. */
import type { BrowserState, EpisodeSession } from "../browser/mod.ts";
import type { AgentReply } from "../llm/mod.ts";
import type { TraceEntry } from "../routing/mod.ts";
import type { ActionCall, ReferenceStep, RunTask } from "../tasks/mod.ts";
import type { EpisodeResult } from "../results/mod.ts";
import type { InteractedElement } from "./history.ts";
import type { StepSink } from "./step_record.ts";

export type { TraceEntry };

/**
 * One step in browser-use's AgentHistory layout (history.ts builds the parts; docs/output-layout.md says what
 * differs from browser-use's own).
 */
export interface HistoryItem {
  /** The model's reply, its actions as gated; a model-free arm's has the actions alone (the reply's fields null). */
  model_output:
    | ({ [K in keyof Omit<AgentReply, "action">]?: AgentReply[K] | null } & { action: ActionCall[] })
    | null;
  result: { is_done?: boolean; success?: boolean | null; error?: string | null; extracted_content?: string | null }[];
  state: {
    url: string;
    title: string;
    tabs: { url: string; title: string; tab_id: string; parent_tab_id: string | null }[];
    /** One per action: the element it named by index, or null. */
    interacted_element: (InteractedElement | null)[];
    screenshot_path: string | null;
  };
  metadata: {
    step_number: number;
    step_start_time: number;
    step_end_time: number;
    step_interval: number | null;
    [k: string]: unknown;
  };
}

/** The state an arm observed: the browser's, and the file its screenshot was saved as (null when not saved). */
export type ObservedState = BrowserState & { screenshotFile: string | null };

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
  observe(step: number | string, screenshot?: boolean): Promise<ObservedState>;
  /**
   * Records a step as it ends (steps.jsonl), with the system prompt of its request; the runner appends it at once,
   * so a failing episode keeps its steps. Absent outside a run.
   */
  record?: StepSink;
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
