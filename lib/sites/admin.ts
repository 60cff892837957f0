/**
 * The admin protocol (docs/admin-protocol.md): every endpoint but health acts on the calling session. The harness
 * calls them from its own process, so they answer loopback clients only, and never a browser.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { SandboxEnv, SiteApp } from "./types.ts";
import { Session, SESSION_COOKIE, type SessionFlags, type SessionGone, type SessionStore } from "./session.ts";

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "::1" || h === "localhost" || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Refuses, with 403, a client on another machine (Deno.serve's remoteAddr). In-process calls (tests, the harness
 * itself) carry no connection info and come from this process.
 */
export function loopbackOnly(what: string): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const host = c.env?.remoteAddr?.hostname;
    if (host !== undefined && !isLoopback(host)) {
      return c.json({ error: `${what} answer loopback clients only, not ${host}` }, 403);
    }
    await next();
  };
}

/** Fetch metadata headers: browsers send them to a potentially trustworthy origin (127.0.0.1); Deno's fetch never. */
const FETCH_METADATA = ["sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest"];

/** Sets the session cookie, the one every later request of the client names the session with. */
export function setSessionCookie(c: Context<SandboxEnv>, id: string): void {
  setCookie(c, SESSION_COOKIE, id, { path: "/", httpOnly: true, sameSite: "Lax" });
}

/** Entries after `?since=SEQ` (all of them without it). */
function since<T extends { seq: number }>(entries: T[], raw: string | undefined): T[] {
  const n = Number(raw ?? 0);
  return Number.isFinite(n) && n > 0 ? entries.filter((e) => e.seq > n) : entries;
}

const gone = (c: Context<SandboxEnv>, why: SessionGone) =>
  c.json({ error: why.error, reason: why.reason }, why.reason === "full" ? 503 : 410);

/**
 * Puts the live session the cookie names on the context, or answers why there is none (410): evidence is read, and
 * recorder events are written, into that session only, never into a fresh one made up for the request.
 */
export function liveSession(sessions: SessionStore): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const found = sessions.find(getCookie(c, SESSION_COOKIE));
    if (!(found instanceof Session)) return gone(c, found);
    c.set("session", found);
    await next();
  };
}

const FLAG_OFF = new Set(["0", "false", "no", ""]);

/** The admin routes, mounted at /_admin. */
export function adminRoutes(apps: () => readonly SiteApp[], sessions: SessionStore): Hono<SandboxEnv> {
  const admin = new Hono<SandboxEnv>();
  admin.use("*", loopbackOnly("admin endpoints"));
  admin.use("*", async (c, next) => {
    // Defence in depth beside the browser's own block of /_admin/*: a page must not reset or read its session.
    const header = FETCH_METADATA.find((h) => c.req.header(h) !== undefined);
    if (header) {
      return c.json({
        error: `admin endpoints answer the harness only, not a browser: the request carries ${header}: ` +
          `${c.req.header(header)}`,
      }, 403);
    }
    await next();
  });

  admin.get("/health", (c) =>
    c.json({
      ok: true,
      apps: apps().map((a) => a.id),
      // The app directory a cross-site task's prompt lists (lib/tasks' appDirectory).
      directory: apps().map((a) => ({
        id: a.id,
        title: a.title,
        description: a.description,
        requires_login: Boolean(a.requiresLogin),
      })),
      // What the grader must know of each app's data and URLs (lib/grading's AppRules), saved with the evidence.
      rules: Object.fromEntries(apps().map((a) => [a.id, a.grading ?? {}])),
      now: c.get("clock").now().toISOString(),
    }));
  admin.get("/session-flags", (c) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    const session = sessions.start(cookie);
    if (!(session instanceof Session)) return gone(c, session);
    if (session.id !== cookie) setSessionCookie(c, session.id);
    const q = c.req.query();
    const flags: SessionFlags = { loggedIn: !("logout" in q && !FLAG_OFF.has(q.logout)) };
    for (const [k, v] of Object.entries(q)) if (k !== "logout" && k !== "reset") flags[k] = v;
    if (q.reset !== undefined && FLAG_OFF.has(q.reset)) {
      Object.assign(session.flags, flags);
    } else {
      session.reset(flags);
    }
    return c.json({ ok: true, session: session.id, flags: session.flags });
  });
  admin.get("/session-end", (c) => {
    const ended = sessions.end(getCookie(c, SESSION_COOKIE));
    if (ended instanceof Session) return c.json({ ok: true, session: ended.id, ended: true });
    // Ending twice is not an error: the harness may retry.
    if (ended.reason === "ended") return c.json({ ok: true, session: getCookie(c, SESSION_COOKIE), ended: true });
    return gone(c, ended);
  });
  // The reads act on the live session only: `live` is used on every method, so that a request with no live session
  // answers 410 whatever its method (as middleware of the GET route alone, another method would get a 404).
  const live = liveSession(sessions);
  // The session's state the grade reads at the start and the end of an episode; it changes nothing.
  admin.use("/state", live).get(
    "/state",
    (c) => c.json({ session: c.get("session").id, logged_in: c.get("session").flags.loggedIn }),
  );
  for (const stream of ["log", "changes", "clipboard", "record"] as const) {
    admin.use(`/${stream}`, live).get(`/${stream}`, (c) => {
      const session = c.get("session");
      return c.json({ session: session.id, entries: since<{ seq: number }>(session[stream], c.req.query("since")) });
    });
  }
  return admin;
}
