import assert from "node:assert/strict";
import type { ActionCall } from "../protocol/mod.ts";
import { gateDone, MAX_GATES, premature, routerNote } from "./gate.ts";

Deno.test("premature() flags a done with planned steps left or an untouched last step", () => {
  assert.equal(premature(2, 5, "Navigation"), true);
  assert.equal(premature(1, 0, "Navigation"), true);
  assert.equal(premature(1, 0, undefined), true);
  assert.equal(premature(1, 1, "Navigation"), false);
  assert.equal(premature(0, 0, "Navigation"), false);
  // a reasoning step's done is its answer
  assert.equal(premature(1, 0, "Reasoning base"), false);
  assert.equal(premature(2, 0, "Reasoning base"), true);
});

Deno.test("gateDone() rewrites the first done into macro_done without touching its input", () => {
  const acts: ActionCall[] = [{ click: { index: 3 } }, { done: { text: "x" } }, { done: { text: "y" } }];
  const out = gateDone(acts, true, 0);
  assert.equal(out.gated, true);
  assert.deepEqual(out.actions, [{ click: { index: 3 } }, { macro_done: {} }, { done: { text: "y" } }]);
  assert.deepEqual(acts[1], { done: { text: "x" } });
});

Deno.test("gateDone() leaves a reply alone when not premature, past MAX_GATES or without done", () => {
  const acts = [{ done: { text: "x" } }];
  assert.equal(MAX_GATES, 3);
  assert.deepEqual(gateDone(acts, false, 0), { actions: acts, gated: false });
  assert.deepEqual(gateDone(acts, true, MAX_GATES), { actions: acts, gated: false });
  assert.equal(gateDone(acts, true, MAX_GATES - 1).gated, true);
  assert.deepEqual(gateDone([{ click: { index: 1 } }], true, 0).gated, false);
});

Deno.test("routerNote() lists the steps left with their hints", () => {
  const note = routerNote(["Drag & gesture", "Reasoning base", "Other"]);
  assert.match(note, /^The task is not finished yet\. The router's plan still has 3 step\(s\): Drag & gesture \(/);
  assert.match(note, /\); then Reasoning base \(read the pages and give the answer with done\); then Other\. /);
  assert.match(note, /call done only when every part is finished\.$/);
  assert.match(routerNote([]), /has 0 step\(s\): \. Re-read/);
});
