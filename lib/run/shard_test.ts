import assert from "node:assert/strict";
import { shardTasks } from "./shard.ts";

Deno.test("shardTasks() deals positions round-robin: every item in one shard, sizes within one of each other", () => {
  const items = Array.from({ length: 11 }, (_, i) => `t${i}`);
  const shards = [0, 1, 2].map((index) => shardTasks(items, { index, count: 3 }));
  assert.deepEqual(shards[0], ["t0", "t3", "t6", "t9"]);
  assert.deepEqual(shards[2], ["t2", "t5", "t8"]);
  assert.deepEqual(shards.flat().sort(), [...items].sort());
  assert.deepEqual(shards.map((s) => s.length), [4, 4, 3]);
  assert.deepEqual(shardTasks(items, { index: 0, count: 1 }), items);
  assert.deepEqual(shardTasks(["a", "b"], { index: 4, count: 5 }), [], "more shards than items: some are empty");
});
