/**
 * grade_inputs.json's content by task kind (datagen, human, proposed): its types and schemas, and the reader the tools
 * that only read a run use (the viewer, merge, the rows). What a kind does with its inputs (its grade, its judge view)
 * is lib/tasks' registry, which reads the same files through these parsers.
 */
import { z } from "zod";
import { HarnessError } from "../errors/mod.ts";
import {
  type ChangeEntry,
  changeEntrySchema,
  type ClipEntry,
  clipEntrySchema,
  evidenceSchema,
  type GradeInputs,
  jsonValue,
  type LogEntry,
  logEntrySchema,
  parseEvidence,
} from "./evidence.ts";
import { type HumanVerifier, humanVerifierSchema } from "./human_verifier.ts";
import { type ProposedTask, proposedTaskSchema } from "./proposed.ts";
import { describeIssues, errorMap, type ZodSchema } from "./schema_text.ts";
import { type AppRules, appRulesSchema, type FinalState, finalStateSchema } from "./state.ts";
import { savedTaskSchema, type Task } from "./task.ts";

/** The kinds, as grade_inputs.json's `kind` names them. */
export type KindName = "datagen" | "human" | "proposed";

type Entry = Record<string, unknown>;

/** grade_inputs.json of a datagen episode: the evidence, the allowlist's refusals and the task. */
export interface DatagenGradeInputs extends GradeInputs {
  /** The kind's name. */
  kind: "datagen";
  /** The task as run. */
  task: Task;
  /** Read from the seed's grade_inputs.json (which holds no task: `task` is the task file's). */
  seed?: true;
}

/** The streams and the outcome a human or proposed episode saves. */
export interface TrajectoryInputs {
  /** The site base the episode ran on. */
  base: string;
  /** The request log. */
  log: LogEntry[];
  /** The database changes. */
  changes: ChangeEntry[];
  /** Clipboard texts. */
  clip: string[];
  /** The clipboard's entries as the admin protocol gave them (seq, time, text, url). */
  clipboard: ClipEntry[];
  /** The visible text of every screen the agent saw, and of the final one. */
  seen: string[];
  /** The arm's answer. */
  answer: string | null;
  /** The agent's actions, `{name: params}` (kept for the record; no grade reads them). */
  actions: unknown[];
  /** Requests the network allowlist refused. */
  blocked?: string[];
  /** The final pages and login state (absent when saved before end-state grading). */
  final?: FinalState;
  /** Each app's grading rules (absent when saved before end-state grading). */
  rules?: Record<string, AppRules>;
}

/** grade_inputs.json of a proposed episode. */
export interface ProposedGradeInputs extends TrajectoryInputs {
  /** The kind's name. */
  kind: "proposed";
  /** The task as run. */
  task: ProposedTask;
  /** The recorder's entries (/_admin/record). */
  record: Record<string, unknown>[];
}

const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);

/** A kind's parseInputs from its zod schema. @throws HarnessError naming the file and the field. */
function parserOf<I>(schema: z.ZodType<I>): (value: unknown, file: string) => I {
  return (value, file) => {
    const r = schema.safeParse(value, { error: errorMap });
    if (!r.success) throw new HarnessError(`${file}: ${describeIssues(r.error)}`, { cause: r.error });
    return r.data;
  };
}

/**
 * The task a datagen episode saved, checked as its task file line was (savedTaskSchema), so that a malformed check is an error naming the file and the field, not a
 * grade of a check the gate cannot read.
 */
const parseSavedDatagenTask = parserOf(z.looseObject({ task: savedTaskSchema }));

const trajectoryFields = {
  base: z.string(),
  log: z.array(logEntrySchema).default([]),
  changes: z.array(changeEntrySchema).default([]),
  clip: z.array(z.union([z.string(), z.looseObject({ text: z.string() }).transform((e) => e.text)])).default([]),
  clipboard: z.array(clipEntrySchema).default([]),
  seen: z.array(z.string()).default([]),
  answer: z.string().nullable().default(null),
  actions: z.array(z.unknown()).default([]),
  blocked: z.array(z.string()).optional(),
  final: finalStateSchema.optional(),
  rules: z.record(z.string(), appRulesSchema).optional(),
};

