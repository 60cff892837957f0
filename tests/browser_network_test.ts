/**
 * The network allowlist on real Chromium: the sandbox's admin endpoints are out of the agent's reach whatever way
 * the page asks, and every channel a page has to the outside (fetch, XHR, sendBeacon, forms, new tabs, service
 * workers, prefetch, preconnect, WebSocket, WebRTC) is refused before a foreign server receives anything, and
 * recorded in the session's `blocked`. Foreign hosts: another port of 127.0.0.1 and 127.0.0.2.
 */
import assert from "node:assert/strict";
import { ActionError, ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import { APPS, createSandbox, startSession } from "../lib/sites/mod.ts";
import { inEpisode, until } from "./browser_fixture.ts";
import { type ForeignHost, startChannelSite, startForeign } from "./support/net_fixture.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
type Changes = { entries: { table: string; op: string }[] };

/** The sandbox served on 127.0.0.1:0, noting each request's method and path (with query) as it arrives. */
function serveSandbox(): { base: string; received: string[]; close(): Promise<void> } {
  const sandbox = createSandbox({ apps: APPS });
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req, info) => {
    const url = new URL(req.url);
    received.push(`${req.method} ${url.pathname}${url.search}`);
    return sandbox.fetch(req, { remoteAddr: info.remoteAddr as Deno.NetAddr });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, received, close: () => server.shutdown() };
}

/** Runs `js` in the current page; a navigation it starts may destroy the context, which is fine. */
async function inPage(s: EpisodeSession, js: string): Promise<unknown> {
  return await s.tab().page.evaluate(js).catch((err) => `threw: ${err}`);
}

/** Clicks the element matching `selector` as the agent would: capture, locate, click. */
async function clickSelector(s: EpisodeSession, selector: string): Promise<void> {
  const { snapshot } = await s.captureState({ screenshot: false });
  await s.click(await s.locate({ selector }, snapshot.elements));
}

Deno.test({ name: "the agent cannot reach the sandbox's /_admin endpoints, whichever way", ...opts }, async () => {
  const sandbox = serveSandbox();
  await using browser = await ChromiumBrowser.launch();
  const { base } = sandbox;
  try {
    await inEpisode(browser, base, async (s) => {
      await startSession(s, base, { logout: false });
      await s.goto(`${base}/shop/products/1`);
      await inPage(
        s,
        `document.querySelectorAll("#add-to-cart-form fieldset").forEach((f) => f.querySelector("input")?.click())`,
      );
      await clickSelector(s, "#add-to-cart");
      const before = (await s.adminGet(base, "/_admin/changes") as Changes).entries;
      assert.ok(before.some((c) => c.table === "cart_items" && c.op === "insert"), JSON.stringify(before));
      const mark = sandbox.received.length;

      const reset = `${base}/_admin/session-flags`;
      await assert.rejects(
        s.goto(`${reset}?via=goto`),
        (e) => e instanceof ActionError && /harness's own/.test(e.message),
      );
      await inPage(
        s,
        `document.body.insertAdjacentHTML("beforeend", '<a id="reset" href="/_admin/session-flags?via=link">Reset</a>')`,
      );
      await clickSelector(s, "#reset");
      await s.goto(`${base}/shop/`);
      await inPage(s, `location.href = "/_admin/session-flags?via=location"`);
      await s.settle();
      await s.goto(`${base}/shop/`);
      for (
        const path of ["/_admin/session-flags?via=fetch", "/%5Fadmin/session-flags?via=encoded", "/_admin?via=bare"]
      ) {
        await inPage(s, `fetch(${JSON.stringify(path)}).then(() => "answered", () => "refused")`);
      }
      await inPage(
        s,
        `new Promise((r) => {
        const ws = new WebSocket("ws://" + location.host + "/_admin/session-flags?via=websocket");
        ws.onopen = () => r("open"); ws.onerror = () => r("refused");
      })`,
      );

      for (const via of ["goto", "link", "location", "fetch", "encoded", "bare", "websocket"]) {
        assert.ok(await until(() => s.blocked.some((u) => u.includes(`via=${via}`))), `${via}: ${s.blocked}`);
      }
      assert.ok(s.blocked.includes(`${reset}?via=goto`), s.blocked.join("\n"));
      assert.ok(s.blocked.includes(`ws://${new URL(base).host}/_admin/session-flags?via=websocket`), `${s.blocked}`);
      const reached = sandbox.received.slice(mark).filter((r) =>
        /admin/i.test(r) && !r.startsWith("GET /_admin/changes")
      );
      assert.deepEqual(reached, [], "the sandbox never heard of the page's admin calls");
      const after = (await s.adminGet(base, "/_admin/changes") as Changes).entries;
      assert.deepEqual(after, before, "the cart change is still the session's evidence");
    });
  } finally {
    await browser.close();
    await sandbox.close();
  }
});

