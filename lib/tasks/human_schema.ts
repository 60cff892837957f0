/**
 * The human-task files (docs/verifiers.md): task.json and recording.json as zod schemas (verifier.json's and the site
 * split's are lib/protocol's: grade_inputs.json saves the one, the offline rows read the other). Parsed once by the loader; errors carry the field path (`macros.search.check.all[0].record: ...`).
 */
import { z } from "zod";
import { describeInput, forward, macroLabel, startUrlSchema, taskIdSchema } from "../protocol/mod.ts";
import { looksLikePyLiteral, parsePyLiteral, PyLiteralError } from "./pyliteral.ts";

const site = z.string().regex(/^[a-z][a-z0-9_-]*$/);

/**
 * The seed's tooling writes list and dict fields as the `str()` of a Python value (`"['search', 'open_detail']"`)
 * and reads them with `ast.literal_eval` when the string starts with `[` or `{`: such a string is parsed (never
 * evaluated) before the field's schema checks the value; one that does not parse is an error at the field.
 */
function readPyLiteral(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (!looksLikePyLiteral(value)) return value;
  try {
    return parsePyLiteral(value);
  } catch (e) {
    if (!(e instanceof PyLiteralError)) throw e;
    ctx.addIssue({ code: "custom", message: `is not a Python literal: ${e.message}`, input: value });
    return z.NEVER;
  }
}

/**
 * An optional field the seed reads with `or` (`lit(task.get("macro_spans")) or {}`): null (None written as JSON)
 * and `empty` values, Python literal strings of them too, mean the field is not given.
 */
function seedOptional<T extends z.ZodType>(inner: T, empty: (value: unknown) => boolean = () => false) {
  return z.preprocess((value, ctx) => {
    const v = readPyLiteral(value, ctx);
    return v === null || empty(v) ? undefined : v;
  }, inner.optional()).optional();
}

/** One of `sites`: a site id, or the seed's `{"id": site}` (other keys are ignored, as the seed ignores them). */
const siteRefSchema = z.unknown().transform((value, ctx): string => {
  if (typeof value === "string") {
    const r = forward(site, value, ctx);
    return r.ok ? r.data : z.NEVER;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value) && "id" in value) {
    const r = forward(z.looseObject({ id: site }), value, ctx);
    return r.ok ? r.data.id : z.NEVER;
  }
  ctx.addIssue({
    code: "custom",
    message: `expected a site id or {"id": site}, got ${describeInput(value)}`,
    input: value,
  });
  return z.NEVER;
});

/** A start page the seed reads with `or`: an empty string or null is no start page. */
const seedStartUrl = z.preprocess((v) => v === "" ? null : v, startUrlSchema.nullable()).optional();

/** An empty list: the seed's `sites or [site]` makes it the task's own site. */
const isEmptyList = (v: unknown): boolean => Array.isArray(v) && v.length === 0;

/**
 * task.json as an annotator writes it: JSON lists and objects, or (the seed's format) Python literal strings of them,
 * sites as `{"id": ...}` objects, null or empty for an optional field not given.
 */
function taskFileObject(strict: boolean) {
  return z.strictObject({
    task_id: taskIdSchema.optional(),
    site,
    sites: seedOptional(z.array(siteRefSchema), isEmptyList),
    instruction: z.string().min(1),
    macros: z.preprocess(readPyLiteral, z.array(macroLabel(strict)).min(1)),
    macro_subtasks: seedOptional(z.record(z.string(), z.string())),
    macro_spans: seedOptional(z.record(z.string(), z.tuple([z.number().int().min(0), z.number().int().min(0)]))),
    starting_url: seedStartUrl,
    agent_start_url: seedStartUrl,
    notes: z.string().optional(),
  });
}

/** The keys task.json may hold. */
export const HUMAN_TASK_KEYS: readonly string[] = Object.keys(taskFileObject(true).shape);

/** task.json's schema; lenient: macros outside the vocabulary too (the keys are the loader's to drop). */
export const taskFileSchema = (strict: boolean) =>
  taskFileObject(strict).superRefine((t, ctx) => {
    if (new Set(t.macros).size !== t.macros.length) {
      ctx.addIssue({ code: "custom", path: ["macros"], message: "repeats a label (number repeats: submit_form#2)" });
    }
    for (const field of ["macro_subtasks", "macro_spans"] as const) {
      for (const key of Object.keys(t[field] ?? {})) {
        if (!t.macros.includes(key)) {
          ctx.addIssue({
            code: "custom",
            path: [field, key],
            message: `is not one of "macros" (${t.macros.join(", ")})`,
          });
        }
      }
    }
    if (t.sites && !t.sites.includes(t.site)) {
      ctx.addIssue({ code: "custom", path: ["sites"], message: `must include the task's site "${t.site}"` });
    }
  });

/** task.json as an annotator writes it, strictly (every macro in the vocabulary). */
export const humanTaskFileSchema = taskFileSchema(true);

export type HumanTaskFile = z.output<typeof humanTaskFileSchema>;

/** recording.json: the annotator's session as the recorder saw it. */
export interface Recording {
  /** The first page of the recording (an absolute URL on the recording server, or a path). */
  start_url: string;
  /** The annotator's final answer (null for a task without one). */
  answer: string | null;
  /** The recorder entries (/_admin/record) from the start page on. */
  entries: Record<string, unknown>[];
  /** When it was recorded (informational). */
  recorded_at?: string;
  /** The server it was recorded against (informational). */
  base?: string;
}

export const recordingSchema: z.ZodType<Recording> = z.strictObject({
  start_url: startUrlSchema,
  answer: z.string().nullable().default(null),
  entries: z.array(z.looseObject({ type: z.string() })),
  recorded_at: z.string().optional(),
  base: z.string().optional(),
});
