/**
 * Per-session state: a cookie names the session; each session has its own copy of every app's seeded data
 * (created on first use), its request log, data changes, clipboard writes and recorder stream. The store keeps two
 * kinds apart: sessions the harness started (never evicted, ended by the harness) and sessions that browsing
 * opened (the least recently used dropped past a cap), and remembers why a session is gone.
 */
import { AppDb, type AppSeed, type ChangeEntry, type Row } from "./db.ts";

/** The cookie that names a session. */
export const SESSION_COOKIE = "webmix_sid";

/** The user a fresh session is logged in as, and the password the login form takes. */
export const DEFAULT_USER = {
  username: "alex",
  password: "sandbox-pass",
  name: "Alex Morgan",
  email: "alex@sandbox.test",
};

/** A request of the session, as /_admin/log reports it. */
export interface LogEntry {
  /** Its place in the session's one order across all its streams. */
  seq: number;
  /** When the request was answered (ISO, the real clock's). */
  time: string;
  /** The HTTP method. */
  method: string;
  /** The URL's path, app prefix included. */
  path: string;
  /** The query parameters; a repeated key's values as an array. */
  query: Record<string, string | string[]>;
  /**
   * The form or JSON body (a file as its name, size and type); null for GET, HEAD and other bodies, and
   * `{_unparsed: true}` for one that could not be read.
   */
  body: Row | null;
  /** The response's status. */
  status: number;
}

/** A clipboard write made by a page of the session. */
export interface ClipboardEntry {
  /** Its place in the session's one order across all its streams. */
  seq: number;
  /** When the server received it (ISO, the real clock's). */
  time: string;
  /** The text written. */
  text: string;
  /** The URL of the page that wrote it. */
  url: string;
  /**
   * When the page wrote it, on the browser's clock (ms, fractional; comparable across the session's pages): the
   * order of writes, which their arrival at the server may not keep under load.
   */
  n?: number;
  /** The `id` of the recorder action (a click, a key) the write was made in response to, when there was one. */
  cause?: string;
}

/** One event of the recorder stream: an action of the user or an observation of the page. */
export interface RecordEntry {
  /** Its place in the session's one order across all its streams. */
  seq: number;
  /** When the server received it (ISO, the real clock's). */
  time: string;
  /** An action of the user, or an observation of the page. */
  type: "action" | "observation";
  /** The event's other fields, as the recorder sent them. */
  [field: string]: unknown;
}

/** Flags a session can be given through /_admin/session-flags. */
export interface SessionFlags {
  /** Whether the session is signed in. */
  loggedIn: boolean;
  /** Any other flag /_admin/session-flags was given, as its query string gave it. */
  [flag: string]: unknown;
}

/** Who opened a session: the harness (`/_admin/session-flags`) or a page request of a browser. */
export type SessionKind = "harness" | "browsing";

/** One session: its flags, its databases and its streams. */
export class Session {
  /** The requests of its pages (`/_admin/log`). */
  log: LogEntry[] = [];
  /** Its data changes, every app's (`/_admin/changes`). */
  changes: ChangeEntry[] = [];
  /** Its pages' clipboard writes (`/_admin/clipboard`). */
  clipboard: ClipboardEntry[] = [];
  /** Its recorder events (`/_admin/record`). */
  record: RecordEntry[] = [];
  /** Its flags; a new session is signed in. */
  flags: SessionFlags = { loggedIn: true };
  #seq = 0;
  readonly #dbs = new Map<string, AppDb>();

  /** A session named `id`, whose database of each app is made from `seeds` (by app id) on first use. */
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

  /** Frees the databases and streams. */
  close(): void {
    this.reset({ loggedIn: true });
  }
}

/** How many sessions of each kind a store holds. */
export interface SessionLimits {
  /** Sessions a browser opened (a page request with no live session): the least recently used beyond are evicted. */
  maxBrowsing: number;
  /** Sessions the harness started and has not ended: never evicted; one more is refused. */
  maxHarness: number;
}

/** The default limits: 512 browsing sessions, 256 harness sessions. */
export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimits> = { maxBrowsing: 512, maxHarness: 256 };

/** Why a cookie names no live session, or why none can be started. */
export interface SessionGone {
  /**
   * No cookie, an id the store never had (or has forgotten), an evicted or an ended session; or, for a start,
   * every harness session in use.
   */
  reason: "missing" | "unknown" | "evicted" | "ended" | "full";
  /** What the server answers, naming the session and the reason. */
  error: string;
}

