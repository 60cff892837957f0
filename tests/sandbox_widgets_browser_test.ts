/**
 * The sandbox's non-standard widgets in real Chromium against the real sandbox server: the guest autocomplete's
 * keyboard and mouse, the hover menu, the delivery rating in an open shadow root, the catering iframe and the
 * listener-only inbox rows; the label colour picker's swatches, the catering menu's diet icons and the handbook's
 * scrolling text box, as the capture shows them. (The bundled tasks drive them through the harness's executor; this pins what each
 * widget does for a person, so a widget that breaks is named here rather than as a failed episode.)
 */
import assert from "node:assert/strict";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { chromiumPath } from "../lib/browser/mod.ts";
import { APPS, startSites } from "../lib/sites/mod.ts";
import { type PageSnapshot, snapshotPage } from "../lib/dom/mod.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function withPage(fn: (page: Page, base: string) => Promise<void>): Promise<void> {
  await using sites = await startSites({ apps: APPS });
  const browser: Browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox"],
    defaultViewport: { width: 1280, height: 720 },
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await fn(page, sites.base);
    assert.deepEqual(errors, [], "no script error on the page");
  } finally {
    await browser.close();
  }
}

/** The viewport centre of an element the page function returns (it may live in a shadow root or a frame). */
async function centre(page: Page, find: string): Promise<{ x: number; y: number }> {
  return await page.evaluate(`(() => {
    const [el, dx, dy] = ${find};
    el.scrollIntoView({ block: "center" });
    const r = el.getBoundingClientRect();
    const f = dx === null ? null : document.getElementById(dx).getBoundingClientRect();
    return { x: r.x + r.width / 2 + (f ? f.x : 0), y: r.y + r.height / 2 + (f ? f.y : 0) };
  })()`) as { x: number; y: number };
}

Deno.test(
  { name: "the guest autocomplete: arrows move the active option, Escape closes, Enter picks", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/bookings/reservations/39`);
      await page.type("#guest-search", "sofia");
      const state = () =>
        page.evaluate(`(() => {
        const box = document.getElementById("guest-search");
        const list = document.getElementById("guest-listbox");
        return {
          expanded: box.getAttribute("aria-expanded"),
          active: box.getAttribute("aria-activedescendant"),
          options: [...list.querySelectorAll("[role=option]")].map((o) => o.firstElementChild.textContent),
          selected: [...list.querySelectorAll("[aria-selected=true]")].map((o) => o.id),
          hidden: list.hidden,
          email: document.getElementById("guest-email").value,
        };
      })()`) as Promise<Record<string, unknown>>;
      assert.deepEqual(await state(), {
        expanded: "true",
        active: null,
        options: ["Sofia Marin", "Sofia Martins"],
        selected: [],
        hidden: false,
        email: "",
      });
      await page.keyboard.press("ArrowUp");
      assert.equal((await state()).active, "guest-option-1", "ArrowUp from nothing wraps to the last option");
      await page.keyboard.press("ArrowDown");
      assert.deepEqual((await state()).selected, ["guest-option-0"]);
      await page.keyboard.press("Escape");
      assert.equal((await state()).hidden, true);
      assert.equal((await state()).expanded, "false");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      const picked = await state();
      assert.equal(picked.email, "sofia.martins@sandbox.test", "Enter picks the active option, not the form's submit");
      assert.equal(page.url(), `${base}/bookings/reservations/39`);
      assert.equal(await page.$eval("#guest-search", (e) => (e as HTMLInputElement).value), "Sofia Martins");
    }),
);

Deno.test(
  { name: "the guest autocomplete: a click on an option picks it and Add guest adds it", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/bookings/reservations/39`);
      await page.type("#guest-search", "okafor");
      const at = await centre(page, `[document.getElementById("guest-option-0"), null, null]`);
      await page.mouse.click(at.x, at.y);
      assert.equal(
        await page.$eval("#guest-email", (e) => (e as HTMLInputElement).value),
        "daniel.okafor@sandbox.test",
      );
      await Promise.all([page.waitForNavigation(), page.click("#add-guest")]);
      assert.match(await page.$eval("#guest-list", (e) => e.textContent ?? ""), /Daniel Okafor/);
    }),
);

