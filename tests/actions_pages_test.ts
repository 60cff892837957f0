/**
 * The actions on pages written the way public pages are (lib/dom/testdata/action_pages.ts), through the executor
 * on a real EpisodeSession: what the page's handlers received, and that a failure says what happened.
 */
import assert from "node:assert/strict";
import { ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import { type ActionContext, executeAction } from "../lib/agent/mod.ts";
import { ACTION_PAGES } from "../lib/dom/testdata/action_pages.ts";
import { servePages } from "../lib/dom/testdata/serve.ts";
import { inEpisode, until } from "./browser_fixture.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** What the page's handlers logged (window.record). */
const record = (s: EpisodeSession) =>
  s.tab().page.evaluate(() => (window as unknown as { record: [string, unknown][] }).record);
const value = (s: EpisodeSession, sel: string) => s.tab().page.$eval(sel, (e) => (e as HTMLInputElement).value);
/** The centre of the first element matching `sel`, in viewport pixels. */
const centre = (s: EpisodeSession, sel: string) =>
  s.tab().page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
  });

Deno.test({ name: "actions on public-style pages", ...opts }, async (t) => {
  await using server = servePages(ACTION_PAGES);
  const base = server.base;
  await using browser = await ChromiumBrowser.launch();
  /** Runs an action on a state captured just before it, as the agent loop does. */
  const run = async (s: EpisodeSession, action: unknown, extra: Partial<ActionContext> = {}) => {
    const state = await s.captureState({ screenshot: false });
    return await executeAction(s, action, { base, state, ...extra });
  };
  const step = (name: string, path: string, fn: (s: EpisodeSession) => Promise<void>) =>
    t.step(name, () =>
      inEpisode(browser, base, async (s) => {
        await s.goto(`${base}${path}`);
        await fn(s);
      }));

  await step("input types a date as shown into a date field, and ISO text directly", "/fields", async (s) => {
    /** The day the page's change handler saw last. */
    const lastDay = async () => (await record(s)).filter(([k]) => k === "day").at(-1)?.[1];
    const shown = await run(s, { input: { selector: "#day", text: "10/11/2011" } });
    assert.ok(shown.ok, shown.error);
    assert.match(shown.extracted!, /^Typed "10\/11\/2011" into element \d+ <input>.*; the field shows "2011-10-11"$/);
    assert.equal(await value(s, "#day"), "2011-10-11");
    assert.equal(await lastDay(), "2011-10-11");
    const iso = await run(s, { input: { selector: "#day", text: "2012-02-29" } });
    assert.ok(iso.ok, iso.error);
    assert.doesNotMatch(iso.extracted!, /the field shows/);
    assert.equal(await value(s, "#day"), "2012-02-29");
    assert.equal(await lastDay(), "2012-02-29");
    const single = await run(s, { input: { selector: "#day", text: "1/5/2011" } });
    assert.ok(single.ok, single.error);
    assert.equal(await value(s, "#day"), "2011-01-05");
    assert.equal(await lastDay(), "2011-01-05");
    const bad = await run(s, { input: { selector: "#day", text: "next friday" } });
    assert.equal(bad.ok, false);
    assert.match(
      bad.error!,
      /^input: element \d+: the field holds "2011-01-05" after typing "next friday" \(a date field:/,
    );
  });

  await step("input types a time and a number, and says what a number field kept", "/fields", async (s) => {
    assert.ok((await run(s, { input: { selector: "#at", text: "9:30 PM" } })).ok);
    assert.equal(await value(s, "#at"), "21:30");
    assert.ok((await run(s, { input: { selector: "#at", text: "07:05" } })).ok);
    assert.equal(await value(s, "#at"), "07:05");
    assert.deepEqual((await record(s)).filter(([k]) => k === "at").map(([, v]) => v), ["21:30", "07:05"]);
    assert.ok((await run(s, { input: { selector: "#guests", text: "12" } })).ok);
    assert.equal(await value(s, "#guests"), "12");
    const words = await run(s, { input: { selector: "#guests", text: "four" } });
    assert.equal(words.ok, false);
    assert.match(words.error!, /the field holds "" after typing "four" \(a number field keeps only a number\)/);
    const long = await run(s, { input: { selector: "#code", text: "SPRING2026" } });
    assert.equal(long.ok, false, "maxlength cut the text");
    assert.match(long.error!, /the field holds "SPRING" after typing "SPRING2026"/);
  });

  await step("input reports a focus handler that moved the focus away (nothing typed)", "/focus-steal", async (s) => {
    const r = await run(s, { input: { selector: "#email", text: "a@b.example" } });
    assert.equal(r.ok, false);
    assert.match(
      r.error!,
      /^input: element \d+: focusing it moved the focus to <button\.close-btn> "No thanks" \(a focus handler\); nothing was typed$/,
    );
    assert.equal(await value(s, "#email"), "");
    assert.ok((await run(s, { click: { text: "No thanks" } })).ok);
    assert.ok((await run(s, { input: { selector: "#email", text: "a@b.example" } })).ok, "the popup shows once");
    assert.equal(await value(s, "#email"), "a@b.example");
  });

  await step("a click on a button under a suggestion menu says what covers it", "/overlay", async (s) => {
    // The Search button was in view when the state was captured; typing then opened the menu over it.
    const state = await s.captureState({ screenshot: false });
    const go = state.snapshot.elements.find((e) => e.attributes.id === "go")!.index;
    assert.ok((await executeAction(s, { input: { selector: "#q", text: "Par" } }, { base, state })).ok);
    const r = await executeAction(s, { click: { index: go } }, { base, state });
    assert.equal(r.ok, false);
    assert.match(
      r.error!,
      /^click: element \d+: it is covered by <li> "Par\w+" at \(\d+, \d+\) \(a click there would hit that instead\)$/,
    );
    assert.ok(!(await record(s)).some(([k]) => k === "search"), "the button got no click");
    assert.ok((await run(s, { click: { text: "Parma" } })).ok);
    assert.ok((await run(s, { click: { selector: "#go" } })).ok);
    assert.deepEqual((await record(s)).filter(([k]) => k !== "subscribe"), [["pick", "Parma"], ["search", "Parma"]]);
  });

  await step("a partly covered button is clicked on its visible part", "/overlay", async (s) => {
    const r = await run(s, { click: { selector: "#sub" } });
    assert.ok(r.ok, r.error);
    const [[kind, at]] = await record(s) as [string, string][];
    assert.equal(kind, "subscribe");
    const banner = await s.tab().page.$eval(".banner", (e) => e.getBoundingClientRect().right);
    assert.ok(Number(at.split(",")[0]) > banner, `clicked at ${at}, right of the banner (${banner})`);
  });

  await step("hover opens a menu that opens on mouseenter; its item is then clicked", "/hover-menu", async (s) => {
    const closed = await s.captureState({ screenshot: false });
    assert.doesNotMatch(closed.elementsText, /Lamps/);
    const r = await run(s, { hover: { text: "Products" } });
    assert.ok(r.ok, r.error);
    assert.match(r.extracted!, /^Moved the mouse over element \d+ <a> "Products"$/);
    const open = await s.captureState({ screenshot: false });
    assert.match(open.elementsText, /Lamps/);
    assert.ok((await run(s, { click: { text: "Lamps" } })).ok);
    assert.deepEqual(await record(s), [["menu", "open"], ["go", "Lamps"]]);
    // By coordinates, on the 0-1000 grid: away from the menu closes it.
    const about = await centre(s, ".plain a");
    const grid = { coordinate_x: about.x / 1.28, coordinate_y: about.y / 0.72 };
    assert.ok((await run(s, { hover: grid }, { normalizedCoords: true })).ok);
    assert.deepEqual((await record(s)).at(-1), ["menu", "closed"]);
  });

  await step("send_keys types text into a terminal that reads keydown, then presses Enter", "/terminal", async (s) => {
    assert.ok((await run(s, { click: { selector: "#term" } })).ok);
    const ls = await run(s, { send_keys: { keys: "ls" } });
    assert.deepEqual(ls, { ok: true, extracted: 'Typed "ls"' });
    assert.deepEqual(await run(s, { send_keys: { keys: "Enter" } }), { ok: true, extracted: "Pressed Enter" });
    assert.ok((await run(s, { send_keys: { text: "Enter" } })).ok, "text is typed whatever it is");
    assert.ok((await run(s, { send_keys: { keys: "Backspace" } })).ok);
    assert.ok((await run(s, { send_keys: { keys: "return" } })).ok);
    assert.deepEqual(await record(s), [["run", "ls"], ["run", "Ente"]]);
    const bad = await run(s, { send_keys: { keys: "Control+Hyper" } });
    assert.equal(bad.ok, false);
    assert.match(bad.error!, /"Hyper" in "Control\+Hyper" is not a key name/);
  });

  await step("scroll at a point turns the wheel over a box with no control in it", "/scroll-box", async (s) => {
    const box = await centre(s, "#log");
    const r = await run(s, { scroll: { coordinate_x: box.x, coordinate_y: box.y } });
    assert.ok(r.ok, r.error);
    assert.match(r.extracted!, /^Scrolled <div#log> at \(\d+, \d+\) down by (\d+) px$/);
    const moved = Number(r.extracted!.match(/by (\d+) px/)![1]);
    assert.ok(moved >= 150 && moved <= 200, `one box height (200 px), moved ${moved}`);
    assert.ok(await until(async () => (await record(s)).some(([k]) => k === "log")), "the box's scroll handler ran");
    assert.equal(await s.tab().page.evaluate(() => scrollY), 0, "the page stays");
    const up = await run(s, { scroll: { coordinate_x: box.x, coordinate_y: box.y, down: false, pages: 5 } });
    assert.match(up.extracted!, /up by \d+ px$/);
    const top = await run(s, { scroll: { coordinate_x: box.x, coordinate_y: box.y, down: false } });
    assert.match(top.extracted!, /: already at the top$/);
    const page = await run(s, { scroll: { coordinate_x: 900, coordinate_y: 400, pixels: 300 } });
    assert.match(page.extracted!, /^Scrolled the page at \(900, 400\) down by 300 px$/);
    const old = await run(s, { scroll_down: { amount: 100 } });
    assert.match(old.extracted!, /^Scrolled the page down by 100 px$/);
    const off = await run(s, { scroll: { coordinate_x: 5000, coordinate_y: 10 } });
    assert.match(off.error!, /outside the 1280x720 viewport/);
  });

  await step("an iframe's and a shadow root's controls are acted on at their own point", "/widgets", async (s) => {
    const frame = () => s.tab().page.frames().find((f) => f.url().endsWith("/pay-widget"));
    assert.ok(await until(async () => (await frame()?.$("#pay")) != null), "the payment iframe loaded");
    const state = await s.captureState({ screenshot: false });
    const find = (pred: (e: typeof state.snapshot.elements[number]) => boolean, what: string) => {
      const el = state.snapshot.elements.find(pred);
      if (!el) throw new Error(`${what} is not indexed:\n${state.elementsText}`);
      return el.index;
    };
    const act = (action: unknown) => executeAction(s, action, { base, state });
    const typed = await act({ input: { index: find((e) => e.attributes.name === "card", "card"), text: "4242 4242" } });
    assert.ok(typed.ok, typed.error);
    const month = await act({ input: { index: find((e) => e.attributes.name === "exp", "exp"), text: "2027-04" } });
    assert.ok(month.ok, month.error);
    const pay = await act({ click: { index: find((e) => e.text === "Pay now", "Pay now") } });
    assert.ok(pay.ok, pay.error);
    const five = await act({ click: { index: find((e) => e.text === "5 stars", "5 stars") } });
    assert.ok(five.ok, five.error);
    const got = await record(s) as [string, string][];
    assert.deepEqual(got.find(([k]) => k === "exp"), ["exp", "2027-04"]);
    const [, paid] = got.find(([k]) => k === "pay")!;
    assert.match(paid, /^4242 4242@\d+,\d+$/, "the iframe's button got the click, after the typed card");
    // In the frame's own coordinates: the top window's point less the frame's offset (300 + 6 px border, 150 + 6).
    const [px, py] = paid.split("@")[1].split(",").map(Number);
    const button = await frame()!.$eval("#pay", (e) => e.getBoundingClientRect().toJSON());
    assert.ok(px >= button.left && px <= button.right && py >= button.top && py <= button.bottom, paid);
    const [, rated] = got.find(([k]) => k === "rate")!;
    assert.match(rated, /^5@\d+,\d+$/, "the shadow root's 5-star button, not the 1-star one");
  });

  await step(
    "drag along a path draws it on a canvas: down at the first point, up at the last",
    "/canvas",
    async (s) => {
      const pad = await s.tab().page.$eval("#pad", (e) => e.getBoundingClientRect().toJSON());
      const rel = [[20, 20], [200, 40], [250, 200], [400, 250]];
      const path = rel.map(([x, y]) => ({ x: pad.left + x, y: pad.top + y }));
      const r = await run(s, { drag: { path } });
      assert.ok(r.ok, r.error);
      assert.match(r.extracted!, /^Dragged from \(\d+, \d+\) through 2 point\(s\) to \(\d+, \d+\)$/);
      const got = await record(s) as [string, number[]][];
      assert.deepEqual(got[0], ["down", [20, 20]]);
      assert.deepEqual(got.at(-1), ["up", [400, 250]]);
      const moves = got.filter(([k]) => k === "move").map(([, p]) => p.join(","));
      for (const [x, y] of rel.slice(1)) assert.ok(moves.includes(`${x},${y}`), `passes ${x},${y}: ${moves}`);
      assert.ok(moves.length > 10, "moves in steps between the points");
      // On the 0-1000 grid, as the other coordinate actions.
      const grid = path.map((p) => ({ x: p.x / 1.28, y: p.y / 0.72 }));
      assert.ok((await run(s, { drag: { path: grid } }, { normalizedCoords: true })).ok);
      const again = (await record(s) as [string, number[]][]).filter(([k]) => k === "down");
      assert.equal(again.length, 2);
      assert.ok(Math.abs(again[1][1][0] - 20) <= 1 && Math.abs(again[1][1][1] - 20) <= 1, `${again[1][1]}`);
      const out = await run(s, { drag: { path: [path[0], { x: 2000, y: 10 }] } });
      assert.match(out.error!, /cannot drag through point 2 \(2000, 10\): outside the 1280x720 viewport/);
    },
  );
});
