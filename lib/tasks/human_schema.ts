/**
 * The human-task files (docs/verifiers.md): task.json, verifier.json, recording.json and the site split, as zod
 * schemas. Parsed once by the loader; errors carry the field path (`macros.search.check.all[0].record: ...`).
 */
import { z } from "zod";
import {
  type AnswerSpec,
  type Condition,
  conditionSchema,
  describeInput,
  firstDate,
  forward,
  type HumanVerifier,
  type MacroVerifier,
} from "../grading/mod.ts";
import { looksLikePyLiteral, parsePyLiteral, PyLiteralError } from "./pyliteral.ts";
import { macroSchema, startUrlSchema, taskIdSchema } from "../protocol/mod.ts";

/**
 * A macro label: `search`, or `submit_form#2` for the second submit_form of a task. Strict: its macro must be in the
 * vocabulary. Lenient (the seed's annotations): any name, whose family is "Other" outside the vocabulary.
 */
function macroLabel(strict: boolean): z.ZodType<string> {
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
export const macroLabelSchema: z.ZodType<string> = macroLabel(true);

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
export const verifierFileSchema = (strict: boolean): z.ZodType<HumanVerifier> =>
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
export const humanVerifierSchema: z.ZodType<HumanVerifier> = verifierFileSchema(true);

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

/** The site split: which sites train on and which are held out for testing. */
export interface SiteSplit {
  /** The sites whose tasks train. */
  train: string[];
  /** The sites held out: their tasks are the test split. */
  test: string[];
}

export const siteSplitSchema: z.ZodType<SiteSplit> = z.strictObject({
  train: z.array(site),
  test: z.array(site).min(1),
}).superRefine((s, ctx) => {
  const both = s.test.filter((x) => s.train.includes(x));
  if (both.length) ctx.addIssue({ code: "custom", path: ["test"], message: `"${both[0]}" is also a train site` });
});
