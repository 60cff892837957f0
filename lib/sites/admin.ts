/**
 * The admin protocol (docs/admin-protocol.md). Every endpoint acts on the calling session and answers loopback
 * clients only.
 */
import { Hono } from "hono";
import type { SandboxEnv, SiteApp } from "./types.ts";
import type { SessionFlags } from "./session.ts";

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "::1" || h === "localhost" || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h);
}

/** Entries after `?since=SEQ` (all of them without it). */
function since<T extends { seq: number }>(entries: T[], raw: string | undefined): T[] {
  const n = Number(raw ?? 0);
  return Number.isFinite(n) && n > 0 ? entries.filter((e) => e.seq > n) : entries;
}

const FLAG_OFF = new Set(["0", "false", "no", ""]);

/** The admin routes, mounted at /_admin. */
export function adminRoutes(apps: () => readonly SiteApp[]): Hono<SandboxEnv> {
  const admin = new Hono<SandboxEnv>();
  admin.use("*", async (c, next) => {
    // In-process calls (tests, the harness itself) carry no connection info and come from this process.
    const host = c.env?.remoteAddr?.hostname;
    if (host !== undefined && !isLoopback(host)) {
      return c.json({ error: `admin endpoints answer loopback clients only, not ${host}` }, 403);
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
  // The session's state the grade reads at the start and the end of an episode; it changes nothing.
  admin.get("/state", (c) => c.json({ logged_in: c.get("session").flags.loggedIn }));
  admin.get("/session-flags", (c) => {
    const q = c.req.query();
    const flags: SessionFlags = { loggedIn: !("logout" in q && !FLAG_OFF.has(q.logout)) };
    for (const [k, v] of Object.entries(q)) if (k !== "logout" && k !== "reset") flags[k] = v;
    const session = c.get("session");
    if (q.reset !== undefined && FLAG_OFF.has(q.reset)) {
      Object.assign(session.flags, flags);
    } else {
      session.reset(flags);
    }
    return c.json({ ok: true, session: session.id, flags: session.flags });
  });
  admin.get("/log", (c) => c.json({ entries: since(c.get("session").log, c.req.query("since")) }));
  admin.get("/changes", (c) => c.json({ entries: since(c.get("session").changes, c.req.query("since")) }));
  admin.get("/clipboard", (c) => c.json({ entries: since(c.get("session").clipboard, c.req.query("since")) }));
  admin.get("/record", (c) => c.json({ entries: since(c.get("session").record, c.req.query("since")) }));
  return admin;
}
