import assert from "node:assert/strict";
import { parseKeyCombo } from "./_keys.ts";
import { ActionError } from "./errors.ts";

Deno.test("parseKeyCombo() reads single keys, aliases and modifier combos", () => {
  assert.deepEqual(parseKeyCombo("Enter"), { modifiers: [], key: "Enter" });
  assert.deepEqual(parseKeyCombo("esc"), { modifiers: [], key: "Escape" });
  assert.deepEqual(parseKeyCombo("Control+a"), { modifiers: ["Control"], key: "a" });
  assert.deepEqual(parseKeyCombo("Ctrl+A"), { modifiers: ["Control"], key: "a" });
  assert.deepEqual(parseKeyCombo("Control+Shift+ArrowDown"), { modifiers: ["Control", "Shift"], key: "ArrowDown" });
  assert.deepEqual(parseKeyCombo("Shift+A"), { modifiers: ["Shift"], key: "A" });
  assert.deepEqual(parseKeyCombo("Control++"), { modifiers: ["Control"], key: "+" });
  assert.deepEqual(parseKeyCombo("Shift"), { modifiers: [], key: "Shift" });
  assert.deepEqual(parseKeyCombo("f5"), { modifiers: [], key: "F5" });
});

Deno.test("parseKeyCombo() refuses sequences and empty parts", () => {
  assert.throws(() => parseKeyCombo(""), ActionError);
  assert.throws(() => parseKeyCombo("Control+"), /cannot read the key combination "Control\+"/);
  assert.throws(() => parseKeyCombo("a+b"), /"a" in "a\+b" is not a modifier/);
});
