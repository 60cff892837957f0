import assert from "node:assert/strict";
import { TaskFormatError, UsageError } from "../errors/mod.ts";
import { armModels, familyModel, familyOf, familyPlan, planFamilies, subModel } from "./mod.ts";

const withPrefix = { task_id: "t1", macro: "submit_form", start: { prefix: { macro: "drag_and_drop" } } };
const plain = { task_id: "t2", macro: "select_option", start: { prefix: null } };
const human = { task_id: "h1", kind: "human", macro: "answer_question", macros: ["search", "answer_question"] };
const all = new Set(["drag", "io", "select", "rest", "reasoning"]);

Deno.test("familyPlan() puts a datagen task's prefix macro first", () => {
  assert.deepEqual(familyPlan(withPrefix), ["drag_and_drop", "submit_form"]);
  assert.deepEqual(familyPlan(plain), ["select_option"]);
  assert.deepEqual(familyPlan({ macro: "paginate" }), ["paginate"]);
  assert.deepEqual(familyPlan({ macro: "paginate", start: { prefix: { macro: "" } } }), ["paginate"]);
});

Deno.test("familyPlan() keeps a human task's macros in order and ignores its macro field", () => {
  assert.deepEqual(familyPlan(human), ["search", "answer_question"]);
  assert.throws(() => familyPlan({ ...human, macros: [] }), TaskFormatError);
  assert.throws(() => familyPlan({ kind: "human", task_id: "h2", macro: "search" }), /"h2" has no macros/);
});

Deno.test("familyOf() ignores an annotation's #n suffix and names unknown macros Other", () => {
  assert.equal(familyOf("submit_form#2"), "Form transaction");
  assert.equal(familyOf("set_slider"), "Drag & gesture");
  assert.equal(familyOf("fly_away"), "Other");
  assert.deepEqual(planFamilies(withPrefix), ["Drag & gesture", "Form transaction"]);
});

Deno.test("armModels() gives base and pooled one model for the whole plan", () => {
  assert.deepEqual(armModels("base", withPrefix, { baseName: "qwen35-4b", adapters: all }), ["qwen35-4b"]);
  assert.deepEqual(armModels("pooled", withPrefix, { baseName: "qwen35-4b", adapters: all }), ["pooled"]);
  assert.deepEqual(armModels("pooled", plain, { baseName: "b", adapters: all, pooledName: "mix" }), ["mix"]);
});

Deno.test("armModels() oracle uses each family's adapter when served, else the base model", () => {
  assert.deepEqual(armModels("oracle", withPrefix, { baseName: "b", adapters: all }), ["drag", "rest"]);
  assert.deepEqual(armModels("oracle", withPrefix, { baseName: "b", adapters: new Set(["rest"]) }), ["b", "rest"]);
  assert.deepEqual(armModels("oracle", human, { baseName: "b", adapters: new Set(["rest"]) }), ["rest", "b"]);
  assert.deepEqual(armModels("oracle", human, { baseName: "b", adapters: all }), ["rest", "reasoning"]);
  // a macro outside the vocabulary goes to the rest adapter, like the seed
  assert.deepEqual(armModels("oracle", { macro: "fly_away" }, { baseName: "b", adapters: all }), ["rest"]);
});

Deno.test("familyModel() gives the model a family's step goes to: oracle's adapter when served, else the base", () => {
  const drag = { baseName: "b", adapters: new Set(["drag"]) };
  assert.equal(familyModel("oracle", "Drag & gesture", drag), "drag");
  assert.equal(familyModel("oracle", "Navigation", drag), "b");
  assert.equal(familyModel("oracle", "Other", { baseName: "b", adapters: all }), "rest");
  assert.deepEqual([familyModel("base", "Navigation", drag), familyModel("pooled", "Navigation", drag)], [
    "b",
    "pooled",
  ]);
  assert.throws(() => familyModel("agent_planner", "Navigation", drag), /unknown arm "agent_planner"/);
});

Deno.test("armModels() rejects an arm it does not route", () => {
  assert.throws(() => armModels("agent_planner", plain, { baseName: "b", adapters: all }), UsageError);
  assert.throws(() => armModels("Oracle", plain, { baseName: "b", adapters: all }), /unknown arm "Oracle"/);
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
