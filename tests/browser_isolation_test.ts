/**
 * Two episodes at once in one Chromium (maxEpisodes 2, as --workers-per-browser 2 runs them) share nothing:
 * cookies, localStorage, IndexedDB, Cache Storage, service workers, the HTTP cache, permissions, the clipboard,
 * downloads, history and open tabs are each episode's own, and a request one episode's pages make and the browser
 * refuses lands in that episode's `blocked` list only, whichever way the page made it (page, subframe, worker,
 * service worker, WebSocket, new tab). Each check first shows the thing works within an episode, so that it could
 * fail.
 */
import assert from "node:assert/strict";
import { ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import { episodeOptions, until } from "./browser_fixture.ts";
import { type ForeignHost, startForeign } from "./support/net_fixture.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const js = (body: string) => new Response(body, { headers: { "content-type": "text/javascript" } });
const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

const SERVICE_WORKER = `
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(clients.claim()));
self.addEventListener("message", (e) => {
  fetch(e.data).then((r) => "status " + r.status, (err) => "failed").then((o) => e.source.postMessage(o));
});`;

/** A page that writes the clipboard every 5 ms, by writeText and by execCommand("copy") of a selection. */
const WRITER = `<!doctype html><title>writer</title><p id="p">W-sel</p><script>
let n = 0;
setInterval(() => {
  n++;
  if (n % 2) return void navigator.clipboard.writeText("W-" + n).catch(() => {});
  document.getElementById("p").textContent = "W-sel-" + n;
  getSelection().selectAllChildren(document.getElementById("p"));
  document.execCommand("copy");
}, 5);
</script>`;

/** A page that reads the clipboard every 5 ms and keeps every text it read. */
const READER = `<!doctype html><title>reader</title><script>
window.seen = new Set();
setInterval(() => navigator.clipboard.readText().then((t) => seen.add(t), (e) => seen.add("error " + e.name)), 5);
</script>`;

/** A page to copy from and paste into: a copy button, two fields, and a record of the paste events' text. */
const CLIP = `<!doctype html><title>clip</title>
<button id="copy" onclick="navigator.clipboard.writeText(this.dataset.text)" data-text="">Copy</button>
<input id="src" value=""> <input id="dst" value="">
<script>window.pasted = []; addEventListener("paste", (e) => pasted.push(e.clipboardData.getData("text/plain")));</script>`;

/** The episodes' site: a page with a copy button, a cached resource that counts its fetches, a download. */
function startSite(hostname = "127.0.0.1") {
  let cachedHits = 0;
  const server = Deno.serve({ hostname, port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    switch (url.pathname) {
      case "/cached":
        cachedHits++;
        return new Response(`hit ${cachedHits}`, { headers: { "cache-control": "max-age=3600" } });
      case "/sw.js":
        return js(SERVICE_WORKER);
      case "/worker.js":
        return js(`onmessage = (e) => fetch(e.data).then(() => postMessage("ok"), () => postMessage("failed"));`);
      case "/download":
        return new Response(`report ${url.searchParams.get("who")}`, {
          headers: { "content-disposition": `attachment; filename="report-${url.searchParams.get("who")}.txt"` },
        });
      case "/frame":
        return html(`<!doctype html><title>frame</title><p>inner</p>`);
      case "/writer":
        return html(WRITER);
      case "/reader":
        return html(READER);
      case "/clip":
        return html(CLIP);
      default:
        return html(`<!doctype html><title>${url.pathname}</title><h1>${url.pathname}</h1>
<button id="copy" onclick="navigator.clipboard.writeText(this.dataset.text)" data-text="">Copy</button>
<a id="dl" href="/download">Download</a>`);
    }
  });
  return {
    base: `http://${hostname}:${server.addr.port}`,
    cachedHits: () => cachedHits,
    close: () => server.shutdown(),
  };
}

async function inPage<T>(s: EpisodeSession, expr: string): Promise<T> {
  return await s.tab().page.evaluate(expr) as T;
}

/** Clicks the element matching `selector` as the agent would: capture, locate, click. */
async function clickSelector(s: EpisodeSession, selector: string): Promise<void> {
  const { snapshot } = await s.captureState({ screenshot: false });
  await s.click(await s.locate({ selector }, snapshot.elements));
}

Deno.test({ name: "two episodes in one Chromium share no state", ...opts }, async (t) => {
  const site = startSite();
  const { base } = site;
  await using browser = await ChromiumBrowser.launch({ maxEpisodes: 2, prewarmOrigins: [base] });
  const [oa, cleanA] = await episodeOptions(base);
  const [ob, cleanB] = await episodeOptions(base);
  try {
    // Opened together: both take a slot before either has its context.
    const [a, b] = await Promise.all([browser.newEpisode(oa), browser.newEpisode(ob)]);
    assert.equal(browser.running, 2);
    await assert.rejects(browser.newEpisode(oa), /runs 2 episode\(s\), its most \(maxEpisodes 2\)/);
    await Promise.all([a.goto(`${base}/a`), b.goto(`${base}/b`)]);

    await t.step("cookies, localStorage, IndexedDB, Cache Storage, service workers", async () => {
      await inPage(
        a,
        `(async () => {
          document.cookie = "who=a; path=/";
          localStorage.setItem("who", "a");
          await new Promise((r) => { const q = indexedDB.open("db-a"); q.onupgradeneeded = () => q.result.createObjectStore("s"); q.onsuccess = () => (q.result.close(), r()); });
          await (await caches.open("cache-a")).put("/x", new Response("a"));
          await navigator.serviceWorker.register("/sw.js");
          await navigator.serviceWorker.ready;
        })()`,
      );
      const state = (s: EpisodeSession) =>
        inPage<string[]>(
          s,
          `(async () => [document.cookie, String(localStorage.getItem("who")),
            (await indexedDB.databases()).map((d) => d.name).join(","), (await caches.keys()).join(","),
            String((await navigator.serviceWorker.getRegistrations()).length)])()`,
        );
      assert.deepEqual(await state(a), ["who=a", "a", "db-a", "cache-a", "1"]);
      assert.deepEqual(await state(b), ["", "null", "", "", "0"]);
    });

    await t.step("the HTTP cache", async () => {
      const get = (s: EpisodeSession) => inPage<string>(s, `fetch("/cached").then((r) => r.text())`);
      assert.equal(await get(a), "hit 1");
      assert.equal(await get(a), "hit 1", "the second fetch in one episode comes from its cache");
      assert.equal(await get(b), "hit 2", "the other episode's fetch reaches the server");
    });

    await t.step("permissions", async () => {
      // Geolocation is added to a's context only (no context has the clipboard permissions: _clipboard.ts).
      await a.tab().page.browserContext().overridePermissions(base, ["geolocation"]);
      const state = (s: EpisodeSession) =>
        inPage<string>(s, `navigator.permissions.query({ name: "geolocation" }).then((p) => p.state)`);
      assert.equal(await state(a), "granted");
      assert.notEqual(await state(b), "granted"); // headless Chromium answers "denied" where nothing was granted
    });

    await t.step("the clipboard: each episode reads what it copied, whoever copied last", async () => {
      await a.writeClipboard("text of a");
      await b.writeClipboard("text of b");
      assert.equal(await a.clipboardText(), "text of a");
      // The page's own copy button, clicked in b while a holds text of its own.
      await inPage(b, `document.getElementById("copy").dataset.text = "ORD-b"`);
      await clickSelector(b, "#copy");
      assert.equal(await a.clipboardText(), "text of a");
      assert.equal(await b.clipboardText(), "ORD-b");
      const [ra, rb] = await Promise.all([
        a.writeClipboard("a again").then(() => a.clipboardText()),
        b.clipboardText(),
      ]);
      assert.deepEqual([ra, rb], ["a again", "ORD-b"]);
    });

    await t.step("downloads", async () => {
      await inPage(a, `document.getElementById("dl").href = "/download?who=a"`);
      await clickSelector(a, "#dl");
      assert.ok(await until(async () => (await a.downloads()).includes("report-a.txt")), "a's download arrived");
      assert.deepEqual(await b.downloads(), []);
    });

    await t.step("history and open tabs", async () => {
      await a.goto(`${base}/a2`);
      await inPage(a, `window.open("/a-tab")`);
      await a.settle();
      assert.equal((await a.tabs()).length, 2);
      assert.deepEqual((await b.tabs()).map((x) => new URL(x.url).pathname), ["/b"]);
      assert.equal(await inPage<number>(b, "history.length"), 1);
      await b.goBack().catch(() => undefined); // nothing before /b in b's own history
      assert.equal(new URL(b.currentUrl()).pathname, "/b");
    });

    await t.step("a refused request lands in its own episode's record only", async () => {
      const foreign: ForeignHost = await startForeign("127.0.0.2");
      try {
        const tryAll = (s: EpisodeSession, who: string) =>
          inPage(
            s,
            `(async () => {
              const f = "${foreign.http}";
              await fetch(f + "/page-${who}").catch(() => {});
              navigator.sendBeacon(f + "/beacon-${who}");
              const frame = document.createElement("iframe");
              frame.src = "/frame";
              document.body.append(frame);
              await new Promise((r) => frame.onload = r);
              await frame.contentWindow.fetch(f + "/subframe-${who}").catch(() => {});
              const w = new Worker("/worker.js");
              await new Promise((r) => { w.onmessage = r; w.postMessage(f + "/worker-${who}"); });
              const reg = await navigator.serviceWorker.register("/sw.js");
              await navigator.serviceWorker.ready;
              await new Promise((r) => { navigator.serviceWorker.onmessage = r; reg.active.postMessage(f + "/sw-${who}"); });
              await new Promise((r) => { const ws = new WebSocket("${
              foreign.http.replace("http", "ws")
            }/ws-${who}"); ws.onerror = ws.onclose = r; });
              window.open(f + "/tab-${who}");
            })()`,
          );
        await Promise.all([tryAll(a, "a"), tryAll(b, "b")]);
        await Promise.all([a.settle(), b.settle()]);
        const kinds = ["page", "beacon", "subframe", "worker", "sw", "ws", "tab"];
        const mine = (who: string) => (u: string) => u.includes(`-${who}`);
        for (const [s, who, other] of [[a, "a", "b"], [b, "b", "a"]] as const) {
          assert.ok(
            await until(() => kinds.every((k) => s.blocked.some((u) => u.includes(`/${k}-${who}`))), 5000),
            `${who}'s record lacks some of its own: ${JSON.stringify(s.blocked)}`,
          );
          assert.deepEqual(s.blocked.filter(mine(other)), [], `${who}'s record has the other episode's requests`);
        }
        assert.deepEqual(foreign.hits, [], "nothing reached the foreign host");
      } finally {
        await foreign.close();
      }
    });

    await t.step("what a closing episode's pages send as they go is recorded in no other episode", async () => {
      const foreign: ForeignHost = await startForeign("127.0.0.2");
      try {
        await inPage(
          a,
          `addEventListener("pagehide", () => { fetch("${foreign.http}/bye-a", { keepalive: true }).catch(() => {});
            navigator.sendBeacon("${foreign.http}/beacon-bye-a"); })`,
        );
        await a.close();
        await inPage(b, `fetch("${foreign.http}/still-b").catch(() => {})`);
        assert.ok(await until(() => b.blocked.some((u) => u.endsWith("/still-b"))), JSON.stringify(b.blocked));
        await new Promise((r) => setTimeout(r, 300));
        assert.deepEqual(b.blocked.filter((u) => u.includes("bye-a")), [], JSON.stringify(b.blocked));
        assert.deepEqual(foreign.hits, [], "nothing reached the foreign host");
      } finally {
        await foreign.close();
      }
    });

    await Promise.all([a.close(), b.close()]);
    assert.equal(browser.running, 0);
  } finally {
    await cleanA();
    await cleanB();
    await site.close();
  }
});

/** One episode's copy, paste and read, `rounds` times; returns each read that was not its own text. */
async function copyPasteRead(s: EpisodeSession, who: string, rounds: number): Promise<string[]> {
  const wrong: string[] = [];
  const expect = async (what: string, want: string, got: () => Promise<string>) => {
    if (!(await until(async () => (await got()) === want, 1000))) wrong.push(`${who} ${what}: ${await got()}`);
  };
  const pageRead = () => inPage<string>(s, "navigator.clipboard.readText()");
  for (let i = 0; i < rounds; i++) {
    await s.writeClipboard(`${who} wrote ${i}`);
    await expect("read its write", `${who} wrote ${i}`, () => s.clipboardText());
    await expect("page read its write", `${who} wrote ${i}`, pageRead);
    await inPage(s, `document.getElementById("copy").dataset.text = "${who} button ${i}"`);
    await clickSelector(s, "#copy");
    await expect("read its copy button", `${who} button ${i}`, () => s.clipboardText());
    await inPage(s, `document.getElementById("src").value = "${who} field ${i}"`);
    await clickSelector(s, "#src");
    await s.sendKeys("Control+a");
    await s.sendKeys("Control+c");
    await expect("read its Ctrl+C", `${who} field ${i}`, () => s.clipboardText());
    await inPage(s, `document.getElementById("dst").value = ""`);
    await clickSelector(s, "#dst");
    await s.sendKeys("Control+v");
    await expect("Ctrl+V", `${who} field ${i}`, () => inPage(s, `document.getElementById("dst").value`));
    await expect("the paste event", `${who} field ${i}`, () => inPage(s, "String(pasted.at(-1))"));
  }
  return wrong;
}

Deno.test({
  name: "four episodes in one Chromium each have their own clipboard, with pages writing and reading on timers",
  ...opts,
}, async () => {
  const site = startSite();
  // Another site (127.0.0.2: an out-of-process frame) that the reader's page frames and reads in too.
  const other = startSite("127.0.0.2");
  const { base } = site;
  await using browser = await ChromiumBrowser.launch({ maxEpisodes: 4, prewarmOrigins: [base] });
  const options = await Promise.all(
    [0, 1, 2, 3].map(() => episodeOptions(base, { allowedOrigins: [base, other.base] })),
  );
  try {
    const [w, r, c, d] = await Promise.all(options.map(([o]) => browser.newEpisode(o)));
    await Promise.all([
      w.goto(`${base}/writer`),
      r.goto(`${base}/reader`),
      c.goto(`${base}/clip`),
      d.goto(`${base}/clip`),
    ]);
    // The reader's page frames a reader of the other site; the writer's page opens a tab that writes too.
    await inPage(
      r,
      `document.body.append(Object.assign(document.createElement("iframe"), { src: "${other.base}/reader" }))`,
    );
    await inPage(w, `window.open("/writer")`);
    await w.settle();
    const frame = () => r.tab().page.frames().find((f) => f.url().startsWith(other.base));
    assert.ok(await until(() => frame() !== undefined), "the reader's cross-site frame loaded");
    assert.equal((await w.tabs()).length, 2, "the writer's page opened a tab");
    const wrong = (await Promise.all([copyPasteRead(c, "c", 4), copyPasteRead(d, "d", 4)])).flat();
    assert.deepEqual(wrong, [], "a read that was not the episode's own text");
    // The timer pages worked: the writer's episode reads what its page wrote, the reader's page what its agent wrote.
    assert.match(await w.clipboardText(), /^W-(sel-)?\d+$/);
    await r.writeClipboard("r's own");
    assert.ok(await until(() => inPage<boolean>(r, `seen.has("r's own")`)), "the reader page read its episode's text");
    assert.ok(
      await until(async () => await frame()!.evaluate(`seen.has("r's own")`) === true),
      "the cross-site frame read it too",
    );
    // A frame without a src (the page's own realm, made by script) has the episode's clipboard too.
    const blank = await inPage<string>(
      r,
      `(() => { const f = document.createElement("iframe"); document.body.append(f);
        return f.contentWindow.Clipboard.prototype.readText.call(f.contentWindow.navigator.clipboard); })()`,
    );
    assert.equal(blank, "r's own");
    const seen = [...await inPage<string[]>(r, "[...seen]"), ...await frame()!.evaluate("[...seen]") as string[]];
    assert.deepEqual(seen.filter((t) => t !== "" && t !== "r's own"), [], "the reader pages read another's text");
    await Promise.all([w, r, c, d].map((s) => s.close()));
  } finally {
    for (const [, clean] of options) await clean();
    await site.close();
    await other.close();
  }
});