Deno.test(
  {
    name: "the guest autocomplete: a pick by mouse or Enter is a change of the box, with the colleague's name",
    ...opts,
  },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/bookings/reservations/39`);
      await page.evaluate(`(() => {
        window.changes = [];
        document.getElementById("guest-search").addEventListener("change", (e) => window.changes.push(e.target.value));
      })()`);
      await page.type("#guest-search", "okafor");
      const at = await centre(page, `[document.getElementById("guest-option-0"), null, null]`);
      await page.mouse.click(at.x, at.y);
      await page.$eval("#guest-search", (e) => (e as HTMLInputElement).value = "");
      await page.type("#guest-search", "lindq");
      await page.keyboard.press("Enter");
      assert.deepEqual(await page.evaluate("window.changes"), ["Daniel Okafor", "Emma Lindqvist"]);
    }),
);

Deno.test(
  { name: "the Backlogs menu shows its items only while the pointer is on it", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/tracker/issues`);
      const shown = () =>
        page.$$eval(
          "#backlogs-menu .hovermenu-items a",
          (as) => as.map((a) => (a as HTMLElement).offsetParent !== null),
        );
      assert.deepEqual(await shown(), [false, false, false]);
      const trigger = await centre(page, `[document.querySelector("#backlogs-menu .hovermenu-trigger"), null, null]`);
      await page.mouse.move(trigger.x, trigger.y);
      assert.deepEqual(await shown(), [true, true, true]);
      const item = await centre(page, `[document.querySelectorAll("#backlogs-menu a")[1], null, null]`);
      await page.mouse.move(item.x, item.y);
      await Promise.all([page.waitForNavigation(), page.mouse.click(item.x, item.y)]);
      assert.equal(new URL(page.url()).pathname, "/tracker/projects/API/backlog");
      await page.mouse.move(5, 700);
      assert.deepEqual(await shown(), [false, false, false]);
    }),
);

Deno.test(
  { name: "the delivery rating lives in an open shadow root and saves the clicked star", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/shop/orders/SO-10241`);
      assert.equal(await page.$$eval("button[aria-label='3 stars']", (b) => b.length), 0, "not in the light DOM");
      const star = `[document.getElementById("delivery-rating").shadowRoot.querySelectorAll("button")[2], null, null]`;
      const at = await centre(page, star);
      await page.mouse.click(at.x, at.y);
      const status = `document.getElementById("delivery-rating").shadowRoot.querySelector(".status").textContent`;
      await page.waitForFunction(`${status} === "Your rating: 3 of 5"`);
      await page.reload();
      assert.equal(await page.evaluate(status), "Your rating: 3 of 5", "the rating is the app's, not the widget's");
    }),
);

Deno.test(
  { name: "the catering iframe is same-origin; its counter and order button work inside it", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/bookings/reservations/52`);
      const inFrame = (id: string) =>
        `[document.getElementById("catering-frame").contentDocument.getElementById("${id}"), "catering-frame", null]`;
      await page.waitForFunction(
        `document.getElementById("catering-frame").contentDocument?.getElementById("order-catering")`,
      );
      for (const id of ["package-snacks", "people-minus", "people-minus"]) {
        const at = await centre(page, inFrame(id));
        await page.mouse.click(at.x, at.y);
      }
      const frameText = (id: string) =>
        page.evaluate(`document.getElementById("catering-frame").contentDocument.getElementById("${id}")?.textContent`);
      assert.equal(await frameText("people-value"), "5", "7 attendees, two fewer");
      const order = await centre(page, inFrame("order-catering"));
      await page.mouse.click(order.x, order.y);
      await page.waitForFunction(
        `document.getElementById("catering-frame").contentDocument?.getElementById("catering-status")`,
      );
      assert.equal(await frameText("catering-status"), "Ordered: Fruit & snacks for 5 people.");
      assert.equal(new URL(page.url()).pathname, "/bookings/reservations/52", "the page itself stays");
    }),
);

