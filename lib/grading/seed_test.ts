import assert from "node:assert/strict";
import type { LogEntry } from "../protocol/mod.ts";
import { seedCheck, seedFinal } from "./seed.ts";

const get = (path: string, query: Record<string, unknown> = {}, status = 200): LogEntry =>
  ({ seq: 1, time: "", method: "GET", path, query, body: null, status }) as LogEntry;

Deno.test("seedCheck() names what the seed never saved and falls back where its gate read the same", () => {
  const r = seedCheck({
    all: [
      { record: { action: "click", target: { contains: "#copy" } } },
      { not: { logged_in: true } },
      { record: { action: "input", value: "merino" }, times: 1 },
      { answer: "42", seen: { path: "/shop/orders" } },
    ],
  }, { answer: "42", seen: { path: "/x" } });
  assert.deepEqual(r.missing, [
    'recorder events (record {"action":"click","target":{"contains":"#copy"}})',
    "the login state (a logged_in condition)",
  ]);
  const all = (r.check as { all: unknown[] }).all;
  // The seed's action events: `input` was written as `type`, and carry no target.
  assert.deepEqual(all[2], { event: { action: "type", value: "merino", type: "action" }, times: 1 });
  assert.deepEqual(all[3], { answer: "42", seen: true });
  assert.equal(r.verifier?.seen, true);
  assert.match(seedCheck({ record: { action: "click" }, bound: "page" }).missing[0], /bound: page/);
});

Deno.test("seedFinal() is the last page the log shows (not a download), else the start page", () => {
  const log = [
    get("/shop/products", { page: "3", q: ["a", "b"] }),
    get("/mail/attachments/5/download"),
    get("/x", {}, 404),
  ];
  const f = seedFinal(log, "http://127.0.0.1:8318/", "/shop");
  assert.equal(f.url, "http://127.0.0.1:8318/shop/products?page=3&q=a&q=b");
  assert.deepEqual([f.logged_in, f.start_logged_in], [null, null]);
  assert.equal(seedFinal([], "http://127.0.0.1:8318", "/mail/inbox").url, "http://127.0.0.1:8318/mail/inbox");
});
