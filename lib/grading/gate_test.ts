import assert from "node:assert/strict";
import { type Check, checkSchema, describeIssues, errorMap, verifierSchema } from "../protocol/mod.ts";
import { DETAIL_MAX, gate } from "./gate.ts";
import { netDiff } from "./state.ts";
import { checkoutEvidence } from "./_testdata.ts";

const CHECKOUT: Check = {
  all: [
    {
      change: {
        site: "shop",
        table: "orders",
        op: "insert",
        after: { shipping: "express", delivery_date: { date: "2026-03-18" }, total: 129.5, note: { present: false } },
      },
    },
    { change: { site: "shop", table: "order_items", op: "insert", after: { product_id: 7 } } },
  ],
};

/** The checkout's evidence without its writes, for checks about something else. */
const noWrites = (over: Parameters<typeof checkoutEvidence>[0] = {}) => checkoutEvidence({ changes: [], ...over });

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
    'all[0] change shop.orders insert: no changed row matched after.shipping = "express" ' +
      '(2 changed rows: after.shipping "standard", table "order_items"); expected 1',
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
    'all[1] any: none of 2 passed; all[1].any[0] clipboard: final clipboard "ORD-1042" does not match = "ORD-9"',
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
  const ev = noWrites({ answer: "14", seen: ["Open issues: 14"] });
  assert.equal(gate({ all: [] }, { answer: 14 }, ev).ok, true);
  assert.equal(gate({ all: [] }, { answer: 15 }, ev).detail, 'verifier answer: "14" states 14, not number 15');
  const unseen = noWrites({ answer: "14", seen: ["Open issues: 13"] });
  assert.equal(
    gate({ all: [] }, { answer: 14 }, unseen).detail,
    'verifier answer: "14" matches but was not seen on any screen',
  );
  assert.equal(gate({ all: [] }, { answer: 14, seen: false }, unseen).ok, true);
  const written = checkoutEvidence({ answer: "14", seen: ["Open issues: 14"] });
  assert.match(gate({ no_writes: true }, { answer: 14 }, written).detail, /^no_writes:/, "the check fails first");
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

Deno.test("gate() fails a write no condition claims, naming its table, key, field, before and after", () => {
  const ev = checkoutEvidence();
  ev.changes.push({
    site: "shop",
    table: "reviews",
    op: "insert",
    key: 9,
    before: null,
    after: { id: 9, rating: 2 },
  });
  assert.equal(
    gate(CHECKOUT, null, ev).detail,
    "unclaimed write shop.reviews insert key 9: id = 9, rating = 2 (no condition claims this row)",
  );
  // A claimed row with a field nobody listed: the order's note was written.
  const noted = checkoutEvidence();
  noted.changes[1].after!.note = "leave at door";
  const loose: Check = [
    { change: { table: "orders", after: { shipping: "express", delivery_date: "2026-03-18", total: 129.5 } } },
    { change: { table: "order_items", after: { product_id: 7 } } },
  ];
  assert.match(
    gate(loose, null, noted).detail,
    /^unclaimed write shop\.orders insert key 1042: note = "leave at door"/,
  );
  // An update's changed field nobody listed; a bookkeeping field needs no claim.
  const upd = noWrites({
    rules: { mail: { bookkeeping: { messages: ["read"] } } },
    changes: [{
      site: "mail",
      table: "messages",
      op: "update",
      key: 24,
      before: { starred: 0, labels: "", read: 0 },
      after: { starred: 1, labels: "Work", read: 1 },
    }],
  });
  const star: Check = { change: { table: "messages", key: 24, after: { starred: 1 } } };
  assert.equal(
    gate(star, null, upd).detail,
    'unclaimed write mail.messages update key 24: labels "" → "Work" (no condition lists field labels)',
  );
  assert.equal(gate({ change: { table: "messages", after: { starred: 1, labels: "Work" } } }, null, upd).ok, true);
});

Deno.test("gate() fails a write that is reverted or a row whose only change is bookkeeping as no change", () => {
  const write = (before: string, after: string) => ({
    site: "tracker",
    table: "issues",
    op: "update" as const,
    key: 8,
    before: { status: before, updated_at: "a" },
    after: { status: after, updated_at: "b" },
  });
  const rules = { tracker: { bookkeeping: { issues: ["updated_at"], activity: "*" as const } } };
  const reverted = noWrites({ rules, changes: [write("todo", "review"), write("review", "todo")] });
  assert.equal(gate({ no_writes: true }, null, reverted).ok, true);
  const check: Check = { change: { table: "issues", key: 8, after: { status: "review" } } };
  assert.match(gate(check, null, reverted).detail, /no changed row matched/);
  const logged = noWrites({
    rules,
    changes: [write("todo", "review"), {
      site: "tracker",
      table: "activity",
      op: "insert",
      key: 1,
      before: null,
      after: { id: 1, field: "status" },
    }],
  });
  assert.equal(gate(check, null, logged).ok, true, "an audit-log table is bookkeeping");
});

