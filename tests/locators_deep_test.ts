/**
 * `selector` locators (docs/tasks.md, "Actions") through open shadow roots and same-origin iframes, on real
 * Chromium: the document's matches first, then those of nested trees; `>>>` crossing into a shadow root or a frame;
 * the nearest indexed ancestor found through shadow hosts and frame elements; a `text` locator revealing an element
 * of a shadow root below the fold; drag ends given by selectors inside a frame, at their points in the top window,
 * or as HTML5 drag events when they cannot share the viewport.
 */
import assert from "node:assert/strict";
import { type BrowserState, ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import { executeAction } from "../lib/agent/mod.ts";
import { inEpisode } from "./browser_fixture.ts";
import { servePages } from "../lib/dom/testdata/serve.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** A page with a shadow widget (nested), a host with an unindexed label, and a framed panel with a nested frame. */
const MAIN = `<!doctype html><html><head><title>Deep</title>
<style>body{font:14px sans-serif;margin:8px} #far{display:block;margin-top:2400px}</style></head><body>
<p id="status">idle</p>
<button class="twin" id="light-twin" onclick="status.textContent='light twin'">Light twin</button>
<button id="arrow" title="a >>> b" onclick="status.textContent='arrow title'">Arrow</button>
<x-stars id="stars"></x-stars>
<div id="host" role="button" tabindex="0" onclick="status.textContent='host'"></div>
<div id="frame-card" onclick="status.textContent='card'" style="margin:20px 0 0 40px"><iframe id="panel" src="/frame" style="width:500px;height:260px;border:4px solid #999">
</iframe></div>
<x-far id="far"></x-far>
<script>
  const status = document.getElementById("status");
  customElements.define("x-inner", class extends HTMLElement {
    connectedCallback() {
      this.attachShadow({ mode: "open" }).innerHTML =
        '<button class="deep" id="deep" onclick="document.getElementById(\\'status\\').textContent=\\'deep\\'">Deep</button>';
    }
  });
  customElements.define("x-stars", class extends HTMLElement {
    connectedCallback() {
      const root = this.attachShadow({ mode: "open" });
      for (const n of [1, 2, 3]) {
        const b = document.createElement("button");
        b.dataset.stars = String(n);
        b.id = "star-" + n;
        b.setAttribute("aria-label", n + " stars");
        b.textContent = "*";
        b.onclick = () => status.textContent = "stars " + n;
        root.append(b);
      }
      const twin = document.createElement("button");
      twin.className = "twin";
      twin.id = "shadow-twin";
      twin.textContent = "Shadow twin";
      root.append(twin, document.createElement("x-inner"));
    }
  });
  customElements.define("x-far", class extends HTMLElement {
    connectedCallback() {
      const b = document.createElement("button");
      b.id = "far-button";
      b.textContent = "Far in the shadow";
      b.onclick = () => status.textContent = "far";
      const words = document.createElement("p");
      words.textContent = "Words beside it";
      const drop = document.createElement("div");
      drop.id = "far-drop";
      drop.textContent = "Drop here";
      drop.addEventListener("dragover", (e) => e.preventDefault());
      drop.addEventListener("drop", (e) => status.textContent = "dropped " + e.dataTransfer.getData("text/plain"));
      this.attachShadow({ mode: "open" }).append(words, b, drop);
    }
  });
  document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = '<span class="label" id="host-label">Go</span>';
</script></body></html>`;

/** The framed panel: a button, pointer-driven source and target boxes, and a nested frame. */
const FRAME = `<!doctype html><html><body style="margin:0;font:14px sans-serif">
<p id="frame-note">A note</p>
<button id="in-frame" onclick="parent.document.getElementById('status').textContent='in frame'">In frame</button>
<div style="display:flex;gap:80px;margin:12px">
  <div id="src" style="width:60px;height:40px;background:#fdd">src</div>
  <div id="dst" style="width:60px;height:40px;background:#dfd">dst</div>
</div>
<span id="ticket" draggable="true">Ticket</span>
<iframe id="inner" src="/inner" style="width:300px;height:80px;border:0"></iframe>
<script>
  let from = null;
  document.addEventListener("mousedown", (e) => from = e.target.id);
  document.getElementById("ticket").addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", "ticket"));
  document.addEventListener("mouseup", (e) => {
    parent.document.getElementById("status").textContent = "dragged " + from + " to " + e.target.id;
  });
</script></body></html>`;

const INNER = `<!doctype html><body style="margin:0">
<button id="in-inner" onclick="parent.parent.document.getElementById('status').textContent='in inner'">Inner</button>
</body>`;

/** The id of the element a locator resolves to, from the page's current index. */
async function locatedId(s: EpisodeSession, locator: { selector: string } | { text: string }): Promise<string> {
  const state = await s.captureState({ screenshot: false });
  const i = await s.locate(locator, state.snapshot.elements);
  const el = s.indexedElements()?.find((e) => e.index === i);
  return el?.attributes.id ?? `(element ${i} has no id)`;
}

const status = (s: EpisodeSession) => s.tab().page.$eval("#status", (e) => e.textContent ?? "");

Deno.test({ name: "selector locators reach into open shadow roots and same-origin iframes", ...opts }, async (t) => {
  await using site = servePages({ "/": MAIN, "/frame": FRAME, "/inner": INNER });
  const { base } = site;
  await using browser = await ChromiumBrowser.launch();
  const run = async (s: EpisodeSession, action: unknown) => {
    const state: BrowserState = await s.captureState({ screenshot: false });
    return await executeAction(s, action, { base, state });
  };
  const step = (name: string, fn: (s: EpisodeSession) => Promise<void>) =>
    t.step(name, () =>
      inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        await s.tab().page.waitForFunction(() => {
          const frame = (id: string, doc: Document) => (doc.getElementById(id) as HTMLIFrameElement).contentDocument;
          const inner = frame("inner", frame("panel", document)!);
          return inner?.getElementById("in-inner") !== null;
        }, { timeout: 5000 });
        await fn(s);
      }));
  try {
    await step("a plain selector: the document's match first, else the first in a nested tree", async (s) => {
      assert.equal(await locatedId(s, { selector: ".twin" }), "light-twin");
      assert.equal(await locatedId(s, { selector: "button[data-stars='2']" }), "star-2");
      assert.equal(await locatedId(s, { selector: "button.deep" }), "deep", "a shadow root inside a shadow root");
      assert.equal(await locatedId(s, { selector: "#in-frame" }), "in-frame");
      assert.equal(await locatedId(s, { selector: "#in-inner" }), "in-inner", "a frame inside a frame");
    });

    await step("`>>>` crosses into a host's shadow root or a frame's document, at any depth", async (s) => {
      assert.equal(await locatedId(s, { selector: "#stars >>> .twin" }), "shadow-twin");
      assert.equal(await locatedId(s, { selector: "x-stars >>> button[aria-label='3 stars']" }), "star-3");
      assert.equal(await locatedId(s, { selector: "#stars >>> x-inner >>> #deep" }), "deep");
      assert.equal(await locatedId(s, { selector: "#stars >>> #deep" }), "deep", "deep descendant, as puppeteer's");
      assert.equal(await locatedId(s, { selector: "#panel >>> #inner >>> button" }), "in-inner");
      assert.equal(await locatedId(s, { selector: "#panel >>> button" }), "in-frame");
      assert.equal(await locatedId(s, { selector: "button[title='a >>> b']" }), "arrow", "`>>>` in quotes stays");
      assert.match((await run(s, { click: { selector: "#host >>> #in-frame" } })).error!, /matches nothing/);
      assert.match((await run(s, { click: { selector: "#panel >>>" } })).error!, /not a valid CSS selector/);
    });

    await step("clicks through the locators land on the element in its tree", async (s) => {
      for (
        const [selector, after] of [
          ["x-stars >>> button[data-stars='3']", "stars 3"],
          ["#panel >>> #in-frame", "in frame"],
          ["#in-inner", "in inner"],
        ]
      ) {
        const r = await run(s, { click: { selector } });
        assert.ok(r.ok, `${selector}: ${r.error}`);
        assert.equal(await status(s), after);
      }
    });

    await step(
      "an unindexed match's nearest indexed ancestor is found through shadow hosts and frame elements",
      async (s) => {
        assert.equal(await locatedId(s, { selector: "#host >>> .label" }), "host");
        assert.ok((await run(s, { click: { selector: "#host-label" } })).ok);
        assert.equal(await status(s), "host");
        assert.equal(await locatedId(s, { selector: "#frame-note" }), "frame-card", "and through its frame element");
      },
    );

    await step("a text locator reveals an element of a shadow root below the viewport", async (s) => {
      const before = await s.captureState({ screenshot: false });
      assert.ok(!before.snapshot.elements.some((e) => e.attributes.id === "far-button"), "not indexed before");
      const r = await run(s, { click: { text: "Far in the shadow" } });
      assert.ok(r.ok, r.error);
      assert.equal(await status(s), "far");
    });

    await step("a selector in a shadow root below the viewport scrolls it into view and re-indexes", async (s) => {
      const r = await run(s, { click: { selector: "x-far >>> button" } });
      assert.ok(r.ok, r.error);
      assert.equal(await status(s), "far");
    });

    await step("drag ends given by selectors in a frame are pressed at their points in the top window", async (s) => {
      const r = await run(s, { drag: { source: { selector: "#panel >>> #src" }, target: { selector: "#dst" } } });
      assert.ok(r.ok, r.error);
      assert.equal(await status(s), "dragged src to dst");
    });

    await step(
      "drag ends too far apart for the mouse get the HTML5 drag events, through frames and shadow roots",
      async (s) => {
        const r = await run(s, {
          drag: { source: { selector: "#ticket" }, target: { selector: "x-far >>> #far-drop" } },
        });
        assert.ok(r.ok, r.error);
        assert.equal(await status(s), "dropped ticket");
      },
    );
  } finally {
    await browser.close();
  }
});
