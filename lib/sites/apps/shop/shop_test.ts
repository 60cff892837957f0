import assert from "node:assert/strict";
import { startSites } from "../../server.ts";
import { GOOD_CHECKOUT, ShopClient } from "./_test_helpers.ts";
import { shopApp } from "./mod.ts";

Deno.test("shop add to cart: a missing size is a 422 without a write; a good one inserts then merges", async () => {
  const client = new ShopClient();
  const bad = await client.post("/shop/products/33/cart", { colour: "Navy", qty: "1" });
  assert.equal(bad.status, 422);
  assert.match(bad.text, /<span class="field-error" id="size-error">Choose a size.<\/span>/);
  assert.match(bad.text, /value="Navy"\s+checked/);
  const tooMany = await client.post("/shop/products/6/cart", { qty: "4" });
  assert.equal(tooMany.status, 422);
  assert.match(tooMany.text, /Only 3 in stock./);
  assert.deepEqual(await client.changes(), []);

  const good = await client.post("/shop/products/33/cart", { size: "L", colour: "Navy", qty: "2" });
  assert.equal(good.status, 303);
  assert.equal(good.location, "/shop/cart?msg=added");
  await client.post("/shop/products/33/cart", { size: "L", colour: "Navy", qty: "1" });
  const [insert, merge] = await client.changes();
  assert.equal(insert.table, "cart_items");
  assert.equal(insert.op, "insert");
  assert.deepEqual({ ...insert.after, added_at: undefined }, {
    id: 1,
    product_id: 33,
    size: "L",
    colour: "Navy",
    qty: 2,
    added_at: undefined,
  });
  assert.equal(merge.op, "update");
  assert.equal(merge.before?.qty, 2);
  assert.equal(merge.after?.qty, 3);
  assert.match((await client.get("/shop/cart?msg=added")).text, /Cart \(3\)[\s\S]*Added to your cart./);
});

Deno.test("shop review: bad rating and short text are a 422; a good review is inserted and counted", async () => {
  const client = new ShopClient();
  const bad = await client.post("/shop/products/2/reviews", { body: "meh" });
  assert.equal(bad.status, 422);
  assert.match(bad.text, /Choose a rating from 1 to 5 stars./);
  assert.match(bad.text, /Write at least 10 characters/);
  assert.match(bad.text, /id="tab-reviews" role="tab"\s+class="active"/);
  assert.deepEqual(await client.changes(), []);

  const good = await client.post("/shop/products/2/reviews", { rating: "2", body: "The case hinge broke." });
  assert.equal(good.status, 303);
  assert.equal(good.location, "/shop/products/2?tab=reviews&msg=review");
  const [change] = await client.changes();
  assert.equal(change.table, "reviews");
  assert.equal(change.op, "insert");
  assert.equal(change.after?.author, "Alex Morgan");
  assert.equal(change.after?.rating, 2);
  assert.equal(change.after?.created_at, "2026-03-15");
  const page = await client.get(good.location);
  assert.match(page.text, /Reviews \(5\)/);
  assert.match(page.text, /Average rating <b>3.6<\/b>/);
});

Deno.test("shop cart: a zero quantity is a 422; updating and removing write the line", async () => {
  const client = new ShopClient();
  await client.post("/shop/products/10/cart", { qty: "1" });
  const bad = await client.post("/shop/cart/1/update", { qty: "0" });
  assert.equal(bad.status, 422);
  assert.match(bad.text, /id="qty-1-error">Enter a quantity of 1 or more/);
  assert.equal((await client.changes()).length, 1);

  assert.equal((await client.post("/shop/cart/1/update", { qty: "3" })).status, 303);
  const page = await client.get("/shop/cart");
  assert.match(page.text, /id="cart-subtotal">\$119.70/);
  assert.match(page.text, /data-confirm="Remove Keystone Glide Mouse from your cart\?"/);
  assert.equal((await client.post("/shop/cart/1/remove", {})).location, "/shop/cart?msg=removed");
  const [, update, remove] = await client.changes();
  assert.deepEqual([update.op, update.before?.qty, update.after?.qty], ["update", 1, 3]);
  assert.deepEqual([remove.table, remove.op, remove.key, remove.after], ["cart_items", "delete", 1, null]);
});

Deno.test("shop checkout: each bad field is a 422 without writes", async () => {
  const client = new ShopClient();
  await client.post("/shop/products/2/cart", { qty: "1" });
  const cases: [Record<string, string>, RegExp][] = [
    [{ delivery_date: "2026-03-22" }, /We do not deliver on Sundays/],
    [{ delivery_date: "2026-03-15" }, /must be after today/],
    [{ promo: "WINTER50" }, /The promo code &quot;WINTER50&quot; is not valid./],
    [{ card: "4242 4242 4242 4241" }, /This card number is not valid/],
    [{ card: "4242" }, /Enter the 16-digit card number/],
    [{ country: "" }, /id="country-error">Choose a country./],
    [{ email: "alex.sandbox.test" }, /Enter a valid email address/],
  ];
  for (const [patch, message] of cases) {
    const r = await client.post("/shop/checkout", { ...GOOD_CHECKOUT, ...patch });
    assert.equal(r.status, 422, JSON.stringify(patch));
    assert.match(r.text, message);
    assert.match(r.text, /<div class="errors" role="alert"/);
    assert.match(r.text, /value="1 Main Street"/, "keeps the submitted values");
  }
  assert.equal((await client.changes()).length, 1, "only the cart line");
});

