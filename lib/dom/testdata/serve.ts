/** The test pages' server: lib/dom's init script runs only on documents loaded over the network, not page.setContent. */

/** A served set of pages, closed with `await using`. */
export interface PageServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  base: string;
}

/** Paths under this prefix answer after SLOW_MS (an image a :hover rule swaps in, still loading when hovered). */
export const SLOW_PREFIX = "/slow/";
const SLOW_MS = 300;

/**
 * Serves `pages` (path → HTML; a path ending in .svg as an SVG image, never cached) on 127.0.0.1 at a free port;
 * any other path is a 404.
 */
export function servePages(pages: Readonly<Record<string, string>>): PageServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = pages[path];
    if (body === undefined) return new Response("not found", { status: 404 });
    if (path.startsWith(SLOW_PREFIX)) await new Promise((r) => setTimeout(r, SLOW_MS));
    const type = path.endsWith(".svg") ? "image/svg+xml" : "text/html; charset=utf-8";
    return new Response(body, { headers: { "content-type": type, "cache-control": "no-store" } });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, [Symbol.asyncDispose]: () => server.shutdown() };
}
