/** A datagen task line (docs/tasks.md, "Task format") and its schema. */
import { z } from "zod";
import type { ZodSchema } from "./schema_text.ts";
import {
  type Check,
  checkSchema,
  savedCheckSchema,
  savedVerifierSchema,
  type Verifier,
  verifierSchema,
} from "./condition.ts";
import { editDistance as distance } from "./text.ts";
import { type Action, actionSchema, savedActionSchema } from "./action.ts";
import { isMacro, type Macro, MACROS } from "./macros.ts";

/** Where and how an episode starts. */
export interface TaskStart {
  /** A path resolved against the site base, or an absolute URL on a recorded origin. */
  url: string;
  /** Replayed before the agent begins. */
  setup: Action[];
  /** A mid-chain start: this macro comes first (and `then`, when given, second). */
  prefix: { macro: Macro; then?: Macro } | null;
  /** The episode starts logged out. */
  logged_out: boolean;
}

/** A datagen task, parsed: optional fields resolved. */
export interface Task {
  /** The task's id (it names the episode's folder). */
  task_id: string;
  /** The app the task runs on. */
  site: string;
  /**
   * What the agent must do: it fixes the task's family. A macro of the vocabulary; a lenient load (the seed's) also
   * takes one outside it, whose family is Other (routed to the rest adapter).
   */
  macro: string;
  /** What the agent is told. */
  instruction: string;
  /** The task's parameters, free form (null: none). */
  option: Record<string, unknown> | null;
  /** Where and how the episode starts. */
  start: TaskStart;
  /** The backend gate (docs/grading.md). */
  check: Check;
  /** Answer verification for a reasoning task (null: none). */
  verifier: Verifier | null;
  /** The reference solution (what the replay arm executes). */
  solution: Action[];
  /** A generated task's split: its template's entities are kept apart by split (docs/generation.md). */
  split?: Split;
  /** A generated task's provenance (docs/generation.md). */
  gen?: GenInfo;
  /**
   * How the instruction asks (docs/tasks.md): "procedure" names the controls to use (their method is checked),
   * "goal" names only the outcome (any route that reaches it passes).
   */
  style?: TaskStyle;
}

/** How an instruction asks: naming the controls, or only the outcome. */
export type TaskStyle = "procedure" | "goal";

/** The splits of a generated set. */
export const SPLITS = ["train", "val", "test"] as const;

/** A split of a generated set. */
export type Split = typeof SPLITS[number];

/** Where a generated task came from. */
export interface GenInfo {
  /** The template's id. */
  template: string;
  /** The generator's version. */
  version: string;
  /** The macros in order: the prefix macros, then the task's own. */
  chain: Macro[];
  /** The entity the split is decided by. */
  entity: string;
}

/** The vocabulary's macro nearest to `name`, and how many edits away. */
const nearestMacro = (name: string) => MACROS.map((m) => ({ m, d: distance(name, m) })).sort((a, b) => a.d - b.d)[0];

/** A macro of the vocabulary, with a suggestion when the name is close to one. */
export const macroSchema: ZodSchema<Macro> = z.string().transform((name, ctx): Macro => {
  if (isMacro(name)) return name;
  const near = nearestMacro(name);
  const hint = near.d <= 3 ? ` (did you mean "${near.m}"?)` : " (see the macro table in docs/tasks.md)";
  ctx.addIssue({ code: "custom", message: `"${name}" is not a macro${hint}`, input: name });
  return z.NEVER;
});

/**
 * A macro as the seed reads task files: one outside the vocabulary too (family Other), but not one or two edits
 * from a macro of it, which is a typo (the seed would route it to the wrong adapter without a word).
 */
const lenientMacroSchema = z.string().min(1).superRefine((name, ctx) => {
  if (isMacro(name)) return;
  const near = nearestMacro(name);
  if (near.d > 2) return;
  const message = `"${name}" is not a macro (did you mean "${near.m}"?): a typo, refused even where the seed's ` +
    "macros outside the vocabulary are taken";
  ctx.addIssue({ code: "custom", message, input: name });
});

/** The longest task id: it names a folder, and with `~rK` an episode's. */
const MAX_TASK_ID = 128;

/** A value quoted for a message: JSON string syntax (control characters escaped), long ones cut. */
export const quoteText = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/**
 * Why `id` cannot be a task id, or undefined when it can: a task id names its episode's folder, so it is one
 * plain name (letters, digits, `_`, `.`, `-`), with no leading dot, no `..`, at most MAX_TASK_ID characters.
 */
