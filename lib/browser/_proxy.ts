/**
 * The recording proxy: a TCP listener on 127.0.0.1 that every episode context uses as its HTTP proxy. What the
 * bypass list sends past it (HTTP to the allowed origins) goes direct; what arrives here is what the browser-wide
 * request filter cannot see (WebSockets, WebRTC's TURN over TCP, TCP candidates), or a URL it let through by
 * mistake. Nothing is forwarded but a WebSocket to an allowed origin off its admin paths; everything else is
 * recorded to the current episode as blocked and refused, so no foreign server ever receives a byte.
 */
import { isAllowedUrl } from "./_origins.ts";

/** Where the proxy records: the running episode's origins and its blocked list (null between episodes). */
export interface ProxyRoute {
  origins: ReadonlySet<string>;
  onBlocked: (url: string) => void;
}

/** The most a request head may take, and how long it may take to arrive. */
const HEAD_LIMIT = 16 * 1024;
const HEAD_TIMEOUT_MS = 5000;
/** How long a tunnel may stay silent before it is taken for a bare connection (a preconnect, a TLS client). */
const TUNNEL_TIMEOUT_MS = 2000;
const ESTABLISHED = "HTTP/1.1 200 Connection Established\r\n\r\n";
const FORBIDDEN = "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";

interface Head {
  method: string;
  target: string;
  websocket: boolean;
}

export class RecordingProxy implements AsyncDisposable {
  readonly #conns = new Set<Deno.Conn>();
  readonly #serving: Promise<void>;

  private constructor(
    private readonly listener: Deno.TcpListener,
    private readonly route: () => ProxyRoute | null,
  ) {
    this.#serving = this.#serve();
  }

  /** Listens on 127.0.0.1 (a free port); `route` tells, per connection, where to record. */
  static start(route: () => ProxyRoute | null): RecordingProxy {
    return new RecordingProxy(Deno.listen({ hostname: "127.0.0.1", port: 0 }), route);
  }

  /** `http://127.0.0.1:PORT`, Chromium's proxyServer. */
  get url(): string {
    return `http://127.0.0.1:${this.listener.addr.port}`;
  }

  async #serve(): Promise<void> {
    try {
      for await (const conn of this.listener) {
        this.#conns.add(conn);
        this.#handle(conn).catch(() => undefined).finally(() => this.#drop(conn));
      }
    } catch { /* the listener closed */ }
  }

  async #handle(conn: Deno.Conn): Promise<void> {
    const bytes = await readHead(conn, HEAD_TIMEOUT_MS);
    const head = parseHead(bytes);
    if (!head) return;
    if (head.method === "CONNECT") return await this.#tunnel(conn, head.target);
    // An absolute-form request: plain HTTP the bypass list did not send direct.
    const url = canonical(head.target);
    if (url && /^https?:/.test(url)) this.route()?.onBlocked(url);
    await writeAll(conn, FORBIDDEN);
  }

  /**
   * A CONNECT: the tunnel opens (nothing is connected behind it) so that its first request tells what it is for.
   * A WebSocket to an allowed origin is passed on; anything else is recorded by what was seen.
   */
  async #tunnel(conn: Deno.Conn, authority: string): Promise<void> {
    await writeAll(conn, ESTABLISHED);
    const bytes = await readHead(conn, TUNNEL_TIMEOUT_MS);
    const head = parseHead(bytes);
    const route = this.route();
    if (!head || !head.target.startsWith("/")) {
      route?.onBlocked(canonical(`connect://${authority}`) ?? `connect://${authority}`);
      return;
    }
    const path = head.target;
    if (route && head.websocket && isAllowedUrl(`http://${authority}${path}`, route.origins)) {
      return await this.#forward(conn, authority, bytes);
    }
    const url = `${head.websocket ? "ws" : "http"}://${authority}${path}`;
    route?.onBlocked(canonical(url) ?? url);
  }

  /** Passes a tunnel on to the allowed origin it names, `first` (what the client sent already) first. */
  async #forward(conn: Deno.Conn, authority: string, first: Uint8Array): Promise<void> {
    const { hostname, port } = new URL(`http://${authority}`);
    const target = await Deno.connect({ hostname: hostname.replace(/^\[|\]$/g, ""), port: Number(port || 80) });
    this.#conns.add(target);
    try {
      await writeAll(target, first);
      await Promise.allSettled([conn.readable.pipeTo(target.writable), target.readable.pipeTo(conn.writable)]);
    } finally {
      this.#drop(target);
    }
  }

  #drop(conn: Deno.Conn): void {
    this.#conns.delete(conn);
    try {
      conn.close();
    } catch { /* closed already (a finished pipe closes its end) */ }
  }

  #closed = Promise.withResolvers<void>();

  /** Resolves once close() was called. */
  get closed(): Promise<void> {
    return this.#closed.promise;
  }

  /** Stops listening and cuts every connection; never throws, safe to call twice. */
  async close(): Promise<void> {
    this.#closed.resolve();
    try {
      this.listener.close();
    } catch { /* closed already */ }
    for (const conn of [...this.#conns]) this.#drop(conn);
    await this.#serving;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Bytes up to the end of a request head, the limit, the end of the stream, the timeout or a first byte that no
 * request line starts with (TLS, STUN), whichever comes first.
 */
async function readHead(conn: Deno.Conn, timeoutMs: number): Promise<Uint8Array> {
  let out = new Uint8Array(0);
  const buf = new Uint8Array(4096);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((r) => (timer = setTimeout(() => r(null), timeoutMs)));
  try {
    while (out.length < HEAD_LIMIT && !endsHead(out) && (out.length === 0 || (out[0] >= 65 && out[0] <= 90))) {
      const n = await Promise.race([conn.read(buf), timeout]);
      if (n === null) break;
      const next = new Uint8Array(out.length + n);
      next.set(out);
      next.set(buf.subarray(0, n), out.length);
      out = next;
    }
  } catch {
    /* reset by the client */
  } finally {
    clearTimeout(timer);
  }
  return out;
}

function endsHead(bytes: Uint8Array): boolean {
  for (let i = 3; i < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 13 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return true;
  }
  return false;
}

/** The request line and whether it asks for a WebSocket; null for anything that is not a complete HTTP/1 head. */
function parseHead(bytes: Uint8Array): Head | null {
  if (!endsHead(bytes)) return null;
  const text = new TextDecoder("latin1").decode(bytes);
  const lines = text.slice(0, text.indexOf("\r\n\r\n")).split("\r\n");
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(lines[0]);
  if (!m) return null;
  const websocket = lines.some((l) => /^upgrade:\s*websocket\s*$/i.test(l));
  return { method: m[1], target: m[2], websocket };
}

/** `url` as the WHATWG parser writes it (as the request filter records URLs), or null when it does not parse. */
function canonical(url: string): string | null {
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
}

async function writeAll(conn: Deno.Conn, data: string | Uint8Array): Promise<void> {
  let bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  while (bytes.length) bytes = bytes.subarray(await conn.write(bytes));
}
