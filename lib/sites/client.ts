/**
 * The client side of the admin protocol (docs/admin-protocol.md), for the embedded sandbox and any external site
 * server alike: the server's health and app directory, a session's start (its flags and reset), reading its
 * streams and state (each answer checked to come from the session started), and its end. The calls a session makes go through an AdminChannel (lib/browser's EpisodeSession is one:
 * it calls with the episode's cookies), so this file needs no browser.
 */
import { SiteProtocolError } from "../errors/mod.ts";
import { getJson } from "../io/mod.ts";

type Entry = Record<string, unknown>;

/**
 * How a session reaches its site server's admin endpoints (with the session's cookie), from outside any page (a
 * browser's request is refused). A non-200 answer rejects with an error whose message says `answered <status>`.
 */
export interface AdminChannel {
  /** GET a JSON admin endpoint as the session. */
  adminGet(base: string, path: string): Promise<unknown>;
  /** GET an admin endpoint that changes the session (its cookie is adopted). */
  adminCall(base: string, path: string): Promise<unknown>;
  /** Waits until every tab's recorder has posted what it holds. */
  flushRecorder(): Promise<void>;
}

/**
 * An AdminChannel over `fetch` with a cookie header of its own: for calls without a browser, or past its life (ending
 * the session of an episode whose browser session was aborted). `adminCall` adopts the session cookie it is given.
 */
export class CookieChannel implements AdminChannel {
  /**
   * A channel that sends `cookie` ("" until a session cookie is adopted); each call gives up after
   * `options.timeoutMs` (default 10 s), or when `options.signal` aborts.
   */
  constructor(public cookie = "", readonly options: { timeoutMs?: number; signal?: AbortSignal } = {}) {}

  /** GETs a JSON admin endpoint with the cookie. */
  adminGet(base: string, path: string): Promise<unknown> {
    return getJson(base, path, this.cookie, this.options.timeoutMs ?? 10_000, this.options.signal);
  }

  /** GETs an admin endpoint and keeps the cookies it sets (the session's). */
  adminCall(base: string, path: string): Promise<unknown> {
    return getJson(base, path, this.cookie, this.options.timeoutMs ?? 10_000, this.options.signal, (setCookies) => {
      const jar = new Map(this.cookie.split(/;\s*/).filter(Boolean).map((c) => [c.split("=")[0], c]));
      for (const set of setCookies) jar.set(set.split("=")[0], set.split(";")[0]);
      this.cookie = [...jar.values()].join("; ");
    });
  }

  /** No page, no recorder to flush. */
  flushRecorder(): Promise<void> {
    return Promise.resolve();
  }
}

/** The streams of a session (each entry with its `seq`). */
export interface AdminStreams {
  /** The recorder's events (`/_admin/record`). */
  record: Record<string, unknown>[];
  /** The requests of the session's pages (`/_admin/log`). */
  log: Record<string, unknown>[];
  /** The data changes (`/_admin/changes`). */
  changes: Record<string, unknown>[];
  /** The clipboard writes (`/_admin/clipboard`). */
  clipboard: Record<string, unknown>[];
}

/** An app as the server's directory lists it. */
export interface DirectoryApp {
  /** The app's id: its path prefix and site name. */
  id: string;
  /** Its display name (the id when the server gives none). */
  title: string;
  /** One line on what it is ("" when the server gives none). */
  description: string;
  /** True when a logged-out session is sent to /login first. */
  requiresLogin?: boolean;
}

/** What `/_admin/health` says of a site server. */
export interface Health {
  /** The apps it serves, with their titles and descriptions (ids only, from a server that lists no directory). */
  apps: DirectoryApp[];
  /** Each app's grading rules as the server declares them (lib/grading reads them; {} when it declares none). */
  rules: Record<string, Record<string, unknown>>;
  /** The server's frozen instant (ISO), when it says one. */
  now?: string;
}

/**
 * Asks a site server for its health and app directory.
 * @throws SiteProtocolError when it cannot be reached or answers otherwise than the protocol says.
 */