Deno.test({ name: "every channel off the allowed origins is refused and recorded", ...opts }, async (t) => {
  const site = startChannelSite();
  const near = await startForeign("127.0.0.1"); // the sandbox's host, another port
  const far = await startForeign("127.0.0.2");
  await using browser = await ChromiumBrowser.launch();
  const { base } = site;
  const hosts: ForeignHost[] = [near, far];

  /** Runs `fn` in a fresh episode on the site's page; then nothing may have reached a foreign host. */
  const channel = (name: string, fn: (s: EpisodeSession) => Promise<void>) =>
    t.step(name, async () => {
      const hitsBefore = hosts.map((h) => h.hits.length);
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        await fn(s);
      });
      // The episode's context is closed: what it sent has reached the hosts before their markers.
      for (const h of hosts) await h.settle();
      for (const [i, h] of hosts.entries()) assert.deepEqual(h.hits.slice(hitsBefore[i]), [], `${h.hostname} reached`);
    });

  /** Waits for each of `urls` in `blocked`. */
  const expectBlocked = async (s: EpisodeSession, urls: string[]) => {
    for (const url of urls) assert.ok(await until(() => s.blocked.includes(url)), `${url} not in ${s.blocked}`);
  };

  try {
    await channel("fetch and XHR", async (s) => {
      for (const h of hosts) {
        await inPage(s, `fetch("${h.http}/fetch").catch(() => 0)`);
        await inPage(
          s,
          `new Promise((r) => { const x = new XMLHttpRequest(); x.open("GET", "${h.http}/xhr");
          x.onloadend = r; x.send(); })`,
        );
      }
      await expectBlocked(s, hosts.flatMap((h) => [`${h.http}/fetch`, `${h.http}/xhr`]));
    });

    await channel("navigator.sendBeacon", async (s) => {
      for (const h of hosts) await inPage(s, `navigator.sendBeacon("${h.http}/beacon", "payload")`);
      await expectBlocked(s, hosts.map((h) => `${h.http}/beacon`));
    });

    await channel("a form submission", async (s) => {
      for (const h of hosts) {
        await inPage(
          s,
          `document.body.innerHTML = '<form method="post" action="${h.http}/form">' +
          '<input name="q" value="secret"><button id="send">Send</button></form>'`,
        );
        await clickSelector(s, "#send");
        await s.goto(`${base}/`);
      }
      await expectBlocked(s, hosts.map((h) => `${h.http}/form`));
    });

    await channel("window.open and a target=_blank link", async (s) => {
      await inPage(s, `window.open("${near.http}/popup")`);
      await s.settle();
      await s.switchTab((await s.tabs())[0].id);
      await inPage(s, `document.body.innerHTML = '<a id="out" href="${far.http}/tab" target="_blank">out</a>'`);
      await clickSelector(s, "#out");
      await expectBlocked(s, [`${near.http}/popup`, `${far.http}/tab`]);
    });

    await channel("a service worker's own fetch", async (s) => {
      const outcome = await inPage(
        s,
        `(async () => {
        await navigator.serviceWorker.register("/sw.js");
        const reg = await navigator.serviceWorker.ready;
        const ask = (url) => new Promise((r) => {
          navigator.serviceWorker.onmessage = (e) => r(e.data);
          reg.active.postMessage(url);
        });
        return [await ask("${near.http}/from-sw"), await ask("${far.http}/from-sw")];
      })()`,
      );
      assert.ok(Array.isArray(outcome) && outcome.every((o) => /^failed/.test(o)), JSON.stringify(outcome));
      await expectBlocked(s, hosts.map((h) => `${h.http}/from-sw`));
    });

    await channel("<link rel=prefetch>", async (s) => {
      for (const h of hosts) {
        await inPage(
          s,
          `document.head.insertAdjacentHTML("beforeend", '<link rel="prefetch" href="${h.http}/prefetch">')`,
        );
      }
      await expectBlocked(s, hosts.map((h) => `${h.http}/prefetch`));
    });

    await channel("<link rel=preconnect> and dns-prefetch open no connection", async (s) => {
      for (const h of hosts) {
        await inPage(
          s,
          `document.head.insertAdjacentHTML("beforeend",
          '<link rel="preconnect" href="http://${h.hostname}:${h.tcpPort}">' +
          '<link rel="preconnect" href="https://${h.hostname}:${h.tcpPort}">' +
          '<link rel="dns-prefetch" href="http://${h.hostname}:${h.tcpPort}">' +
          '<img src="${h.http}/after-preconnect">')`,
        );
      }
      // The image after the hints is asked for once the hints were read: wait for its refusal, not a time.
      await expectBlocked(s, hosts.map((h) => `${h.http}/after-preconnect`));
    });

    await channel("WebSocket, from the page and from a worker", async (s) => {
      const open = (url: string) =>
        `new Promise((r) => { const ws = new WebSocket("${url}");
        ws.onopen = () => r("open"); ws.onerror = () => r("refused"); })`;
      for (const h of hosts) {
        assert.equal(await inPage(s, open(`ws://${h.hostname}:${h.httpPort}/page`)), "refused");
        const worker = `new Promise((r) => { const w = new Worker(URL.createObjectURL(new Blob([
          'const ws = new WebSocket("ws://${h.hostname}:${h.httpPort}/worker"); ws.onopen = () => postMessage("open");' +
          'ws.onerror = () => postMessage("refused");']))); w.onmessage = (e) => r(e.data); })`;
        assert.equal(await inPage(s, worker), "refused");
      }
      await expectBlocked(
        s,
        hosts.flatMap((h) => [`ws://${h.hostname}:${h.httpPort}/page`, `ws://${h.hostname}:${h.httpPort}/worker`]),
      );
    });

    await channel("a WebSocket to the allowed origin still works", async (s) => {
      const echo = await inPage(
        s,
        `new Promise((r) => { const ws = new WebSocket("ws://" + location.host + "/echo");
        ws.onopen = () => ws.send("hi"); ws.onmessage = (e) => r(e.data); ws.onerror = () => r("refused"); })`,
      );
      assert.equal(echo, "echo hi");
      assert.deepEqual(s.blocked, []);
    });

    await channel("WebRTC: STUN, TURN over UDP and TCP, a remote peer", async (s) => {
      const state = await inPage(
        s,
        `(async () => {
        const pc = new RTCPeerConnection({ iceServers: [
          { urls: "stun:${far.hostname}:${far.udpPort}" },
          { urls: ["turn:${far.hostname}:${far.udpPort}?transport=udp", "turn:${far.hostname}:${far.tcpPort}?transport=tcp"],
            username: "u", credential: "p" },
          { urls: "turn:${near.hostname}:${near.tcpPort}?transport=tcp", username: "u", credential: "p" },
        ] });
        pc.createDataChannel("leak");
        await pc.setLocalDescription(await pc.createOffer());
        const peer = new RTCPeerConnection();
        await peer.setRemoteDescription(pc.localDescription);
        await peer.setLocalDescription(await peer.createAnswer());
        await pc.setRemoteDescription(peer.localDescription);
        await pc.addIceCandidate({ sdpMid: "0",
          candidate: "candidate:1 1 udp 2122260223 ${far.hostname} ${far.udpPort} typ host" }).catch(() => 0);
        // Until ICE gathering is complete (every server tried), or 5 s.
        await new Promise((r) => {
          if (pc.iceGatheringState === "complete") return r(0);
          pc.onicegatheringstatechange = () => pc.iceGatheringState === "complete" && r(0);
          setTimeout(r, 5000);
        });
        return pc.iceConnectionState;
      })()`,
      );
      assert.notEqual(state, "connected");
      await expectBlocked(s, [
        `stun:${far.hostname}:${far.udpPort}`,
        `turn:${far.hostname}:${far.udpPort}?transport=udp`,
        `turn:${far.hostname}:${far.tcpPort}?transport=tcp`,
        `turn:${near.hostname}:${near.tcpPort}?transport=tcp`,
        `connect://${far.hostname}:${far.tcpPort}`,
        `connect://${near.hostname}:${near.tcpPort}`,
      ]);
    });

    await t.step("the next episode's context, prepared for one site, is not used for another", async () => {
      const other = startChannelSite();
      try {
        await inEpisode(browser, base, async (s) => {
          await s.goto(`${base}/`);
        });
        assert.ok(await browser.prepareNext(), "a spare for `base` is ready");
        await inEpisode(browser, other.base, async (s) => {
          await s.goto(`${other.base}/`);
          assert.equal((await s.captureState({ screenshot: false })).title, "Channels");
          const ws = (url: string) =>
            inPage(
              s,
              `new Promise((r) => { const ws = new WebSocket("${url}");
              ws.onopen = () => ws.send("hi"); ws.onmessage = (e) => r(e.data); ws.onerror = () => r("refused"); })`,
            );
          assert.equal(await ws(`ws://${new URL(other.base).host}/echo`), "echo hi");
          assert.deepEqual(s.blocked, [], "the site's own traffic went direct");
          assert.equal(
            await ws(`ws://${new URL(base).host}/echo`),
            "refused",
            "the last episode's site is foreign now",
          );
          assert.deepEqual(s.blocked, [`ws://${new URL(base).host}/echo`]);
        });
      } finally {
        await other.close();
      }
    });
    // Chromium gone, nothing it started can still arrive: the hosts heard nothing in the whole test.
    await browser.close();
    for (const h of hosts) await h.settle();
    assert.deepEqual([...near.hits, ...far.hits], [], "a foreign host was reached");
  } finally {
    await browser.close();
    await far.close();
    await near.close();
    await site.close();
  }
});

Deno.test("a foreign host's settle() returns once what was sent before it is noted, markers left out", async () => {
  const host = await startForeign("127.0.0.2");
  try {
    const tcp = await Deno.connect({ hostname: host.hostname, port: host.tcpPort });
    await (await fetch(`${host.http}/early`)).text();
    await host.settle();
    tcp.close();
    assert.deepEqual(host.hits.sort(), ["http GET /early", "tcp connection"]);
    await host.settle();
    assert.equal(host.hits.length, 2, "markers are not hits");
  } finally {
    await host.close();
  }
});

Deno.test("a marker whose bytes come late (a loaded machine) is still a marker, not a TCP hit", async () => {
  const host = await startForeign("127.0.0.2");
  try {
    const late = await Deno.connect({ hostname: host.hostname, port: host.tcpPort });
    await new Promise((r) => setTimeout(r, 150)); // longer than the 50 ms a connection once had to say so
    await late.write(new TextEncoder().encode("MARKER"));
    assert.ok(await until(() => host.hits.length === 0), `hits: ${host.hits}`);
    late.close();
  } finally {
    await host.close();
  }
});
