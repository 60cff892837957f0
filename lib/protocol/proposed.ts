/**
 * Proposed tasks (the seed's taskgen output): tasks a generator proposed, run on the default logged-in session
 * from their start path, graded "pending" (a judge picks the kept ones later), and written as training rows
 * whatever their outcome (lib/tasks/kinds.ts).
 */
import { z } from "zod";
import type { ZodSchema } from "./schema_text.ts";
import type { Macro } from "./macros.ts";
import { macroSchema, quoteText as quote, startUrlProblem, taskIdSchema } from "./task.ts";

/** A proposed task line. */
export interface ProposedTask {
  /** The kind's name. */
  kind: "proposed";
  /** The task's id (it names the episode's folder). */
  task_id: string;
  /** The app the task runs on. */
  site: string;
  /** What the agent must do: it fixes the task's family. */
  macro: Macro;
  /** What the agent is told. */
  instruction: string;
  /** The start page's path on the site base (`/shop/products/7`). */
  start_path: string;
  /** The task's parameters, free form (null: none). */
  option: Record<string, unknown> | null;
}

/** The schema of a proposed task line (`"kind": "proposed"`), as its task file and grade_inputs.json hold it. */
export const proposedTaskSchema: ZodSchema<ProposedTask> = z.strictObject({
  kind: z.literal("proposed"),
  task_id: taskIdSchema,
  site: z.string().min(1),
  macro: macroSchema,
  instruction: z.string().min(1),
  start_path: z.string().superRefine((path, ctx) => {
    // A path only: the start is the run's own base plus this path.
    const problem = path.startsWith("/") ? startUrlProblem(path) : `${quote(path)} is not a path starting with "/"`;
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: path });
  }),
  option: z.record(z.string(), z.unknown()).nullable().default(null),
});
