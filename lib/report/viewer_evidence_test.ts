import assert from "node:assert/strict";
import { compactEvidence } from "./viewer_evidence.ts";

Deno.test("compactEvidence() writes one line per request and change, updates with their changed fields only", () => {
  const ev = compactEvidence({
    log: [
      { method: "GET", path: "/shop/products", query: { page: "3", q: "a b" }, body: null, status: 200 },
      { method: "POST", path: "/shop/cart", query: {}, body: { product_id: "7" }, status: 303 },
    ],
    changes: [
      {
        site: "tracker",
        table: "issues",
        op: "update",
        key: 55,
        before: { status: "todo", rank: 1 },
        after: { status: "in_progress", rank: 1 },
      },
      { site: "shop", table: "cart_items", op: "insert", key: 1, before: null, after: { id: 1, qty: 1 } },
    ],
    clip: ["ORD-1042", { seq: 4, text: "from the admin protocol" }],
    answer: "14",
    final: { url: "http://127.0.0.1:8/shop/products?page=3", logged_in: false },
    record: [{ type: "observation", kind: "page_load" }, { type: "action", action: "click", target: 'a#page-3 "3"' }],
  });
  assert.deepEqual(ev.requests, ["GET /shop/products?page=3&q=a+b → 200", 'POST /shop/cart → 303 {"product_id":"7"}']);
  assert.deepEqual(ev.changes, [
    'tracker.issues update 55: status "todo" → "in_progress"',
    'shop.cart_items insert 1: {"id":1,"qty":1}',
  ]);
  assert.deepEqual(ev.clip, ["ORD-1042", "from the admin protocol"]);
  assert.deepEqual(ev.actions, ['click a#page-3 "3"']);
  assert.equal(ev.final, "http://127.0.0.1:8/shop/products?page=3 (logged out)");
  assert.equal(ev.answer, "14");
});

Deno.test("compactEvidence() keeps the first 200 requests and counts the rest", () => {
  const log = Array.from({ length: 203 }, (_, i) => ({ method: "GET", path: `/p/${i}`, query: {}, status: 200 }));
  const ev = compactEvidence({ log, changes: [] });
  assert.equal(ev.requests.length, 200);
  assert.equal(ev.requests[199], "GET /p/199 → 200");
  assert.deepEqual(ev.more, { requests: 3, actions: 0 });
});
