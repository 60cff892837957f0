/**
 * The sandbox sites: the embedded web apps, their per-session state and the admin protocol.
 * @module
 */
export { APPS } from "./apps/mod.ts";
export { type Clock, DEFAULT_NOW } from "./clock.ts";
export { AppDb, type AppSeed, type ChangeEntry, type Row } from "./db.ts";
export {
  type ClipboardEntry,
  DEFAULT_SESSION_LIMITS,
  type LogEntry,
  type RecordEntry,
  Session,
  type SessionFlags,
  type SessionGone,
  type SessionKind,
  type SessionLimits,
  SessionStore,
} from "./session.ts";
export { DEFAULT_USER } from "./session.ts";
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
// The type SiteApp declares its rules in, for this API's documentation: lib/protocol owns it.
export type { AppRules } from "../protocol/mod.ts";