/** How many gone sessions the store remembers the reason of (past that, they read as unknown). */
const GONE_MEMORY = 10_000;

/**
 * Every session of one sandbox. A harness session stays until the harness ends it; browsing sessions are kept up to
 * `maxBrowsing`, the least recently used evicted past that. An ended or evicted session is never opened again under
 * its id: reads of it answer why it is gone.
 */
export class SessionStore {
  /** The limits it keeps to. */
  readonly limits: Readonly<SessionLimits>;
  /** In least recently used order. */
  readonly #browsing = new Map<string, Session>();
  readonly #harness = new Map<string, Session>();
  readonly #gone = new Map<string, "evicted" | "ended">();

  /**
   * A store whose sessions make their databases from `seeds` (by app id); limits not given are
   * DEFAULT_SESSION_LIMITS.
   * @throws RangeError for a limit that is not a positive integer.
   */
  constructor(private readonly seeds: ReadonlyMap<string, AppSeed>, limits: Partial<SessionLimits> = {}) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...limits };
    for (const [name, n] of Object.entries(this.limits)) {
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`session limit ${name} must be a positive integer: ${n}`);
    }
  }

  /** Live sessions of both kinds. */
  get size(): number {
    return this.#browsing.size + this.#harness.size;
  }

  /** Live sessions of one kind. */
  count(kind: SessionKind): number {
    return kind === "harness" ? this.#harness.size : this.#browsing.size;
  }

  /** The live session named `id` (marked used), or why there is none. */
  find(id: string | undefined): Session | SessionGone {
    if (!id) return { reason: "missing", error: `no session: the request carries no ${SESSION_COOKIE} cookie` };
    const harness = this.#harness.get(id);
    if (harness) return harness;
    const session = this.#browsing.get(id);
    if (!session) return this.#whyGone(id);
    this.#browsing.delete(id);
    this.#browsing.set(id, session);
    return session;
  }

  /**
   * A page request's session: the live one named `id`, else a new browsing session. An ended session is not
   * reopened (a late request of its page must not bring it back).
   */
  browse(id: string | undefined): Session | SessionGone {
    const found = this.find(id);
    if (found instanceof Session || found.reason === "ended") return found;
    const session = new Session(crypto.randomUUID(), this.seeds);
    this.#browsing.set(session.id, session);
    while (this.#browsing.size > this.limits.maxBrowsing) {
      const [oldest] = this.#browsing.values();
      this.#drop(oldest, "evicted");
    }
    return session;
  }

  /**
   * The harness starts an episode's session: the live one named `id` becomes a harness session (never evicted), or
   * a new one is made. Refused, with reason "full", when `maxHarness` harness sessions are live.
   */
  start(id: string | undefined): Session | SessionGone {
    const found = this.find(id);
    if (found instanceof Session && this.#harness.has(found.id)) return found;
    if (this.#harness.size >= this.limits.maxHarness) {
      return {
        reason: "full",
        error: `the sandbox holds at most ${this.limits.maxHarness} harness sessions and all are in use: ` +
          `end finished ones with /_admin/session-end, or raise the limit (sites.ts --max-harness-sessions)`,
      };
    }
    let session: Session;
    if (found instanceof Session) {
      this.#browsing.delete(found.id);
      session = found;
    } else {
      session = new Session(crypto.randomUUID(), this.seeds);
    }
    this.#harness.set(session.id, session);
    return session;
  }

  /** Ends the live session named `id` and frees its memory; it answers "ended" from then on. */
  end(id: string | undefined): Session | SessionGone {
    const found = this.find(id);
    if (found instanceof Session) this.#drop(found, "ended");
    return found;
  }

  #drop(session: Session, why: "evicted" | "ended"): void {
    session.close();
    this.#browsing.delete(session.id);
    this.#harness.delete(session.id);
    this.#gone.set(session.id, why);
    if (this.#gone.size > GONE_MEMORY) this.#gone.delete(this.#gone.keys().next().value!);
  }

  #whyGone(id: string): SessionGone {
    switch (this.#gone.get(id)) {
      case "ended":
        return { reason: "ended", error: `ended: session "${id}" was ended with /_admin/session-end` };
      case "evicted":
        return {
          reason: "evicted",
          error: `evicted: the sandbox holds at most ${this.limits.maxBrowsing} browsing sessions and session ` +
            `"${id}" was the least recently used (a session started with /_admin/session-flags is never evicted)`,
        };
      default:
        return {
          reason: "unknown",
          error: `unknown session "${id}": this server never started it, or has restarted since`,
        };
    }
  }
}
