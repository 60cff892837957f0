/// <reference lib="dom" />
/**
 * lib/dom/page's modules, one by one, in Chromium: each case composes the functions it calls (composePage, as
 * snapshotPage is composed) and runs them on a small page set with page.setContent, asserting concrete values.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { launchBare } from "./browser_fixture.ts";
import { elementAt, snapshotPage, visiblePoint } from "../lib/dom/mod.ts";
import { type Capture, type Frame, newCapture } from "../lib/dom/page/capture.ts";
import { composePage, type PageFunction } from "../lib/dom/page/compose.ts";
import { area, cut, GEOMETRY, inside, meets, minus, shift } from "../lib/dom/page/geometry.ts";
import { coverOf, HIT, onTop, pointOf } from "../lib/dom/page/hit.ts";
import { indexedOf, isList, LISTS, visibleRows } from "../lib/dom/page/lists.ts";
import { classWords, colourName, fileName, nameOf, NAMING, parseColour, wordsOf } from "../lib/dom/page/naming.ts";
import {
  addBlock,
  addText,
  apart,
  cap,
  collapse,
  elementText,
  TEXT,
  textWithoutIndexed,
} from "../lib/dom/page/text.ts";
import { attributesOf, liveValue, shortHref, VALUES, valueWindow } from "../lib/dom/page/values.ts";
import { documentFrame, WALK } from "../lib/dom/page/walk.ts";

/** Every page-side helper, as snapshotPage is composed with them. */
const ALL: readonly PageFunction[] = [
  newCapture,
  ...GEOMETRY,
  ...HIT,
  ...TEXT,
  ...LISTS,
  ...NAMING,
  ...VALUES,
  ...WALK,
];

const rows = Array.from({ length: 100 }, (_, i) => `<tr style="height: 20px"><td style="padding: 0">r${i}</td></tr>`);
/** One page for every module: each section sits where its case expects it (body margin 0, viewport 1280×720). */
const PAGE = `<!doctype html><html><head><title>Page modules</title><style>
body { margin: 0; font: 14px sans-serif; } .abs { position: absolute; }
</style></head><body>
<div id="hit" style="position: relative; height: 120px">
  <button id="half" class="abs" style="left: 0; top: 0; width: 200px; height: 40px">Half</button>
  <div id="cover" class="abs" style="left: 0; top: 0; width: 140px; height: 40px; background: #fff"></div>
  <button id="buried" class="abs" style="left: 220px; top: 0; width: 100px; height: 40px">Buried</button>
  <div id="sheet" class="abs sheet modal" style="left: 210px; top: 0; width: 130px; height: 50px; background: #eee">Sheet</div>
  <button id="sliver" class="abs" style="left: 0; top: 60px; width: 200px; height: 40px">Sliver</button>
  <div id="sliver-cover" class="abs" style="left: 0; top: 60px; width: 190px; height: 40px; background: #fff"></div>
</div>
<iframe id="fr" class="abs" style="left: 400px; top: 0; width: 300px; height: 100px; border: 0"
  srcdoc="<body style='margin: 0'><button id='inner' style='margin: 10px'>In</button></body>"></iframe>
<div id="flex" style="display: flex"><span id="fa">Alpha</span><span id="fb">Beta</span></div>
<p id="inline"><span id="ia">Gam</span><span id="ib">ma</span></p>
<label id="agree-label" for="agree">I agree <b>to the   terms</b></label><input id="agree" type="checkbox">
<div id="card">Card title <button id="card-btn">Delete</button></div>
<textarea id="ta">line one

  line   two</textarea>
<ul id="ul2"><li>a</li><li>b</li></ul>
<div id="alike"><div class="it">One</div><div class="it">Two</div><div class="it">Three</div></div>
<div id="icons"><span class="i">&nbsp;</span><span class="i"> </span><span class="i"></span></div>
<div id="mixed"><div class="it">One</div><div class="other">Two</div><div class="it">Three</div></div>
<button id="n-use"><svg width="16" height="16"><use href="#icon-trash"></use></svg></button>
<button id="n-class" class="btn fa-pencil"></button>
<span id="n-swatch" data-color="#ffff00"></span>
<div aria-label="Toolbar"><button id="n-anc"></button></div>
<span id="lbl-src">Search box</span><button id="n-by" aria-labelledby="lbl-src"></button>
<input id="n-field">
<select id="v-sel"><option>Red</option><option selected>Green</option></select>
<input id="v-long" value="0123456789abcdefghij">
<a id="v-ext" href="https://example.org/a?b=1#c">ext</a><a id="v-mail" href="mailto:x@example.org">mail</a>
<div id="track" style="position: relative; width: 300px; height: 10px"><span id="handle" tabindex="0"
  class="abs" style="left: 110px; top: 0; width: 10px; height: 10px"></span></div>
<table class="abs" style="top: 400px; left: 900px; border-spacing: 0"><tbody id="rows">${rows.join("")}</tbody></table>
</body></html>`;

