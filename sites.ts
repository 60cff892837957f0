/**
 * sites.ts: serve the embedded sandbox web apps on 127.0.0.1, for a person or another harness.
 *
 *   deno task sites [--port N] [--host H] [--now ISO] [--max-browsing-sessions N] [--max-harness-sessions N]
 *
 * Prints the base URL as the first line on stdout. Exit codes: 0 on SIGINT/SIGTERM shutdown after serving,
 * 2 on a usage error.
 */
import { type Flags, numberFlag, parseFlags } from "./lib/io/mod.ts";
import { APPS, DEFAULT_NOW, DEFAULT_SESSION_LIMITS, startSites } from "./lib/sites/mod.ts";

const USAGE = `Usage: deno task sites [options]

Serves the sandbox apps (portal at /, apps under /<app>/, admin protocol under /_admin/). Whatever --host, the
admin and recorder endpoints answer this machine only, and admin endpoints never a browser.

Options:
  --port N                    port to listen on; 0 picks a free one (default 8318)
  --host H                    address to bind (default 127.0.0.1); the sites task may bind 127.0.0.1 only, so
                              another address takes your own permissions (deno run --allow-net=0.0.0.0 sites.ts)
  --now ISO                   the frozen clock (default ${DEFAULT_NOW})
  --max-browsing-sessions N   sessions opened by browsing kept in memory, least recently used evicted past that
                              (default ${DEFAULT_SESSION_LIMITS.maxBrowsing})
  --max-harness-sessions N    sessions started by a harness (/_admin/session-flags) live at once; never evicted,
                              one more is refused with 503 (default ${DEFAULT_SESSION_LIMITS.maxHarness})
  -h, --help                  this text

Examples:
  deno task sites --port 0
  deno task sites --port 8318 --now 2026-04-01T09:00:00Z
  deno task sites --port 8318 --max-harness-sessions 64
`;

const OPTIONS = {
  port: { type: "string", default: "8318" },
  host: { type: "string", default: "127.0.0.1" },
  now: { type: "string", default: DEFAULT_NOW },
  "max-browsing-sessions": { type: "string", default: String(DEFAULT_SESSION_LIMITS.maxBrowsing) },
  "max-harness-sessions": { type: "string", default: String(DEFAULT_SESSION_LIMITS.maxHarness) },
  help: { type: "boolean", short: "h" },
} as const;

async function main(argv: string[]): Promise<number> {
  let flags: Flags, port: number, limits: { maxBrowsingSessions: number; maxHarnessSessions: number };
  try {
    flags = parseFlags(argv, OPTIONS);
    if (flags.help) {
      console.log(USAGE);
      return 0;
    }
    port = numberFlag(flags, "port", { whole: true, min: 0, max: 65535 })!;
    const positive = { whole: true, min: 1 };
    limits = {
      maxBrowsingSessions: numberFlag(flags, "max-browsing-sessions", positive)!,
      maxHarnessSessions: numberFlag(flags, "max-harness-sessions", positive)!,
    };
  } catch (err) {
    console.error(`sites.ts: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const controller = new AbortController();
  let server;
  try {
    server = await startSites({
      apps: APPS,
      port,
      hostname: String(flags.host),
      now: String(flags.now),
      ...limits,
      signal: controller.signal,
    });
  } catch (err) {
    console.error(`sites.ts: ${(err as Error).message}`);
    return 2;
  }
  console.log(server.base);
  console.error(`sandbox: ${APPS.map((a) => `${server.base}/${a.id}/`).join("  ")}`);
  const stop = () => controller.abort();
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await new Promise<void>((resolve) => controller.signal.addEventListener("abort", () => resolve()));
  await server.close().catch(() => {});
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