export function taskIdProblem(id: string): string | undefined {
  const rule = `a task id names its episode's folder: letters, digits, "_", "." and "-", no leading dot, no "..", ` +
    `at most ${MAX_TASK_ID} characters`;
  const bad = /[^A-Za-z0-9_.-]/.exec(id)?.[0];
  const why = id === ""
    ? "is empty"
    : bad !== undefined
    ? `holds ${quoteText(bad)}`
    : id.startsWith(".")
    ? "starts with a dot"
    : id.includes("..")
    ? 'holds ".."'
    : id.length > MAX_TASK_ID
    ? `is ${id.length} characters long`
    : undefined;
  return why && `${quoteText(id)} ${why} (${rule})`;
}

/** A string that `problemOf` finds nothing wrong with; what it finds is the issue's message. */
const checkedString = (problemOf: (s: string) => string | undefined): z.ZodType<string> =>
  z.string().superRefine((s, ctx) => {
    const problem = problemOf(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: s });
  });

/** A task id (taskIdProblem). */
export const taskIdSchema: ZodSchema<string> = checkedString(taskIdProblem);

/** An origin a task may name in an absolute start URL: the recording server's, rebased onto the run's base. */
const RECORDED_ORIGIN = /^http:\/\/(?:127\.0\.0\.1|localhost):\d+(?=[/?#]|$)/;

/**
 * Why `url` cannot be a start page, or undefined when it can: a path on the site server (`/shop/cart`), or an
 * absolute URL on a recording server (`http://127.0.0.1:40279/mail/`), which is rebased onto the run's base. Any
 * other URL would start the agent outside the sandbox.
 */
export function startUrlProblem(url: string): string | undefined {
  const hint = 'give a path ("/shop/") or a URL on the recording server ("http://127.0.0.1:PORT/shop/")';
  if (url.startsWith("/")) {
    // "//host/x" and "/\\host/x" name another host, as a browser reads them.
    const probe = "http://sandbox.invalid";
    const onSite = URL.parse(url, `${probe}/`)?.origin === probe;
    return onSite ? undefined : `${quoteText(url)} names another host, outside the sandbox: ${hint}`;
  }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return `${quoteText(url)} is not a path starting with "/": ${hint}`;
  if (!RECORDED_ORIGIN.test(url)) return `${quoteText(url)} is outside the sandbox: ${hint}`;
  return undefined;
}

/** A start page (startUrlProblem). */
export const startUrlSchema: ZodSchema<string> = checkedString(startUrlProblem);

/** A task's `start`, its setup actions read by `action`. */
const startSchema = (action: z.ZodType<Action>) =>
  z.strictObject({
    url: startUrlSchema,
    setup: z.array(action).default([]),
    prefix: z.strictObject({ macro: macroSchema, then: macroSchema.optional() }).nullable().default(null),
    logged_out: z.boolean().default(false),
  });

/** How a task's parts are read: a task file line's, or a saved task's. */
interface TaskParts {
  id: z.ZodType<string>;
  macro: z.ZodType<string>;
  action: z.ZodType<Action>;
  check: z.ZodType<Check>;
  verifier: z.ZodType<Verifier | null>;
}

/** One task's object, its parts read by `parts`. */
const taskObject = ({ id, macro, action, check, verifier }: TaskParts) =>
  z.strictObject({
    task_id: id,
    site: z.string().min(1),
    macro,
    instruction: z.string().min(1),
    option: z.record(z.string(), z.unknown()).nullable().default(null),
    start: startSchema(action),
    check,
    verifier: verifier.default(null),
    solution: z.array(action),
    split: z.enum(SPLITS).optional(),
    style: z.enum(["procedure", "goal"]).optional(),
    gen: z.strictObject({
      template: z.string().min(1),
      version: z.string().min(1),
      chain: z.array(macroSchema).min(1).max(3),
      entity: z.string().min(1),
    }).optional(),
  });

const LINE = { id: taskIdSchema, action: actionSchema, check: checkSchema, verifier: verifierSchema };

/** The zod schema of one task line. */
export const taskSchema: ZodSchema<Task> = taskObject({ ...LINE, macro: macroSchema });

/** A task line as the seed reads it: its `macro` may be outside the vocabulary (family Other). */
export const lenientTaskSchema: ZodSchema<Task> = taskObject({ ...LINE, macro: lenientMacroSchema });

/**
 * A task as a run saved it (grade_inputs.json's `task`): a line's task after parsing (its actions `{name, params}`),
 * its id as the run had it (a task file's, or one the harness derived for a scripted variant of it, such as
 * `<id>~nm~<name>`, which no task file may use), its macro read as leniently as the seed's lines (the run may have
 * loaded them so), its check and verifier by their format only (not the authoring rules added since the run).
 */
export const savedTaskSchema: ZodSchema<Task> = taskObject({
  id: z.string().min(1),
  macro: lenientMacroSchema,
  action: savedActionSchema,
  check: savedCheckSchema,
  verifier: savedVerifierSchema,
});
