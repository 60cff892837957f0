import assert from "node:assert/strict";
import { TaskFormatError } from "../errors/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { familyOf } from "./families.ts";
import { familyAdapter, planFamilies, subModel } from "./mod.ts";
import { familyPlan } from "./plan.ts";

/** A task with only the fields planning reads. */
const task = (fields: Record<string, unknown>) => fields as unknown as RunTask;
const withPrefix = task({ task_id: "t1", macro: "submit_form", start: { prefix: { macro: "drag_and_drop" } } });
const plain = task({ task_id: "t2", macro: "select_option", start: { prefix: null } });
const human = task({ task_id: "h1", kind: "human", macro: "answer_question", macros: ["search", "answer_question"] });
const all = new Set(["drag", "io", "select", "rest", "reasoning"]);

Deno.test("familyPlan() puts a datagen task's prefix macro first", () => {
  assert.deepEqual(familyPlan(withPrefix), ["drag_and_drop", "submit_form"]);
  assert.deepEqual(familyPlan(plain), ["select_option"]);
  assert.deepEqual(familyPlan(task({ macro: "paginate" })), ["paginate"]);
  assert.deepEqual(familyPlan(task({ macro: "paginate", start: { prefix: { macro: "" } } })), ["paginate"]);
});

Deno.test("familyPlan() keeps a human task's macros in order and ignores its macro field", () => {
  assert.deepEqual(familyPlan(human), ["search", "answer_question"]);
  assert.throws(() => familyPlan(task({ ...human, macros: [] })), TaskFormatError);
  assert.throws(() => familyPlan(task({ kind: "human", task_id: "h2", macro: "search" })), /"h2" has no macros/);
});

Deno.test("familyOf() ignores an annotation's #n suffix and names unknown macros Other", () => {
  assert.equal(familyOf("submit_form#2"), "Form transaction");
  assert.equal(familyOf("set_slider"), "Drag & gesture");
  assert.equal(familyOf("fly_away"), "Other");
  assert.deepEqual(planFamilies(withPrefix), ["Drag & gesture", "Form transaction"]);
  assert.deepEqual(planFamilies(human), ["Text entry", "Reasoning base"]);
});

Deno.test("familyAdapter() gives a family's adapter when served, else the base model; Other goes to rest", () => {
  const drag = { baseName: "b", adapters: new Set(["drag"]) };
  assert.equal(familyAdapter("Drag & gesture", drag), "drag");
  assert.equal(familyAdapter("Navigation", drag), "b");
  assert.equal(familyAdapter("Other", { baseName: "b", adapters: all }), "rest");
  assert.equal(familyAdapter("fly away", { baseName: "b", adapters: all }), "rest", "like the seed");
  assert.deepEqual(planFamilies(human).map((f) => familyAdapter(f, { baseName: "b", adapters: all })), [
    "rest",
    "reasoning",
  ]);
  assert.deepEqual(planFamilies(human).map((f) => familyAdapter(f, { baseName: "b", adapters: new Set(["rest"]) })), [
    "rest",
    "b",
  ]);
});

Deno.test("subModel() picks the family adapter, then the fallback; reasoning falls back to base", () => {
  const opts = { baseName: "b", adapters: new Set(["drag"]), fallback: "pooled" };
  assert.equal(subModel("Drag & gesture", opts), "drag");
  assert.equal(subModel("Navigation", opts), "pooled");
  assert.equal(subModel("Navigation", { baseName: "b", adapters: new Set() }), "b");
  assert.equal(subModel("Reasoning base", opts), "b");
  assert.equal(subModel("Reasoning base", { ...opts, reasoningToFallback: true }), "pooled");
  assert.equal(subModel("Reasoning base", { ...opts, adapters: new Set(["reasoning"]) }), "reasoning");
});
