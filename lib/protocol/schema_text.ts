/**
 * zod plumbing shared by the suite's input schemas: messages that say what is wrong with the value found, field
 * paths in the form people write them (`start.setup[0].click.index`), and unions picked by which key an object has
 * (`{"change": ...}`, `{"regex": ...}`), so an error names the field inside the chosen kind instead of listing every
 * kind that did not fit.
 */
import { z } from "zod";
import { quote } from "./text.ts";

// zod's own types, under names of this folder: deno doc counts another package's types as private to the module
// that uses them (denoland/deno#27364), so the exported schemas and helpers name them through these aliases, which
// `@ignore` keeps out of its lint.

/**
 * zod's schema type: parses a value to a `T`.
 * @ignore
 */
export type ZodSchema<T = unknown> = z.ZodType<T>;
/**
 * zod's issue type: one problem of a parse.
 * @ignore
 */
type ZodIssue = z.core.$ZodIssue;
/**
 * zod's error type: a failed parse, with its issues.
 * @ignore
 */
type ZodError = z.ZodError;
/**
 * zod's error map type: an issue's message.
 * @ignore
 */
type ZodErrorMap = z.core.$ZodErrorMap;
/**
 * zod's refinement context type: where a refinement adds its issues.
 * @ignore
 */
type ZodRefinementCtx = z.core.$RefinementCtx;

/** A short description of a value found where something else was expected. */
export function describeInput(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return quote(value, 60);
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  record: "an object",
};

/** The error map every parse of the suite uses: "is missing", "expected a string, got 12", "must be >= 0, got -1". */
export const errorMap: ZodErrorMap = (iss): string | undefined => {
  const got = describeInput(iss.input);
  switch (iss.code) {
    case "invalid_type":
      if (iss.input === undefined) return "is missing";
      return `expected ${ARTICLE[iss.expected] ?? iss.expected}, got ${got}`;
    case "too_small":
      if (iss.origin === "string") return `must not be empty`;
      if (iss.origin === "array") return `must have at least ${iss.minimum} item(s)`;
      return `must be ${iss.inclusive ? ">=" : ">"} ${iss.minimum}, got ${got}`;
    case "too_big":
      if (iss.origin === "string" || iss.origin === "array") return `is too long (at most ${iss.maximum})`;
      return `must be ${iss.inclusive ? "<=" : "<"} ${iss.maximum}, got ${got}`;
    case "invalid_value":
      return `must be one of ${iss.values.map((v) => quote(v)).join(", ")}, got ${got}`;
    case "invalid_format":
      return `must match ${iss.pattern ?? iss.format}, got ${got}`;
    case "not_multiple_of":
      return `expected an integer, got ${got}`;
    default:
      return undefined;
  }
};

/** `["start", "setup", 0, "click"]` → `start.setup[0].click`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += (out ? "." : "") + String(seg);
  }
  return out;
}

/** An issue as a path and a message; an unknown key is reported at the key itself. */
export function issueParts(issue: ZodIssue): { path: PropertyKey[]; message: string } {
  if (issue.code === "unrecognized_keys") {
    const [first, ...rest] = issue.keys;
    const more = rest.length ? ` (nor ${rest.map((k) => `"${k}"`).join(", ")})` : "";
    return { path: [...issue.path, first], message: `is not a known field${more}` };
  }
  return { path: [...issue.path], message: issue.message };
}

/** `start.url: is missing` (and how many more problems the value has). */
export function describeIssues(error: ZodError): string {
  const [first] = error.issues;
  const { path, message } = issueParts(first);
  const where = formatPath(path);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : "";
  return (where ? `${where}: ${message}` : message) + more;
}

/** Parses with the suite's error map; on failure, copies the issues (with their paths) into `ctx`. */
export function forward<T>(
  schema: ZodSchema<T>,
  value: unknown,
  ctx: ZodRefinementCtx,
): { ok: true; data: T } | { ok: false } {
  const r = schema.safeParse(value, { error: errorMap });
  if (r.success) return { ok: true, data: r.data };
  for (const issue of r.error.issues) {
    const { path, message } = issueParts(issue);
    ctx.addIssue({ code: "custom", message, path, input: value });
  }
  return { ok: false };
}

/** What a keyed union does with a value that is not an object: a parsed value, or undefined to reject it. */
export type ScalarHook<T> = (value: unknown, ctx: ZodRefinementCtx) => { value: T } | undefined;

/**
 * A union of object kinds told apart by one key (`{"norm": ...}`, `{"request": ..., "times": 2}`). Each variant is
 * a strict object schema holding its key and its companions. `scalar` handles non-object forms (a bare string
 * matcher, a list of conditions).
 */
export function keyedUnion<T>(what: string, variants: Record<string, ZodSchema>, scalar?: ScalarHook<T>): ZodSchema<T> {
  const names = Object.keys(variants);
  return z.unknown().transform((value, ctx): T => {
    const s = scalar?.(value, ctx);
    if (s) return s.value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: `expected ${what}, got ${describeInput(value)}`, input: value });
      return z.NEVER;
    }
    const heads = Object.keys(value).filter((k) => Object.hasOwn(variants, k));
    if (heads.length !== 1) {
      const keys = Object.keys(value).map((k) => `"${k}"`).join(", ") || "no fields";
      const message = heads.length === 0
        ? `expected ${what} (one of ${names.join(", ")}), got ${keys}`
        : `has both "${heads[0]}" and "${heads[1]}" (one kind per object)`;
      ctx.addIssue({ code: "custom", message, input: value });
      return z.NEVER;
    }
    const r = forward(variants[heads[0]], value, ctx);
    return r.ok ? r.data as T : z.NEVER;
  }) as unknown as z.ZodType<T>;
}
