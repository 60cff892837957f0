/**
 * The sandbox: every app under its own path prefix on one origin, per-session state, the admin protocol, the
 * recorder endpoints and the portal. `createSandbox` is a Request → Response handler (tests call it in-process);
 * `startSites` serves it on 127.0.0.1. Whatever the address it binds, the admin and recorder endpoints answer this
 * machine only.
 */
import { type Context, Hono, type HonoRequest } from "hono";
import { getCookie } from "hono/cookie";
import { html } from "hono/html";
import { adminRoutes, liveSession, loopbackOnly, setSessionCookie } from "./admin.ts";
import { type Clock, frozenClock } from "./clock.ts";
import type { AppSeed, Row } from "./db.ts";
import { renderPage } from "./layout.ts";
import { recorderMain } from "./page/recorder.ts";
import { STYLE_CSS } from "./page/style.ts";
import { widgetsMain } from "./page/widgets.ts";
import { portalRoutes } from "./portal.ts";
import { Session, SESSION_COOKIE, SessionStore } from "./session.ts";
import type { SandboxEnv, SiteApp } from "./types.ts";

/** What a sandbox serves and how many sessions it holds. */
export interface SandboxOptions {
  /** The apps, each served under `/<id>`. */
  apps: SiteApp[];
  /** The frozen clock's instant (ISO); default DEFAULT_NOW. */
  now?: string;
  /** How many sessions that browsing opened stay in memory (512); the least recently used beyond are evicted. */
  maxBrowsingSessions?: number;
  /** How many sessions the harness started may be live at once (256); session-flags answers 503 past that. */
  maxHarnessSessions?: number;
}

/** An in-process sandbox. */
export interface Sandbox {
  /** The handler: in-process calls pass `{remoteAddr}` as env to act as a remote client. */
  fetch: (req: Request, env?: SandboxEnv["Bindings"]) => Response | Promise<Response>;
  /** Calls the handler with a path on a placeholder origin (tests). */
  request: (path: string, init?: RequestInit, env?: SandboxEnv["Bindings"]) => Response | Promise<Response>;
  /** Its sessions. */
  sessions: SessionStore;
  /** Its frozen clock. */
  clock: Clock;
  /** The apps it serves. */
  apps: SiteApp[];
}

const js = (fn: () => void) => `(${fn.toString()})();\n`;
const ASSETS: Record<string, [string, string]> = {
  "style.css": ["text/css; charset=utf-8", STYLE_CSS],
  "recorder.js": ["text/javascript; charset=utf-8", js(recorderMain)],
  "widgets.js": ["text/javascript; charset=utf-8", js(widgetsMain)],
};

/** A logged form or JSON body: files become {name, size, type}. */
async function readBody(req: HonoRequest): Promise<Row | null> {
  if (req.method === "GET" || req.method === "HEAD") return null;
  const type = req.header("content-type") ?? "";
  try {
    if (type.includes("application/json")) return await req.json() as Row;
    if (type.includes("form")) {
      const body = await req.parseBody({ all: true });
      const out: Row = {};
      for (const [k, v] of Object.entries(body)) {
        const one = (x: unknown) => x instanceof File ? { name: x.name, size: x.size, type: x.type } : x;
        out[k] = Array.isArray(v) ? v.map(one) : one(v);
      }
      return out;
    }
  } catch {
    return { _unparsed: true };
  }
  return null;
}