Deno.test("gate() reads the final page, the final clipboard and the login state at the end", () => {
  const base = "http://127.0.0.1:40115";
  const at = (url: string, logged = true, urls = [url]) =>
    noWrites({
      rules: { shop: { queryDefaults: { page: "1" }, ignoredQuery: ["msg"], caselessQuery: ["q"] } },
      final: { url: base + url, urls: urls.map((u) => base + u), logged_in: logged, start_logged_in: true },
    });
  const page3: Check = { page: { path: "/shop/products", query: { page: "3" } } };
  assert.equal(gate(page3, null, at("/shop/products?page=3&msg=added&sort=")).ok, true);
  assert.match(
    gate(page3, null, at("/shop/products?page=4")).detail,
    /^page: final page "\/shop\/products\?page=4": query page/,
  );
  assert.match(
    gate(page3, null, at("/shop/products?page=3&brand=Acme")).detail,
    /query brand="Acme" was not asked for/,
  );
  const search: Check = { page: { path: "/shop/products", query: { q: "lake view" } } };
  assert.equal(
    gate(search, null, at("/shop/products?q=Lake+View&page=1")).ok,
    true,
    "q ignores case, page=1 is the default",
  );
  const brands: Check = { page: { path: "/shop/products", query: { brand: "Acme" } } };
  assert.match(gate(brands, null, at("/shop/products?brand=Acme&brand=Zed")).detail, /brand has 2 value/);
  assert.equal(gate(brands, null, at("/shop/products?brand=acme")).ok, false, "brand does not ignore case");
  const anyTab: Check = { page: { path: "/shop/floors/3", tab: "any" } };
  assert.equal(gate(anyTab, null, at("/shop/", true, ["/shop/", "/shop/floors/3"])).ok, true);
  assert.equal(
    gate({ page: { path: "/shop/floors/3" } }, null, at("/shop/", true, ["/shop/", "/shop/floors/3"])).ok,
    false,
  );

  const copied = noWrites({ clip: ["SO-10243", "SO-10242"] });
  assert.equal(
    gate({ clipboard: { exact: "SO-10243" } }, null, copied).detail,
    'clipboard: final clipboard "SO-10242" does not match == "SO-10243"',
  );
  assert.equal(gate({ clipboard: { exact: "SO-10243" }, ever: true }, null, copied).ok, true);

  assert.match(gate({ all: [] }, null, at("/shop/", false)).detail, /^signed out at the end/);
  assert.equal(gate({ logged_in: false }, null, at("/shop/", false)).ok, true);
  assert.equal(gate({ logged_in: true }, null, at("/shop/", false)).detail, "logged_in: signed out at the end");
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
  assert.deepEqual(verifierSchema.parse({ answer: 14, seen: false, why: "a sum" }), {
    answer: 14,
    seen: false,
    why: "a sum",
  });
  // seen: false only where the task says why.
  assert.equal(verifierSchema.safeParse({ answer: 14, seen: false }).success, false);
  assert.deepEqual(verifierSchema.parse({ answer: 14, seen: { path: "/tracker/sprints/4" } }), {
    answer: 14,
    seen: { path: "/tracker/sprints/4" },
  });
  assert.equal(verifierSchema.safeParse({ answer: 14, seen: "yes" }).success, false);
  assert.equal(verifierSchema.safeParse({ seen: true }).success, false);
});

Deno.test("netDiff() keeps a deleted row and a new row that reuses its key apart", () => {
  const line = (id: number, product: number) => ({ id, product_id: product, qty: 1 });
  const changes = [
    { site: "shop", table: "cart_items", op: "delete" as const, key: 1, before: line(1, 19), after: null },
    { site: "shop", table: "cart_items", op: "insert" as const, key: 1, before: null, after: line(1, 7) },
  ];
  const ops = netDiff(changes).map((r) => `${r.op} ${r.before?.product_id ?? r.after?.product_id}`);
  assert.deepEqual(ops, ["delete 19", "insert 7"]);
});