/** Runs `fn` (no arguments; it calls the helpers by name) in the page, composed with `helpers`. */
async function inPage<T>(page: Page, fn: () => T, helpers: readonly PageFunction[] = ALL): Promise<T> {
  return await page.evaluate(`(${composePage(fn, helpers)})()`) as T;
}

/** The top document's unclipped frame over the viewport (what snapshotPage walks the top document with). */
function topFrame(c: Capture): Frame {
  const view = { left: 0, top: 0, right: globalThis.innerWidth, bottom: globalThis.innerHeight };
  return documentFrame(c, globalThis as unknown as Window, 0, 0, view, view, view);
}

/** The element of id `id` (the test page's). */
function byId(id: string): Element {
  return document.getElementById(id)!;
}

const PAGE_HELPERS: readonly PageFunction[] = [...ALL, topFrame, byId];

Deno.test({
  name: "lib/dom/page modules in Chromium",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await using browser = await launchBare();
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    await page.setContent(PAGE);
    const run = <T>(fn: () => T) => inPage(page, fn, PAGE_HELPERS);
    /** A step that dumps the page's HTML when it fails. */
    const step = (name: string, body: () => Promise<void>) =>
      t.step(name, async () => {
        try {
          await body();
        } catch (err) {
          console.error(`page when "${name}" failed:\n${await page.content()}`);
          throw err;
        }
      });

    await step("composePage() declares each helper once and refuses two helpers of one name", async () => {
      assert.deepEqual(
        await inPage(
          page,
          () => minus({ left: 0, top: 0, right: 10, bottom: 10 }, { left: 20, top: 0, right: 30, bottom: 5 }),
          [
            minus,
            meets,
            minus,
          ],
        ),
        [{ left: 0, top: 0, right: 10, bottom: 10 }],
      );
      const other = { minus: () => 0 }.minus; // named "minus" too
      assert.throws(() => composePage(() => 0, [minus, other]), /page helper name "minus" is empty or taken/);
      // snapshotPage and visiblePoint carry the same one copy of the shared geometry, and declare every helper
      // they call (a helper left out of a composition fails only on the path that calls it).
      for (const composed of [snapshotPage, visiblePoint]) {
        const source = composed.toString();
        assert.equal(source.split(`const minus = ${minus}`).length, 2, "minus declared once");
        const missing = [...ALL, pointOf, elementAt].filter((h) =>
          new RegExp(`(?<!\\.|\\w|function )${h.name}\\(`).test(source) && !source.includes(`const ${h.name} = `)
        );
        assert.deepEqual(missing.map((h) => h.name), []);
      }
    });

    await step("geometry: minus, meets, cut, shift, inside, area (composed alone)", async () => {
      const got = await inPage(page, () => {
        const a = { left: 0, top: 0, right: 100, bottom: 100 };
        const hole = { left: 25, top: 25, right: 75, bottom: 75 };
        return {
          around: minus(a, hole),
          edge: meets(a, { left: 100, top: 0, right: 120, bottom: 10 }),
          cut: cut(a, { left: 50, top: -10, right: 150, bottom: 40 }),
          shifted: shift(hole, { dx: 10, dy: -5 }),
          inside: [inside(hole, a), inside(a, hole)],
          area: area(hole),
        };
      }, GEOMETRY);
      assert.deepEqual(got, {
        around: [
          { left: 0, top: 0, right: 100, bottom: 25 },
          { left: 0, top: 75, right: 100, bottom: 100 },
          { left: 0, top: 25, right: 25, bottom: 75 },
          { left: 75, top: 25, right: 100, bottom: 75 },
        ],
        edge: false,
        cut: { left: 50, top: 0, right: 100, bottom: 40 },
        shifted: { left: 35, top: 20, right: 85, bottom: 70 },
        inside: [true, false],
        area: 2500,
      });
    });

    await step("hit: elementAt through an iframe, visiblePoint, onTop and coverOf on covered buttons", async () => {
      const at = await page.evaluate(
        `[(${elementAt})(420, 20)?.id, (${elementAt})(100, 20)?.id, (${elementAt})(5000, 20)]`,
      );
      assert.deepEqual(at, ["inner", "cover", null]);
      const points = await page.evaluate(`["half", "buried", "sliver"].map((id) =>
        (${visiblePoint})(document.getElementById(id), ${elementAt}))`);
      assert.deepEqual(points, [
        { x: 150, y: 10, hit: true }, // the first sample right of the cover
        { x: 270, y: 20, hit: false, cover: '<div#sheet.abs.sheet> "Sheet"' },
        { x: 195, y: 80, hit: true }, // no sample: the centre of the 10 px piece the cover leaves
      ]);
      const tops = await run(() => {
        const c = newCapture({});
        const f = topFrame(c);
        const box = (id: string) => shift(byId(id).getBoundingClientRect(), f);
        return {
          onTop: ["half", "buried", "sliver", "fa"].map((id) => onTop(c, byId(id), box(id), f)),
          cover: coverOf(document.elementFromPoint(50, 80)!, 50, 80, byId("sliver")),
        };
      });
      assert.deepEqual(tops, {
        onTop: [true, false, true, true],
        cover: { left: 0, top: 60, right: 190, bottom: 100 },
      });
    });

    await step(
      "text: visual lines, touching blocks, labels' text, text without indexed children, a textarea",
      async () => {
        const got = await run(() => {
          const c = newCapture({});
          const f = topFrame(c);
          for (const id of ["fa", "fb", "ia", "ib"]) addText(c, byId(id).firstChild as Text, f);
          const lines = [...c.text.lines, c.text.line];
          c.keptSet.add(byId("card-btn"));
          const block = newCapture({});
          addBlock(block, byId("ta") as HTMLTextAreaElement);
          return {
            lines,
            apart: [apart(byId("fa"), byId("fb")), apart(byId("ia"), byId("ib"))],
            label: elementText(c, byId("agree"), false),
            card: collapse(textWithoutIndexed(c, byId("card"))),
            cardText: elementText(c, byId("card"), true),
            block: block.text.lines,
            cap: cap("abcdef", 3),
          };
        });
        assert.deepEqual(got, {
          lines: ["Alpha Beta", "Gamma"], // flex items apart, inline spans joined
          apart: [true, false],
          label: "I agree to the terms",
          card: "Card title",
          cardText: "Card title",
          block: ["line one", "line two"],
          cap: "abc...",
        });
      },
    );

    await step("lists: what is a list, a long section's rows on screen, the index from the candidates", async () => {
      const got = await run(() => {
        const c = newCapture({});
        const f = topFrame(c);
        const band = { ...f, walk: { left: 0, top: 500, right: 1280, bottom: 600 } };
        const kept = (ids: string[]) =>
          ids.map((id) => ({ el: byId(id), r: { left: 0, top: 0, right: 1, bottom: 1 }, inView: true }));
        const labelKept = newCapture({});
        labelKept.kept = kept(["agree-label", "agree"]);
        for (const k of labelKept.kept) labelKept.keptSet.add(k.el);
        const labelAlone = newCapture({});
        labelAlone.kept = kept(["agree-label"]);
        const list = newCapture({});
        list.kept = [byId("ul2"), ...Array.from(byId("ul2").children)].map((el) => ({
          el,
          r: band.walk,
          inView: true,
        }));
        return {
          isList: ["ul2", "alike", "icons", "mixed"].map((id) => isList(c, byId(id))),
          rows: [visibleRows(byId("rows"), f), visibleRows(byId("rows"), band), visibleRows(byId("ul2"), f)],
          labelKept: indexedOf(labelKept).map((k) => k.el.id),
          labelAlone: indexedOf(labelAlone).map((k) => k.el.id),
          list: indexedOf(list).map((k) => k.el.localName),
        };
      });
      assert.deepEqual(got, {
        isList: [true, true, false, false],
        rows: [[0, 15], [5, 9], null], // rows 20 px high from y 400; fewer than 64 rows: all
        labelKept: ["agree"],
        labelAlone: ["agree-label"],
        list: ["li", "li"],
      });
    });

    await step("naming: derived names of nameless elements, words of files and classes, colours", async () => {
      const got = await run(() => {
        const c = newCapture({});
        const only = (id: string) => [{ el: byId(id), r: { left: 0, top: 0, right: 1, bottom: 1 }, inView: true }];
        const name = (id: string) => nameOf(c, only(id), byId(id), 0);
        return {
          names: ["n-use", "n-class", "n-swatch", "n-anc", "n-by", "n-field"].map(name),
          words: wordsOf("starFilled-icon_x"),
          files: [
            fileName("https://x.test/img/arrow-left.png?v=2", c.words.generic),
            fileName("data:image/png;base64,AA", c.words.generic),
            fileName("/i/3f9a2b.svg", c.words.generic),
          ],
          classes: ["col-6", "text-center", "bdVaJa", "fa-trash-can"].map((t) => classWords(t, c.words)),
          colours: [
            colourName(255, 0, 0),
            colourName(255, 192, 203),
            colourName(20, 20, 20),
            colourName(128, 128, 128),
          ],
          parsed: [parseColour("#fc0"), parseColour("rgba(1, 2, 3, 50%)"), parseColour("red")],
        };
      });
      assert.deepEqual(got, {
        names: ["trash", "pencil", "yellow (#ffff00)", "Toolbar", "Search box", ""],
        words: ["star", "filled", "icon", "x"],
        files: ["arrow left", "", ""],
        classes: [[], [], [], ["trash", "can"]],
        colours: ["red", "pink", "black", "gray"],
        parsed: [[255, 204, 0, 1], [1, 2, 3, 0.5], null],
      });
    });

    await step("values: live values, a long value's window, a slider handle, short hrefs", async () => {
      const got = await run(() => {
        const c = newCapture({ maxValueLength: 10 });
        const handle = byId("handle");
        const attrs = attributesOf(c, handle, handle.getBoundingClientRect());
        const long = attributesOf(c, byId("v-long"), byId("v-long").getBoundingClientRect());
        return {
          live: [liveValue(byId("v-sel")), liveValue(byId("agree")), liveValue(byId("v-long"))],
          window: valueWindow(c, byId("v-long"), "a" + "\u{1F600}".repeat(10)),
          handle: attrs,
          long: [long.value, c.valueLength, c.valueStart],
          hrefs: [shortHref(byId("v-ext") as HTMLAnchorElement), shortHref(byId("v-mail") as HTMLAnchorElement)],
        };
      });
      assert.deepEqual(got, {
        live: ["Green", null, "0123456789abcdefghij"],
        window: { start: 0, text: "a\u{1F600}\u{1F600}\u{1F600}\u{1F600}" }, // not cut inside a surrogate pair
        handle: { id: "handle", role: "slider", value: "38%" }, // its centre at 115 px of a 300 px track
        long: ["0123456789", 20, 0],
        hrefs: ["https://example.org/a?b=1#c", "mailto:x@example.org"],
      });
    });
  },
});
