/** Evidence for the grading tests: a checkout on the shop (cart, order, express shipping) and a few page visits. */
import type { ChangeEntry, Evidence, LogEntry } from "../protocol/mod.ts";

const log = (method: string, path: string, extra: Partial<LogEntry> = {}): LogEntry => ({
  method,
  path,
  query: {},
  body: null,
  status: method === "GET" ? 200 : 303,
  ...extra,
});

const change = (table: string, op: ChangeEntry["op"], key: unknown, before: unknown, after: unknown): ChangeEntry => ({
  site: "shop",
  table,
  op,
  key,
  before: before as ChangeEntry["before"],
  after: after as ChangeEntry["after"],
});

/** A fresh copy every call, so a test that mutates it cannot leak into another. */
export function checkoutEvidence(overrides: Partial<Evidence> = {}): Evidence {
  return {
    base: "http://127.0.0.1:40115",
    log: [
      log("GET", "/shop/products/7"),
      log("POST", "/shop/cart", { body: { product_id: "7", qty: "1" } }),
      log("GET", "/shop/cart"),
      log("GET", "/shop/search", { query: { q: "lamp", page: "2" } }),
      log("POST", "/shop/checkout", { body: { shipping: "express" }, status: 422 }),
      log("POST", "/shop/checkout", { body: { shipping: "express", delivery_date: "2026-03-18" } }),
      log("GET", "/shop/orders/1042", { status: 404 }),
    ],
    changes: [
      change("cart_items", "insert", 1, null, { id: 1, product_id: 7, qty: 1 }),
      change("orders", "insert", 1042, null, {
        id: 1042,
        shipping: "express",
        delivery_date: "2026-03-18",
        total: 129.5,
        created_at: "2026-01-05T10:00:00Z",
        note: null,
      }),
      change("order_items", "insert", 1, null, { id: 1, order_id: 1042, product_id: 7 }),
      change("cart_items", "delete", 1, { id: 1, product_id: 7, qty: 1 }, null),
    ],
    clip: ["ORD-1042"],
    events: [
      { type: "action", action: "click", target: "" },
      { type: "action", action: "type", target: "", value: "Alex Morgan" },
      { type: "action", action: "select", target: "", value: "Express" },
      { type: "action", action: "answer", target: "", value: "ORD-1042" },
      { type: "action", action: "clipboard_write", target: "", value: "ORD-1042" },
    ],
    record: [
      { type: "observation", kind: "page_load", url: "http://127.0.0.1:40115/shop/cart", title: "Cart" },
      { type: "action", action: "click", target: 'button#checkout "Checkout"' },
      { type: "action", action: "drag", target: 'li#card-3 "Fix login"', value: 'ul#done "Done"' },
      { type: "action", action: "drag", target: 'li#card-4 "Write docs"', value: 'ul#done "Done"' },
    ],
    answer: "ORD-1042",
    rules: { shop: { generated: { orders: ["id", "created_at"], order_items: ["id", "order_id"] } } },
    seen: ["Thank you! Your order ORD-1042 ships express on March 18, 2026. Total $129.50"],
    ...overrides,
  };
}
