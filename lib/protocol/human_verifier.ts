/**
 * A human task's verifier (verifier.json, docs/verifiers.md): its types and its schema, with the macro labels it keys
 * its macros by. lib/grading grades with it; grade_inputs.json saves it with the task.
 */
import { z } from "zod";
import { type Condition, conditionSchema } from "./condition.ts";
import { firstDate } from "./dates.ts";
import type { ZodSchema } from "./schema_text.ts";
import { macroSchema } from "./task.ts";

/** An answer check: the QA tier chain (regex, exact, precise number/date, then the LLM tier). */
export interface AnswerSpec {
  /** The reference answer, as a person would write it: what the LLM tier compares against. */
  expected: string;
  /** Tier 1: a regular expression that accepts the answer (flags i, m, s, u). */
  regex?: string;
  /** The flags of `regex`. */
  flags?: string;
  /** Tier 2: accepted answers, compared normalised (case, spaces, NFKC). */
  exact?: string[];
  /** Tier 3 (precise): the number the answer must state, within `tol` (default 1e-9). */
  number?: number;
  /** How far from `number` the stated number may be. */
  tol?: number;
  /** Tier 3 (precise): the day the answer must state. */
  date?: string;
  /** Tier 4: whether the LLM tier may decide when no tier above did (default true). */
  llm: boolean;
  /** Guidance for the LLM tier ("any answer naming both rooms passes"). */
  rubric?: string;
}

/** What one macro of a human task must show: conditions over the trajectory, and/or an answer check. */
export interface MacroVerifier {
  /** What the trajectory must show. */
  check?: Condition;
  /** How the final answer is checked. */
  answer?: AnswerSpec;
}

/**
 * A row the reference solution (the recording, replayed) changed, as it ended: an update's changed fields and an
 * insert's fields (bookkeeping and generated ones left out), with their end values; an update's or delete's key.
 */
export interface ExpectedRow {
  /** The app whose data changed. */
  site: string;
  /** The table of the row. */
  table: string;
  /** What the reference did to the row. */
  op: "insert" | "update" | "delete";
  /** An update's or delete's row key. */
  key?: unknown;
  /** The fields the reference set, with their end values (none for a delete). */
  fields: Record<string, unknown>;
}

/** verifier.json: per macro label, its check and/or answer. */
export interface HumanVerifier {
  /** Per macro label, its check and/or answer. */
  macros: Record<string, MacroVerifier>;
  /** The reference's end state (scripts/record_end_state.ts writes it): what the episode's net change may be. */
  end_state?: ExpectedRow[];
  /**
   * The reference's final page (path and query), for a task whose last macro is a navigation (a tab, a page, a
   * search): the episode must end there too.
   */
  end_page?: string;
  /**
   * Fields (`table.field`) the author declares free text: a written row's value may differ from the reference's
   * without any macro naming it (docs/verifiers.md). Nothing is free by default.
   */
  free?: string[];
  /** Free text for people; grading does not read it. */
  notes?: string;
}

/**
 * A macro label: `search`, or `submit_form#2` for the second submit_form of a task. Strict: its macro must be in the
 * vocabulary. Lenient (the seed's annotations): any name, whose family is "Other" outside the vocabulary.
 */
