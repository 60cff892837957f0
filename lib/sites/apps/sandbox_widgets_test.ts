/**
 * The sandbox's pictures and non-standard widgets (issue 13, part 3), server side: product images and the sales
 * chart are drawn from the data, the listener-only inbox rows, the hover menu, the shadow-root rating, the guest
 * autocomplete and the catering iframe change what they say. Their browser behaviour runs in the bundled tasks'
 * reference solutions and near misses (tests/near_miss_test.ts).
 */
import assert from "node:assert/strict";
import { createSandbox } from "../server.ts";
import { SandboxClient } from "../testing.ts";
import { bookingsApp } from "./bookings/mod.ts";
import { shopApp } from "./shop/mod.ts";
import { monthlySales, productSvg } from "./shop/_visuals.ts";
import { seedProducts } from "./shop/_seed_catalog.ts";
import { CATEGORIES } from "./shop/_seed_catalog.ts";
import { trackerApp } from "./tracker/mod.ts";

const client = () => new SandboxClient(createSandbox({ apps: [shopApp, trackerApp, bookingsApp] }));

Deno.test("every product has its own picture, drawn from its data", () => {
  const slug = new Map(CATEGORIES.map((c) => [c.id, c.slug as string]));
  const svgs = seedProducts().map((p) =>
    productSvg({ id: p.id as number, sku: p.sku as string, category_slug: slug.get(p.category_id as number)! })
  );
  assert.equal(new Set(svgs).size, svgs.length);
  // The colour comes from the SKU: neighbours in one category differ in colour, not only in pattern.
  const fills = svgs.map((s) => s.match(/fill="(hsl\([^"]+\))"\/>$/)?.[1] ?? s.slice(-80));
  assert.ok(new Set(fills).size >= svgs.length * 0.9, `fills: ${new Set(fills).size} of ${svgs.length}`);
});

