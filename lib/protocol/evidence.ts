/** An episode's evidence (grade_inputs.json, docs/tasks.md "Evidence"): its types and its schema, for regrading. */
import { z } from "zod";
import { HarnessError } from "../errors/mod.ts";
import { describeIssues, errorMap, type ZodSchema } from "./schema_text.ts";
import { type AppRules, appRulesSchema, type FinalState, finalStateSchema } from "./state.ts";

/** A request of the session log (/_admin/log). */
export interface LogEntry {
  /** The entry's place in the session's one counter across all its streams. */
  seq?: number;
  /** When the server logged it (ISO 8601). */
  time?: string;
  /** The HTTP method ("POST"). */
  method: string;
  /** The path, without the query string. */
  path: string;
  /** The query's parameters by name. */
  query: Record<string, unknown>;
  /** The body's fields (a form's or the JSON sent); null when the request had none. */
  body: Record<string, unknown> | null;
  /** The HTTP status of the answer. */
  status: number;
}

/** A data change (/_admin/changes). */
export interface ChangeEntry {
  /** The entry's place in the session's one counter across all its streams. */
  seq?: number;
  /** When the server made the change (ISO 8601). */
  time?: string;
  /** The app whose data changed ("shop"). */
  site: string;
  /** The table of the row. */
  table: string;
  /** What the change did to the row. */
  op: "insert" | "update" | "delete";
  /** The row's key. */
  key: unknown;
  /** The whole row before the change; null for an insert. */
  before: Record<string, unknown> | null;
  /** The whole row after the change; null for a delete. */
  after: Record<string, unknown> | null;
}

/**
 * One action in the `{name: params}` form the executor runs: what a model replies, the router gates and traces,
 * and a reference solution tries. Defined here, in the lowest layer, so that every folder can name it.
 */
export type ActionCall = Record<string, Record<string, unknown>>;

/** One of the agent's actions as an action event; `value` only for the kinds that carry one. */
export interface ActionEvent {
  /** "action". */
  type: string;
  /** The kind of action ("click", "type", "select", "answer", "clipboard_write", ...). */
  action: string;
  /** The element acted on ("" for the agent's own actions). */
  target: string;
  /** What the action carries: typed text, keys, a chosen option, an answer, a clipboard text. */
  value?: unknown;
  /** Any other field an event may have. */
  [field: string]: unknown;
}

/** An entry of the page recorder stream (/_admin/record): an action or an observation. */
export interface RecordEntry {
  /** The entry's place in the session's one counter across all its streams. */
  seq?: number;
  /** "action" or "observation". */
  type: string;
  /** The entry's other fields (`action`, `target`, `value`, `kind`, `url`, `t`, ...: docs/admin-protocol.md). */
  [field: string]: unknown;
}

/** A clipboard write as the admin protocol gives it (docs/admin-protocol.md). */
export interface ClipEntry {
  /** The text written. */
  text: string;
  /** When the page wrote it, on the browser's clock (the order of writes). */
  n?: number;
  /** The id of the recorder action the write answered (a click on a copy button), when there was one. */
  cause?: string;
  /** Any other field (seq, time, url). */
  [field: string]: unknown;
}

/** What gate() reads: grade_inputs.json without its optional fields. */
export interface Evidence {
  /** The origin the episode's sites were served on (`http://127.0.0.1:40115`). */
  base: string;
  /** The session's requests after the start, in order. */
  log: LogEntry[];
  /** The session's data changes after the start, in order. */
  changes: ChangeEntry[];
  /** The clipboard writes' texts, in order. */
  clip: string[];
  /** The clipboard writes as entries, in the same order: what a method binding reads (absent in older evidence). */
  clipboard?: ClipEntry[];
  /** The agent's own actions as action events (actionEvents). */
  events: ActionEvent[];
  /** The page recorder stream after the start: what the pages saw done and loaded. */
  record: RecordEntry[];
  /** The final answer (done's text); null when the episode did not end with done. */
  answer: string | null;
  /** The viewport text of every screen the agent saw. */
  seen: string[];
  /** The URL of each screen of `seen` (the same order; absent in older evidence): where a fact was shown. */
  seen_urls?: string[];
  /** The final pages and login state (absent in evidence saved before end-state grading). */
  final?: FinalState;
  /** Each app's rules, as its server declared them (absent in evidence saved before end-state grading). */
  rules?: Record<string, AppRules>;
}

