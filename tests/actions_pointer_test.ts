/**
 * Clicks and drags where a page answers the pointer as it moves (lib/dom/testdata/action_pages.ts): controls
 * re-rendered on hover, covers that appear on hover, sortable lists that place a drop by the pointer's side of an
 * item's midpoint. Through the executor on a real EpisodeSession.
 */
import assert from "node:assert/strict";
import { ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import { executeAction } from "../lib/agent/mod.ts";
import { ACTION_PAGES } from "../lib/dom/testdata/action_pages.ts";
import { servePages } from "../lib/dom/testdata/serve.ts";
import { clickElement, dropPoint } from "../lib/browser/_input.ts";
import { inEpisode, until } from "./browser_fixture.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** What the page's handlers logged (window.record). */
const record = (s: EpisodeSession) =>
  s.tab().page.evaluate(() => (window as unknown as { record: [string, string][] }).record);

Deno.test({ name: "clicks and drags on pages that answer the pointer", ...opts }, async (t) => {
  await using server = servePages(ACTION_PAGES);
  const base = server.base;
  await using browser = await ChromiumBrowser.launch();
  /** The index of the state's element that `pred` picks. */
  const indexOf = async (
    s: EpisodeSession,
    pred: (e: { tag: string; text: string; attributes: Record<string, string> }) => boolean,
  ) => {
    const state = await s.captureState({ screenshot: false });
    const el = state.snapshot.elements.find(pred);
    if (!el) throw new Error(`not indexed:\n${state.elementsText}`);
    return { index: el.index, state };
  };
  const step = (name: string, path: string, fn: (s: EpisodeSession) => Promise<void>) =>
    t.step(name, () =>
      inEpisode(browser, base, async (s) => {
        await s.goto(`${base}${path}`);
        await fn(s);
      }));

  await step("a click reaches an icon whose <img> is replaced on mouseover", "/icon-swap", async (s) => {
    const { index, state } = await indexOf(s, (e) => e.tag === "img" && e.attributes.alt === "Like");
    const r = await executeAction(s, { click: { index } }, { base, state });
    assert.ok(r.ok, r.error);
    assert.ok(await until(async () => (await record(s)).length > 0), "the bar's click handler ran");
    assert.deepEqual(await record(s), [["click", "like"]], "the coloured icon, swapped in on hover, got the click");
    // A pair of <img>s: the hover hides the grey one and shows the coloured one (at once, in the handler).
    const save = await indexOf(s, (e) => e.tag === "img" && e.attributes.alt === "Save");
    const saved = await executeAction(s, { click: { index: save.index } }, { base, state: save.state });
    assert.ok(saved.ok, saved.error);
    assert.deepEqual((await record(s)).at(-1), ["click", "save"]);
  });

  await step("a click reaches a button that renders itself anew on mouseenter", "/hover-render", async (s) => {
    const { index, state } = await indexOf(s, (e) => e.tag === "button" && e.text === "Add to cart");
    const r = await executeAction(s, { click: { index } }, { base, state });
    assert.ok(r.ok, r.error);
    assert.ok(await until(async () => (await record(s)).length > 0), "a click handler ran");
    assert.deepEqual(await record(s), [["cart", "L-24"]], "the rendered button's handler, not the page's");
    // The model reads what happened: the result names the element that took the clicked one's place.
    assert.match(r.extracted ?? "", /^Clicked .*\(element \d+ was swapped under the mouse; clicked the one that took/);
  });

  await step("a click says which element it clicked instead, or where it clicked", "/hover-render", async (s) => {
    const notes: string[] = [];
    const { index } = await indexOf(s, (e) => e.tag === "button" && e.text === "Add to cart");
    await clickElement(s.tab(), index, (n) => notes.push(n));
    assert.deepEqual(notes, [
      `element ${index} was swapped under the mouse; clicked the one that took its place, <button.add.live> "Add to cart"`,
    ]);
    assert.deepEqual(await record(s), [["cart", "L-24"]]);
    await s.goto(`${base}/hover-cover`);
    const pic = await indexOf(s, (e) => e.tag === "a" && e.text === "Desk lamp");
    await clickElement(s.tab(), pic.index, (n) => notes.push(n));
    assert.match(notes[1], /^element \d+ moved or was covered under the mouse; clicked it at \(\d+, \d+\)$/);
    const [x, y] = notes[1].match(/\((\d+), (\d+)\)/)!.slice(1).map(Number);
    const qv = await s.tab().page.$eval(".qv", (e) => e.getBoundingClientRect().toJSON());
    assert.ok(y < qv.top || y > qv.bottom || x < qv.left || x > qv.right, `(${x}, ${y}) is off the Quick view bar`);
    assert.deepEqual(await record(s), [["open", "#lamp"]]);
  });

  await step("a click moves to a visible part when a hover bar covers the point", "/hover-cover", async (s) => {
    const { index, state } = await indexOf(s, (e) => e.tag === "a" && e.text === "Desk lamp");
    const r = await executeAction(s, { click: { index } }, { base, state });
    assert.ok(r.ok, r.error);
    assert.deepEqual(await record(s), [["open", "#lamp"]], "the picture's link, not the Quick view bar");
  });

  await step("a click on a control that turns into another on hover says what is there", "/hover-cover", async (s) => {
    const { index, state } = await indexOf(s, (e) => e.tag === "button" && e.text === "Add to cart");
    const r = await executeAction(s, { click: { index } }, { base, state });
    assert.equal(r.ok, false, "nothing was clicked");
    assert.match(
      r.error!,
      /^click: element \d+ was replaced when the mouse moved onto it: at \(\d+, \d+\) there is now <span\.qty> "1 in cart", not the same control; nothing was clicked$/,
    );
    assert.deepEqual(await record(s), []);
  });

  await step("a click reaches an icon whose :hover rule swaps in an image that loads late", "/hover-css", async (s) => {
    // The pointer starts off the icon (a page of an earlier step may have left it on the icon's spot).
    await s.tab().page.mouse.move(600, 600);
    await until(async () => (await s.tab().page.$eval(".star", (e) => e.getBoundingClientRect().width)) > 0);
    const { index, state } = await indexOf(s, (e) => e.tag === "img" && e.attributes.alt === "Star");
    const r = await executeAction(s, { click: { index } }, { base, state });
    assert.ok(r.ok, r.error);
    assert.ok(await until(async () => (await record(s)).length > 0), "the icon's click handler ran");
    assert.deepEqual(await record(s), [["click", "star"]]);
    // Again, the mouse still on the icon (its hover image loaded now): a second click on a fresh capture.
    const again = await indexOf(s, (e) => e.tag === "img" && e.attributes.alt === "Star");
    const r2 = await executeAction(s, { click: { index: again.index } }, { base, state: again.state });
    assert.ok(r2.ok, r2.error);
    assert.ok(await until(async () => (await record(s)).length > 1), "the second click landed too");
  });

  await step("a drop into a bin keeps the dragged card inside it", "/drop-bins", async (s) => {
    for (const bin of ["near", "big"]) {
      const { index, state } = await indexOf(s, (e) => e.text === "Task");
      const before = (await record(s)).length;
      const r = await executeAction(s, { drag: { source_index: index, target: { selector: `#${bin}` } } }, {
        base,
        state,
      });
      assert.ok(r.ok, r.error);
      assert.ok(await until(async () => (await record(s)).length > before), "the page logged the drop");
      assert.deepEqual((await record(s)).at(-1), ["drop", bin], `the card lies wholly inside #${bin}`);
    }
  });

  await step(
    "a drag from a slot under an event starts on its visible sliver, or is refused",
    "/calendar",
    async (s) => {
      const { state } = await indexOf(s, (e) => e.text === "9:00");
      const slot = (t: string) => state.snapshot.elements.find((e) => e.text === t)!.index;
      const r = await executeAction(s, { drag: { source_index: slot("9:00"), target_index: slot("12:00") } }, {
        base,
        state,
      });
      assert.ok(r.ok, r.error);
      assert.ok(await until(async () => (await record(s)).length > 0), "the slot's drop handler ran");
      assert.deepEqual(await record(s), [["move", "9:00 12:00"]], "dragged from the 9:00 slot, not the event over it");
      // 11:00 lies wholly under the Review event: the capture leaves it out, and a drag from it by selector says why.
      assert.equal(state.snapshot.elements.find((e) => e.text === "11:00"), undefined, state.elementsText);
      const covered = await executeAction(s, {
        drag: { source: { selector: ".slot[data-t='11:00']" }, target_index: slot("12:00") },
      }, { base, state });
      assert.equal(covered.ok, false, "nothing was dragged");
      assert.match(covered.error!, /covered by <div#review\.event> "Review"/);
      assert.equal((await record(s)).length, 1, "no second drop");
    },
  );

  await step(
    "a drag from a day whose event block covers it starts on the day's own strip",
    "/month-pick",
    async (s) => {
      const { state } = await indexOf(s, (e) => e.text === "16");
      const day = (t: string) => state.snapshot.elements.find((e) => e.text === t)!.index;
      const r = await executeAction(s, { drag: { source_index: day("16"), target_index: day("18") } }, { base, state });
      assert.ok(r.ok, r.error);
      assert.ok(await until(async () => (await record(s)).length > 0), "the grid logged the pick");
      assert.deepEqual(await record(s), [["pick", "16 18"]], "pressed on 16's strip, not on the event inside it");
      // A click on the day also lands on its own part; one on the event opens it.
      await executeAction(s, { click: { index: day("11:00 Launch") } }, { base, state });
      assert.ok(await until(async () => (await record(s)).length > 1));
      assert.deepEqual((await record(s)).at(-1), ["open", "launch"]);
    },
  );

  /** Drags the item with text `from` onto the one with text `to` (by index), then returns the list's logged order. */
  const sort = async (s: EpisodeSession, list: string, from: string, to: string) => {
    const state = await s.captureState({ screenshot: false });
    const find = (text: string) => {
      const el = state.snapshot.elements.find((e) => e.text === text);
      if (!el) throw new Error(`${text} is not indexed:\n${state.elementsText}`);
      return el.index;
    };
    const before = (await record(s)).length;
    const r = await executeAction(s, { drag: { source_index: find(from), target_index: find(to) } }, { base, state });
    assert.ok(r.ok, r.error);
    assert.ok(await until(async () => (await record(s)).length > before), `the ${list} list logged a drop`);
    const [kind, order] = (await record(s)).at(-1)!;
    assert.equal(kind, list);
    return order;
  };

  for (const [list, name] of [["v", "V"], ["h", "H"], ["d", "D"]] as const) {
    const how = { v: "vertical, mouse events", h: "horizontal, pointer events", d: "HTML5 drag and drop" }[list];
    await step(`a drag onto a sortable item moves it by one (${how})`, "/sortable", async (s) => {
      assert.equal(
        await sort(s, list, `${name}2`, `${name}3`),
        `${name}1,${name}3,${name}2,${name}4`,
        "the 2nd onto the 3rd: after it",
      );
      assert.equal(
        await sort(s, list, `${name}2`, `${name}3`),
        `${name}1,${name}2,${name}3,${name}4`,
        "the 3rd onto the 2nd: before it",
      );
      assert.equal(
        await sort(s, list, `${name}3`, `${name}2`),
        `${name}1,${name}3,${name}2,${name}4`,
        "the 3rd onto the 2nd again",
      );
    });
  }
});

Deno.test("dropPoint() drops past the target's midpoint in the direction of travel, or where the dragged box fits", () => {
  const viewport = { width: 1280, height: 720 };
  const item = { left: 100, top: 200, width: 200, height: 40 }; // centre (200, 220)
  assert.deepEqual(dropPoint({ x: 200, y: 176 }, item, viewport), { x: 200, y: 230 }, "down onto it: its lower part");
  assert.deepEqual(dropPoint({ x: 200, y: 264 }, item, viewport), { x: 200, y: 210 }, "up onto it: its upper part");
  assert.deepEqual(dropPoint({ x: 0, y: 220 }, item, viewport), { x: 250, y: 220 }, "rightwards: its right part");
  assert.deepEqual(dropPoint({ x: 210, y: 225 }, item, viewport), { x: 200, y: 220 }, "from inside it: the centre");
  assert.deepEqual(dropPoint({ x: 900, y: 600 }, item, viewport), { x: 150, y: 210 }, "from below right: both axes");
  const column = { left: 1000, top: 100, width: 300, height: 900 }; // wider and taller than the viewport's part
  const p = dropPoint({ x: 500, y: 150 }, column, viewport);
  assert.deepEqual(p, { x: 1225, y: 550 }, "a zone: inside its box");
  assert.deepEqual(dropPoint({ x: 500, y: 150 }, { ...column, left: 1100 }, viewport).x, 1279, "kept in view");
  // Into an element with room for the dragged box (90x60, grabbed at its centre): it stays wholly inside.
  const card = { left: 20, top: 60, width: 90, height: 60 };
  const near = { left: 300, top: 40, width: 153, height: 102 }; // 1.7 times: past the midpoint, as far as it fits
  assert.deepEqual(dropPoint({ x: 65, y: 90 }, near, viewport, card), { x: 407, y: 91 });
  const big = { left: 600, top: 40, width: 360, height: 240 }; // 4 times: centred
  assert.deepEqual(dropPoint({ x: 65, y: 90 }, big, viewport, card), { x: 780, y: 160 });
  // Grabbed near its left edge (10 px in): the box's left edge lands 10 px left of the pointer, still inside.
  assert.deepEqual(dropPoint({ x: 30, y: 90 }, big, viewport, card).x, 745);
  // Alike in size (a sortable item): a quarter past the midpoint, as without a dragged box.
  assert.deepEqual(dropPoint({ x: 200, y: 176 }, item, viewport, { ...item, top: 150 }), { x: 200, y: 230 });
});
