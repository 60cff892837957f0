/**
 * snapshotPage(), snapshotPageJson() and formatElements() against real Chromium: pages served by a Deno.serve fixture on port 0.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { launchBare } from "./browser_fixture.ts";
import {
  formatElements,
  indexedElement,
  type PageSnapshot,
  type SnapshotOptions,
  snapshotPage,
} from "../lib/dom/mod.ts";
import { snapshotPageJson } from "../lib/dom/snapshot.ts";
import { ESCAPED, HIDDEN, KINDS, SMALL, TALL, TEXT } from "../lib/dom/testdata/fixture_pages.ts";
import { servePages } from "../lib/dom/testdata/serve.ts";

/**
 * Clipping containers: a scroll box (lines below its bottom hidden; an absolute button placed by an ancestor
 * outside it escapes, one placed inside it does not), a 0px-high overflow: hidden box, a sideways scroll box.
 */
const CLIPS = `<!doctype html><html><head><title>Clips</title><style>
body { font: 14px sans-serif; margin: 8px; } .l { height: 50px; margin: 0; }
</style></head><body>
<div id="outer" style="position: relative; padding-top: 10px">
  <div id="k-box" style="height: 100px; overflow-y: auto; width: 300px">
    <div class="l"><button id="k-one">One</button> Shown one</div>
    <div class="l"><button id="k-two">Two</button> Shown two</div>
    <div class="l"><button id="n-three">Three</button> Hidden three</div>
    <div class="l" style="position: relative">Hidden four <button id="n-abs-in"
      style="position: absolute; left: 150px; top: 10px">Clipped absolute</button></div>
    <button id="k-abs" style="position: absolute; left: 400px; top: 0">Escaped absolute</button>
  </div>
</div>
<div style="height: 0; overflow: hidden"><button id="n-collapsed">Collapsed</button> Collapsed text</div>
<div id="k-wide" style="width: 200px; overflow-x: auto; white-space: nowrap"><span>Wide start</span><span
  style="margin-left: 400px">Wide end</span></div>
</body></html>`;

const PAGES: Record<string, string> = {
  "/clips": CLIPS,
  "/kinds": KINDS,
  "/hidden": HIDDEN,
  "/text": TEXT,
  "/small": SMALL,
  "/tall": TALL,
  "/escaped": ESCAPED,
};

const snap = (page: Page, opts: SnapshotOptions = {}): Promise<PageSnapshot> => page.evaluate(snapshotPage, opts);
const ids = (s: PageSnapshot) => s.elements.map((e) => e.attributes.id ?? `<${e.tag}>`);
const byId = (s: PageSnapshot, id: string) => s.elements.find((e) => e.attributes.id === id);

