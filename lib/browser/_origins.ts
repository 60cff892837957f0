/**
 * The network allowlist: which URLs a page of the episode may load, and the proxy bypass list that sends the
 * allowed origins' HTTP traffic past the recording proxy.
 */
import { UsageError } from "../errors/mod.ts";

const ALWAYS = new Set(["data:", "blob:", "about:", "chrome-error:"]);
const DEFAULT_PORT: Record<string, string> = { "http:": "80", "https:": "443" };

/** The allowed origins in canonical form (`http://127.0.0.1:8080`); throws on a value that is not an origin. */
export function normalizeOrigins(origins: string[]): Set<string> {
  const out = new Set<string>();
  for (const raw of origins) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch (err) {
      throw new UsageError(`allowed origin "${raw}" is not a URL`, { cause: err });
    }
    if (url.origin === "null") throw new UsageError(`allowed origin "${raw}" has no origin (use http: or https:)`);
    out.add(url.origin);
  }
  return out;
}

/**
 * True for the harness's own admin endpoints (`/_admin`, `/_admin/…`) however the path is spelled: the sandbox
 * decodes percent-escapes (`/%5Fadmin/log` reaches the log), so the test decodes them too, repeatedly, and
 * ignores case and doubled slashes (refusing a little more than the server would route).
 */
export function isAdminPath(pathname: string): boolean {
  let path = pathname;
  for (let i = 0; i < 4 && path.includes("%"); i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      break; // a stray "%": the server cannot decode it either
    }
  }
  return /^\/_admin(\/|$)/.test(path.replace(/\\/g, "/").replace(/\/{2,}/g, "/").toLowerCase());
}

/**
 * True when a page may load `url`: data:, blob:, about:, or a URL of an allowed origin whose path is not an admin
 * endpoint (the grading evidence, which only the harness reads and resets, from outside the browser).
 */
export function isAllowedUrl(url: string, origins: ReadonlySet<string>): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return ALWAYS.has(parsed.protocol) || (origins.has(parsed.origin) && !isAdminPath(parsed.pathname));
}

/** True for an admin endpoint of an allowed origin (which isAllowedUrl refuses). */
export function isAdminUrl(url: string, origins: ReadonlySet<string>): boolean {
  try {
    const parsed = new URL(url);
    return origins.has(parsed.origin) && isAdminPath(parsed.pathname);
  } catch {
    return false;
  }
}

/**
 * Chromium's proxy bypass list for an episode's context: loopback goes through the proxy too (`<-loopback>`
 * removes Chromium's implicit bypass), except the allowed origins' own scheme, host and port, so HTTP to them goes
 * direct while a WebSocket to them (scheme ws:) still meets the proxy.
 */
export function proxyBypassList(origins: Iterable<string>): string[] {
  const rules = ["<-loopback>"];
  for (const origin of origins) {
    const url = new URL(origin);
    rules.push(`${url.protocol}//${url.hostname}:${url.port || DEFAULT_PORT[url.protocol]}`);
  }
  return rules;
}
