/**
 * One app's database for one session: node:sqlite in memory, seeded from the app's deterministic rows. Every write
 * goes through insert/update/remove so that it is recorded as a data change (the backend's own evidence).
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";

/** A row as apps read and write it. Booleans are stored as 0/1. */
export type Row = Record<string, unknown>;

/** The seed of one app: its schema (every table has an `id` primary key) and its rows per table. */
export interface AppSeed {
  /** The SQL that creates the tables. */
  schema: string;
  /** The rows of each table, by table name. */
  rows: Record<string, Row[]>;
}

/** A data change, as /_admin/changes reports it. */
export interface ChangeEntry {
  /** Its place in the session's one order across all its streams. */
  seq: number;
  /** When the write happened (ISO, the real clock's). */
  time: string;
  /** The app whose database changed. */
  site: string;
  /** The table written. */
  table: string;
  /** What the write did. */
  op: "insert" | "update" | "delete";
  /** The row's id. */
  key: unknown;
  /** The row before the write; null for an insert. */
  before: Row | null;
  /** The row after the write; null for a delete. */
  after: Row | null;
}

/** Called for every write; the session numbers and stores it. */
export type ChangeSink = (change: Omit<ChangeEntry, "seq" | "time">) => void;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`"${name}" is not a plain SQL identifier`);
  return `"${name}"`;
}

function toSql(v: unknown): SQLInputValue {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" || typeof v === "string" || typeof v === "bigint" || v instanceof Uint8Array) return v;
  return JSON.stringify(v);
}

function plain(row: unknown): Row | null {
  return row ? { ...(row as Row) } : null;
}

/** A session's copy of one app's data. */
export class AppDb {
  readonly #db: DatabaseSync;

  /** App `site`'s database, created in memory from `seed`; every later write is passed to `onChange`. */
  constructor(readonly site: string, seed: AppSeed, private readonly onChange: ChangeSink) {
    this.#db = new DatabaseSync(":memory:");
    this.#db.exec(seed.schema);
    this.#db.exec("BEGIN");
    for (const [table, rows] of Object.entries(seed.rows)) {
      if (rows.length === 0) continue;
      const cols = Object.keys(rows[0]);
      const stmt = this.#db.prepare(
        `INSERT INTO ${ident(table)} (${cols.map(ident).join(",")}) VALUES (${cols.map(() => "?").join(",")})`,
      );
      for (const row of rows) stmt.run(...cols.map((c) => toSql(row[c])));
    }
    this.#db.exec("COMMIT");
  }

  /** Rows of a read query. */
  all<T = Row>(sql: string, ...params: unknown[]): T[] {
    return this.#db.prepare(sql).all(...params.map(toSql)).map((r) => plain(r) as T);
  }

  /** The first row of a read query, or undefined. */
  get<T = Row>(sql: string, ...params: unknown[]): T | undefined {
    const row = this.#db.prepare(sql).get(...params.map(toSql));
    return row ? plain(row) as T : undefined;
  }

  /** The row of `table` whose id is `id`. */
  byId<T = Row>(table: string, id: unknown): T | undefined {
    return this.get<T>(`SELECT * FROM ${ident(table)} WHERE id = ?`, id);
  }

  /** Inserts a row (with or without its id) and records the change; returns the row's id. */
  insert(table: string, row: Row): number | string {
    const cols = Object.keys(row);
    const res = this.#db.prepare(
      `INSERT INTO ${ident(table)} (${cols.map(ident).join(",")}) VALUES (${cols.map(() => "?").join(",")})`,
    ).run(...cols.map((c) => toSql(row[c])));
    const id = row.id !== undefined ? row.id as number | string : Number(res.lastInsertRowid);
    this.onChange({ site: this.site, table, op: "insert", key: id, before: null, after: this.byId(table, id) ?? null });
    return id;
  }

  /** Sets fields of one row and records the change; false when no row has that id or nothing changed. */
  update(table: string, id: unknown, patch: Row): boolean {
    const before = this.byId(table, id);
    if (!before) return false;
    const cols = Object.keys(patch).filter((c) => toSql(patch[c]) !== toSql(before[c]));
    if (cols.length === 0) return false;
    this.#db.prepare(`UPDATE ${ident(table)} SET ${cols.map((c) => `${ident(c)} = ?`).join(", ")} WHERE id = ?`)
      .run(...cols.map((c) => toSql(patch[c])), toSql(id));
    this.onChange({ site: this.site, table, op: "update", key: id, before, after: this.byId(table, id) ?? null });
    return true;
  }

  /** Deletes one row and records the change; false when no row has that id. */
  remove(table: string, id: unknown): boolean {
    const before = this.byId(table, id);
    if (!before) return false;
    this.#db.prepare(`DELETE FROM ${ident(table)} WHERE id = ?`).run(toSql(id));
    this.onChange({ site: this.site, table, op: "delete", key: id, before, after: null });
    return true;
  }

  /** Closes the database and frees its memory. */
  close(): void {
    this.#db.close();
  }
}