/** A human task as its episode saved it (the resolved task, lib/tasks' HumanTask): savedHumanTaskSchema. */
export interface SavedHumanTask {
  /** The kind's name. */
  kind: "human";
  /** The task's id. */
  task_id: string;
  /** The task's instruction. */
  instruction: string;
  /** The macro labels the task goes through, in task.json's order. */
  macros: string[];
  /** verifier.json. */
  verifier: HumanVerifier;
  /** The last macro label. */
  macro?: string;
  /** `<site folder>/<task folder>` inside the annotations folder. */
  key?: string;
  /** The task folder. */
  dir?: string;
  /** The task's main site. */
  site?: string;
  /** Every site the task spans. */
  sites?: string[];
  /** The gold subtasks, or null. */
  subtasks?: { family: string; macro: string; text: string }[] | null;
  /** Where the agent starts. */
  start_hint?: string | null;
  /** The episode starts logged out. */
  needs_login?: boolean;
  /** recording.json as saved (no grade replays it). */
  recording?: unknown;
  /** Any field added later. */
  [field: string]: unknown;
}

/**
 * A human or proposed episode's streams and outcome (the runner's, from the admin protocol), checked as they will be
 * read back. @throws HarnessError naming `source` and the field.
 */
export const parseTrajectoryInputs: (value: unknown, source: string) => TrajectoryInputs = parserOf<TrajectoryInputs>(
  z.object(trajectoryFields),
);

/**
 * A human task as its episode saved it (the resolved task, lib/tasks' HumanTask): what its grade, the judge and the
 * rows read is required; the fields added over time (needs_login, sites, subtasks, ...) are checked when present, so
 * an episode saved before them still reads. `recording` is kept as saved: no grade replays it.
 */
const savedHumanTaskSchema: ZodSchema<SavedHumanTask> = z.looseObject({
  kind: z.literal("human"),
  task_id: z.string(),
  instruction: z.string(),
  macros: z.array(z.string()).min(1),
  verifier: humanVerifierSchema,
  macro: z.string().optional(),
  key: z.string().optional(),
  dir: z.string().optional(),
  site: z.string().optional(),
  sites: z.array(z.string()).min(1).optional(),
  subtasks: z.array(z.object({ family: z.string(), macro: z.string(), text: z.string() })).nullable().optional(),
  start_hint: z.string().nullable().optional(),
  needs_login: z.boolean().optional(),
  recording: z.unknown().optional(),
});

/**
 * A saved task's main site and every site it spans: a human task saved before `site` or `sites` was added gets them
 * from the other (none: ""). A datagen or proposed task is on its `site` alone.
 */
export function savedSites(task: { site?: string; sites?: readonly string[] }): { site: string; sites: string[] } {
  const sites = task.sites ? [...task.sites] : task.site !== undefined ? [task.site] : [];
  return { site: task.site ?? sites[0] ?? "", sites };
}

/** Whether a kind's episodes are graded "pending" and decided by the macro judge (judge.ts writes judge.json). */
export const JUDGED_KINDS: Readonly<Record<KindName, boolean>> = { datagen: false, human: false, proposed: true };

const humanInputsSchema = z.looseObject({
  kind: z.literal("human"),
  ...trajectoryFields,
  task: savedHumanTaskSchema,
  traj: z.array(z.looseObject({ type: z.string() })),
});

const proposedInputsSchema = z.looseObject({
  kind: z.literal("proposed"),
  ...trajectoryFields,
  task: proposedTaskSchema,
  record: z.array(z.looseObject({ type: z.string() })).default([]),
});

/** grade_inputs.json of any kind, as one union on `kind` (a file without `kind` is a datagen episode's). */
export const gradeInputsSchema: ZodSchema = z.union([
  humanInputsSchema,
  proposedInputsSchema,
  z.looseObject({ kind: z.literal("datagen").optional(), task: z.looseObject({}) }).and(evidenceSchema),
]);

/** Reads a datagen episode's grade_inputs.json value. @throws HarnessError naming the file and the field. */
export function parseDatagenInputs(value: unknown, file: string): DatagenGradeInputs {
  if (!isObject(value)) throw new HarnessError(`${file}: is not a JSON object`);
  const evidence = parseEvidence(value, file);
  if (!isObject(value.task)) throw new HarnessError(`${file}: task: is missing`);
  const { task } = parseSavedDatagenTask(value, file);
  const blocked = Array.isArray(value.blocked) ? value.blocked.map(String) : [];
  return { kind: "datagen", ...evidence, blocked, task };
}