export function macroLabel(strict: boolean): ZodSchema<string> {
  return z.string().transform((label, ctx): string => {
    const m = /^([^#]+)(#[1-9]\d*)?$/.exec(label);
    if (!m) {
      ctx.addIssue({
        code: "custom",
        message: `"${label}" is not a macro label (a macro, or a macro#N)`,
        input: label,
      });
      return z.NEVER;
    }
    if (!strict) return label;
    const r = macroSchema.safeParse(m[1]);
    if (!r.success) {
      ctx.addIssue({ code: "custom", message: r.error.issues[0].message, input: label });
      return z.NEVER;
    }
    return label;
  });
}

/** A vocabulary macro, optionally numbered (`submit_form#2`). */
export const macroLabelSchema: ZodSchema<string> = macroLabel(true);

/**
 * The conditions a human verifier may use: what the trajectory (recorder stream + request log) can show, and the
 * clipboard (the same final-state evidence datagen checks read).
 */
const TRAJECTORY_KINDS = new Set(["request", "record", "visited", "clipboard", "all", "any", "not"]);
const MODIFIERS = new Set(["times", "seen", "bound", "ever", "why", "others"]);

function trajectoryOnly(c: Condition, path: (string | number)[], ctx: z.core.$RefinementCtx): void {
  if (Array.isArray(c)) return c.forEach((x, i) => trajectoryOnly(x, [...path, i], ctx));
  const kind = Object.keys(c).find((k) => !MODIFIERS.has(k))!;
  if (!TRAJECTORY_KINDS.has(kind)) {
    ctx.addIssue({
      code: "custom",
      path: [...path, kind],
      message: `is not available in a human verifier (it reads the trajectory: request, record, visited, clipboard; ` +
        `answers go in the macro's "answer")`,
    });
    return;
  }
  if ("all" in c) c.all.forEach((x, i) => trajectoryOnly(x, [...path, "all", i], ctx));
  if ("any" in c) c.any.forEach((x, i) => trajectoryOnly(x, [...path, "any", i], ctx));
  if ("not" in c) trajectoryOnly(c.not, [...path, "not"], ctx);
}

const trajectoryCondition = conditionSchema.superRefine((c, ctx) => trajectoryOnly(c, [], ctx));

const answerSpecSchema: z.ZodType<AnswerSpec> = z.strictObject({
  expected: z.string().min(1),
  regex: z.string().min(1).optional(),
  flags: z.string().regex(/^[imsu]*$/).optional(),
  exact: z.array(z.string().min(1)).min(1).optional(),
  number: z.number().optional(),
  tol: z.number().min(0).optional(),
  date: z.string().optional(),
  llm: z.boolean().default(true),
  rubric: z.string().optional(),
}).superRefine((a, ctx) => {
  if (a.regex !== undefined) {
    try {
      new RegExp(a.regex, a.flags);
    } catch (e) {
      ctx.addIssue({ code: "custom", path: ["regex"], message: `is not a valid regular expression: ${e}` });
    }
  }
  if (a.date !== undefined && !firstDate(a.date)) {
    ctx.addIssue({ code: "custom", path: ["date"], message: `is not a date: "${a.date}"` });
  }
  if (a.tol !== undefined && a.number === undefined) {
    ctx.addIssue({ code: "custom", path: ["tol"], message: `goes with "number"` });
  }
  if (a.flags !== undefined && a.regex === undefined) {
    ctx.addIssue({ code: "custom", path: ["flags"], message: `goes with "regex"` });
  }
});

const macroVerifierSchema: z.ZodType<MacroVerifier> = z.strictObject({
  check: trajectoryCondition.optional(),
  answer: answerSpecSchema.optional(),
}).superRefine((m, ctx) => {
  if (m.check === undefined && m.answer === undefined) {
    ctx.addIssue({ code: "custom", message: `needs a "check", an "answer" or both` });
  }
});

/** verifier.json's schema; lenient: macro labels outside the vocabulary too. */
export const verifierFileSchema = (strict: boolean): ZodSchema<HumanVerifier> =>
  z.strictObject({
    macros: z.record(z.string(), macroVerifierSchema).superRefine((m, ctx) => {
      if (Object.keys(m).length === 0) ctx.addIssue({ code: "custom", message: "must name at least one macro" });
      for (const key of Object.keys(m)) {
        const r = macroLabel(strict).safeParse(key);
        if (!r.success) ctx.addIssue({ code: "custom", path: [key], message: r.error.issues[0].message });
      }
    }),
    end_state: z.array(z.strictObject({
      site: z.string().min(1),
      table: z.string().min(1),
      op: z.enum(["insert", "update", "delete"]),
      key: z.unknown().optional(),
      fields: z.record(z.string(), z.unknown()),
    })).optional(),
    end_page: z.string().startsWith("/").optional(),
    free: z.array(z.string().regex(/^[a-z_]+\.[a-z_]+$/, "a field as table.field")).optional(),
    notes: z.string().optional(),
  });

/** verifier.json's keys (the seed reads only `macros`). */
export const VERIFIER_KEYS: readonly string[] = ["macros", "end_state", "end_page", "free", "notes"];

/** verifier.json's schema, strictly. */
export const humanVerifierSchema: ZodSchema<HumanVerifier> = verifierFileSchema(true);
