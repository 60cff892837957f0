import assert from "node:assert/strict";
import { ADAPTER_OF_FAMILY, FAMILIES, familyOf, MACRO_FAMILY, MACROS } from "./macros.ts";

Deno.test("MACRO_FAMILY covers the vocabulary of docs/tasks.md", () => {
  assert.equal(MACROS.length, 23);
  assert.deepEqual(new Set(Object.values(MACRO_FAMILY)), new Set(FAMILIES));
  assert.equal(MACRO_FAMILY.reorder_list, "Drag & gesture");
  assert.equal(MACRO_FAMILY.confirm_dialog, "Out-of-page I/O");
  assert.equal(MACRO_FAMILY.pick_date, "Discrete selection");
  assert.equal(MACRO_FAMILY.edit_inline, "Text entry");
  assert.equal(MACRO_FAMILY.authenticate_by_form, "Form transaction");
  assert.equal(MACRO_FAMILY.switch_tab, "Navigation");
  assert.equal(MACRO_FAMILY.answer_question, "Reasoning base");
});

Deno.test("ADAPTER_OF_FAMILY routes families as the seed does", () => {
  assert.deepEqual(FAMILIES.map((f) => ADAPTER_OF_FAMILY[f]), [
    "drag",
    "io",
    "select",
    "rest",
    "rest",
    "rest",
    "reasoning",
  ]);
});

Deno.test("familyOf() ignores a #n suffix and calls unknown macros Other", () => {
  assert.equal(familyOf("set_slider"), "Drag & gesture");
  assert.equal(familyOf("submit_form#2"), "Form transaction");
  assert.equal(familyOf("submit_forms"), "Other");
  assert.equal(familyOf("toString"), "Other");
});
