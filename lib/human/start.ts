/**
 * How a human episode starts (the seed's prepare_human): logged out when the verifier checks the login macro; on
 * the recorded start page (or agent_start_url); a cross-site task on the portal home, with an app directory
 * appended to the instruction. Pure: the runner does the navigation.
 */
import { APPS } from "../sites/mod.ts";
import type { HumanTask } from "./task.ts";

/** Where and how an episode starts. */
export interface EpisodeStart {
  /** Call the session flags with `logout=1`. */
  logout: boolean;
  /** The absolute URL of the start page on this run's base. */
  startUrl: string;
  /** What the agent is told (the instruction, plus the app directory for a cross-site task). */
  prompt: string;
}

/** An app as the directory lists it. */
export interface AppInfo {
  id: string;
  title: string;
  description: string;
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
export function appDirectory(base: string, sites: readonly string[], apps: readonly AppInfo[] = APPS): string {
  const b = trimBase(base);
  const lines = sites.map((id) => {
    const app = apps.find((a) => a.id === id);
    const login = app?.requiresLogin ? " (sign-in required)" : "";
    return app ? `- ${app.title}: ${b}/${id}/${login} - ${app.description}` : `- ${id}: ${b}/${id}/`;
  });
  return `\n\nThis task uses several apps. You start on the app directory (${b}/); the apps:\n${lines.join("\n")}`;
}

/** The start of a human episode on `base`. */
export function humanStart(task: HumanTask, base: string, apps: readonly AppInfo[] = APPS): EpisodeStart {
  if (task.sites.length > 1) {
    return {
      logout: task.needs_login,
      startUrl: `${trimBase(base)}/`,
      prompt: task.instruction + appDirectory(base, task.sites, apps),
    };
  }
  return {
    logout: task.needs_login,
    startUrl: resolveStartUrl(base, task.start_hint, task.site),
    prompt: task.instruction,
  };
}