Deno.test({
  name: "snapshotPage() in Chromium",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await using server = servePages(PAGES);
    const base = server.base;
    await using browser = await launchBare();
    const page = await browser.newPage();
    page.on("dialog", (d) => void d.dismiss());
    await page.setViewport({ width: 1280, height: 720 });

    /** A step on a freshly loaded page; dumps the page's HTML when it fails. */
    const step = (name: string, path: string, body: () => Promise<void>) =>
      t.step(name, async () => {
        await page.goto(base + path);
        try {
          await body();
        } catch (err) {
          console.error(`page ${path} when "${name}" failed:\n${await page.content()}`);
          throw err;
        }
      });

    await step("indexes each interactive kind and none of the near misses", "/kinds", async () => {
      const s = await snap(page);
      const got = ids(s);
      const expected = [...KINDS.matchAll(/id="(k-[a-z-]+)"/g)].map((m) => m[1]);
      assert.deepEqual(got, expected);
      assert.deepEqual(s.elements.map((e) => e.index), expected.map((_, i) => i + 1));
      assert.equal(byId(s, "k-link")?.attributes.href, "/home?x=1#top");
      assert.equal(byId(s, "k-external")?.attributes.href, "https://example.org/a?b=1");
      assert.equal(byId(s, "k-check")?.attributes.checked, "true");
      assert.equal(byId(s, "k-radio")?.attributes.checked, "false");
      assert.equal(byId(s, "k-role-checkbox")?.attributes.checked, "true");
      assert.equal(byId(s, "k-role-slider")?.attributes.value, "30");
      assert.equal(byId(s, "k-area")?.attributes.value, "Some text");
      assert.equal(byId(s, "k-area")?.text, "");
      assert.equal(byId(s, "k-text")?.text, "Label of a visible input");
      assert.equal(byId(s, "k-disabled")?.attributes.disabled, "true");
      assert.equal(byId(s, "k-button")?.attributes.disabled, undefined);
      assert.equal(byId(s, "k-password")?.attributes.value, undefined);
      assert.equal(byId(s, "k-edit")?.attributes.contenteditable, "true");
      assert.equal(byId(s, "k-drag")?.attributes.draggable, "true");
      assert.equal(byId(s, "k-label")?.attributes.for, "n-styled");
      assert.equal(byId(s, "k-role-combobox")?.attributes["aria-expanded"], "false");
      assert.equal(byId(s, "k-button")?.text, "Press");
      assert.ok(s.elements.every((e) => e.inViewport && e.rect.width > 0 && e.rect.height > 0));
      assert.equal(s.title, "Kinds");
      assert.equal(s.url, base + "/kinds");
    });

    await step("window.__webmixIndex[i] is the element of index i", "/kinds", async () => {
      /** indexedElement(i, true) in the page: its reason, or whether the element is still in the page. */
      const raw = (i: number) =>
        page.evaluate(`(() => { const e = (${indexedElement})(${i}, true);
          return typeof e === "string" ? e : { connected: e.isConnected }; })()`);
      assert.equal(await raw(1), "unindexed");
      const s = await snap(page);
      const indexIds = await page.evaluate(() =>
        (globalThis as unknown as { __webmixIndex: (Element | null)[] }).__webmixIndex.map((e) => e?.id ?? null)
      );
      assert.deepEqual(indexIds, [null, ...ids(s)]);
      const third = await page.evaluateHandle(indexedElement, 3);
      assert.equal(await page.evaluate((e: Element | null) => e?.id, third), s.elements[2].attributes.id);
      assert.equal(await page.evaluate(indexedElement, 0), null);
      assert.equal(await page.evaluate(indexedElement, s.elements.length + 1), null);
      await page.evaluate(() => document.getElementById("k-button")!.remove());
      const removedAt = s.elements.findIndex((e) => e.attributes.id === "k-button") + 1;
      assert.equal(await page.evaluate(indexedElement, removedAt), null);
      assert.deepEqual(await raw(removedAt), { connected: false });
      assert.deepEqual(await raw(removedAt === 1 ? 2 : 1), { connected: true });
      assert.equal(await raw(0), "absent");
      assert.equal(await raw(s.elements.length + 1), "absent");
    });

    await step("snapshotPageJson() returns the same snapshot as JSON text", "/kinds", async () => {
      const object = await snap(page, { viewportExpansion: -1 });
      const text = await page.evaluate(snapshotPageJson, { viewportExpansion: -1 });
      assert.equal(typeof text, "string");
      const parsed: PageSnapshot = JSON.parse(text);
      assert.deepEqual({ ...parsed, captureMs: 0 }, { ...object, captureMs: 0 });
      assert.deepEqual(ids(JSON.parse(await page.evaluate(snapshotPageJson))), ids(object));
    });

    await step("skips hidden, covered and off-screen elements", "/hidden", async () => {
      // aria-hidden hides from screen readers, not from sight: a visible button under it is indexed.
      assert.deepEqual(ids(await snap(page)), ["k-ok", "k-aria", "k-corner", "k-through"]);
      assert.deepEqual(ids(await snap(page, { viewportExpansion: 100 })), ["k-ok", "k-aria", "k-corner", "k-through"]);
      const whole = await snap(page, { viewportExpansion: -1 });
      assert.deepEqual(ids(whole), ["k-ok", "k-aria", "k-corner", "k-through", "k-below"]);
      assert.equal(byId(whole, "k-below")?.inViewport, false);
      assert.deepEqual(ids(await snap(page, { viewportExpansion: 5000 })), ids(whole));
      await page.evaluate(() => globalThis.scrollTo(0, document.body.scrollHeight));
      const scrolled = await snap(page);
      assert.deepEqual(ids(scrolled), ["k-below"]);
      assert.ok(scrolled.pixelsAbove > 2000 && scrolled.pixelsBelow === 0, JSON.stringify(scrolled));
    });

    await step("finds controls placed outside their off-screen ancestors' boxes", "/escaped", async () => {
      const s = await snap(page);
      assert.deepEqual(ids(s), ["k-fixed", "k-abs"]);
      assert.equal(s.visibleText, "Top text\nBack to top\nPulled up");
      const whole = await snap(page, { viewportExpansion: -1 });
      assert.deepEqual(ids(whole), ["k-fixed", "k-abs", "n-below"]);
      assert.equal(byId(whole, "n-below")?.inViewport, false);
    });

    await step("a very deep DOM is walked to a bound, without failing", "/small", async () => {
      await page.evaluate(() => {
        let at: Element = document.body;
        for (let i = 0; i < 1500; i++) {
          const d = document.createElement("div");
          at.append(d);
          at = d;
          if (i === 600) at.insertAdjacentHTML("beforeend", '<button id="k-deep">Deep</button>');
        }
        at.insertAdjacentHTML("beforeend", '<button id="n-deepest">Deepest</button>');
      });
      const s = await snap(page);
      assert.ok(byId(s, "k-deep"), ids(s).join(" "));
      assert.equal(byId(s, "n-deepest"), undefined);
    });

    await step("marks elements new across snapshots of one document only", "/kinds", async () => {
      assert.ok((await snap(page)).elements.every((e) => !e.isNew));
      await page.evaluate(() => {
        const b = document.createElement("button");
        b.id = "added";
        b.textContent = "Added";
        document.body.prepend(b);
      });
      const second = await snap(page);
      assert.deepEqual(second.elements.filter((e) => e.isNew).map((e) => e.attributes.id), ["added"]);
      assert.equal(second.elements[0].attributes.id, "added");
      assert.ok((await snap(page)).elements.every((e) => !e.isNew), "unchanged page: nothing new");
      await page.evaluate(() => document.getElementById("k-link")!.replaceWith(document.createElement("button")));
      assert.deepEqual((await snap(page)).elements.filter((e) => e.isNew).map((e) => e.tag), ["button"]);
      await page.goto(base + "/kinds");
      assert.ok((await snap(page)).elements.every((e) => !e.isNew), "new document: nothing new");
      await page.setContent(SMALL);
      assert.ok((await snap(page)).elements.every((e) => !e.isNew), "document.open(): nothing new");
    });

    await step("lists a select's options and its selected text", "/kinds", async () => {
      await page.evaluate(() => {
        const s = document.getElementById("k-select") as HTMLSelectElement;
        s.innerHTML = "<option>Apple</option><option>Banana</option><optgroup label=g><option>Cherry \n pie</option>";
        s.selectedIndex = 1;
      });
      const sel = byId(await snap(page), "k-select")!;
      assert.deepEqual(sel.options, ["Apple", "Banana", "Cherry pie"]);
      assert.equal(sel.optionCount, 3);
      assert.equal(sel.attributes.value, "Banana");
      await page.select("#k-select", "Cherry pie");
      const capped = byId(await snap(page, { maxOptions: 2 }), "k-select")!;
      assert.deepEqual(capped.options, ["Apple", "Banana"]);
      assert.equal(capped.optionCount, 3);
      assert.equal(capped.attributes.value, "Cherry pie");
    });

    await step("visibleText holds the viewport's text only, line by line", "/text", async () => {
      const top = await snap(page);
      assert.equal(top.visibleText, "Top heading\nFirst bold, then more.\nCell A Cell B");
      await page.evaluate(() => document.getElementById("far")!.scrollIntoView());
      const far = await snap(page);
      assert.match(far.visibleText, /^Far below text$/m);
      assert.doesNotMatch(far.visibleText, /Top heading/);
      assert.equal((await snap(page, { maxVisibleTextLength: 3 })).visibleText, "Far");
    });

    await step("formatElements() prints browser-use's layout", "/small", async () => {
      assert.equal(
        formatElements(await snap(page)),
        [
          "[Start of page]",
          "[1]<a href=/home />",
          "\tHome",
          "[2]<input name=q placeholder=Search />",
          "[3]<button type=submit />",
          "\tGo",
          "[4]<select name=size value=M options=S|M />",
          "\tSize",
          "[5]<input name=agree type=checkbox checked=true />",
          "\tI agree",
          "[6]<div role=button aria-label=Close />",
          "\t×",
          "[End of page]",
        ].join("\n"),
      );
      await page.evaluate(() => document.querySelector("input[name=q]")!.after(document.createElement("textarea")));
      const lines = formatElements(await snap(page)).split("\n");
      assert.deepEqual(lines.slice(3, 5), ["[2]<input name=q placeholder=Search />", "*[3]<textarea />"]);
    });

    await step(
      "clips what scroll and overflow boxes hide; indexes scroll boxes with what they hide",
      "/clips",
      async () => {
        const s = await snap(page);
        assert.deepEqual(ids(s), ["k-box", "k-one", "k-two", "k-abs", "k-wide"]);
        assert.equal(byId(s, "k-box")?.attributes.scroll, "0px above, 100px below");
        assert.equal(byId(s, "k-box")?.text, "");
        assert.match(byId(s, "k-wide")?.attributes.scroll ?? "", /^0px left, [1-9]\d*px right$/);
        for (const shown of ["Shown one", "Shown two", "Escaped absolute", "Wide start"]) {
          assert.match(s.visibleText, new RegExp(shown), shown);
        }
        for (const hidden of ["Hidden three", "Hidden four", "Clipped absolute", "Collapsed text", "Wide end"]) {
          assert.doesNotMatch(s.visibleText, new RegExp(hidden), hidden);
        }
        // The whole page: what a scroll of the box brings into view is indexed, as out of the viewport.
        const whole = await snap(page, { viewportExpansion: -1 });
        assert.deepEqual(ids(whole), ["k-box", "k-one", "k-two", "n-three", "n-abs-in", "k-abs", "k-wide"]);
        assert.deepEqual(whole.elements.filter((e) => !e.inViewport).map((e) => e.attributes.id), [
          "n-three",
          "n-abs-in",
        ]);
        await page.evaluate(() => document.getElementById("k-box")!.scrollTop = 100);
        const scrolled = await snap(page);
        assert.deepEqual(ids(scrolled), ["k-box", "n-three", "n-abs-in", "k-abs", "k-wide"]);
        assert.equal(byId(scrolled, "k-box")?.attributes.scroll, "100px above, 0px below");
        assert.match(scrolled.visibleText, /Hidden three/);
        assert.doesNotMatch(scrolled.visibleText, /Shown one/);
      },
    );

    await step("formatElements() marks content above and below", "/tall", async () => {
      const atTop = formatElements(await snap(page)).split("\n");
      const below = (await snap(page)).pixelsBelow;
      assert.ok(below > 1000);
      assert.deepEqual(atTop, [
        "[Start of page]",
        "[1]<button id=top />",
        "\tTop",
        `... ${below} pixels below - scroll to see more ...`,
      ]);
      await page.evaluate(() => globalThis.scrollTo(0, 500));
      const mid = await snap(page);
      assert.equal(mid.pixelsAbove, 500);
      assert.equal(mid.pixelsBelow, mid.pageHeight - 500 - 720);
      assert.deepEqual(formatElements(mid).split("\n"), [
        "... 500 pixels above - scroll to see more ...",
        "empty page",
        `... ${mid.pixelsBelow} pixels below - scroll to see more ...`,
      ]);
    });
  },
});
