import assert from "node:assert/strict";
import { type BrowserState, ChromiumBrowser, type EpisodeSession } from "../browser/mod.ts";
import { HarnessError } from "../errors/mod.ts";
import { episodeOptions, inEpisode, startTestSite, until } from "../../tests/browser_fixture.ts";
import { FakeSession } from "../../tests/support/fake_session.ts";
import { type ActionContext, executeAction, resolveUrl, toViewport } from "./actions.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** The index of the element with this id in the state. */
function idx(state: BrowserState, id: string): number {
  const el = state.snapshot.elements.find((e) => e.attributes.id === id);
  if (!el) throw new Error(`#${id} is not indexed:\n${state.elementsText}`);
  return el.index;
}

const text = (s: EpisodeSession, sel: string) => s.tab().page.$eval(sel, (e) => e.textContent ?? "");
const value = (s: EpisodeSession, sel: string) => s.tab().page.$eval(sel, (e) => (e as HTMLInputElement).value);

Deno.test("executeAction() turns an action that does not parse into an error result", async () => {
  const session = new FakeSession({}, "/"); // never reached: a parse error or done/macro_done acts on no page
  const ctx = { base: "http://127.0.0.1:1", state: {} as BrowserState };
  const bad = await executeAction(session, { click: { index: -1 } }, ctx);
  assert.equal(bad.ok, false);
  assert.match(bad.error!, /click\.index/);
  assert.match((await executeAction(session, { fly: {} }, ctx)).error!, /fly/);
  assert.equal((await executeAction(session, { click: {} }, ctx)).ok, false);
  assert.deepEqual(await executeAction(session, { done: { text: "14" } }, ctx), {
    ok: true,
    extracted: "14",
    done: { text: "14", success: true },
  });
  assert.deepEqual(await executeAction(session, { macro_done: {} }, ctx), {
    ok: true,
    extracted: "Macro finished",
    macroDone: true,
  });
});

Deno.test("resolveUrl() resolves paths against the base and keeps absolute URLs", () => {
  assert.equal(resolveUrl("/shop/cart", "http://127.0.0.1:4000"), "http://127.0.0.1:4000/shop/cart");
  assert.equal(resolveUrl("http://127.0.0.1:9/x", "http://127.0.0.1:4000"), "http://127.0.0.1:9/x");
  assert.equal(resolveUrl("about:blank", "http://127.0.0.1:4000"), "about:blank");
});

Deno.test("toViewport() scales the 0-1000 grid to the viewport only when asked", () => {
  const state = { snapshot: { viewport: { width: 1280, height: 720 } } } as BrowserState;
  const session = new FakeSession({}, "/", { width: 1, height: 1 });
  assert.deepEqual(toViewport(500, 500, { base: "", state, normalizedCoords: true }, session), { x: 640, y: 360 });
  assert.deepEqual(toViewport(1000, 0, { base: "", state, normalizedCoords: true }, session), { x: 1280, y: 0 });
  assert.deepEqual(toViewport(500, 500, { base: "", state }, session), { x: 500, y: 500 });
});

