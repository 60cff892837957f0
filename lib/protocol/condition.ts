/**
 * Conditions, checks and verifiers as written in task files (docs/grading.md, "Conditions"), with their schemas; lib/grading
 * evaluates them.
 */
import { z } from "zod";
import { type Matcher, matcherSchema } from "./matcher.ts";
import { forward, keyedUnion, type ZodSchema } from "./schema_text.ts";

/** Field name → matcher (query and body fields, row images, event fields). */
export type FieldMatchers = Record<string, Matcher>;

/** A whole query: key → a value's matcher, or a list of them (that many values, in any order). */
export type QueryMatchers = Record<string, Matcher | Matcher[]>;

/** What a data change did to its row. */
export type ChangeOp = "insert" | "update" | "delete";

/** A request of the session log, as a `request` condition describes it: every given field must match. */
export interface RequestPattern {
  /** The HTTP method (a matcher: "post" matches POST). */
  method?: Matcher;
  /** The path, without the query string. */
  path?: Matcher;
  /** The whole query (as a page's): every key that counts, each value or list of values. */
  query?: QueryMatchers;
  /** Fields of the request body. */
  body?: FieldMatchers;
  /** Default: below 400. */
  status?: Matcher;
}

/** A row's change, as a `change` condition describes it: every given field must match. */
export interface ChangePattern {
  /** The app whose data changed ("shop"). */
  site?: string;
  /** The table of the row. */
  table?: string;
  /** What the change did to the row. */
  op?: ChangeOp;
  /** The row's key. */
  key?: Matcher;
  /** Fields of the row before the change; each must exist in that row image. */
  before?: FieldMatchers;
  /** Fields of the row after the change; each must exist in that row image. */
  after?: FieldMatchers;
}

/** A final page: its path, its whole query (every key that counts, each value or list of values), which tab. */
export interface PagePattern {
  /** The page's path, without the query string. */
  path?: Matcher;
  /** The page's whole query. */
  query?: QueryMatchers;
  /** "current" (default): the tab the episode ended on; "any": any open tab. */
  tab?: "current" | "any";
}

/** A pattern of `only_writes`: each field optional. */
export interface WritePattern {
  /** The app whose data may change. */
  site?: string;
  /** The table whose rows may change. */
  table?: string;
  /** What a change may do to a row. */
  op?: ChangeOp;
}

/** A backend gate condition; a list means `all`. */
export type Condition =
  | { request: RequestPattern; times?: number }
  | { change: ChangePattern; times?: number; ever?: boolean }
  | { page: PagePattern }
  | { logged_in: boolean }
  | { event: FieldMatchers; times?: number }
  | { record: FieldMatchers; times?: number; bound?: Binding; opened?: OpenedPage }
  | { clipboard: Matcher; times?: number; ever?: boolean }
  | { visited: Matcher; times?: number }
  | { answer: Matcher; seen?: boolean | SeenPage; why?: string; others?: string[] }
  | { only_writes: WritePattern[] }
  | { no_writes: true }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | Condition[];

/** A task's `check`. */
export type Check = Condition;

/**
 * What a method event must have produced (docs/grading.md, "Method binding"): `clipboard`, the clipboard's final
 * content (the write whose `cause` is the event); `page`, the final page (the event is the last action before the
 * final page loaded); `last`, the control's final state (the event is the last of its action on its target: a
 * slider's last value is the asked one).
 */
export type Binding = "clipboard" | "page" | "last";

/**
 * The page a method event must have opened (docs/grading.md, "Method binding"): a load of a page matching `path`
 * and `query` (as `page` reads them) that a matching event led to (the last user action before the load, and the
 * load not from a typed URL); with `tab: "new"`, the load began a new tab (a link opened in a new tab), with
 * `"same"`, it did not.
 */
export interface OpenedPage {
  /** The page's path. */
  path?: Matcher;
  /** The page's whole query (every key that counts, as `page` reads it). */
  query?: QueryMatchers;
  /** "new": the page began a tab of its own; "same": it followed another page in its tab; absent: either. */
  tab?: "new" | "same";
}

/** The page (path, and query keys it must have) where an answer's fact is displayed: `seen` reads only its screens. */
export interface SeenPage {
  /** The page's path. */
  path: Matcher;
  /** Query keys the page's URL must have, with their values (other keys may be present). */
  query?: Record<string, Matcher>;
}

