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
  /**
   * A barrier instead of a sleep: sends a marker down each channel (an HTTP request, a TCP connection, a UDP
   * datagram) from this process and waits until all three are noted, so whatever reached the host before them is in
   * `hits`; the markers are then taken out of `hits`.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a foreign host on `hostname` (127.0.0.1 for another port of the sandbox's host, 127.0.0.2 for another). */
export async function startForeign(hostname: string): Promise<ForeignHost> {
  const hits: string[] = [];
  let markers = 0;
  const server = Deno.serve({ hostname, port: 0, onListen() {} }, (req) => {
    if (req.headers.get("x-marker")) {
      markers++;
      return new Response("marker");
    }
    hits.push(`http ${req.method} ${new URL(req.url).pathname}`);
    if (req.headers.get("upgrade") === "websocket") return Deno.upgradeWebSocket(req).response;
    return new Response("foreign", { headers: { "access-control-allow-origin": "*" } });
  });
  const tcp = Deno.listen({ hostname, port: 0 });
  const open = new Set<Deno.Conn>();
  /**
   * Every connection is a hit the moment it is accepted (a browser's may send nothing); one whose first bytes turn
   * out to be a marker is taken back out before it counts, however late those bytes come.
   */
  const note = async (conn: Deno.Conn) => {
    hits.push("tcp connection");
    open.add(conn);
    const first = new Uint8Array(6);
    let got = 0;
    try {
      while (got < 6) {
        const n = await conn.read(first.subarray(got));
        if (n === null) break;
        got += n;
      }
    } catch { /* reset, or closed by close() */ }
    if (got === 6 && new TextDecoder().decode(first) === "MARKER") {
      hits.splice(hits.indexOf("tcp connection"), 1);
      markers++;
    }
    open.delete(conn);
    try {
      conn.close();
    } catch { /* closed already */ }
  };
  const notes: Promise<void>[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of tcp) notes.push(note(conn));
    } catch { /* closed */ }
  })();
  const udp = dgram.createSocket("udp4");
  udp.on("message", (m: Uint8Array) => {
    if (new TextDecoder().decode(m) === "MARKER") markers++;
    else hits.push(`udp ${m.length} bytes`);
  });
  await new Promise<void>((resolve) => udp.bind(0, hostname, () => resolve()));
  return {
    http: `http://${hostname}:${server.addr.port}`,
    hostname,
    httpPort: server.addr.port,
    tcpPort: tcp.addr.port,
    udpPort: (udp.address() as { port: number }).port,
    hits,
    async settle() {
      const target = markers + 3;
      await (await fetch(`http://${hostname}:${server.addr.port}/`, { headers: { "x-marker": "1" } })).text();
      const conn = await Deno.connect({ hostname, port: tcp.addr.port });
      await conn.write(new TextEncoder().encode("MARKER"));
      // The host's own socket sends the datagram to itself (a socket of its own would bind 0.0.0.0).
      await new Promise<void>((r) => udp.send("MARKER", (udp.address() as { port: number }).port, hostname, () => r()));
      const end = performance.now() + 10_000;
      while (markers < target && performance.now() < end) await new Promise((r) => setTimeout(r, 5));
      conn.close();
      if (markers < target) throw new Error(`${hostname}: the markers did not arrive in 10 s`);
    },
    async close() {
      tcp.close();
      await accepting;
      for (const conn of open) conn.close();
      await Promise.all(notes);
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
