/**
 * Training rows' labels by task kind: which episodes leave rows and how each row and episode.json is labelled. The
 * runner's --record-rows (through lib/tasks' registry), record_rows.ts and gen.ts --demonstrations read them here,
 * so the offline rows load no grading. The files' layout is lib/run_folder's (rows.jsonl, episode.json).
 */
import { OLD_ACTION_NAMES } from "./action.ts";
import type { KindName } from "./grade_inputs.ts";
import { familyOf } from "./macros.ts";

/** Which episodes of a kind become training rows, and how they are labelled (lib/results writes them). */
export interface RowsSpec {
  /** The episode's sub-folder the rows go to ("" for the episode folder itself). */
  dir: string;
  /** Only requests whose reply is an agent step (a JSON object with actions) become rows. */
  agentStepsOnly: boolean;
  /** A row's fields before `messages` and `target`; `op` is the reply's first action (undefined: not a step). */
  row(step: number, reply: { model?: string; op?: string }): Record<string, unknown>;
  /** episode.json, given the number of rows. */
  episode(steps: number): Record<string, unknown>;
}

/** Where a run's rows come from: the episode's name (task~rK) and --record-family. */
export interface RowsContext {
  /** The episode's name (task~rK), the rows' task_id. */
  episode: string;
  /** The rows' family instead of the task macro's. */
  family?: string;
}

/**
 * What a task's rows read of it, by kind: a datagen task's instruction and macro; a human task's instruction and
 * macro labels (its macro is the last label; a task saved in grade_inputs.json may omit it); a proposed task's id,
 * instruction, app and start page.
 */
export type RowsTask =
  | { kind?: "datagen"; instruction: string; macro: string }
  | { kind: "human"; instruction: string; macros: readonly string[]; macro?: string }
  | { kind: "proposed"; task_id: string; instruction: string; site: string; start_path: string };

/** The seed's om2w.ROW_FAMILY: the family of a row whose first action has this name. */
const SEED_ROW_FAMILY: Readonly<Record<string, string>> = {
  drag: "Drag & gesture",
  clipboard_read: "Out-of-page I/O",
  clipboard_write: "Out-of-page I/O",
  upload_file: "Out-of-page I/O",
  switch: "Out-of-page I/O",
  close: "Out-of-page I/O",
  select_dropdown: "Discrete selection",
  dropdown_options: "Discrete selection",
  input: "Text entry",
  send_keys: "Text entry",
  done: "Reasoning base",
};

/**
 * The family a training row belongs to, by its first action (the seed's om2w.ROW_FAMILY; others, hover and scroll
 * among them: Navigation). A reply in browser-use 0.x's older names (input_text, ...) counts as the action it runs as.
 */
export const ROW_FAMILY: Readonly<Record<string, string>> = {
  ...SEED_ROW_FAMILY,
  ...Object.fromEntries(
    Object.entries(OLD_ACTION_NAMES).flatMap(([old, name]) =>
      SEED_ROW_FAMILY[name] ? [[old, SEED_ROW_FAMILY[name]]] : []
    ),
  ),
};

/**
 * The rows an episode of `task` leaves (null: none). Datagen and human tasks: rejection sampling, a passing episode's
 * every request under the task macro's family (or --record-family). Proposed tasks: every episode whatever its outcome
 * (the macro judge's verdict is added when judged), its agent steps under rows/, each labelled with the family of its
 * first action (ROW_FAMILY), as the seed's taskgen rows.
 */
export function rowsOf(task: RowsTask, passed: boolean, ctx: RowsContext): RowsSpec | null {
  if (task.kind === "proposed") return proposedRows(task);
  if (!passed) return null;
  const macros = task.kind === "human" ? task.macros : undefined;
  const family = ctx.family ?? familyOf(task.macro ?? macros![macros!.length - 1]);
  const source = "rejection_sampling";
  return {
    dir: "",
    agentStepsOnly: false,
    row: (step, reply) => ({ task_id: ctx.episode, step, family, source, model: reply.model }),
    episode: (steps) => ({
      task_id: ctx.episode,
      instruction: task.instruction,
      macros: macros ? [...macros] : null,
      variant: source,
      steps,
    }),
  };
}

function proposedRows(task: Extract<RowsTask, { kind: "proposed" }>): RowsSpec {
  return {
    dir: "rows",
    agentStepsOnly: true,
    row: (step, reply) => ({
      task_id: task.task_id,
      step,
      segment: 0,
      macro: null,
      op: reply.op,
      family: ROW_FAMILY[reply.op ?? ""] ?? "Navigation",
    }),
    episode: (steps) => ({
      task_id: task.task_id,
      instruction: task.instruction,
      site: task.site,
      start_path: task.start_path,
      steps,
      source: "taskgen",
    }),
  };
}

/** A task's kind name: `kind` when it has one ("human", "proposed"), else datagen. */
export function kindName(task: object): KindName {
  const kind = "kind" in task ? task.kind : undefined;
  return kind === "human" || kind === "proposed" ? kind : "datagen";
}