Deno.test("product cards and pages show the picture with alt text; the chart holds no value as text", async () => {
  const c = client();
  const list = (await c.get("/shop/products")).text;
  assert.equal(list.match(/<img class="product-image" src="data:image\/svg\+xml/g)?.length, 12);
  assert.match(list, /alt="Photo of the Sonora Studio Headphones \(Audio, by Sonora\)"/);
  const page = (await c.get("/shop/products/9")).text;
  const chart = page.match(/<figure class="card sales-chart"[\s\S]*?<\/figure>/)?.[0] ?? "";
  assert.ok(chart, "the product page has the sales chart");
  const texts = [...chart.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  assert.deepEqual(texts, ["October", "November", "December", "January", "February", "March"]);
  for (const v of monthlySales({ id: 9 })) {
    assert.doesNotMatch(chart.replace(/<[^>]+>/g, " "), new RegExp(`\\b${v}\\b`));
  }
});

Deno.test("every product's sales have one best month, ahead of the next by at least 18 units", () => {
  for (let id = 1; id <= 40; id++) {
    const v = [...monthlySales({ id })].sort((a, b) => b - a);
    assert.ok(v[0] - v[1] >= 18, `product ${id}: ${v}`);
  }
});

Deno.test("the delivery rating is a custom element; a rating inserts once, then changes", async () => {
  const c = client();
  const page = (await c.get("/shop/orders/SO-10242")).text;
  assert.match(page, /<delivery-rating id="delivery-rating" action="\/shop\/orders\/SO-10242\/rating"\s+value="0">/);
  assert.match(page, /attachShadow\(\{\s*mode: "open"\s*\}\)/);
  assert.doesNotMatch((await c.get("/shop/orders/SO-10243")).text, /<delivery-rating/, "a cancelled order");
  assert.equal((await c.post("/shop/orders/SO-10242/rating", { stars: "5" })).status, 204);
  assert.equal((await c.post("/shop/orders/SO-10242/rating", { stars: "4" })).status, 204);
  assert.equal((await c.post("/shop/orders/SO-10242/rating", { stars: "6" })).status, 422);
  assert.equal((await c.post("/shop/orders/SO-10243/rating", { stars: "4" })).status, 404);
  const rows = (await c.changes()).filter((ch) => ch.table === "delivery_ratings");
  assert.deepEqual(rows.map((ch) => [ch.op, ch.after?.stars]), [["insert", 5], ["update", 4]]);
  assert.match((await c.get("/shop/orders/SO-10242")).text, /value="4"/);
});

Deno.test("the inbox rows are plain divs; opening one marks it read and redirects to its issue", async () => {
  const c = client();
  const page = (await c.get("/tracker/inbox")).text;
  const rows = page.match(/<div class="note-row[^>]*>/g) ?? [];
  assert.equal(rows.length, 7);
  for (const r of rows) assert.doesNotMatch(r, /\b(role|tabindex|onclick|href)=/);
  assert.match(page, /addEventListener\("click"/);
  assert.match(page, /4 unread notifications/);
  const r = await c.post("/tracker/inbox/1/open", {});
  assert.equal(r.status, 303);
  assert.equal(r.location, "/tracker/issues/API-11");
  assert.deepEqual((await c.changes()).map((ch) => [ch.table, ch.key, ch.after?.read]), [["notifications", 1, 1]]);
  assert.match((await c.get("/tracker/inbox")).text, /3 unread notifications/);
  assert.equal((await c.post("/tracker/inbox/99/open", {})).status, 404);
});

Deno.test("the tracker's Backlogs menu lists every project's backlog, hidden until hovered", async () => {
  const page = (await client().get("/tracker/issues")).text;
  const menu = page.match(/<nav class="hovermenu" id="backlogs-menu"[\s\S]*?<\/nav>/)?.[0] ?? "";
  assert.deepEqual([...menu.matchAll(/href="([^"]+)"/g)].map((m) => m[1]), [
    "/tracker/projects/WEB/backlog",
    "/tracker/projects/API/backlog",
    "/tracker/projects/MOB/backlog",
  ]);
  const css = await (await createSandbox({ apps: [] }).request("/_sandbox/style.css")).text();
  assert.match(css, /\.hovermenu-items\{display:none/);
  assert.match(css, /\.hovermenu:hover \.hovermenu-items\{display:block\}/);
});

Deno.test("a guest is added from the directory once; an address not in it adds nobody", async () => {
  const c = client();
  const page = (await c.get("/bookings/reservations/39")).text;
  assert.match(page, /<input type="text" id="guest-search" role="combobox"[^>]*aria-controls="guest-listbox"/);
  assert.match(page, /<ul id="guest-listbox" role="listbox"/);
  assert.equal((await c.post("/bookings/reservations/39/guests", { email: "sofia.marin@sandbox.test" })).status, 303);
  await c.post("/bookings/reservations/39/guests", { email: "sofia.marin@sandbox.test" });
  const bad = await c.post("/bookings/reservations/39/guests", { email: "Sofia Marin" });
  assert.match(bad.location, /guest_error=1/);
  assert.match((await c.get(bad.location)).text, /Choose a colleague from the suggestions/);
  assert.deepEqual((await c.changes()).map((ch) => [ch.table, ch.op, ch.after?.email]), [
    ["guests", "insert", "sofia.marin@sandbox.test"],
  ]);
  assert.match((await c.get("/bookings/reservations/39")).text, /Sofia Marin <span class="muted">sofia\.marin@/);
});

Deno.test("catering is an iframe of the app; ordering inserts the booking's order, ordering again changes it", async () => {
  const c = client();
  assert.match((await c.get("/bookings/reservations/39")).text, /<iframe src="\/bookings\/reservations\/39\/catering"/);
  assert.doesNotMatch((await c.get("/bookings/reservations/3")).text, /<iframe/, "a past booking takes no order");
  const frame = (await c.get("/bookings/reservations/39/catering")).text;
  assert.match(frame, /<span id="people-value" aria-live="polite">9<\/span>/, "starts at the attendees");
  const bad = await c.post("/bookings/reservations/39/catering", { package: "lunch", people: "41" });
  assert.match(bad.location, /error=1/);
  await c.post("/bookings/reservations/39/catering", { package: "lunch", people: "11" });
  await c.post("/bookings/reservations/39/catering", { package: "coffee", people: "11" });
  assert.equal((await c.post("/bookings/reservations/3/catering", { package: "lunch", people: "2" })).status, 404);
  assert.deepEqual((await c.changes()).map((ch) => [ch.op, ch.after?.package, ch.after?.people]), [
    ["insert", "lunch", 11],
    ["update", "coffee", 11],
  ]);
  assert.match(
    (await c.get("/bookings/reservations/39/catering")).text,
    /Ordered: Coffee &amp; pastries for 11 people/,
  );
});
