import assert from "node:assert/strict";
import { dateTextMatches, parseKeyCombo, planKeys, segmentKeys } from "./_keys.ts";
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

Deno.test("planKeys() presses keys and shortcuts and types any other string", () => {
  assert.deepEqual(planKeys("Enter"), { combo: { modifiers: [], key: "Enter" } });
  assert.deepEqual(planKeys("pagedown"), { combo: { modifiers: [], key: "PageDown" } });
  assert.deepEqual(planKeys("Control+a"), { combo: { modifiers: ["Control"], key: "a" } });
  assert.deepEqual(planKeys("x"), { combo: { modifiers: [], key: "x" } });
  assert.deepEqual(planKeys("ls"), { text: "ls" });
  assert.deepEqual(planKeys("hello world"), { text: "hello world" });
  assert.deepEqual(planKeys("1+1"), { text: "1+1" });
  assert.deepEqual(planKeys("Hyper"), { text: "Hyper" });
  assert.deepEqual(planKeys(" "), { text: " " });
  assert.throws(() => planKeys("Control+Hyper"), /"Hyper" in "Control\+Hyper" is not a key name/);
  assert.throws(() => planKeys("ctrl+a+b"), /"a" in "ctrl\+a\+b" is not a modifier/);
});

Deno.test("segmentKeys() types a date as shown into full segments, without separators", () => {
  assert.deepEqual(segmentKeys("10/11/2011"), ["10", "11", "2011"]);
  assert.deepEqual(segmentKeys("1/5/2011"), ["01", "05", "2011"]);
  assert.deepEqual(segmentKeys("10/11/2011, 9:30 PM"), ["10", "11", "2011", "ArrowRight", "09", "30", "P"]);
  assert.deepEqual(segmentKeys("9:30pm"), ["09", "30", "p"]);
});

Deno.test("dateTextMatches() finds every typed number in the value, PM hours 12 later", () => {
  assert.ok(dateTextMatches("10/11/2011", "2011-10-11"));
  assert.ok(dateTextMatches("1/5/2011", "2011-01-05"));
  assert.ok(dateTextMatches("9:30 PM", "21:30"));
  assert.ok(dateTextMatches("10/11/2011 9:30 pm", "2011-10-11T21:30"));
  assert.ok(!dateTextMatches("10/11/2011", ""));
  assert.ok(!dateTextMatches("10/11/2011", "2011-11-12"));
  assert.ok(!dateTextMatches("9:30 AM", "21:30"));
  assert.ok(!dateTextMatches("next friday", "2011-01-05"));
});
