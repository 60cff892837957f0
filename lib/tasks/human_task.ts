/** A human-written task as the runner uses it: task.json, verifier.json and the recording, resolved. */
import { familyOf } from "../protocol/mod.ts";
import type { HumanVerifier } from "../protocol/mod.ts";
import type { HumanTaskFile, Recording } from "./human_schema.ts";

/** One gold subtask: the family of its macro, the macro label and what the annotator wrote for it. */
export interface Subtask {
  /** The family of the macro ("Other" outside the vocabulary). */
  family: string;
  /** The macro label (`search`, `submit_form#2`). */
  macro: string;
  /** What the annotator wrote for it (task.json's macro_subtasks). */
  text: string;
}

/** A human task, resolved (the seed's human_tasks dict). */
export interface HumanTask {
  /** The kind's name. */
  kind: "human";
  /** The task folder's name. */
  task_id: string;
  /** `<site folder>/<task folder>` inside the annotations folder. */
  key: string;
  /** The task folder. */
  dir: string;
  /** The task's main site (task.json's `site`). */
  site: string;
  /** Every site the task spans (more than one: a cross-site task, started from the portal). */
  sites: string[];
  /** The last macro label (the result line's `macro`). */
  macro: string;
  /** The macro labels the task goes through, in task.json's order. */
  macros: string[];
  /** What the agent is told. */
  instruction: string;
  /** The gold subtasks in span order with reasoning last; null unless every macro has its text. */
  subtasks: Subtask[] | null;
  /** agent_start_url, else the recording's first page, else starting_url. */
  start_hint: string | null;
  /** The verifier checks the login macro: the episode starts logged out. */
  needs_login: boolean;
  /** verifier.json: the checks of each macro and of the end state. */
  verifier: HumanVerifier;
  /** recording.json, when the task has one. */
  recording: Recording | null;
}

const REASONING = "Reasoning base";

/** The gold subtasks: span order (else the macros' order), reasoning last; null when a macro has no text. */
function goldSubtasks(file: HumanTaskFile): Subtask[] | null {
  const spans = file.macro_spans ?? {};
  const order = Object.keys(spans).length
    ? [...file.macros].sort((a, b) => (spans[a]?.[0] ?? Infinity) - (spans[b]?.[0] ?? Infinity))
    : file.macros;
  const subs = file.macro_subtasks ?? {};
  const gold = order.map((macro) => ({ family: familyOf(macro), macro, text: (subs[macro] ?? "").trim() }));
  // A report is the task's deliverable: reasoning last even when the annotator read part of the answer early.
  const sorted = [...gold.filter((g) => g.family !== REASONING), ...gold.filter((g) => g.family === REASONING)];
  return sorted.length && sorted.every((g) => g.text) ? sorted : null;
}

/** Builds the resolved task from its parsed files. */
export function resolveHumanTask(
  taskId: string,
  key: string,
  dir: string,
  file: HumanTaskFile,
  verifier: HumanVerifier,
  recording: Recording | null,
): HumanTask {
  return {
    kind: "human",
    task_id: taskId,
    key,
    dir,
    site: file.site,
    sites: file.sites ?? [file.site],
    macro: file.macros[file.macros.length - 1],
    macros: file.macros,
    instruction: file.instruction,
    subtasks: goldSubtasks(file),
    start_hint: file.agent_start_url || recording?.start_url || file.starting_url || null,
    needs_login: Object.keys(verifier.macros).some((m) => m.split("#")[0] === "authenticate_by_form"),
    verifier,
    recording,
  };
}
