/** What an arm is: the interface the runner drives and each arm (replay, noop, the model arms) implements. */
import type { BrowserState, Session } from "../browser/mod.ts";
import type { TraceEntry } from "../routing/mod.ts";
import type { ReferenceStep, RunTask } from "../tasks/mod.ts";
import type { ArmFile, EpisodeResult, HistoryItem } from "../run_folder/mod.ts";
import type { StepSink } from "./step_record.ts";

export type { TraceEntry };

/** One step in browser-use's AgentHistory layout (lib/run_folder's history.json format). */
export type { HistoryItem };

/** The state an arm observed: the browser's, and the file its screenshot was saved as (null when not saved). */
export type ObservedState = BrowserState & { screenshotFile: string | null };

/** What an arm is given for one episode: the task, its reference, the prompt, the browser session and the limits. */
export interface ArmContext {
  /** The task as the router plans it (datagen, human or proposed). */
  task: RunTask;
  /** The task's reference solution (what the replay arm executes; empty when it has none). */
  reference: ReferenceStep[];
  /** What the agent is told: the instruction (with an app directory for cross-site tasks). */
  prompt: string;
  /** The episode's browser session, on its start page. */
  session: Session;
  /** The site base the episode runs on (paths in `navigate` resolve against it). */
  base: string;
  /** Aborts the episode (its timeout, or the run's interrupt). */
  signal: AbortSignal;
  /** The step cap of the episode. */
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

/** What an arm did in one episode: its answer, its steps, history and trace, and the errors it met. */
export interface ArmOutcome {
  /** The text of the final `done` (null: the arm never answered). */
  answer: string | null;
  /** The arm ended the episode with `done`. */
  done: boolean;
  /** Steps taken (model requests, or reference steps executed). */
  steps: number;
  /** One history.json entry per step. */
  history: HistoryItem[];
  /** One trace.json entry per request (a model-free arm: per step). */
  trace: TraceEntry[];
  /** What went wrong on the way (unusable replies, failed actions): the result line keeps the first five. */
  errors: string[];
  /**
   * Set when the arm could not play its part (a step of the reference solution failed): the episode fails whatever
   * the grade says. Agent mistakes are not failures of the arm: they are in `errors` and the grade judges the end.
   */
  failure?: string;
  /**
   * Files of the arm's own, each in its run-folder format, written into the episode folder (redacted) before the
   * grade: the planner arm's planner_history.json, history_<i>.json and subtasks.json.
   */
  files?: ArmFile[];
  /** Fields the arm adds to, or sets on, the result line (the planner arm's `subtasks` and `models`). */
  fields?: Partial<EpisodeResult>;
}

/** What acts in an episode: an arm by name, run once per episode. */
export interface Arm {
  /** The arm's name, as results lines carry it. */
  readonly name: string;
  /** Plays one episode on the session `ctx` gives. */
  run(ctx: ArmContext): Promise<ArmOutcome>;
}
