/** A datagen task line (docs/tasks.md, "Task format") and its schema. */
import { z } from "zod";
import { type Check, checkSchema, type Verifier, verifierSchema } from "../grading/mod.ts";
import { type Action, actionSchema } from "./action.ts";
import { isMacro, type Macro, MACROS } from "./macros.ts";

/** Where and how an episode starts. */
export interface TaskStart {
  /** A path resolved against the site base, or an absolute URL on a recorded origin. */
  url: string;
  /** Replayed before the agent begins. */
  setup: Action[];
  /** A mid-chain start: this macro comes first. */
  prefix: { macro: Macro } | null;
  logged_out: boolean;
}

/** A datagen task, parsed: optional fields resolved. */
export interface Task {
  task_id: string;
  site: string;
  macro: Macro;
  instruction: string;
  option: Record<string, unknown> | null;
  start: TaskStart;
  check: Check;
  verifier: Verifier | null;
  solution: Action[];
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** A macro of the vocabulary, with a suggestion when the name is close to one. */
export const macroSchema = z.string().transform((name, ctx): Macro => {
  if (isMacro(name)) return name;
  const near = MACROS.map((m) => ({ m, d: distance(name, m) })).sort((a, b) => a.d - b.d)[0];
  const hint = near.d <= 3 ? ` (did you mean "${near.m}"?)` : " (see the macro table in docs/tasks.md)";
  ctx.addIssue({ code: "custom", message: `"${name}" is not a macro${hint}`, input: name });
  return z.NEVER;
});

const startSchema = z.strictObject({
  url: z.string().min(1),
  setup: z.array(actionSchema).default([]),
  prefix: z.strictObject({ macro: macroSchema }).nullable().default(null),
  logged_out: z.boolean().default(false),
});

/** The zod schema of one task line. */
export const taskSchema: z.ZodType<Task> = z.strictObject({
  task_id: z.string().regex(/^[A-Za-z0-9_.-]+$/),
  site: z.string().min(1),
  macro: macroSchema,
  instruction: z.string().min(1),
  option: z.record(z.string(), z.unknown()).nullable().default(null),
  start: startSchema,
  check: checkSchema,
  verifier: verifierSchema.default(null),
  solution: z.array(actionSchema),
});
