/**
 * How an episode starts, as data (the runner does the calls and the navigation). A human episode starts like the
 * seed's prepare_human: logged out when the verifier checks the login macro; on the recorded start page (or
 * agent_start_url); a cross-site task on the portal home, with an app directory appended to the instruction. The
 * directory's titles and descriptions are the site server's own (`/_admin/health`).
 */
import type { Action } from "../protocol/mod.ts";
import type { HumanTask } from "./human_task.ts";
import type { ProposedTask } from "../protocol/mod.ts";

/** Where and how an episode starts. */
export interface EpisodeStart {
  /** Call the session flags with `logout=1`. */
  logout: boolean;
  /** The absolute URL of the start page on this run's base. */
  startUrl: string;
  /** What the agent is told (the instruction, plus the app directory for a cross-site task). */
  prompt: string;
  /** Actions run after the start page and before the arm (a datagen task's setup). */
  setup: readonly Action[];
  /**
   * Where the evidence begins: "session", the whole session from its reset (the start page included, as an
   * annotator's recording has it); "arm", after the start and setup (a mid-chain start: what came before is not
   * the agent's).
   */
  evidenceFrom: "session" | "arm";
}

/** An app as the directory lists it. */
export interface AppInfo {
  /** The app's id: its path on the site base (`/shop/`). */
  id: string;
  /** Its display name. */
  title: string;
  /** What it is for, in one line. */
  description: string;
  /** Its pages need a signed-in session. */
  requiresLogin?: boolean;
}

const trimBase = (base: string) => base.replace(/\/+$/, "");

/**
 * The start URL on `base` for a hint: an absolute URL (a recorded origin) keeps its path, query and hash; a path
 * is taken as is; no hint is the site's home.
 */
export function resolveStartUrl(base: string, hint: string | null | undefined, site: string): string {
  const b = trimBase(base);
  if (!hint) return `${b}/${site}/`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(hint)) {
    const u = new URL(hint);
    return `${b}${u.pathname}${u.search}${u.hash}`;
  }
  return hint.startsWith("/") ? `${b}${hint}` : `${b}/${site}/${hint}`;
}

/** The app directory appended to a cross-site task's instruction: each site's title, address and purpose. */
export function appDirectory(base: string, sites: readonly string[], apps: readonly AppInfo[]): string {
  const b = trimBase(base);
  const lines = sites.map((id) => {
    const app = apps.find((a) => a.id === id);
    const login = app?.requiresLogin ? " (sign-in required)" : "";
    return app ? `- ${app.title}: ${b}/${id}/${login} - ${app.description}` : `- ${id}: ${b}/${id}/`;
  });
  return `\n\nThis task uses several apps. You start on the app directory (${b}/); the apps:\n${lines.join("\n")}`;
}

/** The start of a human episode on `base`. */
export function humanStart(task: HumanTask, base: string, apps: readonly AppInfo[]): EpisodeStart {
  if (task.sites.length > 1) {
    return {
      logout: task.needs_login,
      startUrl: `${trimBase(base)}/`,
      prompt: task.instruction + appDirectory(base, task.sites, apps),
      setup: [],
      evidenceFrom: "session",
    };
  }
  return {
    logout: task.needs_login,
    startUrl: resolveStartUrl(base, task.start_hint, task.site),
    prompt: task.instruction,
    setup: [],
    evidenceFrom: "session",
  };
}

/** A proposed episode's start: the default (logged-in) session on the task's start path. */
export function proposedStart(task: ProposedTask, base: string): EpisodeStart {
  return {
    logout: false,
    startUrl: trimBase(base) + task.start_path,
    prompt: task.instruction,
    setup: [],
    evidenceFrom: "session",
  };
}
