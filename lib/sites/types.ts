/** What an app of the sandbox is, and what its handlers can read from the request context. */
import type { Hono } from "hono";
import type { Clock } from "./clock.ts";
import type { AppDb, AppSeed } from "./db.ts";
import type { Session } from "./session.ts";

/** The request context of every sandbox handler. */
export type SandboxEnv = {
  Variables: {
    /** The calling session (from its cookie). */
    session: Session;
    /** The sandbox's frozen clock. */
    clock: Clock;
    /** The session's database of the app being served (set for app routes only). */
    db: AppDb;
  };
  Bindings: {
    /** Deno.serve's connection info; absent for in-process calls. */
    remoteAddr?: { hostname: string; port?: number };
  };
};

/**
 * What the grader must know about an app's data and URLs (docs/grading.md, "App rules"), declared once per app
 * and served by /_admin/health, so that no task has to repeat it and an external site server brings its own.
 */
export interface AppGradingRules {
  /**
   * Fields the app writes as a side effect of reading or of another write (a read flag set by opening a message,
   * an updated_at, a stock count): never a change of their own. `"*"` makes a whole table bookkeeping (an audit log).
   */
  bookkeeping?: Record<string, readonly string[] | "*">;
  /** Fields of an inserted row the app fills itself (ids, numbers, timestamps): wildcards unless a check lists them. */
  generated?: Record<string, readonly string[]>;
  /** Query keys equal to their default (`page=1`); a key with an empty value is always the same as no key. */
  queryDefaults?: Record<string, string>;
  /** Query keys that only carry a notice (`?flash=saved`): ignored whatever their value. */
  ignoredQuery?: readonly string[];
  /** Query keys the app reads ignoring case (a search). */
  caselessQuery?: readonly string[];
}

/** One sandbox web app, mounted under `/<id>`. */
export interface SiteApp {
  /** Path prefix and site name in tasks: `shop` serves `/shop/...`. */
  id: string;
  title: string;
  /** One line for the portal's app directory. */
  description: string;
  /** When true, a logged-out session is sent to /login first. */
  requiresLogin?: boolean;
  /** Deterministic schema and rows; built once per sandbox, copied into each session on first use. */
  seed: () => AppSeed;
  /** What the grader must know about the app's data and URLs. */
  grading?: AppGradingRules;
  /** The app's handlers, with paths relative to its prefix (`/` is the app's home). */
  routes: Hono<SandboxEnv>;
}