Deno.test("shop checkout: a good order writes orders and items, lowers stock and empties the cart", async () => {
  const client = new ShopClient();
  await client.post("/shop/products/33/cart", { size: "L", colour: "Navy", qty: "1" });
  await client.post("/shop/products/2/cart", { qty: "2" });
  const r = await client.post("/shop/checkout", GOOD_CHECKOUT);
  assert.equal(r.status, 303);
  assert.equal(r.location, "/shop/orders/SO-10246?msg=placed");
  const changes = (await client.changes()).slice(2);
  const order = changes.find((c) => c.table === "orders");
  assert.deepEqual(
    [order?.op, order?.after?.total, order?.after?.discount, order?.after?.promo_code, order?.after?.card_last4],
    ["insert", 336.07, 35.9, "SPRING10", "4242"],
  );
  assert.equal(order?.after?.delivery_date, "2026-03-17");
  const items = changes.filter((c) => c.table === "order_items").map((c) => [c.after?.product_id, c.after?.qty]);
  assert.deepEqual(items, [[33, 1], [2, 2]]);
  const stock = changes.filter((c) => c.table === "products").map((c) => [c.key, c.before?.stock, c.after?.stock]);
  assert.deepEqual(stock, [[33, 12, 11], [2, 32, 30]]);
  assert.equal(changes.filter((c) => c.table === "cart_items" && c.op === "delete").length, 2);
  const page = await client.get(r.location);
  assert.match(page.text, /Thank you! Your order has been placed./);
  assert.match(page.text, /id="order-total">\$336.07/);
  assert.match((await client.get("/shop/cart")).text, /Your cart is empty/);
  assert.match((await client.get("/shop/orders")).text, /SO-10246[\s\S]*SO-10245/);
});

Deno.test("shop session reset restores the seed", async () => {
  const client = new ShopClient();
  await client.post("/shop/products/2/reviews", { rating: "5", body: "Lovely earbuds, great case." });
  assert.equal((await client.changes()).length, 1);
  const reset = await client.get("/_admin/session-flags");
  assert.equal(reset.status, 200);
  assert.deepEqual(await client.changes(), []);
  assert.match((await client.get("/shop/products/2?tab=reviews")).text, /Reviews \(4\)/);
});

Deno.test("shop sessions do not see each other's carts", async () => {
  const a = new ShopClient();
  const b = new ShopClient(a.sb);
  await a.get("/shop/");
  await b.get("/shop/");
  assert.notEqual(a.cookie, b.cookie);
  await a.post("/shop/products/10/cart", { qty: "2" });
  assert.match((await a.get("/shop/cart")).text, /Cart \(2\)/);
  assert.match((await b.get("/shop/cart")).text, /Your cart is empty/);
  assert.deepEqual(await b.changes(), []);
});

Deno.test("shop flow through the real server: add, check out, download the invoice", async () => {
  await using srv = await startSites({ apps: [shopApp], port: 0 });
  let cookie = "";
  const send = async (path: string, form?: Record<string, string>) => {
    const res = await fetch(srv.base + path, {
      method: form ? "POST" : "GET",
      headers: { cookie, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    });
    cookie ||= (res.headers.get("set-cookie") ?? "").split(";")[0];
    return { res, text: await res.text() };
  };
  assert.equal((await send("/shop/")).res.status, 200);
  const add = await send("/shop/products/35/cart", { size: "42", colour: "Blue", qty: "1" });
  assert.equal(add.res.status, 303);
  const placed = await send("/shop/checkout", { ...GOOD_CHECKOUT, promo: "", shipping: "standard" });
  assert.equal(placed.res.headers.get("location"), "/shop/orders/SO-10246?msg=placed");
  const csv = await send("/shop/orders/SO-10246/invoice.csv");
  assert.match(csv.res.headers.get("content-disposition") ?? "", /attachment/);
  assert.match(csv.text, /Trailcraft Trail Runner 2,42,Blue,124.00,1,124.00\r\n[\s\S]*Total,,,,,128.99/);
  const log = JSON.parse((await send("/_admin/log")).text).entries;
  assert.deepEqual(log.map((e: { method: string; status: number }) => `${e.method} ${e.status}`).slice(0, 3), [
    "GET 200",
    "POST 303",
    "POST 303",
  ]);
});
