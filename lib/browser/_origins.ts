/** The network allowlist: which URLs a page of the episode may load. */
import { UsageError } from "../errors/mod.ts";

const ALWAYS = new Set(["data:", "blob:", "about:", "chrome-error:"]);

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

/** True when a page may load `url`: its origin is allowed, or it is data:, blob: or about:. */
export function isAllowedUrl(url: string, origins: ReadonlySet<string>): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return ALWAYS.has(parsed.protocol) || origins.has(parsed.origin);
}
