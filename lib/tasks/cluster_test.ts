import assert from "node:assert/strict";
import { clusterOfTaskId } from "../protocol/mod.ts";
import { taskCluster, taskStyle } from "./cluster.ts";
import { parseTaskLines } from "./load.ts";

const VAL = new URL("../../fixtures/valgen/val.jsonl", import.meta.url);
const HAND_WRITTEN = new URL("../../fixtures/tasks.jsonl", import.meta.url);

Deno.test("taskCluster() is a generated task's template, and clusterOfTaskId() finds it from the id alone", async () => {
  const text = await Deno.readTextFile(VAL);
  const tasks = parseTaskLines(text.split("\n").slice(0, 30).join("\n"), "val.jsonl");
  for (const t of tasks) {
    assert.ok("gen" in t && t.gen);
    assert.equal(taskCluster(t), t.gen.template);
    assert.equal(clusterOfTaskId(t.task_id), t.gen.template);
  }
});

Deno.test("clusterOfTaskId() leaves a hand-written task its own cluster", () => {
  assert.equal(clusterOfTaskId("shop_paginate_page3"), "shop_paginate_page3");
  // Eight hex digits without a dotted template before them are a hand-written id.
  assert.equal(clusterOfTaskId("shop_note-deadbeef"), "shop_note-deadbeef");
  assert.equal(clusterOfTaskId("shop.paginate.page-3"), "shop.paginate.page-3");
});

Deno.test("taskStyle() reads a style only when the line has one", () => {
  const lines = Deno.readTextFileSync(VAL).trim().split("\n");
  const tasks = parseTaskLines(lines.join("\n"), "val.jsonl");
  assert.deepEqual(tasks.map(taskStyle), lines.map((l) => JSON.parse(l).style));
  assert.deepEqual(new Set(tasks.map(taskStyle)), new Set(["procedure", "goal"]));
  const [handWritten] = parseTaskLines(Deno.readTextFileSync(HAND_WRITTEN).split("\n")[0], "tasks.jsonl");
  assert.equal(taskStyle(handWritten), undefined);
});
