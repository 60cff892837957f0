/** The sandbox sites: the embedded web apps, their per-session state and the admin protocol. */
export { APPS } from "./apps/mod.ts";
export { type Clock, DEFAULT_NOW, frozenClock } from "./clock.ts";
export { AppDb, type AppSeed, type ChangeEntry, type Row } from "./db.ts";
export { type Html, type NavLink, type PageOptions, renderPage } from "./layout.ts";
export { isLoopback } from "./admin.ts";
export {
  type ClipboardEntry,
  DEFAULT_USER,
  type LogEntry,
  type RecordEntry,
  Session,
  type SessionFlags,
  SessionStore,
} from "./session.ts";
export {
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  SESSION_COOKIE,
  type SitesServer,
  startSites,
} from "./server.ts";
export type { SandboxEnv, SiteApp } from "./types.ts";
export {
  type AdminChannel,
  type AdminStreams,
  type DirectoryApp,
  fetchHealth,
  type Health,
  lastSeq,
  readLoginState,
  readSessionStreams,
  startSession,
} from "./client.ts";
