/**
 * The end state an episode left (docs/grading.md, "The end state"): the net change of every row against the
 * state the agent began in, the final pages and the login state, and the app rules that say which fields are
 * bookkeeping, which the app generates and which query keys do not count (their format: lib/protocol's state.ts). Pure.
 */
import type { AppRules, ChangeEntry, IrreversibleOp } from "../protocol/mod.ts";

/**
 * One row's net change from the start state to the end state: a change entry (site, table, op, key, before, after)
 * whose `before` is the row when the agent began (null for an insert) and `after` the row at the end (null for a
 * delete).
 */
export interface RowDiff extends Pick<ChangeEntry, "site" | "table" | "op" | "key" | "before" | "after"> {
  /**
   * The fields a check must account for: an update's changed fields, an insert's fields; bookkeeping fields and
   * (for inserts) generated ones excluded. A delete's list is empty: the row is gone.
   */
  fields: string[];
}

const same = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === "object" && a !== null && typeof b === "object" && b !== null &&
    JSON.stringify(a) === JSON.stringify(b));

/** The fields whose values differ between two images of a row, but for those in `skip`. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, skip: ReadonlySet<string>) {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((f) => !skip.has(f) && !same(before[f], after[f]));
}

/**
 * Whether one change is a write of its own: not to a bookkeeping table, and, for an update, of some field that is
 * not bookkeeping (opening a message, which only marks it read, is none).
 */
export function isWrite(
  c: ChangeEntry,
  rules: Readonly<Record<string, AppRules>> = {},
  explicit?: ReadonlySet<ChangeEntry>,
): boolean {
  const bookkeeping = rules[c.site]?.bookkeeping?.[c.table];
  if (bookkeeping === "*") return false;
  if (c.op !== "update" || explicit?.has(c)) return true;
  return changedFields(c.before ?? {}, c.after ?? {}, new Set(bookkeeping ?? [])).length > 0;
}

/** The request whose handling made a change: the first logged after it (a request is logged once handled). */
export function causeOf<L extends { seq?: number }>(c: ChangeEntry, log: readonly L[]): L | undefined {
  if (typeof c.seq !== "number") return undefined;
  // The log is in seq order: the first entry past the change's seq.
  let lo = 0, hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const s = log[mid].seq;
    if (typeof s === "number" && s > c.seq) hi = mid;
    else lo = mid + 1;
  }
  const e = log[lo];
  return e && typeof e.seq === "number" && e.seq > c.seq ? e : undefined;
}

/**
 * The changes of bookkeeping fields that were no side effect (docs/grading.md, "Bookkeeping only as a side
 * effect"): an update that changes only bookkeeping fields, made by a request that is not a page view (GET) and
 * wrote nothing else, was asked for by a control ("Mark as unread"): a write like any other. Opening a message
 * (a GET) and the stamps a real write sets alongside it (updated_at, stock lowered by a checkout) stay
 * bookkeeping. Without seqs (evidence saved before them) nothing is explicit.
 */
export function explicitBookkeeping(
  changes: readonly ChangeEntry[],
  log: readonly { seq?: number; method: string }[],
  rules: Readonly<Record<string, AppRules>> = {},
): Set<ChangeEntry> {
  const out = new Set<ChangeEntry>();
  const candidates: { c: ChangeEntry; by: object }[] = [];
  const wroteElse = new Set<object>();
  for (const c of changes) {
    const bookkeeping = rules[c.site]?.bookkeeping?.[c.table];
    if (bookkeeping === "*") continue;
    const by = causeOf(c, log);
    if (!by) continue;
    if (bookkeeping === undefined || c.op !== "update" || isWrite(c, rules)) wroteElse.add(by);
    else if (by.method.toUpperCase() !== "GET") candidates.push({ c, by });
  }
  for (const { c, by } of candidates) if (!wroteElse.has(by)) out.add(c);
  return out;
}

/** An irreversible act the episode performed: the change that made it, and whether its row was undone later. */
export interface IrreversibleAct {
  /** The operation's name ("send"). */
  name: string;
  /** The change that performed it. */
  change: ChangeEntry;
  /**
   * The net change of the row the act wrote (netDiff's object: a key reused by a new row is another row), or null
   * when that row ends as it began.
   */
  row: RowDiff | null;
  /** The row ends as it began (the act's traces removed later). */
  undone: boolean;
}

/** Whether change `c` performs the irreversible operation `op`. */
function performs(c: ChangeEntry, op: IrreversibleOp): boolean {
  if (c.table !== op.table || c.op !== op.op) return false;
  const image = c.op === "delete" ? c.before : c.after;
  if (!image) return false;
  const when = Object.entries(op.when ?? {});
  if (!when.every(([f, v]) => String(image[f]) === String(v))) return false;
  // An update performs the act when it brings the row to the act's values, not when it edits a row already there.
  return c.op !== "update" || when.length === 0 || when.some(([f, v]) => String(c.before?.[f]) !== String(v));
}

/**
 * Every irreversible act among `changes`, as it happened (docs/grading.md): no later change nets it away. The
 * apps' rules declare the operations. `rows`, netDiff's map of each change to its row (as netDiff filled it for the
 * same changes), makes each act's `row` the very object of that diff.
 */
export function irreversibleActs(
  changes: readonly ChangeEntry[],
  rules: Readonly<Record<string, AppRules>> = {},
  explicit?: ReadonlySet<ChangeEntry>,
  rows?: Map<ChangeEntry, RowDiff | null>,
): IrreversibleAct[] {
  const out: IrreversibleAct[] = [];
  let rowOf = rows;
  for (const c of changes) {
    const op = rules[c.site]?.irreversible?.find((o) => performs(c, o));
    if (!op) continue;
    if (!rowOf) netDiff(changes, rules, explicit, rowOf = new Map());
    const row = rowOf.get(c) ?? null;
    out.push({ name: op.name, change: c, row, undone: row === null });
  }
  return out;
}