/** grade_inputs.json as the runner writes it. */
export interface GradeInputs extends Evidence {
  /** Requests the network allowlist refused. */
  blocked?: string[];
}

const row = z.record(z.string(), z.unknown());
const seqTime = { seq: z.number().optional(), time: z.string().optional() };

/** A request of the session log (LogEntry), as grade_inputs.json saves it. */
export const logEntrySchema: ZodSchema<LogEntry> = z.looseObject({
  ...seqTime,
  method: z.string(),
  path: z.string(),
  query: row.default({}),
  body: row.nullable().default(null),
  status: z.number(),
});

/** A data change (ChangeEntry), as grade_inputs.json saves it. */
export const changeEntrySchema: ZodSchema<ChangeEntry> = z.looseObject({
  ...seqTime,
  site: z.string(),
  table: z.string(),
  op: z.enum(["insert", "update", "delete"]),
  key: z.unknown(),
  before: row.nullable(),
  after: row.nullable(),
});

/** A clipboard write (ClipEntry), as grade_inputs.json saves it. */
export const clipEntrySchema: ZodSchema<ClipEntry> = z.looseObject({
  text: z.string(),
  n: z.number().optional(),
  cause: z.string().optional(),
});

/** The zod schema of grade_inputs.json (Evidence; a missing optional field gets its default). */
export const evidenceSchema: ZodSchema = z.object({
  base: z.string(),
  log: z.array(logEntrySchema),
  changes: z.array(changeEntrySchema),
  // Plain texts, or the admin protocol's entries ({seq, time, text, url}).
  clip: z.array(z.union([z.string(), z.looseObject({ text: z.string() }).transform((e) => e.text)])).default([]),
  clipboard: z.array(clipEntrySchema).optional(),
  events: z.array(z.looseObject({
    type: z.string(),
    action: z.string(),
    target: z.string().default(""),
  })).default([]),
  record: z.array(z.looseObject({ type: z.string() })).default([]),
  answer: z.string().nullable().default(null),
  seen: z.array(z.string()).default([]),
  seen_urls: z.array(z.string()).optional(),
  final: finalStateSchema.optional(),
  rules: z.record(z.string(), appRulesSchema).optional(),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optional = (v: unknown, type: string) => v === undefined || typeof v === type;
const OPS = new Set(["insert", "update", "delete"]);

function logOk(e: unknown): boolean {
  return isObject(e) && typeof e.method === "string" && typeof e.path === "string" && typeof e.status === "number" &&
    isObject(e.query) && (e.body === null || isObject(e.body)) && optional(e.seq, "number") &&
    optional(e.time, "string");
}

function changeOk(c: unknown): boolean {
  return isObject(c) && typeof c.site === "string" && typeof c.table === "string" && OPS.has(c.op as string) &&
    (c.before === null || isObject(c.before)) && (c.after === null || isObject(c.after)) &&
    optional(c.seq, "number") && optional(c.time, "string");
}

const eventOk = (e: unknown) =>
  isObject(e) && typeof e.type === "string" && typeof e.action === "string" && typeof e.target === "string";
const recordOk = (e: unknown) => isObject(e) && typeof e.type === "string";
const clipEntryOk = (e: unknown) =>
  isObject(e) && typeof e.text === "string" && optional(e.n, "number") && optional(e.cause, "string");
const isString = (v: unknown) => typeof v === "string";

function listOk(v: unknown, ok: (e: unknown) => boolean): boolean {
  return v === undefined || (Array.isArray(v) && v.every(ok));
}

/**
 * Evidence as it is when every field is present and well typed (the common case: ten times faster than the
 * schema, which then only runs to explain what is wrong or to fill defaults).
 */
function wellFormed(v: unknown): Evidence | undefined {
  if (!isObject(v) || typeof v.base !== "string" || !Array.isArray(v.log) || !Array.isArray(v.changes)) return;
  if (!v.log.every(logOk) || !v.changes.every(changeOk)) return;
  if (!listOk(v.clip, isString) || !listOk(v.events, eventOk) || !listOk(v.record, recordOk)) return;
  if (!listOk(v.seen, isString) || !(v.answer === undefined || v.answer === null || isString(v.answer))) return;
  if (!listOk(v.clipboard, clipEntryOk) || !listOk(v.seen_urls, isString)) return;
  if (v.final !== undefined && !finalOk(v.final)) return;
  if (v.rules !== undefined && !(isObject(v.rules) && Object.values(v.rules).every(rulesOk))) return;
  return {
    base: v.base,
    log: v.log as LogEntry[],
    changes: v.changes as ChangeEntry[],
    clip: (v.clip ?? []) as string[],
    ...(v.clipboard === undefined ? {} : { clipboard: v.clipboard as ClipEntry[] }),
    events: (v.events ?? []) as ActionEvent[],
    record: (v.record ?? []) as RecordEntry[],
    answer: (v.answer ?? null) as string | null,
    seen: (v.seen ?? []) as string[],
    ...(v.seen_urls === undefined ? {} : { seen_urls: v.seen_urls as string[] }),
    ...(v.final === undefined ? {} : { final: v.final as FinalState }),
    ...(v.rules === undefined ? {} : { rules: v.rules as Record<string, AppRules> }),
  };
}

const strings = (v: unknown) => Array.isArray(v) && v.every(isString);
const optionalRecord = (v: unknown, ok: (x: unknown) => boolean) =>
  v === undefined || (isObject(v) && Object.values(v).every(ok));

/** One app's rules, each field typed as appRulesSchema has it (other fields kept as they are). */
function rulesOk(r: unknown): boolean {
  return isObject(r) && optionalRecord(r.bookkeeping, (x) => x === "*" || strings(x)) &&
    optionalRecord(r.generated, strings) && optionalRecord(r.queryDefaults, isString) &&
    (r.ignoredQuery === undefined || strings(r.ignoredQuery)) &&
    (r.caselessQuery === undefined || strings(r.caselessQuery)) &&
    (r.caselessPaths === undefined || strings(r.caselessPaths)) &&
    (r.irreversible === undefined || (Array.isArray(r.irreversible) && r.irreversible.every(irreversibleOk))) &&
    optionalRecord(r.textAdditions, (x) => Array.isArray(x) && x.every(additionOk));
}

const irreversibleOk = (o: unknown) =>
  isObject(o) && isString(o.name) && isString(o.table) && OPS.has(o.op as string) &&
  optionalRecord(o.when, (v) => typeof v === "string" || typeof v === "number");
const additionOk = (a: unknown) =>
  isObject(a) && isString(a.name) && optional(a.suffix, "string") && optional(a.prefix, "string") &&
  (a.value === undefined ||
    (isObject(a.value) && isString(a.value.table) && isString(a.value.field) && isString(a.value.seed) &&
      (isString(a.value.key) || typeof a.value.key === "number")));

const loginOk = (v: unknown) => v === null || typeof v === "boolean";
function finalOk(f: unknown): boolean {
  return isObject(f) && typeof f.url === "string" && Array.isArray(f.urls) && f.urls.every(isString) &&
    loginOk(f.logged_in) && loginOk(f.start_logged_in);
}

/** A JSON value given as itself or as its text. @throws HarnessError naming the file when the text is not JSON. */
export function jsonValue(json: unknown, file: string): unknown {
  if (typeof json !== "string") return json;
  try {
    return JSON.parse(json);
  } catch (e) {
    throw new HarnessError(`${file}: not JSON: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * Parses a grade_inputs.json value (or its text) into Evidence. The result may share entries with `json`.
 * @throws HarnessError naming the file and the field: `out/a/grade_inputs.json: log[3].path: is missing`.
 */
export function parseEvidence(json: unknown, file: string): Evidence {
  const value = jsonValue(json, file);
  const fast = wellFormed(value);
  if (fast) return fast;
  const r = evidenceSchema.safeParse(value, { error: errorMap });
  if (!r.success) throw new HarnessError(`${file}: ${describeIssues(r.error)}`, { cause: r.error });
  return r.data as Evidence;
}
