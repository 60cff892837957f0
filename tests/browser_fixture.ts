/**
 * A test site for the browser tests (a Deno.serve on 127.0.0.1:0) with a page for every action kind, and
 * helpers to run an episode on it that print the page's HTML when a test fails.
 */
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser } from "puppeteer-core";
import { CHROMIUM_FLAGS } from "../lib/browser/chromium.ts";
import type { ChromiumBrowser, EpisodeOptions, EpisodeSession } from "../lib/browser/mod.ts";

export const UPLOAD_DIR = fileURLToPath(new URL("../fixtures/uploads/", import.meta.url));

const MAIN = `<!doctype html><html><head><title>Lab main</title>
<style>
  body { font: 14px sans-serif; margin: 8px; }
  #list li { padding: 8px; margin: 4px; background: #eef; width: 200px; }
  #box { height: 100px; overflow-y: auto; border: 1px solid #999; width: 300px; }
  #overlay { display: none; position: absolute; left: 0; top: 0; width: 100%; height: 100%; background: rgba(0,0,0,0.01); }
  #covered-wrap { position: relative; display: inline-block; }
  #far { margin-top: 2400px; display: block; }
</style></head><body>
<h1>Lab</h1>
<p id="status">idle</p>
<input id="name" name="name" placeholder="Your name" value="old">
<textarea id="notes" name="notes"></textarea>
<input id="when" type="date" name="when">
<select id="color" name="color"><option value="r">Red</option><option value="g">Green</option>
  <option value="b" disabled>Blue</option><option value="y">Yellow  Ochre</option></select>
<button id="inc" onclick="count.textContent = +count.textContent + 1">Add one</button> <span id="count">0</span>
<a id="next" href="/next">Next page</a>
<a id="newtab" href="/next?from=tab" target="_blank">Open in new tab</a>
<a id="newtab-noopener" href="/next?from=noopener" target="_blank" rel="noopener">Open apart</a>
<a id="newtab-slow" href="/slow?ms=2500" target="_blank" rel="noopener">Open a slow page apart</a>
<button id="confirm" onclick="out.textContent = confirm('Delete it?') ? 'confirmed' : 'cancelled'">Delete</button>
<a id="dl" href="/download">Download report</a>
<label id="file-label">Attachment <input id="file" type="file" name="file" onchange="showFiles(this)"></label>
<input id="hidden-file" type="file" style="display: none" onchange="showFiles(this)">
<button id="pick" onclick="document.getElementById('hidden-file').click()">Choose a file</button>
<button id="copy" onclick="navigator.clipboard.writeText('ORD-1042').then(() => out.textContent = 'copied')">Copy order</button>
<input id="keys" placeholder="keys" onkeydown="keylog.textContent += (event.ctrlKey ? 'C-' : '') + event.key + ' '">
<span id="keylog"></span>
<form action="/next" method="post"><input name="q" value="posted"><button id="submit">Send form</button></form>
<span id="covered-wrap"><button id="covered" onclick="out.textContent = 'covered clicked'">Under</button>
  <span id="overlay"></span></span>
<ul id="list">
  <li draggable="true" id="a">Alpha</li><li draggable="true" id="b">Bravo</li><li draggable="true" id="c">Charlie</li>
</ul>
<div id="box" tabindex="0">${Array.from({ length: 30 }, (_, i) => `<p>row ${i}</p>`).join("")}</div>
<button id="far" onclick="out.textContent = 'far clicked'">Far away</button>
<script>
  const count = document.getElementById("count"), out = document.getElementById("status");
  const keylog = document.getElementById("keylog");
  const showFiles = (input) => out.textContent = "file:" + [...input.files].map((f) => f.name + "/" + f.size).join(",");
  let dragged = null;
  for (const li of document.querySelectorAll("#list li")) {
    li.addEventListener("dragstart", (e) => { dragged = li; e.dataTransfer.setData("text/plain", li.id); });
    li.addEventListener("dragover", (e) => e.preventDefault());
    li.addEventListener("drop", (e) => {
      e.preventDefault();
      li.after(dragged);
      out.textContent = "dropped " + e.dataTransfer.getData("text/plain") + " on " + li.id;
    });
  }
</script></body></html>`;

