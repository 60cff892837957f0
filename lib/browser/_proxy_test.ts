import assert from "node:assert/strict";
import { type ProxyRoute, RecordingProxy } from "./_proxy.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A proxy recording into `blocked`, for an episode that allows `origins`. */
function proxyFor(origins: string[], blocked: string[]): RecordingProxy {
  const route: ProxyRoute = { origins: new Set(origins), onBlocked: (u) => blocked.push(u) };
  return RecordingProxy.start(() => route);
}

/** Connects to the proxy, sends each of `parts` (waiting for an answer after each but the last). */
async function talk(proxy: RecordingProxy, ...parts: (string | Uint8Array)[]): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(proxy.url).port) });
  let answer = "";
  const buf = new Uint8Array(4096);
  try {
    for (const [i, part] of parts.entries()) {
      await conn.write(typeof part === "string" ? enc.encode(part) : part);
      if (i < parts.length - 1) answer += dec.decode(buf.subarray(0, (await conn.read(buf)) ?? 0));
    }
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) answer += dec.decode(buf.subarray(0, n));
  } catch {
    /* reset: the proxy hung up */
  } finally {
    conn.close();
  }
  return answer;
}

const wsHead = (path: string, host: string) =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`;

Deno.test("RecordingProxy records a tunnelled WebSocket as its ws:// URL, and connects nowhere", async () => {
  const blocked: string[] = [];
  await using proxy = proxyFor(["http://127.0.0.1:8080"], blocked);
  const answer = await talk(
    proxy,
    "CONNECT 127.0.0.2:9001 HTTP/1.1\r\nHost: 127.0.0.2:9001\r\n\r\n",
    wsHead("/x?y=1", "127.0.0.2:9001"),
  );
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.deepEqual(blocked, ["ws://127.0.0.2:9001/x?y=1"]);
});

Deno.test("RecordingProxy records a tunnel that carries no HTTP (TURN, TLS) as connect://host:port, at once", async () => {
  const blocked: string[] = [];
  await using proxy = proxyFor([], blocked);
  const started = performance.now();
  const stun = new Uint8Array([0x00, 0x03, 0x00, 0x08, 0x21, 0x12, 0xa4, 0x42]);
  await talk(proxy, "CONNECT 127.0.0.2:3478 HTTP/1.1\r\n\r\n", stun);
  assert.ok(performance.now() - started < 1000, "no wait for a head that never comes");
  assert.deepEqual(blocked, ["connect://127.0.0.2:3478"]);
});

Deno.test("RecordingProxy answers an absolute-form request 403 and records its URL", async () => {
  const blocked: string[] = [];
  await using proxy = proxyFor([], blocked);
  const answer = await talk(proxy, "GET http://127.0.0.2:9/collect?x=1 HTTP/1.1\r\nHost: 127.0.0.2:9\r\n\r\n");
  assert.match(answer, /^HTTP\/1\.1 403 /);
  assert.deepEqual(blocked, ["http://127.0.0.2:9/collect?x=1"]);
});

Deno.test("RecordingProxy passes a WebSocket to an allowed origin on, but not one to its /_admin paths", async () => {
  const heads: string[] = [];
  const target = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of target) {
      const buf = new Uint8Array(4096);
      heads.push(dec.decode(buf.subarray(0, (await conn.read(buf)) ?? 0)));
      await conn.write(enc.encode("HTTP/1.1 101 Switching Protocols\r\n\r\nframes"));
      conn.close();
    }
  })().catch(() => undefined);
  const host = `127.0.0.1:${target.addr.port}`;
  const blocked: string[] = [];
  try {
    await using proxy = proxyFor([`http://${host}`], blocked);
    const answer = await talk(proxy, `CONNECT ${host} HTTP/1.1\r\n\r\n`, wsHead("/live", host));
    assert.match(
      answer,
      /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 101 Switching Protocols\r\n\r\nframes$/,
    );
    assert.deepEqual(heads, [wsHead("/live", host)]);
    assert.deepEqual(blocked, []);
    await talk(proxy, `CONNECT ${host} HTTP/1.1\r\n\r\n`, wsHead("/%5Fadmin/session-flags", host));
    assert.deepEqual(blocked, [`ws://${host}/%5Fadmin/session-flags`]);
    assert.equal(heads.length, 1, "the admin WebSocket never reached the site");
  } finally {
    target.close();
    await serving;
  }
});

Deno.test("RecordingProxy between episodes records nothing and passes nothing on", async () => {
  await using proxy = RecordingProxy.start(() => null);
  const answer = await talk(proxy, "GET http://127.0.0.2:9/ HTTP/1.1\r\n\r\n");
  assert.match(answer, /^HTTP\/1\.1 403 /);
});
