/** The sandbox sites: the embedded web apps, their per-session state and the admin protocol. */
export { APPS } from "./apps/mod.ts";
export { type Clock, DEFAULT_NOW, frozenClock } from "./clock.ts";
export { AppDb, type AppSeed, type ChangeEntry, type Row } from "./db.ts";
export { type HoverMenu, type Html, type NavLink, type PageOptions, renderPage } from "./layout.ts";
export { isLoopback } from "./admin.ts";
export {
  type ClipboardEntry,
  DEFAULT_SESSION_LIMITS,
  DEFAULT_USER,
  type LogEntry,
  type RecordEntry,
  Session,
  SESSION_COOKIE,
  type SessionFlags,
  type SessionGone,
  type SessionKind,
  type SessionLimits,
  SessionStore,
} from "./session.ts";
export { createSandbox, type Sandbox, type SandboxOptions, type SitesServer, startSites } from "./server.ts";
export type { SandboxEnv, SiteApp } from "./types.ts";
export {
  type AdminChannel,
  type AdminStreams,
  CookieChannel,
  type DirectoryApp,
  endSession,
  fetchHealth,
  type Health,
  lastSeq,
  readLoginState,
  readSessionStreams,
  type StartedSession,
  startSession,
  type StreamRead,
} from "./client.ts";
