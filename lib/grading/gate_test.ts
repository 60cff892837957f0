import assert from "node:assert/strict";
import { type Check, checkSchema, verifierSchema } from "./condition.ts";
import { DETAIL_MAX, gate } from "./gate.ts";
import { describeIssues, errorMap } from "./schema_text.ts";
import { checkoutEvidence } from "./_testdata.ts";

const CHECKOUT: Check = {
  all: [
    { change: { site: "shop", table: "orders", op: "insert", after: { shipping: "express" } } },
    { only_writes: [{ table: "orders" }, { table: "order_items" }, { table: "cart_items" }] },
  ],
};

Deno.test("gate() passes the seed-style checkout check with an empty detail", () => {
  assert.deepEqual(gate(CHECKOUT, null, checkoutEvidence()), { ok: true, detail: "" });
});

Deno.test("gate() detail names the failing condition's path and the closest changes", () => {
  const ev = checkoutEvidence();
  ev.changes[1].after!.shipping = "standard";
  const r = gate(CHECKOUT, null, ev);
  assert.equal(r.ok, false);
  assert.equal(
    r.detail,
    'all[0] change shop.orders insert: no change matched after.shipping = "express" ' +
      '(4 changes: after.shipping "standard", table "cart_items", table "order_items", ...)',
  );
});

Deno.test("gate() detail points into nested combinators", () => {
  const check: Check = [
    { answer: "ORD-1042" },
    { any: [{ clipboard: "ORD-9" }, { not: { request: { method: "POST", path: "/shop/cart" } } }] },
  ];
  const r = gate(check, null, checkoutEvidence());
  assert.equal(
    r.detail,
    'all[1] any: none of 2 passed; all[1].any[0] clipboard: no clipboard write matched text = "ORD-9" ' +
      '(1 clipboard write: text "ORD-1042")',
  );
  const negated = gate({ not: { request: { method: "POST", path: "/shop/cart" } } }, null, checkoutEvidence());
  assert.equal(negated.detail, "not: request POST /shop/cart passed");
});

Deno.test("gate() names the request field that differs and the empty streams", () => {
  const r = gate({ request: { method: "POST", path: "/shop/cart", body: { qty: "2" } } }, null, checkoutEvidence());
  assert.match(
    r.detail,
    /^request POST \/shop\/cart: no request matched body\.qty = "2" \(7 requests: body\.qty "1", /,
  );
  const empty = gate({ event: { action: "drag" } }, null, checkoutEvidence({ events: [] }));
  assert.equal(empty.detail, "event drag: no event matched (no events)");
  const times = gate({ clipboard: "x", times: 2 }, null, checkoutEvidence({ clip: [] }));
  assert.equal(times.detail, "clipboard: no clipboard write matched (no clipboard writes); expected 2");
});

Deno.test("gate() checks the verifier after the check", () => {
  const ev = checkoutEvidence({ answer: "14", seen: ["Open issues: 14"] });
  assert.equal(gate({ all: [] }, { answer: 14 }, ev).ok, true);
  assert.equal(gate({ all: [] }, { answer: 15 }, ev).detail, 'verifier answer: "14" does not match number 15');
  const unseen = checkoutEvidence({ answer: "14", seen: ["Open issues: 13"] });
  assert.equal(
    gate({ all: [] }, { answer: 14 }, unseen).detail,
    'verifier answer: "14" matches but was not seen on any screen',
  );
  assert.equal(gate({ all: [] }, { answer: 14, seen: false }, unseen).ok, true);
  assert.match(gate({ no_writes: true }, { answer: 14 }, ev).detail, /^no_writes:/, "the check fails first");
});

Deno.test("gate() keeps the detail within DETAIL_MAX characters", () => {
  const long = "x".repeat(400);
  const r = gate({ answer: { contains: long } }, null, checkoutEvidence({ answer: long.slice(1) }));
  assert.equal(r.ok, false);
  assert.ok(r.detail.length <= DETAIL_MAX, `${r.detail.length} characters`);
  assert.ok(r.detail.startsWith("answer: "));
});

Deno.test("gate() is pure and deterministic", () => {
  const ev = checkoutEvidence();
  ev.changes[1].after!.shipping = "standard";
  const before = JSON.stringify([CHECKOUT, ev]);
  const a = gate(CHECKOUT, { answer: "ORD-1042" }, ev);
  const b = gate(CHECKOUT, { answer: "ORD-1042" }, ev);
  assert.deepEqual(a, b);
  assert.equal(JSON.stringify([CHECKOUT, ev]), before);
});

function checkError(raw: unknown): string {
  const r = checkSchema.safeParse(raw, { error: errorMap });
  assert.ok(!r.success, `${JSON.stringify(raw)} should not parse`);
  return describeIssues(r.error);
}

Deno.test("checkSchema names the malformed field of a check", () => {
  assert.ok(checkSchema.safeParse(CHECKOUT, { error: errorMap }).success);
  assert.equal(
    checkError({ all: [{ change: { table: "orders", op: "upsert" } }] }),
    'all[0].change.op: must be one of "insert", "update", "delete", got "upsert"',
  );
  assert.equal(checkError([{ request: { path: "/x" }, times: 1.5 }]), "[0].times: expected an integer, got 1.5");
  assert.equal(checkError({ request: { url: "/x" } }), "request.url: is not a known field");
  assert.equal(checkError({ no_writes: false }), "no_writes: must be one of true, got false");
  assert.equal(checkError({ answer: "x", times: 2 }), "times: is not a known field");
  assert.equal(checkError({ any: [] }), "any: must have at least 1 item(s)");
  assert.match(checkError({ visit: "/x" }), /^expected a condition \(one of request, change, .*\), got "visit"$/);
  assert.equal(
    checkError({ change: { table: "orders", after: { total: { number: "12" } } } }),
    'change.after.total.number: expected a number, got "12"',
  );
});

Deno.test("verifierSchema takes an answer matcher or null", () => {
  assert.deepEqual(verifierSchema.parse(null), null);
  assert.deepEqual(verifierSchema.parse({ answer: 14, seen: false }), { answer: 14, seen: false });
  assert.equal(verifierSchema.safeParse({ answer: 14, seen: "yes" }).success, false);
  assert.equal(verifierSchema.safeParse({ seen: true }).success, false);
});
