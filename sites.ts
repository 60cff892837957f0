/**
 * sites.ts: serve the embedded sandbox web apps on 127.0.0.1, for a person or another harness.
 *
 *   deno task sites [--port N] [--now ISO]
 *
 * Prints the base URL as the first line on stdout. Exit codes: 0 on SIGINT/SIGTERM shutdown after serving,
 * 2 on a usage error.
 */
import { parseArgs } from "node:util";
import { APPS, DEFAULT_NOW, startSites } from "./lib/sites/mod.ts";

const USAGE = `Usage: deno task sites [options]

Serves the sandbox apps (portal at /, apps under /<app>/, admin protocol under /_admin/ on loopback only).

Options:
  --port N     port to listen on; 0 picks a free one (default 8318)
  --host H     address to bind (default 127.0.0.1)
  --now ISO    the frozen clock (default ${DEFAULT_NOW})
  -h, --help   this text

Examples:
  deno task sites --port 0
  deno task sites --port 8318 --now 2026-04-01T09:00:00Z
`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: "string", default: "8318" },
        host: { type: "string", default: "127.0.0.1" },
        now: { type: "string", default: DEFAULT_NOW },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (err) {
    console.error(`sites.ts: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`sites.ts: --port "${values.port}" is not a port number (0-65535)`);
    return 2;
  }
  const controller = new AbortController();
  let server;
  try {
    server = await startSites({ apps: APPS, port, hostname: values.host, now: values.now, signal: controller.signal });
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
