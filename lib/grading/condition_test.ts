import assert from "node:assert/strict";
import type { Condition, Evidence } from "../protocol/mod.ts";
import { conditionFailure } from "./gate.ts";
import { checkoutEvidence } from "./_testdata.ts";

// One condition's semantics, without the end-state rules (gate_test.ts tests those).
function passes(c: Condition, ev: Evidence = checkoutEvidence()): void {
  const why = conditionFailure(c, ev);
  assert.equal(why, null, `${JSON.stringify(c)} should pass: ${why?.text}`);
}

function fails(c: Condition, ev: Evidence = checkoutEvidence()): string {
  const why = conditionFailure(c, ev);
  assert.ok(why !== null, `${JSON.stringify(c)} should fail`);
  return why.text;
}

Deno.test("request condition matches method, path, query, body and status", () => {
  passes({ request: { method: "POST", path: "/shop/cart", body: { product_id: 7, qty: "1" } } });
  passes({ request: { method: "get", path: "/shop/search", query: { q: "lamp", page: 2 } } });
  // The whole query is compared, exactly, but for the keys the app reads ignoring case.
  fails({ request: { path: "/shop/search", query: { q: "lamp" } } });
  fails({ request: { path: "/shop/search", query: { q: "Lamp", page: 2 } } });
  passes(
    { request: { path: "/shop/search", query: { q: "Lamp", page: 2 } } },
    checkoutEvidence({ rules: { shop: { caselessQuery: ["q"] } } }),
  );
  passes({ request: { path: "/shop/checkout", status: 422 } });
  fails({ request: { method: "POST", path: "/shop/cart", body: { qty: "2" } } });
  fails({ request: { method: "PUT", path: "/shop/cart" } });
  fails({ request: { path: "/shop/search", query: { q: "lamp", page: "3" } } });
  fails({ request: { path: "/shop/orders/1042" } }, checkoutEvidence()); // 404: status defaults to below 400
  fails({ request: { path: "/shop/cart", body: { coupon: { present: true } } } });
});

Deno.test("request condition with times counts exactly", () => {
  passes({ request: { method: "POST", path: "/shop/checkout", status: { present: true } }, times: 2 });
  assert.equal(
    fails({ request: { method: "POST", path: "/shop/checkout", status: { present: true } }, times: 3 }),
    "request POST /shop/checkout: 2 requests matched, expected 3",
  );
  passes({ request: { method: "DELETE" }, times: 0 });
  fails({ request: { method: "POST", path: "/shop/cart" }, times: 0 });
});

Deno.test("change condition matches a row's net change: site, table, op, key and its start and end images", () => {
  passes({ change: { site: "shop", table: "orders", op: "insert", key: 1042, after: { shipping: "express" } } });
  // The cart line was inserted and deleted again: no net change, though each write happened (`ever`).
  fails({ change: { table: "cart_items", op: "delete", before: { qty: 1 } } });
  passes({ change: { table: "cart_items", op: "delete", before: { qty: 1 } }, ever: true });
  passes({ change: { table: "orders", after: { total: { number: 129.5 }, note: { present: false } } } });
  fails({ change: { table: "orders", op: "update", after: { shipping: "express" } } }); // right table, wrong op
  fails({ change: { site: "mail", table: "orders" } });
  fails({ change: { table: "orders", key: 1043 } });
  fails({ change: { table: "orders", after: { shipping: "standard" } } });
  fails({ change: { table: "orders", after: { gift_wrap: { present: false } } } }); // the field must exist
  fails({ change: { table: "orders", before: { shipping: "express" } } }); // an insert has no before image
  passes({ change: { table: "cart_items" }, times: 2, ever: true });
  fails({ change: { table: "cart_items" }, times: 1, ever: true });
  passes({ change: { table: "cart_items" }, times: 0 });
});

Deno.test("change condition reads the end state: a write made then undone, or overwritten, is not its end", () => {
  const ev = (...changes: Evidence["changes"]) => checkoutEvidence({ changes });
  const upd = (from: string, to: string, at = 55) => ({
    site: "tracker",
    table: "issues",
    op: "update" as const,
    key: at,
    before: { status: from },
    after: { status: to },
  });
  const moved = { change: { table: "issues", key: 55, after: { status: "in_progress" } } };
  passes(moved, ev(upd("todo", "in_progress")));
  assert.match(fails(moved, ev(upd("todo", "in_progress"), upd("in_progress", "review"))), /after\.status/);
  assert.match(fails(moved, ev(upd("todo", "in_progress"), upd("in_progress", "todo"))), /no changed row/);
  // Default times is 1: the same change on two rows is not "the" change.
  const anyIssue = { change: { table: "issues", after: { status: "in_progress" } } };
  assert.match(fails(anyIssue, ev(upd("todo", "in_progress"), upd("todo", "in_progress", 56))), /2 changed rows/);
});

Deno.test("event condition matches the agent's action events", () => {
  passes({ event: { action: "type", value: "alex morgan" } });
  passes({ event: { action: "select", value: { contains: "press" } } });
  fails({ event: { action: "type", value: "Alex Morgen" } });
  fails({ event: { action: "drag" } });
  passes({ event: { action: "click" }, times: 1 });
  fails({ event: { action: "click" }, times: 2 });
});