/** A row's identity as `site.table.key` (the key as JSON): how grades name and compare rows. */
export const rowKey = (r: { site: string; table: string; key: unknown }) =>
  `${r.site}.${r.table}.${JSON.stringify(r.key)}`;

const keyOf = (c: ChangeEntry) => `${c.site}\u0000${c.table}\u0000${JSON.stringify(c.key)}`;

/**
 * The net change of every row the changes touched: its first image before and its last image after. A row that
 * ends as it began (a write reverted), a row inserted and deleted again, a change of bookkeeping fields only (as a
 * side effect: not one of `explicit`, see explicitBookkeeping) and any row of a bookkeeping table are no change.
 */
export function netDiff(
  changes: readonly ChangeEntry[],
  rules: Readonly<Record<string, AppRules>> = {},
  explicit?: ReadonlySet<ChangeEntry>,
  rowOf?: Map<ChangeEntry, RowDiff | null>,
): RowDiff[] {
  type Row = { first: ChangeEntry; last: ChangeEntry; asked: boolean; all?: ChangeEntry[] };
  const rows = new Map<string, Row>();
  const done: Row[] = [];
  for (const c of changes) {
    const k = keyOf(c);
    const row = rows.get(k);
    const asked = explicit?.has(c) ?? false;
    if (row && row.last.op === "delete" && c.op === "insert") {
      // A deleted row's key given to a new row (SQLite reuses the highest id): two rows, not one updated.
      done.push(row);
      rows.set(k, { first: c, last: c, asked, all: rowOf ? [c] : undefined });
    } else if (row) {
      row.last = c;
      row.asked ||= asked;
      row.all?.push(c);
    } else rows.set(k, { first: c, last: c, asked, all: rowOf ? [c] : undefined });
  }
  const out: RowDiff[] = [];
  for (const { first, last, asked, all } of [...done, ...rows.values()]) {
    for (const c of all ?? []) rowOf?.set(c, null); // no change at the end, unless the row is kept below
    const app = rules[first.site];
    const bookkeeping = app?.bookkeeping?.[first.table];
    if (bookkeeping === "*") continue;
    const before = first.op === "insert" ? null : first.before;
    const after = last.op === "delete" ? null : last.after;
    if (before === null && after === null) continue;
    // A bookkeeping field a control changed on purpose (explicitBookkeeping) is a field like any other.
    const skip = new Set<string>(asked ? [] : bookkeeping ?? []);
    const op = before === null ? "insert" : after === null ? "delete" : "update";
    let fields: string[];
    if (op === "insert") {
      for (const f of app?.generated?.[first.table] ?? []) skip.add(f);
      fields = Object.keys(after!).filter((f) => !skip.has(f));
    } else if (op === "update") {
      fields = changedFields(before!, after!, skip);
      if (fields.length === 0) continue;
    } else {
      fields = [];
    }
    const diff: RowDiff = { site: first.site, table: first.table, op, key: first.key, before, after, fields };
    for (const c of all ?? []) rowOf?.set(c, diff);
    out.push(diff);
  }
  return out;
}

const caselessPatterns = new Map<string, RegExp>();

/** Whether the app of `path` (its first segment) reads it ignoring case (AppRules.caselessPaths). */
export function caselessPath(path: string, rules: Readonly<Record<string, AppRules>> | undefined): boolean {
  const patterns = rules?.[path.split("/")[1] ?? ""]?.caselessPaths;
  if (!patterns?.length) return false;
  return patterns.some((p) => {
    let re = caselessPatterns.get(p);
    if (!re) caselessPatterns.set(p, re = new RegExp(p, "i"));
    return re.test(path);
  });
}

/** A page as a grade compares it: the path, and the query keys that count with their values. */
export interface FinalPage {
  url: string;
  site: string;
  path: string;
  /** Key → values, without empty values, notice keys and keys at their default. */
  query: Map<string, string[]>;
}

/** Reads a final URL with its app's rules (the app is the path's first segment). Null for a URL off `base`. */
export function finalPage(url: string, base: string, rules: Readonly<Record<string, AppRules>> = {}): FinalPage | null {
  let u: URL;
  try {
    u = new URL(url, base);
  } catch {
    return null;
  }
  if (u.origin !== new URL(base).origin) return null;
  return sitePage(u.pathname, u.searchParams, rules);
}

/**
 * A page of the site given by its path and query, read with its app's rules: what finalPage does once the origin
 * is known to be the site's (a logged request, a page a verifier names).
 */
export function sitePage(
  pathname: string,
  params: URLSearchParams,
  rules: Readonly<Record<string, AppRules>> = {},
): FinalPage {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const site = path.split("/")[1] ?? "";
  const app = rules[site] ?? {};
  const ignored = new Set(app.ignoredQuery ?? []);
  const query = new Map<string, string[]>();
  for (const [k, v] of params) {
    if (v.trim() === "" || ignored.has(k)) continue;
    const list = query.get(k);
    if (list) list.push(v);
    else query.set(k, [v]);
  }
  for (const [k, d] of Object.entries(app.queryDefaults ?? {})) {
    const values = query.get(k);
    if (values && values.length === 1 && values[0] === d) query.delete(k);
  }
  const search = params.toString();
  return { url: pathname + (search ? `?${search}` : ""), site, path, query };
}