/** Query parameters for the log: one value as a string, a repeated key as the array of its values. */
function logQuery(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

/** A sandbox of `options.apps`: the Request → Response handler, its sessions and its clock. */
export function createSandbox(options: SandboxOptions): Sandbox {
  const clock = frozenClock(options.now);
  const seeds = new Map<string, AppSeed>(options.apps.map((a) => [a.id, a.seed()]));
  const sessions = new SessionStore(seeds, {
    ...(options.maxBrowsingSessions === undefined ? {} : { maxBrowsing: options.maxBrowsingSessions }),
    ...(options.maxHarnessSessions === undefined ? {} : { maxHarness: options.maxHarnessSessions }),
  });
  const root = new Hono<SandboxEnv>({ strict: false });
  // What a late request of an ended session's page gets: not a new session (the harness may still read the old one's
  // fate), not the old one back.
  const sessionEnded = (c: Context<SandboxEnv>, error: string) =>
    c.html(
      renderPage({
        title: "Session ended",
        app: "",
        now: clock.now().toISOString(),
        user: null,
        body: html`
          <h1>This session has ended</h1>
          <p>${error}. Its pages and data are gone.</p>
        `,
      }),
      410,
    );

  root.use("*", async (c, next) => {
    c.set("clock", clock);
    // The favicon and the static assets need no session: opening one for a cookie-less request would set a cookie
    // that can overwrite, in the browser, the session the harness has just reset (a page's favicon request racing
    // the start of an episode). Admin and recorder requests find their session themselves, and open none.
    const url = new URL(c.req.url);
    const path = url.pathname; // c.req.path drops the trailing slash when routing is not strict
    if (path === "/favicon.ico" || path.startsWith("/_sandbox/") || path.startsWith("/_admin/")) return next();
    const cookie = getCookie(c, SESSION_COOKIE);
    const session = sessions.browse(cookie);
    if (!(session instanceof Session)) return sessionEnded(c, session.error);
    if (session.id !== cookie) setSessionCookie(c, session.id);
    c.set("session", session);
    const body = await readBody(c.req);
    await next();
    session.log.push({
      seq: session.nextSeq(),
      time: new Date().toISOString(),
      method: c.req.method,
      path,
      query: logQuery(url.searchParams),
      body,
      status: c.res.status,
    });
  });

  root.get("/favicon.ico", (c) => c.body(null, 204));
  root.get("/_sandbox/:asset", (c) => {
    const asset = ASSETS[c.req.param("asset")];
    if (!asset) return c.notFound();
    return c.body(asset[1], 200, { "content-type": asset[0], "cache-control": "max-age=3600" });
  });
  // The recorder posts into the session its page was served in, from this machine's browser only.
  root.post("/_sandbox/*", loopbackOnly("the recorder endpoints"), liveSession(sessions));
  root.post("/_sandbox/record", async (c) => {
    const session = c.get("session");
    const { entries } = await c.req.json().catch(() => ({ entries: [] })) as { entries?: Row[] };
    for (const e of Array.isArray(entries) ? entries.slice(0, 200) : []) {
      const type = e.type === "observation" ? "observation" : "action";
      session.record.push({ ...e, seq: session.nextSeq(), time: new Date().toISOString(), type });
    }
    return c.body(null, 204);
  });
  root.post("/_sandbox/clipboard", async (c) => {
    const session = c.get("session");
    const { text, url, n, cause } = await c.req.json().catch(() => ({})) as Record<string, unknown>;
    if (typeof text === "string") {
      session.clipboard.push({
        seq: session.nextSeq(),
        time: new Date().toISOString(),
        text,
        url: String(url ?? ""),
        ...(typeof n === "number" && Number.isFinite(n) ? { n } : {}),
        ...(typeof cause === "string" && cause.length <= 80 ? { cause } : {}),
      });
    }
    return c.body(null, 204);
  });

  root.route("/_admin", adminRoutes(() => options.apps, sessions));
  root.route("/", portalRoutes(options.apps));

  for (const app of options.apps) {
    const mounted = new Hono<SandboxEnv>({ strict: false });
    mounted.use("*", async (c, next) => {
      const session = c.get("session");
      if (app.requiresLogin && !session.flags.loggedIn) {
        const url = new URL(c.req.url);
        const next = url.pathname + url.search;
        return c.redirect(`/login?next=${encodeURIComponent(next)}`, 302);
      }
      c.set("db", session.db(app.id));
      await next();
    });
    mounted.route("/", app.routes);
    root.route(`/${app.id}`, mounted);
  }

  root.notFound((c) =>
    c.html(
      renderPage({
        title: "Not found",
        app: "",
        now: clock.now().toISOString(),
        user: null,
        body: html`
          <h1>Page not found</h1>
          <p>Nothing lives at <code>${c.req.path}</code>. <a href="/">Back to the app directory</a></p>
        `,
      }),
      404,
    )
  );

  const fetch = (req: Request, env?: SandboxEnv["Bindings"]) => root.fetch(req, env ?? {});
  return {
    fetch,
    request: (path, init, env) => fetch(new Request(new URL(path, "http://sandbox.local"), init), env),
    sessions,
    clock,
    apps: options.apps,
  };
}

/** A sandbox served over HTTP, as startSites returns it. */
export interface SitesServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  base: string;
  /** The sandbox it serves. */
  sandbox: Sandbox;
  /** Stops serving, once the requests under way are answered. */
  close(): Promise<void>;
  /** Stops serving, as close() does (for `await using`). */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serves a sandbox on `hostname` (127.0.0.1) and `port` (0: a free one). */
export function startSites(
  options: SandboxOptions & { port?: number; hostname?: string; signal?: AbortSignal },
): Promise<SitesServer> {
  const sandbox = createSandbox(options);
  const hostname = options.hostname ?? "127.0.0.1";
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname,
      port: options.port ?? 0,
      signal: options.signal,
      onListen: () => {},
    }, (req, info) => sandbox.fetch(req, { remoteAddr: info.remoteAddr as { hostname: string; port: number } }));
    const { port } = server.addr as Deno.NetAddr;
    const host = hostname.includes(":") ? `[${hostname}]` : hostname;
    const close = () => server.shutdown();
    resolve({ base: `http://${host}:${port}`, sandbox, close, [Symbol.asyncDispose]: close });
  });
}