Deno.test(
  { name: "an inbox row is a plain div whose click listener opens the issue and marks it read", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/tracker/inbox`);
      const attrs = await page.$eval("#note-3", (e) => e.getAttributeNames());
      assert.deepEqual(attrs.filter((a) => ["role", "tabindex", "onclick", "href"].includes(a)), []);
      assert.equal(await page.$eval("#note-3", (e) => getComputedStyle(e).cursor), "pointer");
      const at = await centre(page, `[document.getElementById("note-3"), null, null]`);
      await Promise.all([page.waitForNavigation(), page.mouse.click(at.x, at.y)]);
      assert.equal(new URL(page.url()).pathname, "/tracker/issues/MOB-15");
      await page.goto(`${base}/tracker/inbox`);
      assert.equal(await page.$eval("#note-3", (e) => e.classList.contains("unread")), false);
      assert.match(await page.$eval("#inbox-count", (e) => e.textContent ?? ""), /^3 unread/);
    }),
);

/** The capture of the page as the harness takes it. */
const snap = (page: Page) => page.evaluate(snapshotPage, {}) as Promise<PageSnapshot>;

Deno.test(
  { name: "the label colour picker: swatches named by their colour, a click sets the label's colour", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/tracker/labels`);
      await page.click("#pick-docs");
      const swatches = (await snap(page)).elements.filter((e) => e.attributes.role === "button" && !e.text);
      assert.deepEqual(swatches.slice(0, 7).map((e) => e.attributes.label), [
        "black (#000000)",
        "red (#e60000)",
        "orange (#ff9900)",
        "yellow (#ffff00)",
        "dark green (#008a00)",
        "blue (#0066cc)",
        "purple (#9933ff)",
      ]);
      const yellow = swatches[3].rect;
      await Promise.all([
        page.waitForNavigation(),
        page.mouse.click(yellow.x + yellow.width / 2, yellow.y + yellow.height / 2),
      ]);
      assert.equal(await page.$eval("#label-docs code", (e) => e.textContent), "#ffff00");
      assert.equal(
        await page.$eval("#label-bug code", (e) => e.textContent),
        "#e60000",
        "the other labels keep theirs",
      );
    }),
);

Deno.test(
  { name: "the catering menu's diets are icons whose alt and title the capture reads", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/bookings/catering/menu`);
      assert.doesNotMatch(await page.$eval("#dishes", (e) => (e as HTMLElement).innerText), /vegan/, "icons only");
      const text = (await snap(page)).visibleText;
      assert.match(text, /^Chickpea curry vegan gluten-free$/m, text);
      assert.match(text, /^Satay noodles vegan gluten-free contains nuts$/m);
    }),
);

Deno.test(
  { name: "the facilities handbook scrolls in its text box, and the capture shows where it is scrolled", ...opts },
  () =>
    withPage(async (page, base) => {
      await page.goto(`${base}/bookings/handbook`);
      const box = (s: PageSnapshot) => s.elements.find((e) => e.attributes.id === "handbook")!;
      const before = await snap(page);
      assert.match(box(before).attributes.value!, /kite-2290/);
      assert.doesNotMatch(before.visibleText, /heron-4471/, "the lake wing is below the box's first view");
      await page.$eval("#handbook", (e) => e.scrollTop = e.scrollHeight);
      const after = await snap(page);
      assert.ok((box(after).valueStart ?? 0) > 0);
      assert.match(box(after).attributes.value!, /password heron-4471\./);
      assert.match(after.visibleText, /^Lake wing Wi-Fi: network LAKE-GUEST, password heron-4471\.$/m);
    }),
);
