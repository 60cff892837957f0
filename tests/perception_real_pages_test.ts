/**
 * Perception of pages written the way the web is (lib/dom/testdata/real_pages.ts), served over HTTP to a real
 * EpisodeSession: each control is indexed and shows what the model needs, and acting on it through the executor
 * (lib/agent's executeAction) runs the page's own handler.
 */
import assert from "node:assert/strict";
import { executeAction } from "../lib/agent/mod.ts";
import { type BrowserState, ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import { type DomElement, snapshotPage } from "../lib/dom/mod.ts";
import { LISTENER_GLOBAL } from "../lib/dom/listeners.ts";
import { REAL_PAGES } from "../lib/dom/testdata/real_pages.ts";
import { servePages } from "../lib/dom/testdata/serve.ts";
import { inEpisode, until } from "./browser_fixture.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** The element whose text (or id) is `name`; fails with the element list when there is none. */
function find(state: BrowserState, name: string): DomElement {
  const el = state.snapshot.elements.find((e) => e.text === name || e.attributes.id === name);
  assert.ok(el, `"${name}" is not indexed:\n${state.elementsText}`);
  return el;
}

/** The page's #log (of the frame whose URL ends with `frame`, when given). */
async function log(s: EpisodeSession, frame?: string): Promise<string> {
  const page = s.tab().page;
  const target = frame ? page.frames().find((f) => f.url().endsWith(frame)) : page.mainFrame();
  assert.ok(target, `no frame ${frame}`);
  return await target.$eval("#log", (e) => e.textContent ?? "");
}

/** Runs `action` through the executor on a fresh capture; asserts it succeeded and the page logged `expected`. */
async function act(s: EpisodeSession, action: (state: BrowserState) => unknown, expected: string, frame?: string) {
  const state = await s.captureState({ screenshot: false });
  const r = await executeAction(s, action(state), { base: "", state });
  assert.ok(r.ok, `${JSON.stringify(action(state))}: ${r.error}\n${state.elementsText}`);
  const got = await until(async () => (await log(s, frame)) === expected).then(() => log(s, frame));
  assert.equal(got, expected, `after ${JSON.stringify(action(state))}`);
}

const click = (name: string) => (state: BrowserState) => ({ click: { index: find(state, name).index } });

Deno.test({ name: "perception of real pages through the executor", ...opts }, async (t) => {
  await using server = servePages(REAL_PAGES);
  const base = server.base;
  await using browser = await ChromiumBrowser.launch();
  /** A step in a fresh episode on `path`. */
  const onPage = (name: string, path: string, fn: (s: EpisodeSession, state: BrowserState) => Promise<void>) =>
    t.step(name, () =>
      inEpisode(browser, base, async (s) => {
        await s.goto(base + path);
        await fn(s, await s.captureState({ screenshot: false }));
      }));

  await onPage(
    "script-bound spans, div rows, list items, anchors without href and a div Submit",
    "/mail",
    async (s, st) => {
      assert.deepEqual(st.snapshot.elements.map((e) => `${e.tag}:${e.text}`), [
        "span:Refresh",
        "span:Compose",
        "div:Alice Martin Lunch on Friday?",
        "div:Bob Stone Quarterly report",
        "div:Carol White Flight details",
        "li:Item 1",
        "li:Item 2",
        "li:Item 3",
        "a:Prev",
        "a:Next",
        "a:Bob Smith",
        "a:Eve Adams",
        "div:", // three icon spans: one control, not a list of three
        "input:",
        "div:Submit",
      ]); // not: "Signed in as jane", the anchor without a handler, #inbox, #app (a delegation root)
      assert.match(st.visibleText, /^Alice Martin Lunch on Friday\?$/m);
      await act(s, click("Compose"), "link compose");
      await act(s, click("Bob Stone Quarterly report"), "open email 2");
      await act(s, click("Item 3"), "grab Item 3");
      await act(s, click("Next"), "next");
      assert.match((await s.captureState({ screenshot: false })).visibleText, /^Prev February 2011 Next$/m);
      await act(s, click("Eve Adams"), "mail eve@example.com");
      await act(s, click("stars"), "starred");
      await act(
        s,
        (state) => ({ input: { index: find(state, "subject").index, text: "Re: lunch" } }),
        "starred", // typing runs no click handler
      );
      await act(s, click("Submit"), "submitted Re: lunch");
    },
  );

  await onPage(
    "visible controls under aria-hidden; not invisible or inert ones; a covered centre",
    "/aria",
    async (s, st) => {
      assert.deepEqual(st.snapshot.elements.map((e) => e.attributes.id), ["save", "archive", "wide"]);
      await act(s, click("Save draft"), "saved");
      await act(s, click("Archive"), "archived");
      // The badge covers the button's centre: the element stays, and the click lands on its visible part.
      await act(s, click("Partly covered button"), "wide clicked");
    },
  );

  await onPage("each autocomplete suggestion and menu item is its own element", "/autocomplete", async (s, st) => {
    assert.deepEqual(st.snapshot.elements.map((e) => `${e.tag}:${e.text}`), [
      "input:Country",
      "li:Canada",
      "li:Cameroon",
      "li:Cambodia",
      "li:Central African Republic",
      "div:Copy",
      "div:Paste",
      "div:Delete",
    ]);
    await act(s, click("Cambodia"), "picked Cambodia");
    assert.equal(await s.tab().page.$eval("#country", (e) => (e as HTMLInputElement).value), "Cambodia");
    await act(s, click("Paste"), "menu Paste");
  });

  await onPage("sliders show role and value", "/sliders", async (s, st) => {
    const lines = st.elementsText.split("\n");
    assert.deepEqual(lines.filter((l) => /^\[\d/.test(l)), [
      "[1]<span id=price-handle role=slider value=40% />", // position along the track
      "[2]<span id=volume-handle role=slider value=20 />", // the input beside the track
      "[3]<div id=rating role=slider value=7 />",
      "[4]<input id=range type=range value=30 />",
    ]);
    await act(s, click("price-handle"), "grab price-handle");
  });

  await onPage("side-by-side columns, and values kept exactly", "/columns", async (s, st) => {
    assert.deepEqual(st.visibleText.split("\n").slice(0, 3), [
      "Episodes done: 0 Central African Republic",
      "Right first",
      "Left second",
    ]);
    const line = st.elementsText.split("\n").find((l) => l.includes("id=code"))!;
    assert.equal(line, '[1]<input id=code value="  AB  12 " />');
    const read = JSON.parse(line.match(/value=(".*") \/>$/)![1]);
    await act(s, (state) => ({ input: { index: find(state, "retype").index, text: read } }), "");
    await act(s, click("Check"), "same");
  });

  await onPage("an open shadow root's controls and text", "/shadow", async (s, st) => {
    assert.deepEqual(st.snapshot.elements.map((e) => e.text), ["Shadow button", "Shadow link"]);
    assert.match(st.visibleText, /^Inside the shadow widget$/m);
    await act(s, click("Shadow button"), "shadow button");
    await act(s, click("Shadow link"), "shadow link");
  });

  await onPage("a same-origin iframe's controls, in the top viewport's coordinates", "/frame", async (s, st) => {
    assert.deepEqual(st.snapshot.elements.map((e) => e.attributes.id), ["card", "pay"]);
    assert.match(st.visibleText, /^Card details$/m);
    const frameBox = await s.tab().page.$eval("#pay-frame", (e) => e.getBoundingClientRect().toJSON());
    const pay = find(st, "pay").rect;
    const inner = await s.tab().page.frames()[1].$eval("#pay", (e) => e.getBoundingClientRect().toJSON());
    assert.equal(pay.x, Math.round(frameBox.left + 3 + inner.left));
    assert.equal(pay.y, Math.round(frameBox.top + 3 + inner.top));
    await act(s, (state) => ({ input: { index: find(state, "card").index, text: "4242" } }), "", "/frame-inner");
    await act(s, click("Pay now"), "paid 4242", "/frame-inner");
  });

  await onPage(
    "the listener record follows adds and removes, and stays out of the page's sight",
    "/listeners",
    async (s, st) => {
      assert.deepEqual(st.snapshot.elements.map((e) => e.attributes.id), ["kept", "captured", "by-property"]);
      const seen = await s.tab().page.evaluate(() => (globalThis as unknown as { seen: unknown }).seen);
      assert.deepEqual(seen, {
        globals: [],
        source: "function addEventListener() { [native code] }",
        name: "removeEventListener",
        length: 2,
      });
      assert.ok(snapshotPage.toString().includes(JSON.stringify(LISTENER_GLOBAL)), "snapshotPage reads the record");
      await act(s, click("kept"), "handled");
      await act(s, click("by-property"), "by property");
    },
  );

  await onPage(
    "icon-only controls get a name from their class, an ancestor, an image or aria-labelledby",
    "/icons",
    async (s, st) => {
      const lines = st.elementsText.split("\n").filter((l) => /^\[\d/.test(l));
      assert.deepEqual(lines, [
        "[1]<span label=star />", // class token among utility ones (btn, icon)
        "[2]<i label=trash />", // fa-trash
        "[3]<span label=Reply to sender />", // the parent's title
        "[4]<b label=Like this post />", // the parent's aria-label
        "[5]<span label=star filled />", // img src /icons/star-filled.svg
        "[6]<span label=retweet />", // CSS background-image
        "[7]<span label=more />", // <use href="#icon-more">
        "[8]<button label=trash can />", // <use href="/sprite.svg#trash-can">
        "[9]<span label=swatch red />", // the most specific class token
        "[10]<span label=Delete message />", // aria-labelledby
        "[11]<span />", // utility and hash-like classes only
        "[12]<span />", // a title shared by two controls names neither
        "[13]<span />",
      ]);
      await act(s, () => ({ click: { index: 9 } }), "red");
    },
  );

  await onPage(
    "a scroll box is indexed with what it hides; its clipped lines are not on screen",
    "/scroll-box",
    async (s, st) => {
      const panel = st.snapshot.elements[0];
      assert.equal(panel.attributes.id, "panel", st.elementsText);
      const panelLine = () => (state: BrowserState) =>
        state.elementsText.split("\n").find((l) => l.includes("id=panel"));
      assert.equal(panelLine()(st), "[1]<div id=panel scroll=0px above, 900px below />");
      assert.match(st.visibleText, /^Line 10 Open 10$/m);
      assert.doesNotMatch(st.visibleText, /Line 11\b/);
      assert.match(st.visibleText, /^After the panel$/m);
      assert.match(st.visibleText, /^Help$/m); // a fixed button inside the box escapes its clip
      const texts = st.snapshot.elements.map((e) => e.text);
      assert.deepEqual(
        texts.filter((t) => t.startsWith("Open")),
        Array.from({ length: 10 }, (_, i) => `Open ${i + 1}`),
      );
      assert.ok(texts.includes("Help"), st.elementsText);
      const r = await executeAction(s, { scroll: { index: panel.index, down: true } }, { base: "", state: st });
      assert.ok(r.ok, r.error);
      const after = await s.captureState({ screenshot: false });
      assert.equal(panelLine()(after), "[1]<div id=panel scroll=300px above, 600px below />");
      assert.match(after.visibleText, /^Line 11 Open 11$/m);
      assert.match(after.visibleText, /^Line 20 Open 20$/m);
      assert.doesNotMatch(after.visibleText, /Line (10|21)\b/);
      await act(s, click("Open 15"), "Open 15");
    },
  );

  await onPage(
    "long field values are shown up to 1,000 characters and say where they were cut",
    "/long-values",
    async (s, st) => {
      const [terms, code] = await s.tab().page.evaluate(() =>
        ["terms", "code"].map((id) => (document.getElementById(id) as HTMLInputElement).value)
      );
      assert.equal(terms.length, 2400);
      assert.equal(code.length, 1200);
      const lines = st.elementsText.split("\n");
      assert.ok(
        lines.includes(
          `[1]<textarea id=terms value=${JSON.stringify(terms.slice(0, 1000))} (cut: 1000 of 2400 chars) />`,
        ),
        st.elementsText,
      );
      assert.ok(
        lines.includes(`[2]<input id=code value=${JSON.stringify(code.slice(0, 1000))} (cut: 1000 of 1200 chars) />`),
        st.elementsText,
      );
      assert.match(st.visibleText, /^Clause 01: the tenant keeps it tidy\.\.\.\.$/m); // the textarea's text
      assert.match(st.visibleText, /^Clause 25: the tenant keeps it tidy\.\.\.\.$/m);
    },
  );

  await onPage(
    "a long textarea shows the text at its scroll position, and says where",
    "/long-values",
    async (s, st) => {
      const terms = find(st, "terms");
      const r = await executeAction(s, { scroll: { index: terms.index, down: true, pages: 4 } }, {
        base: "",
        state: st,
      });
      assert.ok(r.ok, r.error);
      const top = await s.tab().page.$eval("#terms", (e) => e.scrollTop);
      assert.ok(top > 0, "the textarea scrolled");
      const after = await s.captureState({ screenshot: false });
      const el = find(after, "terms");
      // The first line the field shows is the first of the value's part: rows of 40 characters, one line each.
      const lineHeight = await s.tab().page.$eval("#terms", (e) => e.scrollHeight / 60);
      const firstShown = Math.round(top / lineHeight) + 1;
      const start = el.valueStart ?? 0;
      assert.ok(
        Math.abs(start / 40 + 1 - firstShown) <= 1,
        `the part starts at line ${start / 40 + 1}, shown ${firstShown}`,
      );
      assert.match(el.attributes.value!, new RegExp(`^Clause ${String(start / 40 + 1).padStart(2, "0")}: `));
      const line = after.elementsText.split("\n").find((l) => l.includes("id=terms"))!;
      assert.match(
        line,
        new RegExp(`\\(cut: chars ${start + 1}-${start + 1000} of 2400, where the field is scrolled\\)`),
      );
      assert.match(after.visibleText, new RegExp(`^…Clause ${String(start / 40 + 1).padStart(2, "0")}: `, "m"));
      assert.doesNotMatch(after.visibleText, /^Clause 01:/m, "the lines scrolled past are not shown");
      // Scrolled to the end: the last 1,000 characters, whole lines.
      await s.tab().page.$eval("#terms", (e) => e.scrollTop = e.scrollHeight);
      const end = find(await s.captureState({ screenshot: false }), "terms");
      assert.equal(end.valueStart, 1400);
      assert.match(end.attributes.value!, /^Clause 36: [^]*Clause 60: the tenant keeps it tidy\.+\n$/);
    },
  );

  await onPage("images that are not controls show their alt or title in the text", "/diets", (_s, st) => {
    assert.match(st.visibleText, /^Lentil soup vegan$/m, st.visibleText);
    assert.match(st.visibleText, /^Chicken wrap contains gluten$/m);
    assert.match(st.visibleText, /^Rice bowl vegan$/m, "a title stands in for a missing alt; an empty alt is none");
    assert.equal(find(st, "soup-link").text, "Soup of the day");
    return Promise.resolve();
  });

  await onPage("colour swatches are named by their colour", "/swatches", async (s, st) => {
    assert.deepEqual(st.snapshot.elements.map((e) => e.attributes.label ?? `(${e.text})`), [
      "red (#e60000)",
      "orange (#ff9900)",
      "yellow (#ffff00)",
      "dark green (#008a00)",
      "blue (#0066cc)",
      "pink (#ffc0cb)",
      "purple (#800080)",
      "black (#000000)",
      "white (#ffffff)",
      "gray (#808080)",
      "()",
      "()",
    ], st.elementsText);
    await act(s, (state) => ({ click: { index: state.snapshot.elements[2].index } }), "#ffff00");
  });

  await onPage("a mouseup or pointerup listener makes a control", "/up-listeners", async (s, st) => {
    assert.deepEqual(st.snapshot.elements.map((e) => e.attributes.id), ["pie", "wheel", "ptr-up"]);
    await act(s, click("pie"), "pie");
    await act(s, click("wheel"), "wheel");
    await act(s, click("ptr-up"), "ptr-up");
  });

  await onPage(
    "a control showing a 6px sliver beside a popup is listed; one showing 2px is not",
    "/covered",
    async (s, st) => {
      const tags = st.snapshot.elements.map((e) => `${e.tag}:${e.text}`);
      assert.deepEqual(tags.slice(0, 3), ["button:Sliver button", "button:Close popup", "input:City"], st.elementsText);
      const sliver = st.snapshot.elements[0].rect;
      const popup = await s.tab().page.$eval("#popup", (e) => e.getBoundingClientRect().toJSON());
      assert.equal(sliver.x + sliver.width - Math.round(popup.right), 6); // what shows of it
      assert.ok(!tags.includes("button:Thin sliver"), st.elementsText);
      // The click aims where the capture found the button: its visible 6px strip, not a covered sample point.
      await act(s, click("Sliver button"), "sliver");
    },
  );

  await onPage("a listbox and a focusable list are their items, not one more index", "/covered", async (s, st) => {
    const tags = st.snapshot.elements.map((e) => `${e.tag}:${e.text}`).filter((t) => !t.includes("Street"));
    assert.deepEqual(tags.slice(-7), [
      "input:City",
      "li:Paris",
      "li:Lyon",
      "li:Nice",
      "li:Red",
      "li:Green",
      "li:Blue",
    ]);
    await act(s, click("Lyon"), "city Lyon");
    await act(s, click("Blue"), "tag Blue");
  });

  await onPage("a scrolling listbox is its options too; its first option says what the list hides", "/covered", async (
    s,
    st,
  ) => {
    const tags = st.snapshot.elements.map((e) => `${e.tag}:${e.text}`);
    assert.ok(!tags.includes("ul:"), `the listbox is not an index of its own:\n${st.elementsText}`);
    const first = st.snapshot.elements.find((e) => e.text === "Street 1")!;
    assert.match(first.attributes.scroll ?? "", /^list: 0px above, \d+px below$/, st.elementsText);
    assert.ok(!tags.includes("li:Street 12"), "an option the list clips is not on screen");
    await act(s, click("Street 2"), "street Street 2");
  });
});
