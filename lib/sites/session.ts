/**
 * Per-session state: a cookie names the session; each session has its own copy of every app's seeded data
 * (created on first use), its request log, data changes, clipboard writes and recorder stream.
 */
import { AppDb, type AppSeed, type ChangeEntry, type Row } from "./db.ts";

/** The user a fresh session is logged in as, and the password the login form takes. */
export const DEFAULT_USER = {
  username: "alex",
  password: "sandbox-pass",
  name: "Alex Morgan",
  email: "alex@sandbox.test",
};

/** A request of the session, as /_admin/log reports it. */
export interface LogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  /** A repeated key's values as an array. */
  query: Record<string, string | string[]>;
  body: Row | null;
  status: number;
}

/** A clipboard write made by a page of the session. */
export interface ClipboardEntry {
  seq: number;
  time: string;
  text: string;
  url: string;
}

/** One event of the recorder stream: an action of the user or an observation of the page. */
export interface RecordEntry {
  seq: number;
  time: string;
  type: "action" | "observation";
  [field: string]: unknown;
}

/** Flags a session can be given through /_admin/session-flags. */
export interface SessionFlags {
  loggedIn: boolean;
  [flag: string]: unknown;
}

export class Session {
  log: LogEntry[] = [];
  changes: ChangeEntry[] = [];
  clipboard: ClipboardEntry[] = [];
  record: RecordEntry[] = [];
  flags: SessionFlags = { loggedIn: true };
  lastUsed: number = Date.now();
  #seq = 0;
  readonly #dbs = new Map<string, AppDb>();

  constructor(readonly id: string, private readonly seeds: ReadonlyMap<string, AppSeed>) {}

  /** The next sequence number: one order across all of the session's streams. */
  nextSeq(): number {
    return ++this.#seq;
  }

  /** The session's database of app `site`, seeded on first use. */
  db(site: string): AppDb {
    let db = this.#dbs.get(site);
    if (!db) {
      const seed = this.seeds.get(site);
      if (!seed) throw new Error(`no app "${site}" in this sandbox`);
      db = new AppDb(site, seed, (change) => {
        this.changes.push({ seq: this.nextSeq(), time: new Date().toISOString(), ...change });
      });
      this.#dbs.set(site, db);
    }
    return db;
  }

  /** Back to the seed: data, streams and flags. */
  reset(flags: SessionFlags): void {
    for (const db of this.#dbs.values()) db.close();
    this.#dbs.clear();
    this.log = [];
    this.changes = [];
    this.clipboard = [];
    this.record = [];
    this.flags = flags;
  }

  close(): void {
    this.reset({ loggedIn: true });
  }
}

/** Every session of one sandbox, the least recently used ones dropped past `capacity`. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  constructor(private readonly seeds: ReadonlyMap<string, AppSeed>, private readonly capacity = 512) {}

  get size(): number {
    return this.#sessions.size;
  }

  /** The session named `id`, or a new one (with a new id when `id` is unknown or absent). */
  open(id: string | undefined): Session {
    const found = id ? this.#sessions.get(id) : undefined;
    if (found) {
      this.#sessions.delete(found.id);
      this.#sessions.set(found.id, found);
      found.lastUsed = Date.now();
      return found;
    }
    const session = new Session(crypto.randomUUID(), this.seeds);
    this.#sessions.set(session.id, session);
    while (this.#sessions.size > this.capacity) {
      const oldest = this.#sessions.keys().next().value as string;
      this.#sessions.get(oldest)?.close();
      this.#sessions.delete(oldest);
    }
    return session;
  }
}
