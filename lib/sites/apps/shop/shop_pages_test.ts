import assert from "node:assert/strict";
import { ShopClient } from "./_test_helpers.ts";

const PAGES: [string, string | RegExp][] = [
  ["/shop/", "Shop by category"],
  ["/shop/products", "Showing 1–12 of 40 products"],
  ["/shop/products?page=4", "Showing 37–40 of 40 products"],
  ["/shop/products?q=jacket", /Showing 1–1 of 1 product<[\s\S]*Northpeak Storm Jacket/],
  ["/shop/category/audio", "Showing 1–8 of 8 products"],
  ["/shop/products/33", "In stock: 12 available"],
  ["/shop/products/33?tab=specs", "Waterproof rating"],
  ["/shop/products/33?tab=reviews", "Rachel Green"],
  ["/shop/cart", "Your cart is empty"],
  ["/shop/checkout", "nothing to check out"],
  ["/shop/orders", "SO-10245"],
  ["/shop/orders/SO-10244", 'data-copy="SO-10244"'],
  ["/shop/size-guide", "Foot length (cm)"],
];

Deno.test("shop pages render 200 with their content", async () => {
  const client = new ShopClient();
  for (const [path, expected] of PAGES) {
    const r = await client.get(path);
    assert.equal(r.status, 200, path);
    assert.match(r.text, expected instanceof RegExp ? expected : new RegExp(RegExp.escape(expected)), path);
    assert.match(r.text, /<h1[ >]/, `${path} has a heading`);
  }
});

Deno.test("shop unknown product, category and order answer 404", async () => {
  const client = new ShopClient();
  for (
    const path of ["/shop/products/999", "/shop/category/garden", "/shop/orders/SO-1", "/shop/orders/X/invoice.csv"]
  ) {
    assert.equal((await client.get(path)).status, 404, path);
  }
});

Deno.test("shop catalogue filters by stock, brand and max price, and sorts", async () => {
  const client = new ShopClient();
  const filtered = await client.get("/shop/products?in_stock=1&brand=Northpeak&max_price=100");
  assert.match(filtered.text, /Showing 1–1 of 1 product</);
  assert.match(filtered.text, /Northpeak Headlamp 400/);
  assert.match(filtered.text, /id="brand-northpeak"\s+checked/);
  const inStock = await client.get("/shop/products?in_stock=1");
  assert.match(inStock.text, /of 35 products/);
  const brands = await client.get("/shop/products?brand=Vexa&brand=Sonora");
  assert.match(brands.text, /of 8 products/);
  const cheapFirst = (await client.get("/shop/category/apparel?sort=price_asc")).text;
  assert.ok(cheapFirst.indexOf("Hiking Socks") < cheapFirst.indexOf("Wool Beanie"));
  assert.ok(cheapFirst.indexOf("Wool Beanie") < cheapFirst.indexOf("Storm Jacket"));
  const dearFirst = (await client.get("/shop/products?sort=price_desc")).text;
  assert.match(dearFirst, /product-grid">\s*<div class="card product-card" id="product-21"/);
  const rated = (await client.get("/shop/products?sort=rating")).text;
  assert.match(rated, /product-grid">\s*<div class="card product-card" id="product-3"/);
  assert.match(rated, /<option value="rating" selected>/);
});

Deno.test("shop catalogue pager keeps the filters and marks the current page", async () => {
  const client = new ShopClient();
  const r = await client.get("/shop/products?sort=name&page=2");
  assert.match(r.text, /<span class="current" aria-current="page">2<\/span>/);
  assert.match(r.text, /href="\/shop\/products\?sort=name&amp;page=3" id="next-page"/);
  assert.match(r.text, /href="\/shop\/products\?sort=name" id="prev-page"/);
});

Deno.test("shop product page has tabs, variants and a size guide in a new tab", async () => {
  const client = new ShopClient();
  const r = await client.get("/shop/products/35?tab=reviews");
  assert.match(r.text, /id="tab-reviews" role="tab"\s+class="active"/);
  assert.match(r.text, /Reviews \(2\)/);
  assert.match(r.text, /type="radio" name="size" id="size-42" value="42"/);
  assert.match(r.text, /type="radio" name="colour" id="colour-blue" value="Blue"/);
  assert.match(r.text, /href="\/shop\/size-guide" target="_blank"/);
  assert.match(r.text, /Average rating <b>4.5<\/b> out of 5/);
  const plain = await client.get("/shop/products/10");
  assert.doesNotMatch(plain.text, /size-guide|name="size"/);
  const soldOut = await client.get("/shop/products/4");
  assert.match(soldOut.text, /id="add-to-cart" disabled/);
  assert.match(soldOut.text, /Out of stock/);
});

Deno.test("shop order detail shows totals and the invoice downloads as CSV", async () => {
  const client = new ShopClient();
  const page = await client.get("/shop/orders/SO-10244");
  assert.match(page.text, /id="order-discount">−\$20.10/);
  assert.match(page.text, /id="order-total">\$180.90/);
  assert.match(page.text, /id="download-invoice" href="\/shop\/orders\/SO-10244\/invoice.csv"/);
  const csv = await client.get("/shop/orders/SO-10244/invoice.csv");
  assert.equal(csv.status, 200);
  assert.equal(csv.headers.get("content-disposition"), 'attachment; filename="invoice-SO-10244.csv"');
  assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(csv.text, /^Invoice,SO-10244\r\n/);
  assert.match(csv.text, /Northpeak Storm Jacket,L,Navy,179.00,1,179.00\r\n/);
  assert.match(csv.text, /Discount \(SPRING10\),,,,,-20.10\r\nShipping,,,,,0.00\r\nTotal,,,,,180.90\r\n$/);
});