/** A human episode's grade_inputs.json as saved (lib/tasks reads its task as the resolved HumanTask). */
export interface SavedHumanInputs extends TrajectoryInputs {
  /** The kind's name. */
  kind: "human";
  /** The task as saved. */
  task: SavedHumanTask;
  /** The recorder stream with the request log merged in (what the verifier reads). */
  traj: { type: string; [field: string]: unknown }[];
}

/** Reads a human episode's grade_inputs.json value. @throws HarnessError naming the file and the field. */
export const parseSavedHumanInputs: (value: unknown, file: string) => SavedHumanInputs = parserOf<SavedHumanInputs>(
  humanInputsSchema,
);

/** Reads a proposed episode's grade_inputs.json value. @throws HarnessError naming the file and the field. */
export const parseProposedInputs: (value: unknown, file: string) => ProposedGradeInputs = parserOf(
  proposedInputsSchema,
);

/** A saved grade_inputs.json as its kind's format reads it. */
export type SavedInputs =
  | { kind: "datagen"; inputs: DatagenGradeInputs }
  | { kind: "human"; inputs: SavedHumanInputs }
  | { kind: "proposed"; inputs: ProposedGradeInputs };

/**
 * The kind a grade_inputs.json value names (none: datagen).
 * @throws HarnessError naming the file: not an object, or another kind.
 */
export function gradeInputsKind(value: unknown, file: string): KindName {
  if (!isObject(value)) throw new HarnessError(`${file}: is not a JSON object`);
  const name = value.kind ?? "datagen";
  if (name !== "datagen" && name !== "human" && name !== "proposed") {
    throw new HarnessError(`${file}: kind: "${String(name)}" is not one of datagen, human, proposed`);
  }
  return name;
}

/**
 * Reads a saved grade_inputs.json (its value or text) in its kind's format, without grading anything: the viewer's,
 * merge's and the rows' reader. A file in the seed's layout holds no task: lib/tasks' parseGradeInputs reads it
 * given the run's tasks.
 * @throws HarnessError naming the file and the field.
 */
export function readGradeInputs(json: unknown, file: string): SavedInputs {
  const value = jsonValue(json, file);
  if (isObject(value) && isSeedLayout(value)) throw seedLayoutWithoutTask(value, file);
  const kind = gradeInputsKind(value, file);
  if (kind === "human") return { kind, inputs: parseSavedHumanInputs(value, file) };
  if (kind === "proposed") return { kind, inputs: parseProposedInputs(value, file) };
  return { kind, inputs: parseDatagenInputs(value, file) };
}

/**
 * The fields of the seed's grade_inputs.json, by the kind that wrote them (its run_episode): no `kind`, no `task`.
 * A human episode's has `traj`; a datagen episode's `events`.
 */
export const SEED_LAYOUT: Readonly<Record<"datagen" | "human", readonly string[]>> = {
  datagen: ["base", "log", "events", "changes", "clip", "answer", "seen"],
  human: ["base", "traj", "answer", "log", "changes", "clip", "seen", "actions"],
};

/** Whether a grade_inputs.json value is in the seed's layout: no `kind`, no `task`, the seed's `base` and `log`. */
export function isSeedLayout(value: Record<string, unknown>): boolean {
  return value.kind === undefined && value.task === undefined && typeof value.base === "string" &&
    Array.isArray(value.log);
}

/** The kind whose episode wrote a grade_inputs.json in the seed's layout: a human episode's has `traj`. */
export function seedLayoutKind(value: Record<string, unknown>): "datagen" | "human" {
  return Array.isArray(value.traj) ? "human" : "datagen";
}

/** The error of a grade_inputs.json in the seed's layout read without the run's tasks. */
export function seedLayoutWithoutTask(value: Record<string, unknown>, file: string): HarnessError {
  return new HarnessError(
    `${file} is in the seed's layout (no task in it): give the run's tasks (${
      seedLayoutKind(value) === "human" ? "--human" : "--tasks FILE"
    }) to grade it`,
  );
}
