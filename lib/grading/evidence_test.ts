import assert from "node:assert/strict";
import { HarnessError } from "../errors/mod.ts";
import { actionEvents } from "./evidence.ts";
import { parseEvidence } from "../protocol/mod.ts";
import { checkoutEvidence } from "./_testdata.ts";

Deno.test("actionEvents() maps actions as the seed's action_events, then clipboard writes", () => {
  const trace = [
    { model: "select", action: [{ input: { index: 3, text: "Alex" } }, { send_keys: { keys: "Enter" } }] },
    { model: "rest", action: [{ select_dropdown: { index: 4, text: "Express" } }, { click: { index: 9 } }] },
    { model: "io", action: [{ drag: { source_index: 1, target_index: 2 } }, { macro_done: {} }] },
    { model: "reasoning", action: [{ done: { text: "14", success: true } }] },
  ];
  assert.deepEqual(actionEvents(trace, ["ORD-1042"]), [
    { type: "action", action: "type", target: "", value: "Alex" },
    { type: "action", action: "key", target: "", value: "Enter" },
    { type: "action", action: "select", target: "", value: "Express" },
    { type: "action", action: "click", target: "" },
    { type: "action", action: "drag", target: "" },
    { type: "action", action: "macro_done", target: "" },
    { type: "action", action: "answer", target: "", value: "14" },
    { type: "action", action: "clipboard_write", target: "", value: "ORD-1042" },
  ]);
});

Deno.test("actionEvents() takes parsed actions too and gives a missing value as null", () => {
  const trace = [{ action: [{ name: "input", params: { index: 1, text: "x" } }, { done: {} }, { send_keys: null }] }];
  assert.deepEqual(actionEvents(trace), [
    { type: "action", action: "type", target: "", value: "x" },
    { type: "action", action: "answer", target: "", value: null },
    { type: "action", action: "key", target: "", value: null },
  ]);
  assert.deepEqual(actionEvents([{ model: "planner" }]), [], "a step without actions adds none");
});

Deno.test("actionEvents() rejects an action object with two names", () => {
  assert.throws(
    () => actionEvents([{ action: [{ click: { index: 1 } }] }, { action: [{ click: {}, input: {} }] }]),
    (e: unknown) => e instanceof HarnessError && e.message.startsWith("trace[1].action[0]: expected one action"),
  );
});

Deno.test("parseEvidence() round-trips grade_inputs.json and fills optional streams", () => {
  const ev = checkoutEvidence();
  assert.deepEqual(parseEvidence(JSON.parse(JSON.stringify({ ...ev, blocked: ["http://x/"] })), "g.json"), ev);
  const minimal = parseEvidence('{"base": "http://127.0.0.1:1", "log": [], "changes": []}', "g.json");
  assert.deepEqual(minimal, {
    base: "http://127.0.0.1:1",
    log: [],
    changes: [],
    clip: [],
    events: [],
    record: [],
    answer: null,
    seen: [],
  });
  const entries = parseEvidence({ base: "b", log: [], changes: [], clip: [{ seq: 4, text: "ORD-1", url: "u" }] }, "g");
  assert.deepEqual(entries.clip, ["ORD-1"], "admin protocol clipboard entries become their texts");
});

Deno.test("parseEvidence() names the file and the bad field", () => {
  const ev = JSON.parse(JSON.stringify(checkoutEvidence()));
  delete ev.log[3].path;
  assert.throws(
    () => parseEvidence(ev, "out/shop_1/grade_inputs.json"),
    (e: unknown) => e instanceof HarnessError && e.message === "out/shop_1/grade_inputs.json: log[3].path: is missing",
  );
  assert.throws(() => parseEvidence("{", "g.json"), /^HarnessError: g\.json: not JSON/);
  assert.throws(
    () => parseEvidence({ base: "b", log: [], changes: [], answer: 14 }, "g.json"),
    /g\.json: answer: expected a string, got 14/,
  );
});

Deno.test("parseEvidence() types each app rule as the schema does", () => {
  const bad = [
    [{ generated: { orders: "id" } }, /rules\.shop\.generated\.orders: /],
    [{ bookkeeping: { orders: "updated_at" } }, /rules\.shop\.bookkeeping\.orders: /],
    [{ queryDefaults: { sort: 1 } }, /rules\.shop\.queryDefaults\.sort: /],
    [{ ignoredQuery: "notice" }, /rules\.shop\.ignoredQuery: /],
    [{ caselessQuery: [1] }, /rules\.shop\.caselessQuery\[0\]: /],
  ] as const;
  for (const [rules, message] of bad) {
    assert.throws(
      () => parseEvidence({ base: "b", log: [], changes: [], rules: { shop: rules } }, "g.json"),
      (e: unknown) => e instanceof HarnessError && message.test(e.message),
      JSON.stringify(rules),
    );
  }
  const rules = {
    shop: { bookkeeping: { carts: "*", orders: ["updated_at"] }, generated: { orders: ["id"] }, extra: 1 },
    mail: { queryDefaults: { sort: "new" }, ignoredQuery: ["notice"], caselessQuery: ["q"] },
  };
  assert.deepEqual(parseEvidence({ base: "b", log: [], changes: [], rules }, "g.json").rules, rules);
});