/** A task's answer verifier: `seen` defaults to true. */
export interface Verifier {
  /** What the final answer must match. */
  answer: Matcher;
  /** The answer's text must also be supported by something the agent saw (default true), or by a given page. */
  seen?: boolean | SeenPage;
  /** Why the answer need not be seen: required with `seen: false`. */
  why?: string;
}

const fields = z.record(z.string(), matcherSchema);
const query = z.record(z.string(), z.union([matcherSchema, z.array(matcherSchema).min(1)]));
const times = z.number().int().min(0).optional();
const op = z.enum(["insert", "update", "delete"]);
const name = z.string().min(1);
const seenSchema = z.union([
  z.boolean(),
  z.strictObject({ path: matcherSchema, query: z.record(z.string(), matcherSchema).optional() }),
]);

const variants = {
  request: z.strictObject({
    request: z.strictObject({
      method: matcherSchema.optional(),
      path: matcherSchema.optional(),
      query: query.optional(),
      body: fields.optional(),
      status: matcherSchema.optional(),
    }),
    times,
  }),
  change: z.strictObject({
    change: z.strictObject({
      site: name.optional(),
      table: name.optional(),
      op: op.optional(),
      key: matcherSchema.optional(),
      before: fields.optional(),
      after: fields.optional(),
    }),
    times,
    ever: z.boolean().optional(),
  }),
  page: z.strictObject({
    page: z.strictObject({
      path: matcherSchema.optional(),
      query: query.optional(),
      tab: z.enum(["current", "any"]).optional(),
    }),
  }),
  logged_in: z.strictObject({ logged_in: z.boolean() }),
  event: z.strictObject({ event: fields, times }),
  record: z.strictObject({
    record: fields,
    times,
    bound: z.enum(["clipboard", "page", "last"]).optional(),
    opened: z.strictObject({
      path: matcherSchema.optional(),
      query: query.optional(),
      tab: z.enum(["new", "same"]).optional(),
    }).optional(),
  }),
  clipboard: z.strictObject({ clipboard: matcherSchema, times, ever: z.boolean().optional() }),
  visited: z.strictObject({ visited: matcherSchema, times }),
  only_writes: z.strictObject({
    only_writes: z.array(z.strictObject({ site: name.optional(), table: name.optional(), op: op.optional() })),
  }),
  no_writes: z.strictObject({ no_writes: z.literal(true) }),
};

const answerObject = z.strictObject({
  answer: matcherSchema,
  seen: seenSchema.optional(),
  why: z.string().min(1).optional(),
  others: z.array(z.string().min(1)).optional(),
});

const verifierObject = z.strictObject({
  answer: matcherSchema,
  seen: seenSchema.optional(),
  why: z.string().min(1).optional(),
});

/** An authoring rule of task files (not of the format: a task a run saved before the rule still reads). */
const explained = <T extends { seen?: unknown; why?: unknown }>(schema: z.ZodType<T>) =>
  schema.refine((a) => a.seen !== false || a.why !== undefined, {
    message: "seen: false needs a why (the answer is computed, not shown: say so)",
  });

/** A condition's schema (a list of conditions means `all`), with the authoring rules or without them. */
function conditionSchemaOf(authored: boolean): ZodSchema<Condition> {
  const condition: ZodSchema<Condition> = z.lazy(() => schema);
  const schema = keyedUnion<Condition>("a condition", {
    ...variants,
    answer: authored ? explained(answerObject) : answerObject,
    all: z.strictObject({ all: z.array(condition) }),
    any: z.strictObject({ any: z.array(condition).min(1) }),
    not: z.strictObject({ not: condition }),
  }, (value, ctx) => {
    if (!Array.isArray(value)) return undefined;
    const r = forward(z.array(condition), value, ctx);
    return { value: r.ok ? r.data : z.NEVER };
  });
  return schema;
}

/** The zod schema of a condition (a list of conditions means `all`). */
export const conditionSchema: ZodSchema<Condition> = conditionSchemaOf(true);

/** The zod schema of a task's `check`. */
export const checkSchema: ZodSchema<Check> = conditionSchema;

/** A `check` as a run saved it: its format, without the authoring rules added since (`seen: false` needs a why). */
export const savedCheckSchema: ZodSchema<Check> = conditionSchemaOf(false);

/** The zod schema of a task's `verifier` (null: no verifier). */
export const verifierSchema: ZodSchema<Verifier | null> = explained(verifierObject).nullable();

/** A `verifier` as a run saved it: its format, without the authoring rules added since. */
export const savedVerifierSchema: ZodSchema<Verifier | null> = verifierObject.nullable();
