/** The test pages' server: lib/dom's init script runs only on documents loaded over the network, not page.setContent. */

/** A served set of pages, closed with `await using`. */
export interface PageServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  base: string;
}

/** Serves `pages` (path → HTML) on 127.0.0.1 at a free port; any other path is a 404. */
export function servePages(pages: Readonly<Record<string, string>>): PageServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const html = pages[new URL(req.url).pathname];
    return html === undefined
      ? new Response("not found", { status: 404 })
      : new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, [Symbol.asyncDispose]: () => server.shutdown() };
}
