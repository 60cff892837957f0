import assert from "node:assert/strict";
import { seedDb } from "../data.ts";
import { styleOf } from "../template.ts";
import { TEMPLATES } from "../templates/mod.ts";
import { formEncode, queryString, visitedWith } from "./evidence.ts";
import { search } from "./search.ts";

const onLayer = TEMPLATES.filter((t) => t.alternatives);

Deno.test("layered templates: four phrasings or more, both styles, a chain that is their prefix and macro", () => {
  assert.ok(onLayer.length >= 10, `${onLayer.length} templates on the layer`);
  for (const t of onLayer) {
    assert.ok(t.phrasings.length >= 4, `${t.id}: ${t.phrasings.length} phrasings`);
    assert.deepEqual(new Set(t.phrasings.map(styleOf)), new Set(["procedure", "goal"]), t.id);
    const db = seedDb(t.site);
    const [p] = t.params(db);
    const attacks = t.nearMisses(p, db, "procedure").filter((m) => m.attack);
    assert.ok(attacks.length >= 1, `${t.id}: no attack`);
    assert.deepEqual(
      [...new Set(attacks.map((a) => a.attack!.macro))].every((m) => [...(t.prefix ?? []), t.macro].includes(m)),
      true,
      `${t.id}: an attack of a macro outside its chain`,
    );
  }
});

Deno.test("layered(): a goal's check drops the method evidence, keeps the prefix reached, and its method attacks pass", () => {
  const t = onLayer.find((x) => x.id === "shop.open_detail.search_then_open")!;
  const db = seedDb("shop");
  const [p] = t.params(db);
  const proc = JSON.stringify(t.build(p, db, "procedure").check);
  const goal = JSON.stringify(t.build(p, db, "goal").check);
  assert.match(proc, /"opened"/); // the search's submit and the result's link
  assert.doesNotMatch(goal, /"opened"|"record"/);
  assert.match(goal, /"request":\{"method":"GET","path":"\/shop\/products"/); // the search happened, by any route
  const names = (ms: { name: string }[]) => ms.map((m) => m.name);
  assert.ok(names(t.nearMisses(p, db, "procedure")).includes("search_typed_url"));
  assert.ok(!names(t.nearMisses(p, db, "goal")).includes("search_typed_url"));
  assert.ok(names(t.alternatives!(p, db, "goal")).includes("search_typed_url_route"));
  assert.ok(names(t.alternatives!(p, db, "procedure")).includes("search_normalised_query"));
});

Deno.test("search(): the box is matched by its own id, the query as the app reads it (trimmed, any case)", () => {
  const s = search("shop", "lamp");
  const [box, submit] = s.method as { record: { target: { regex: string }; value?: unknown } }[];
  assert.ok(new RegExp(box.record.target.regex).test('input#search[name=q] "lamp"'));
  assert.ok(!new RegExp(box.record.target.regex).test('button#search-button "Search"'));
  assert.deepEqual(box.record.value, { norm: "lamp" });
  assert.ok(new RegExp(submit.record.target.regex).test('button#search-button "Search"'));
  assert.throws(() => search("bookings", "x", {}, "footer"), /no search form footer/);
});

Deno.test("evidence helpers: one encoding of a query value, a space as +", () => {
  assert.equal(formEncode("desk lamp"), "desk+lamp");
  assert.equal(queryString({ q: "desk lamp", amenity: ["a", "b"] }), "?q=desk+lamp&amenity=a&amenity=b");
  const re = new RegExp((visitedWith("/shop/products", [["q", "desk lamp"]]).visited as { regex: string }).regex, "i");
  assert.ok(re.test("/shop/products?q=desk+lamp"));
});

Deno.test("layered(): every attack and alternative of an instance has its own name, a macro twice in a chain too", () => {
  for (const t of onLayer) {
    const db = seedDb(t.site);
    const [p] = t.params(db);
    for (const style of ["procedure", "goal"] as const) {
      const names = [...t.nearMisses(p, db, style), ...t.alternatives!(p, db, style)].map((m) => m.name);
      assert.equal(new Set(names).size, names.length, `${t.id} (${style}): ${names.join(", ")}`);
    }
  }
  // open_detail twice: the order from the list, then an item from the order; each typed URL is its own episode.
  const t = onLayer.find((x) => x.id === "shop.open_detail.orders_invoice_item")!;
  const db = seedDb("shop");
  const names = t.nearMisses(t.params(db)[0], db, "procedure").map((m) => m.name);
  assert.ok(names.includes("open_detail_1_typed_url") && names.includes("open_detail_3_typed_url"), names.join(", "));
});