Deno.test("record condition matches the recorder stream, type action by default", () => {
  passes({ record: { action: "drag", target: { contains: "Fix login" }, value: { contains: "Done" } } });
  passes({ record: { action: "drag" }, times: 2 });
  assert.equal(fails({ record: { action: "drag" }, times: 3 }), "record drag: 2 recorder events matched, expected 3");
  fails({ record: { action: "drag", target: { contains: "Fix logout" } } });
  passes({ record: { kind: "page_load", url: { contains: "/shop/cart" } } }); // kind: an observation
  fails({ record: { kind: "page_load", url: { contains: "/shop/orders" } } });
  fails({ record: { kind: "page_load", type: "action" } });
});

Deno.test("clipboard condition matches some clipboard write", () => {
  passes({ clipboard: { regex: "^ORD-\\d+$" } });
  fails({ clipboard: { regex: "^ORD-\\d{5}$" } });
  fails({ clipboard: "ORD-1042" }, checkoutEvidence({ clip: [] }));
});

Deno.test("answer condition needs a matching answer that was seen", () => {
  passes({ answer: "ord-1042" });
  passes({ answer: { date: "2026-03-18" } }, checkoutEvidence({ answer: "2026-03-18" }));
  passes({ answer: 129.5, seen: true }, checkoutEvidence({ answer: "129.5" }));
  fails({ answer: "ORD-1043" });
  assert.match(fails({ answer: "ORD-1042" }, checkoutEvidence({ seen: ["nothing here"] })), /not seen on any screen/);
  passes({ answer: "ORD-1042", seen: false }, checkoutEvidence({ seen: [] }));
  assert.match(fails({ answer: { present: true } }, checkoutEvidence({ answer: null })), /no answer/);
  fails({ answer: { date: "2026-03-19" } }, checkoutEvidence({ answer: "March 19, 2026" }));
});

Deno.test("visited condition matches successful GETs by path with query or full URL", () => {
  passes({ visited: "/shop/cart" });
  passes({ visited: "/shop/search?q=lamp&page=2" });
  passes({ visited: { regex: "^http://127\\.0\\.0\\.1:40115/shop/products/7$" } });
  fails({ visited: "/shop/search" }); // the query string is part of the visit
  fails({ visited: "/shop/orders/1042" }); // answered 404
  fails({ visited: "/shop/checkout" }); // POST only
  passes({ visited: { contains: "/shop/" }, times: 3 });
  passes({ visited: "http://127.0.0.1:40115/shop/search?q=lamp&page=2" });
  passes({ visited: { norm: "HTTP://127.0.0.1:40115/Shop/Cart" } });
  passes({ visited: { exact: "http://127.0.0.1:40115/shop/cart" } });
  fails({ visited: { exact: "http://127.0.0.1:40115/Shop/cart" } });
  fails({ visited: "http://127.0.0.1:40116/shop/cart" }); // another origin
  fails({ visited: "http://127.0.0.1:40115/shop/cart" }, checkoutEvidence({ base: "http://127.0.0.1:9" }));
  passes({ visited: "http://127.0.0.1:40115/shop/cart" }, checkoutEvidence({ base: "http://127.0.0.1:40115/" }));
  passes({ visited: { one_of: ["http://127.0.0.1:40115/shop/cart", "/nowhere"] } }); // tested on both forms
});

Deno.test("only_writes allows exactly the listed writes", () => {
  passes({ only_writes: [{ table: "orders" }, { table: "order_items" }, { table: "cart_items" }] });
  passes({ only_writes: [{ site: "shop" }] });
  assert.equal(
    fails({ only_writes: [{ table: "orders" }, { table: "cart_items" }] }),
    "only_writes: unexpected write shop.order_items insert key 1; allowed: orders, cart_items",
  );
  // The cart line's insert and delete cancel out: only the order's rows changed.
  passes({ only_writes: [{ table: "orders" }, { table: "order_items" }] });
  fails({ only_writes: [{ table: "orders" }] });
  passes({ only_writes: [] }, checkoutEvidence({ changes: [] }));
});

Deno.test("no_writes passes only without any data change", () => {
  passes({ no_writes: true }, checkoutEvidence({ changes: [] }));
  assert.match(fails({ no_writes: true }), /^no_writes: 2 changed row\(s\): shop\.orders insert key 1042, /);
});

Deno.test("all, any, not and lists combine conditions", () => {
  passes({ all: [{ clipboard: "ORD-1042" }, { answer: "ORD-1042" }] });
  passes([{ clipboard: "ORD-1042" }, { answer: "ORD-1042" }]);
  fails([{ clipboard: "ORD-1042" }, { answer: "ORD-1043" }]);
  passes({ any: [{ clipboard: "nope" }, { answer: "ORD-1042" }] });
  fails({ any: [{ clipboard: "nope" }, { answer: "nope" }] });
  passes({ not: { change: { table: "products" } } });
  fails({ not: { change: { table: "orders" } } });
  passes({ all: [] });
});

Deno.test("visited condition repeats a repeated query key as the browser sent it", () => {
  const ev = checkoutEvidence();
  ev.log.push({
    method: "GET",
    path: "/tracker/issues",
    query: { status: ["todo", "review"], q: "api" },
    body: null,
    status: 200,
  });
  passes({ visited: "/tracker/issues?status=todo&status=review&q=api" }, ev);
  fails({ visited: "/tracker/issues?status=todo%2Creview&q=api" }, ev);
});

Deno.test("request query is read without a base (a human trajectory's evidence has none)", () => {
  const ev = checkoutEvidence({ base: "" });
  passes({ request: { path: "/shop/search", query: { q: "lamp", page: "2" } } }, ev);
  fails({ request: { path: "/shop/search", query: { q: "lamp" } } }, ev);
});
