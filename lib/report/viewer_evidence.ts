/**
 * The evidence of an episode's grade_inputs.json that the viewer shows beside the grade, compact: one short line per
 * request, data change, recorded action and clipboard text, so a reader checks the grade's detail against it at a
 * glance, and a long episode's page stays small (past a cap, only the count of what is left out).
 */
import { arr, type Json, obj, str } from "./viewer_values.ts";

/** The evidence a grade read, compact: one line per request, data change, recorded action. */
export interface ViewEvidence {
  requests: string[];
  changes: string[];
  actions: string[];
  clip: string[];
  answer: string | null;
  final: string | null;
  blocked: string[];
  /** How many requests and actions were left out past the cap. */
  more: { requests: number; actions: number };
}

const MAX_REQUESTS = 200;
const MAX_ACTIONS = 100;
const MAX_LINE = 400;

const cut = (s: string, n = MAX_LINE) => (s.length > n ? `${s.slice(0, n)}…` : s);
const short = (v: unknown) => cut(JSON.stringify(v) ?? "null", 120);

/** The evidence of grade_inputs.json a reader checks a grade against, one short line per item. */
export function compactEvidence(inputs: Json): ViewEvidence {
  const log = arr(inputs.log).map(obj);
  const acts = arr(inputs.record).map(obj).filter((e) => e.type === "action");
  const final = obj(inputs.final);
  return {
    requests: log.slice(0, MAX_REQUESTS).map(requestLine),
    changes: arr(inputs.changes).map((c) => cut(changeLine(obj(c)))),
    actions: acts.slice(0, MAX_ACTIONS).map((a) => cut([a.action, a.target, a.value].filter(Boolean).join(" "))),
    clip: arr(inputs.clip).map((c) => cut(typeof c === "string" ? c : str(obj(c).text) ?? "")),
    answer: str(inputs.answer),
    final: final.url === undefined ? null : `${final.url}${final.logged_in === false ? " (logged out)" : ""}`,
    blocked: arr(inputs.blocked).map(String),
    more: { requests: Math.max(0, log.length - MAX_REQUESTS), actions: Math.max(0, acts.length - MAX_ACTIONS) },
  };
}

/** `POST /shop/cart?x=1 → 303 {"qty":"1"}` */
function requestLine(q: Json): string {
  const query = new URLSearchParams(Object.entries(obj(q.query)).map(([k, v]) => [k, String(v)])).toString();
  const body = q.body === null || q.body === undefined ? "" : ` ${JSON.stringify(q.body)}`;
  return cut(`${q.method} ${q.path}${query ? `?${query}` : ""} → ${q.status}${body}`);
}

/** `tracker.issues update 55: status "todo" → "in_progress"`; an insert or delete with its row. */
function changeLine(c: Json): string {
  const head = `${c.site}.${c.table} ${c.op} ${c.key}`;
  const before = obj(c.before), after = obj(c.after);
  if (c.op === "insert") return `${head}: ${JSON.stringify(c.after)}`;
  if (c.op === "delete") return `${head}: ${JSON.stringify(c.before)}`;
  const fields = Object.keys({ ...before, ...after }).filter((k) =>
    JSON.stringify(before[k]) !== JSON.stringify(after[k])
  );
  return `${head}: ${fields.map((k) => `${k} ${short(before[k])} → ${short(after[k])}`).join(", ")}`;
}
