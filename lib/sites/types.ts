/** What an app of the sandbox is, and what its handlers can read from the request context. */
import type { AppRules } from "../protocol/mod.ts";
import type { Hono } from "hono";
import type { Clock } from "./clock.ts";
import type { AppDb, AppSeed } from "./db.ts";
import type { Session } from "./session.ts";

/**
 * hono's app type, under a name of this folder: deno doc counts another package's types as private to the module
 * that uses them (denoland/deno#27364, as lib/grading's ZodSchema), and `@ignore` keeps the alias out of its lint.
 * @ignore
 */
export type HonoApp<E extends SandboxEnv = SandboxEnv> = Hono<E>;

/** The request context of every sandbox handler. */
export type SandboxEnv = {
  Variables: {
    /** The calling session (from its cookie): set for page, recorder and evidence (`/_admin/log` ...) requests. */
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

/** One sandbox web app, mounted under `/<id>`. */
export interface SiteApp {
  /** Path prefix and site name in tasks: `shop` serves `/shop/...`. */
  id: string;
  /** The app's display name: the top bar's, the portal's and the app directory's. */
  title: string;
  /** One line for the portal's app directory. */
  description: string;
  /** When true, a logged-out session is sent to /login first. */
  requiresLogin?: boolean;
  /** Deterministic schema and rows; built once per sandbox, copied into each session on first use. */
  seed: () => AppSeed;
  /**
   * What the grader must know about the app's data and URLs (docs/grading.md, "App rules"), declared once here and
   * served by /_admin/health, so that no task repeats it and an external site server brings its own.
   */
  grading?: AppRules;
  /** The app's handlers, with paths relative to its prefix (`/` is the app's home). */
  routes: HonoApp;
}
