import assert from "node:assert/strict";
import { UsageError } from "../errors/mod.ts";
import { parseShard, shardTasks, unshardLists } from "./shard.ts";

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

Deno.test("unshardLists() restores the order shardTasks() split, and leaves a missing shard's items out", () => {
  for (const n of [1, 2, 3, 7, 12]) {
    for (const count of [1, 3, 5]) {
      const items = Array.from({ length: n }, (_, i) => i);
      const lists = Array.from({ length: count }, (_, index) => shardTasks(items, { index, count }));
      assert.deepEqual(unshardLists(lists), items, `${n} items in ${count} shards`);
    }
  }
  const items = [0, 1, 2, 3, 4, 5, 6];
  const lists = [0, 1, 2].map((index) => shardTasks(items, { index, count: 3 }));
  assert.deepEqual(unshardLists([lists[0], undefined, lists[2]]), [0, 2, 3, 5, 6]);
  assert.deepEqual(unshardLists([]), []);
});

Deno.test("parseShard() reads K/N and refuses, naming the flag, what is not a part of N", () => {
  assert.deepEqual(parseShard("2/3"), { index: 2, count: 3 });
  assert.deepEqual(parseShard("0/1"), { index: 0, count: 1 });
  const refusal = (text: string) => {
    try {
      parseShard(text);
    } catch (e) {
      assert.ok(e instanceof UsageError, String(e));
      return e.message;
    }
    throw new Error(`parseShard() accepted ${text}`);
  };
  assert.match(refusal("3/3"), /^--shard "3\/3": K must be from 0 to 2/);
  assert.match(refusal("a/b"), /^--shard "a\/b" is not K\/N with whole numbers/);
  assert.match(refusal("1/0"), /^--shard "1\/0": N must be from 1 to 10000/);
  assert.match(refusal("-1/3"), /is not K\/N/);
  assert.match(refusal("1.5/3"), /is not K\/N/);
  assert.match(refusal("3"), /is not K\/N/);
});
