import assert from "node:assert/strict";
import { UsageError } from "../errors/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { type AdapterOptions, createRouter, familyAdapter, MAX_GATES, planFamilies, Router } from "./mod.ts";

const all = new Set(["drag", "io", "select", "rest", "reasoning"]);
const opts = { baseName: "qwen35-4b", adapters: all };
/** A task with only the fields planning reads. */
const task = (fields: Record<string, unknown>) => fields as unknown as RunTask;
const withPrefix = task({ task_id: "t1", macro: "submit_form", start: { prefix: { macro: "drag_and_drop" } } });
const plain = task({ task_id: "t2", macro: "select_option", start: { prefix: null } });

/** The router of a task whose planned steps each go to their family's adapter (as the oracle arm routes them). */
function byFamily(t: RunTask, options: AdapterOptions, gating: { gate?: boolean; note?: boolean } = {}): Router {
  const families = planFamilies(t);
  return createRouter({ models: families.map((f) => familyAdapter(f, options)), families, ...gating });
}
const click = { click: { index: 1 } };
const done = { done: { text: "ok", success: true } };
const macroDone = { macro_done: {} };

/** Feeds replies to a router; -> the model each reply was requested from. */
function drive(router: Router, replies: ActionCall[][]): string[] {
  const models: string[] = [];
  for (const reply of replies) {
    models.push(router.modelForNextRequest());
    router.observe(reply);
  }
  return models;
}

Deno.test("Router by family sends a prefix task's steps to the prefix family first, then the task's", () => {
  const router = byFamily(withPrefix, opts);
  const models = drive(router, [[click], [click, macroDone], [click], [{ input: { index: 2, text: "a" } }], [done]]);
  assert.deepEqual(models, ["drag", "drag", "rest", "rest", "rest"]);
  assert.deepEqual(router.trace.map((t) => t.model), models);
  assert.equal(router.step, 1);
});

Deno.test("Router by family, without a prefix, keeps the task's adapter, even past a stray macro_done", () => {
  const router = byFamily(plain, opts);
  assert.deepEqual(drive(router, [[click], [macroDone], [click], [done]]), ["select", "select", "select", "select"]);
  assert.equal(router.step, 1);
});

Deno.test("Router with one model uses it at every step of a prefix task, and plans no families", () => {
  const replies = [[click], [macroDone], [click], [done]];
  const one = createRouter({ models: ["pooled"] });
  assert.deepEqual(drive(one, replies), Array(4).fill("pooled"));
  assert.equal(one.familyForNextRequest(), undefined);
});

Deno.test("Router by family falls back to the base model for an adapter the server lacks", () => {
  const router = byFamily(withPrefix, { ...opts, adapters: new Set(["rest"]) });
  assert.deepEqual(drive(router, [[click], [macroDone], [click]]), ["qwen35-4b", "qwen35-4b", "rest"]);
});

Deno.test("Router gates a done with planned steps left and advances to the next specialist", () => {
  const router = byFamily(withPrefix, opts, { gate: true });
  const first = router.observe([click, done]);
  assert.equal(first.gated, true);
  assert.deepEqual(first.actions, [click, macroDone]);
  assert.equal(first.note, undefined);
  assert.equal(router.modelForNextRequest(), "rest");
  // the last step has not been acted on yet: its done is premature too
  assert.equal(router.observe([done]).gated, true);
  assert.deepEqual(router.trace.map((t) => t.gated), [true, true]);
  assert.equal(router.gates, 2);
});

Deno.test("Router lets the last step's done through once the step has acted", () => {
  const router = byFamily(withPrefix, opts, { gate: true });
  router.observe([macroDone]);
  router.observe([{ input: { index: 3, text: "Alex" } }]);
  const last = router.observe([done]);
  assert.equal(last.gated, false);
  assert.deepEqual(last.actions, [done]);
  assert.equal(router.trace[2].gated, undefined);
  assert.equal(Object.hasOwn(router.trace[2], "gated"), false);
});

Deno.test("Router gates at most MAX_GATES times per episode", () => {
  const macros = ["search", "navigate_menu", "submit_form", "toggle_checkbox", "paginate"];
  const router = byFamily(task({ kind: "human", macro: "paginate", macros }), opts, { gate: true });
  const gated = [1, 2, 3, 4].map(() => router.observe([done]).gated);
  assert.deepEqual(gated, [true, true, true, false]);
  assert.equal(router.gates, MAX_GATES);
  assert.equal(router.step, 3);
});

Deno.test("Router does not gate a reasoning step's done, but does gate an untouched action step", () => {
  const human = { kind: "human", macro: "answer_question", macros: ["select_option", "answer_question"] };
  const router = byFamily(task(human), opts, { gate: true });
  router.observe([click, macroDone]);
  assert.equal(router.modelForNextRequest(), "reasoning");
  assert.equal(router.observe([{ done: { text: "14" } }]).gated, false);

  const near = byFamily(task({ ...human, macros: ["answer_question", "select_option"] }), opts, { gate: true });
  near.observe([macroDone]);
  assert.equal(near.observe([{ done: { text: "14" } }]).gated, true);
});

Deno.test("Router delivers the router note once, on the step after the gate", () => {
  const router = byFamily(withPrefix, opts, { gate: true, note: true });
  assert.equal(router.pendingNote(), undefined);
  const obs = router.observe([done]);
  assert.equal(obs.gated, true);
  assert.match(obs.note ?? "", /plan still has 2 step\(s\): Drag & gesture \(.*\); then Form transaction \(/);
  assert.equal(router.pendingNote(), obs.note);
  assert.equal(router.pendingNote(), undefined);
  router.observe([click]);
  assert.equal(router.pendingNote(), undefined);
});

Deno.test("Router without gating passes a premature done through; a note needs gating", () => {
  const off = byFamily(withPrefix, opts);
  assert.deepEqual(off.observe([done]), { actions: [done], gated: false });
  const noteOnly = byFamily(withPrefix, opts, { note: true });
  assert.equal(noteOnly.observe([done]).gated, false);
  assert.equal(noteOnly.pendingNote(), undefined);
  const noted = new Router(["a", "b"], ["Navigation", "Navigation"], { gate: true });
  assert.equal(noted.observe([done]).note, undefined);
  assert.equal(noted.pendingNote(), undefined);
});

Deno.test("Router.observe() does not modify the reply it is given", () => {
  const reply = [done];
  byFamily(withPrefix, opts, { gate: true }).observe(reply);
  assert.deepEqual(reply, [{ done: { text: "ok", success: true } }]);
  assert.throws(() => new Router([]), UsageError);
});