export async function fetchHealth(base: string, timeoutMs = 5000): Promise<Health> {
  let res: Response;
  try {
    res = await fetch(`${base}/_admin/health`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new SiteProtocolError(`cannot reach the site server at ${base}: ${(err as Error).message}`, { cause: err });
  }
  const body = await res.text();
  if (!res.ok) throw new SiteProtocolError(`${base}/_admin/health answered ${res.status}: ${body.slice(0, 200)}`);
  let json: { apps?: unknown; directory?: unknown; rules?: unknown; now?: unknown };
  try {
    json = JSON.parse(body);
  } catch {
    throw new SiteProtocolError(`${base}/_admin/health answered with something other than JSON: ${body.slice(0, 200)}`);
  }
  const directory = Array.isArray(json.directory) ? json.directory as Entry[] : [];
  const ids = Array.isArray(json.apps) ? json.apps.map(String) : directory.map((a) => String(a.id));
  const apps = ids.map((id): DirectoryApp => {
    const a = directory.find((d) => d.id === id);
    return a
      ? {
        id,
        title: String(a.title ?? id),
        description: String(a.description ?? ""),
        requiresLogin: a.requires_login === true,
      }
      : { id, title: id, description: "" };
  });
  const declared = typeof json.rules === "object" && json.rules !== null ? json.rules as Record<string, unknown> : {};
  const rules = Object.fromEntries(apps.map((a) => {
    const r = declared[a.id];
    return [a.id, typeof r === "object" && r !== null && !Array.isArray(r) ? r as Record<string, unknown> : {}];
  }));
  return { apps, rules, now: typeof json.now === "string" ? json.now : undefined };
}

/**
 * The session an episode started, as `startSession` returns it: the id the server named it with (null from a server
 * that names none). Every later read passes it, so that an answer for another session is caught.
 */
export interface StartedSession {
  /** The session's id as the server named it; null from a server that names none. */
  session: string | null;
}

/** What `readSessionStreams` reads: the episode's session, and the entries after `since` (0: all of them). */
export interface StreamRead extends StartedSession {
  /** Read only the entries whose `seq` is past this one (0 or absent: all of them). */
  since?: number;
}

/** The message of a read whose session the server no longer holds. */
function lostSession(expected: string | null | undefined, what: string): string {
  return `the site server lost the episode's session ${expected ?? "(unnamed)"} (restarted, or the session was ` +
    `evicted): ${what}`;
}

/** An AdminChannel error for an HTTP status (lib/browser's message: "GET <url> answered <status>: ..."). */
const answered = (err: unknown, status: number) =>
  err instanceof Error && new RegExp(`answered ${status}\\b`).test(err.message);

/**
 * GETs an admin endpoint of the episode's session and checks that the server answered for that session.
 * @throws SiteProtocolError saying the session was lost on a 410, or on an answer naming another session.
 */
async function readAs(channel: AdminChannel, base: string, path: string, expected?: string | null): Promise<Entry> {
  let body: unknown;
  try {
    body = await channel.adminGet(base, path);
  } catch (err) {
    if (answered(err, 410)) throw new SiteProtocolError(lostSession(expected, (err as Error).message), { cause: err });
    throw err;
  }
  const json = (typeof body === "object" && body !== null ? body : {}) as Entry;
  // A server that names no session (an external one, protocol before session ids) is taken at its word.
  if (expected && typeof json.session === "string" && json.session !== expected) {
    throw new SiteProtocolError(lostSession(expected, `${base}${path} answered for session ${json.session}`));
  }
  return json;
}

/**
 * Resets the session on `base` to a fresh seeded state, logged out with `logout`, and keeps it from eviction
 * until `endSession`.
 * @returns the session's id as the server named it, to pass to every read (null from a server that names none).
 * @throws SiteProtocolError when the server refuses (503: as many harness sessions as it holds are in use).
 */
export async function startSession(
  channel: AdminChannel,
  base: string,
  options: { logout: boolean },
): Promise<StartedSession> {
  const body = await channel.adminCall(base, `/_admin/session-flags${options.logout ? "?logout=1" : ""}`) as {
    session?: unknown;
  };
  return { session: typeof body?.session === "string" && body.session ? body.session : null };
}

/**
 * Ends the episode's session on `base`: the server frees it, and no later request of its pages brings it back.
 * A server without `/_admin/session-end` (404), or that no longer holds the session (410), is no error: there is
 * nothing left to free. Nor is an answer for another session: the episode's own is gone already.
 * @throws SiteProtocolError when the server answers otherwise.
 */
export async function endSession(channel: AdminChannel, base: string): Promise<void> {
  try {
    await channel.adminGet(base, "/_admin/session-end");
  } catch (err) {
    if (answered(err, 404) || answered(err, 410)) return;
    throw err;
  }
}

/**
 * Reads the session's streams after `since` (the whole session with 0), after flushing every tab's recorder.
 * @throws SiteProtocolError when an admin endpoint answers without `entries`, or for another session than
 * `read.session` (the server restarted, or evicted it).
 */
export async function readSessionStreams(channel: AdminChannel, base: string, read: StreamRead): Promise<AdminStreams> {
  const { session, since = 0 } = read;
  await channel.flushRecorder();
  const one = async (name: string): Promise<Entry[]> => {
    const body = await readAs(channel, base, `/_admin/${name}${since ? `?since=${since}` : ""}`, session);
    if (!Array.isArray(body.entries)) {
      throw new SiteProtocolError(`${base}/_admin/${name} answered without an "entries" list`);
    }
    // A server that ignores ?since= still gives only what came after.
    return (body.entries as Entry[]).filter((e) => typeof e.seq !== "number" || e.seq > since);
  };
  const [record, log, changes, clipboard] = await Promise.all(["record", "log", "changes", "clipboard"].map(one));
  return { record, log, changes, clipboard };
}

/**
 * Whether the session is signed in (`/_admin/state`); a server without that endpoint answers null.
 * @throws SiteProtocolError when the server answers something other than the protocol says, or for another
 * session than `started.session`.
 */
export async function readLoginState(
  channel: AdminChannel,
  base: string,
  started: StartedSession,
): Promise<boolean | null> {
  let state: Entry;
  try {
    state = await readAs(channel, base, "/_admin/state", started.session);
  } catch (err) {
    if (answered(err, 404)) return null;
    throw err;
  }
  if (typeof state.logged_in !== "boolean") {
    throw new SiteProtocolError(`${base}/_admin/state answered without a boolean "logged_in"`);
  }
  return state.logged_in;
}

/** The last `seq` of the streams (0 when empty): evidence read later starts after it. */
export function lastSeq(streams: AdminStreams): number {
  return Math.max(0, ...Object.values(streams).flat().map((e) => typeof e.seq === "number" ? e.seq : 0));
}