const OFFSITE = `<!doctype html><title>Offsite</title><p>leaky</p>
<img src="http://example.invalid/x.png">
<script>fetch("http://127.0.0.2:9/").catch(() => {}).finally(() => document.title = "fetched");</script>`;

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

/** The test site: its base URL, and close() (which also lets hung requests go). */
export interface TestSite {
  base: string;
  /** Requests the site received, as "METHOD /path?query". */
  requests: string[];
  /** The requests among them that carried no cookie. */
  cookieless: string[];
  close(): Promise<void>;
}

export function startTestSite(): TestSite {
  const hung = new Set<() => void>();
  const requests: string[] = [];
  const cookieless: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (!req.headers.has("cookie")) cookieless.push(`${req.method} ${url.pathname}${url.search}`);
    switch (url.pathname) {
      case "/":
        return html(MAIN);
      case "/next":
        // Its own icon, so the page asks the site for no favicon: a late favicon request from an episode's page
        // would otherwise be counted against a spare page that makes none.
        return html(
          `<!doctype html><title>Next</title><link rel="icon" href="data:,"><h1>Next page</h1>` +
            `<p>${req.method} ${url.search}</p>`,
        );
      case "/slow": // a page that answers late (`ms`): Chromium creates a noopener tab only once it has
        await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? 0)));
        return html(`<!doctype html><title>Slow</title><link rel="icon" href="data:,"><h1>Slow page</h1>`);
      case "/offsite":
        return html(OFFSITE);
      case "/download":
        return new Response("id,total\n1,42\n", {
          headers: { "content-type": "text/csv", "content-disposition": 'attachment; filename="report.csv"' },
        });
      case "/cookie":
        return new Response("{}", { headers: { "content-type": "application/json", "set-cookie": "sid=abc; Path=/" } });
      case "/json":
        return Response.json({ cookie: req.headers.get("cookie") ?? "" });
      case "/text":
        return new Response("not json");
      case "/favicon.ico": // as the sandbox answers it: no icon, which Chromium asks for again on every page
        return new Response(null, { status: 204 });
      case "/hang":
        await new Promise<void>((resolve) => hung.add(resolve)); // until close()
        return new Response("late");
      default:
        return new Response("not found", { status: 404 });
    }
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    requests,
    cookieless,
    async close() {
      for (const r of hung) r();
      await server.shutdown();
    },
  };
}

/** Episode options on the test site with fresh temp folders (removed by the returned cleanup). */
export async function episodeOptions(
  base: string,
  extra: Partial<EpisodeOptions> = {},
): Promise<[EpisodeOptions, () => Promise<void>]> {
  const downloadDir = await Deno.makeTempDir({ prefix: "webmix-dl-" });
  const opts = { allowedOrigins: [base], downloadDir, uploadDir: UPLOAD_DIR, navTimeoutMs: 5000, ...extra };
  return [opts, () => Deno.remove(downloadDir, { recursive: true }).catch(() => undefined)];
}

/** Runs `fn` in a fresh episode on `base`; on failure prints the current page's HTML, then rethrows. */
export async function inEpisode(
  browser: ChromiumBrowser,
  base: string,
  fn: (session: EpisodeSession) => Promise<void>,
  extra: Partial<EpisodeOptions> = {},
): Promise<void> {
  const [opts, cleanup] = await episodeOptions(base, extra);
  try {
    await using session = await browser.newEpisode(opts);
    try {
      await fn(session);
    } catch (err) {
      const dump = await session.tab().page.content().catch(() => "(page unavailable)");
      console.error(`--- page at failure (${session.currentUrl()}) ---\n${dump.slice(0, 1500)}`);
      throw err;
    }
  } finally {
    await cleanup();
  }
}

/** Polls `check` until it returns true or `ms` pass. */
export async function until(check: () => Promise<boolean> | boolean, ms = 3000): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return await check();
}

/** Chromium through puppeteer alone, with the harness's flags: for page-side code on bare pages (no episode). */
export function launchBare(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
