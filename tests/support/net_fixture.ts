/**
 * Servers for the network allowlist tests: a foreign host that notes every HTTP request, TCP connection and UDP
 * datagram it receives (it must receive none), and an allowed site with a service worker and a WebSocket echo.
 */
import dgram from "node:dgram";

/** A host the agent's browser must never reach, listening on HTTP (and WebSocket), raw TCP and UDP. */
export interface ForeignHost {
  /** `http://HOST:PORT` of its HTTP server. */
  http: string;
  hostname: string;
  httpPort: number;
  /** A raw TCP listener (TURN over TCP, preconnect): any connection is noted. */
  tcpPort: number;
  /** A UDP socket (STUN, TURN over UDP, WebRTC peers). */
  udpPort: number;
  /** What reached it: `http GET /x`, `tcp connection`, `udp 20 bytes`. */
  hits: string[];
  close(): Promise<void>;
}

/** Starts a foreign host on `hostname` (127.0.0.1 for another port of the sandbox's host, 127.0.0.2 for another). */
export async function startForeign(hostname: string): Promise<ForeignHost> {
  const hits: string[] = [];
  const server = Deno.serve({ hostname, port: 0, onListen() {} }, (req) => {
    hits.push(`http ${req.method} ${new URL(req.url).pathname}`);
    if (req.headers.get("upgrade") === "websocket") return Deno.upgradeWebSocket(req).response;
    return new Response("foreign", { headers: { "access-control-allow-origin": "*" } });
  });
  const tcp = Deno.listen({ hostname, port: 0 });
  const accepting = (async () => {
    try {
      for await (const conn of tcp) {
        hits.push("tcp connection");
        conn.close();
      }
    } catch { /* closed */ }
  })();
  const udp = dgram.createSocket("udp4");
  udp.on("message", (m: Uint8Array) => hits.push(`udp ${m.length} bytes`));
  await new Promise<void>((resolve) => udp.bind(0, hostname, () => resolve()));
  return {
    http: `http://${hostname}:${server.addr.port}`,
    hostname,
    httpPort: server.addr.port,
    tcpPort: tcp.addr.port,
    udpPort: (udp.address() as { port: number }).port,
    hits,
    async close() {
      tcp.close();
      await accepting;
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await server.shutdown();
    },
  };
}

// Fetches what a page posts to it and answers with the outcome.
const SERVICE_WORKER = `
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(clients.claim()));
self.addEventListener("message", (e) => {
  fetch(e.data).then((r) => "status " + r.status, (err) => "failed: " + err.message)
    .then((outcome) => e.source.postMessage(outcome));
});`;

/** The episode's own (allowed) site: an empty page, a service worker at /sw.js and a WebSocket echo at /echo. */
export interface ChannelSite {
  base: string;
  close(): Promise<void>;
}

export function startChannelSite(): ChannelSite {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/sw.js") {
      return new Response(SERVICE_WORKER, { headers: { "content-type": "text/javascript" } });
    }
    if (pathname === "/echo" && req.headers.get("upgrade") === "websocket") {
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.onmessage = (e) => socket.send(`echo ${e.data}`);
      return response;
    }
    if (pathname === "/favicon.ico") return new Response(null, { status: 204 });
    return new Response("<!doctype html><title>Channels</title><body><h1>Channels</h1></body>", {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}