Deno.test({ name: "executeAction() on Chromium", ...opts }, async (t) => {
  const site = startTestSite();
  const { base } = site;
  await using browser = await ChromiumBrowser.launch();
  /** Runs an action on a state captured just before it, as the agent loop does. */
  const run = async (s: EpisodeSession, action: unknown, extra: Partial<ActionContext> = {}) => {
    const state = await s.captureState({ screenshot: false });
    return await executeAction(s, action, { base, state, ...extra });
  };
  const step = (name: string, fn: (s: EpisodeSession) => Promise<void>) =>
    t.step(name, () =>
      inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        await fn(s);
      }));
  try {
    await step("navigate resolves a path, refuses other origins, opens new tabs", async (s) => {
      const r = await run(s, { navigate: { url: "/next" } });
      assert.deepEqual(r, { ok: true, extracted: `Opened ${base}/next; the page is now ${base}/next` });
      const off = await run(s, { navigate: { url: "http://127.0.0.2:9/" } });
      assert.equal(off.ok, false);
      assert.match(off.error!, /^navigate: cannot open "http:\/\/127\.0\.0\.2:9\/"/);
      const nt = await run(s, { navigate: { url: "/", new_tab: true } });
      assert.ok(nt.ok, nt.error);
      assert.equal((await s.tabs()).length, 2);
      assert.equal(s.currentUrl(), `${base}/`);
    });

    await step("click by index, selector, text and coordinates; no click through a cover", async (s) => {
      let state = await s.captureState({ screenshot: false });
      assert.ok((await executeAction(s, { click: { index: idx(state, "inc") } }, { base, state })).ok);
      assert.ok((await run(s, { click: { selector: "#inc" } })).ok);
      assert.ok((await run(s, { click: { text: "  ADD one " } })).ok);
      state = await s.captureState({ screenshot: false });
      const r = state.snapshot.elements[idx(state, "inc") - 1].rect;
      const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
      const grid = { coordinate_x: (cx / 1280) * 1000, coordinate_y: (cy / 720) * 1000 };
      assert.ok((await executeAction(s, { click: grid }, { base, state, normalizedCoords: true })).ok);
      assert.equal(await text(s, "#count"), "4");
      state = await s.captureState({ screenshot: false });
      await s.tab().page.$eval("#overlay", (e) => (e as HTMLElement).style.display = "block"); // covers it now
      const covered = await executeAction(s, { click: { index: idx(state, "covered") } }, { base, state });
      assert.match(covered.error!, /^click: element \d+: it is covered by <span#overlay> at \(\d+, \d+\)/);
      assert.equal(await text(s, "#status"), "idle", "the click hit the overlay, not the button under it");
      // A selector below the viewport re-indexes the page: the result names the element clicked, from the new index.
      await s.tab().page.evaluate(() => {
        document.body.insertAdjacentHTML(
          "beforeend",
          `<div style="height:3000px"></div><button id="far">Far away</button>`,
        );
        const far = document.getElementById("far")!;
        far.addEventListener("click", () => far.textContent = "far clicked");
      });
      const far = await run(s, { click: { selector: "#far" } });
      assert.ok(far.ok, far.error);
      assert.match(far.extracted!, /^Clicked element \d+ <button> "Far away"$/);
      assert.equal(await text(s, "#far"), "far clicked");
      const missing = await run(s, { click: { index: 9999 } });
      assert.deepEqual(missing, { ok: false, error: "click: there is no element with index 9999 on the page" });
      assert.match((await run(s, { click: { text: "Add on" } })).error!, /no indexed element has the text "Add on"/);
      assert.match((await run(s, { click: { selector: "#nope" } })).error!, /"#nope" matches nothing/);
      assert.match((await run(s, { click: { selector: "##" } })).error!, /not a valid CSS selector/);
    });

    await step("a locator finds an element outside the viewport (scrolled into view and indexed)", async (s) => {
      assert.ok((await run(s, { click: { selector: "#far" } })).ok);
      assert.equal(await text(s, "#status"), "far clicked");
      await s.scroll({ down: false, pages: 10 });
      assert.ok((await run(s, { click: { text: "Far away" } })).ok);
    });

    await step("a click that submits a form waits for the next page", async (s) => {
      const r = await run(s, { click: { selector: "#submit" } });
      assert.ok(r.ok, r.error);
      assert.match(r.extracted!, /the page is now .*\/next$/);
      const state = await s.captureState({ screenshot: false });
      assert.equal(state.title, "Next");
      assert.match(state.visibleText, /POST/);
      assert.ok(site.requests.includes("POST /next"));
    });

    await step("input whose newline submits the form is not a mismatch", async (s) => {
      const r = await run(s, { input: { selector: "input[name=q]", text: "typed\n" } });
      assert.ok(r.ok, r.error);
      // Read before the next page replaced it, the field shows the text without its newline.
      assert.match(
        r.extracted!,
        /^Typed "typed\\n" into element \d+ <input> "q"(; the field shows "typed")?; the page is now .*\/next$/,
      );
    });

    await step("an index from the page before a navigation is refused", async (s) => {
      const state = await s.captureState({ screenshot: false });
      await executeAction(s, { click: { selector: "#next" } }, { base, state });
      const stale = await executeAction(s, { click: { index: idx(state, "inc") } }, { base, state });
      assert.equal(stale.ok, false);
      assert.match(stale.error!, /no element index yet|no element with index/);
    });

    await step("input clears, appends, types long text and sets date inputs", async (s) => {
      assert.ok((await run(s, { input: { selector: "#name", text: "Alex Morgan" } })).ok);
      assert.equal(await value(s, "#name"), "Alex Morgan");
      assert.ok((await run(s, { input: { selector: "#name", text: " Jr", clear: false } })).ok);
      assert.equal(await value(s, "#name"), "Alex Morgan Jr");
      const long = "Please leave the parcel with the neighbour at number 12.";
      assert.ok((await run(s, { input: { selector: "#notes", text: long } })).ok);
      assert.equal(await value(s, "#notes"), long);
      assert.ok((await run(s, { input: { selector: "#when", text: "2026-03-18" } })).ok);
      assert.equal(await value(s, "#when"), "2026-03-18");
      assert.match((await run(s, { input: { selector: "#inc", text: "x" } })).error!, /not a text field/);
    });

    await step("select_dropdown by text, normalised text or value; dropdown_options lists", async (s) => {
      assert.ok((await run(s, { select_dropdown: { selector: "#color", text: "Green" } })).ok);
      assert.equal(await value(s, "#color"), "g");
      const r = await run(s, { select_dropdown: { selector: "#color", text: "yellow ochre" } });
      assert.match(r.extracted!, /Selected "Yellow Ochre"/);
      assert.ok((await run(s, { select_dropdown: { selector: "#color", text: "r" } })).ok);
      assert.equal(await value(s, "#color"), "r");
      assert.match((await run(s, { select_dropdown: { selector: "#color", text: "Blue" } })).error!, /disabled/);
      const miss = await run(s, { select_dropdown: { selector: "#color", text: "Purple" } });
      assert.match(miss.error!, /no option "Purple" \(options: "Red", "Green", "Blue", "Yellow Ochre"\)/);
      const list = await run(s, { dropdown_options: { selector: "#color" } });
      assert.equal(list.read, true, "shown as <read_state> next step");
      const color = idx(await s.captureState({ screenshot: false }), "color");
      assert.deepEqual(await run(s, { get_dropdown_options: { index: color } }), list, "browser-use 0.x's name");
      assert.match(list.extracted!, /0: "Red" \(selected\)\n1: "Green"\n2: "Blue" \(disabled\)/);
      assert.match((await run(s, { select_dropdown: { selector: "#name", text: "x" } })).error!, /not a <select>/);
    });

    await step("scroll moves the page or an element's container by viewports", async (s) => {
      const down = await run(s, { scroll: { down: true, pages: 1 } });
      assert.equal(down.extracted, "Scrolled the page down by 720 px");
      const up = await run(s, { scroll: { down: false, pages: 0.5 } });
      assert.equal(up.extracted, "Scrolled the page up by 360 px");
      const box = await run(s, { scroll: { selector: "#box" } });
      assert.match(box.extracted!, /^Scrolled the container of element \d+ <div> .* down by \d+ px$/);
      assert.ok(await s.tab().page.$eval("#box", (e) => e.scrollTop > 50));
    });

    await step("send_keys presses keys and shortcuts, types other text; Enter submits", async (s) => {
      assert.ok((await run(s, { input: { selector: "#keys", text: "abc" } })).ok);
      assert.ok((await run(s, { send_keys: { keys: "Control+a" } })).ok);
      assert.ok((await run(s, { send_keys: { keys: "Backspace" } })).ok);
      assert.equal(await value(s, "#keys"), "", "Control+a selected all");
      assert.match(await text(s, "#keylog"), /C-a Backspace/);
      await run(s, { clipboard_write: { text: "XY" } });
      await run(s, { input: { selector: "#keys", text: "" } });
      assert.ok((await run(s, { send_keys: { keys: "Control+v" } })).ok);
      assert.equal(await value(s, "#keys"), "XY", "Control+v pastes once");
      const hyper = await run(s, { send_keys: { keys: "Control+Hyper" } });
      assert.match(hyper.error!, /"Hyper" in "Control\+Hyper" is not a key name/);
      assert.deepEqual(await run(s, { send_keys: { keys: "ls" } }), { ok: true, extracted: 'Typed "ls"' });
      assert.equal(await value(s, "#keys"), "XYls", "a string that is no key is typed");
      await run(s, { input: { selector: "input[name=q]", text: "typed" } });
      const enter = await run(s, { send_keys: { keys: "Enter" } });
      assert.match(enter.extracted!, /the page is now .*\/next$/);
    });

    await step("go_back, switch and close", async (s) => {
      assert.deepEqual(await run(s, { go_back: {} }), { ok: false, error: "go_back: there is no previous page" });
      await run(s, { click: { selector: "#next" } });
      assert.ok((await run(s, { go_back: {} })).ok);
      assert.equal(s.currentUrl(), `${base}/`);
      await run(s, { click: { selector: "#next" } });
      await s.resetHistory(); // history now starts at /next
      assert.match((await run(s, { go_back: {} })).error!, /no previous page/);
      await s.goto(`${base}/`);
      const first = s.tabId;
      const opened = await run(s, { click: { selector: "#newtab" } });
      assert.match(opened.extracted!, /tab \w{4} opened and is now current/);
      const second = s.tabId;
      assert.ok((await run(s, { switch: { tab_id: first } })).ok);
      assert.equal(s.tabId, first);
      assert.match((await run(s, { switch: { tab_id: "nope" } })).error!, /no tab "nope"/);
      assert.ok((await run(s, { close: { tab_id: second } })).ok);
      assert.deepEqual((await s.tabs()).map((t) => t.id), [first]);
    });

    await step("upload_file, wait, clipboard_write and clipboard_read", async (s) => {
      assert.ok((await run(s, { upload_file: { selector: "#file", path: "notes.txt" } })).ok);
      assert.match(await text(s, "#status"), /^file:notes\.txt/);
      const escape = await run(s, { upload_file: { selector: "#file", path: "../deno.json" } });
      assert.equal(escape.ok, false);
      const started = performance.now();
      assert.ok((await run(s, { wait: { seconds: 0.2 } })).ok);
      assert.ok(performance.now() - started >= 200);
      assert.ok((await run(s, { clipboard_write: { text: "ORD-7" } })).ok);
      assert.deepEqual(await run(s, { clipboard_read: {} }), { ok: true, extracted: "ORD-7", read: true });
    });

    await step("drag reorders an HTML5 drag-and-drop list, by locators and by coordinates", async (s) => {
      const r = await run(s, { drag: { source: { text: "Alpha" }, target: { selector: "#c" } } });
      assert.ok(r.ok, r.error);
      assert.equal(await text(s, "#status"), "dropped a on c");
      const order = () => s.tab().page.$$eval("#list li", (l) => l.map((x) => x.id).join(""));
      assert.equal(await order(), "bca");
      const state = await s.captureState({ screenshot: false });
      const box = (id: string) => state.snapshot.elements[idx(state, id) - 1].rect;
      const [b, a] = [box("b"), box("a")];
      const byPoint = {
        source_x: b.x + b.width / 2,
        source_y: b.y + b.height / 2,
        target_x: a.x + a.width / 2,
        target_y: a.y + a.height / 2,
      };
      assert.ok((await executeAction(s, { drag: byPoint }, { base, state })).ok);
      assert.ok(await until(async () => (await order()) === "cab"), await order());
    });
  } finally {
    await browser.close();
    await site.close();
  }
});

Deno.test({ name: "executeAction() throws when the browser died", ...opts }, async () => {
  const site = startTestSite();
  const browser = await ChromiumBrowser.launch({ prewarm: false });
  const [o, cleanup] = await episodeOptions(site.base);
  try {
    const s = await browser.newEpisode(o);
    await s.goto(`${site.base}/`);
    const state = await s.captureState({ screenshot: false });
    Deno.kill(browser.pid!, "SIGKILL");
    await until(() => !browser.alive);
    await assert.rejects(
      executeAction(s, { click: { index: idx(state, "inc") } }, { base: site.base, state }),
      (e) => e instanceof HarnessError && /browser died/.test(e.message),
    );
  } finally {
    await browser.close();
    await cleanup();
    await site.close();
  }
});
