/**
 * The client side of the admin protocol (docs/admin-protocol.md), for the embedded sandbox and any external site
 * server alike: the server's health and app directory, a session's start (its flags and reset), and reading a
 * session's streams. The calls a session makes go through an AdminChannel (lib/browser's EpisodeSession is one:
 * it calls with the episode's cookies), so this file needs no browser.
 */
import { SiteProtocolError } from "../errors/mod.ts";

type Entry = Record<string, unknown>;

/** How a session reaches its site server's admin endpoints (with the session's cookie). */
export interface AdminChannel {
  /** GET a JSON admin endpoint as the session. */
  adminGet(base: string, path: string): Promise<unknown>;
  /** GET an admin endpoint that changes the session (its cookie is adopted). */
  adminCall(base: string, path: string): Promise<unknown>;
  /** Waits until every tab's recorder has posted what it holds. */
  flushRecorder(): Promise<void>;
}

/** The streams of a session (each entry with its `seq`). */
export interface AdminStreams {
  record: Entry[];
  log: Entry[];
  changes: Entry[];
  clipboard: Entry[];
}

/** An app as the server's directory lists it. */
export interface DirectoryApp {
  id: string;
  title: string;
  description: string;
  requiresLogin?: boolean;
}

/** What `/_admin/health` says of a site server. */
export interface Health {
  /** The apps it serves, with their titles and descriptions (ids only, from a server that lists no directory). */
  apps: DirectoryApp[];
  /** Each app's grading rules as the server declares them (lib/grading reads them; {} when it declares none). */
  rules: Record<string, Record<string, unknown>>;
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

/** Resets the session on `base` to a fresh seeded state, logged out with `logout`. */
export async function startSession(channel: AdminChannel, base: string, options: { logout: boolean }): Promise<void> {
  await channel.adminCall(base, `/_admin/session-flags${options.logout ? "?logout=1" : ""}`);
}

/**
 * Reads the session's streams after `since` (the whole session with 0), after flushing every tab's recorder.
 * @throws SiteProtocolError when an admin endpoint answers without `entries`.
 */
export async function readSessionStreams(channel: AdminChannel, base: string, since = 0): Promise<AdminStreams> {
  await channel.flushRecorder();
  const read = async (name: string): Promise<Entry[]> => {
    const body = await channel.adminGet(base, `/_admin/${name}${since ? `?since=${since}` : ""}`) as {
      entries?: unknown;
    };
    if (!Array.isArray(body?.entries)) {
      throw new SiteProtocolError(`${base}/_admin/${name} answered without an "entries" list`);
    }
    // A server that ignores ?since= still gives only what came after.
    return (body.entries as Entry[]).filter((e) => typeof e.seq !== "number" || e.seq > since);
  };
  const [record, log, changes, clipboard] = await Promise.all(["record", "log", "changes", "clipboard"].map(read));
  return { record, log, changes, clipboard };
}

/**
 * Whether the session is signed in (`/_admin/state`); a server without that endpoint answers null.
 * @throws SiteProtocolError when the server answers something other than the protocol says.
 */
export async function readLoginState(channel: AdminChannel, base: string): Promise<boolean | null> {
  let body: unknown;
  try {
    body = await channel.adminGet(base, "/_admin/state");
  } catch (err) {
    if (/answered 404/.test(String((err as Error).message))) return null;
    throw err;
  }
  const state = body as { logged_in?: unknown };
  if (typeof state?.logged_in !== "boolean") {
    throw new SiteProtocolError(`${base}/_admin/state answered without a boolean "logged_in"`);
  }
  return state.logged_in;
}

/** The last `seq` of the streams (0 when empty): evidence read later starts after it. */
export function lastSeq(streams: AdminStreams): number {
  return Math.max(0, ...Object.values(streams).flat().map((e) => typeof e.seq === "number" ? e.seq : 0));
}
