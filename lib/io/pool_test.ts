import assert from "node:assert/strict";
import { runPool } from "./pool.ts";

Deno.test("runPool() runs every item with at most `workers` at once", async () => {
  let running = 0, peak = 0;
  const seen: number[] = [];
  await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5));
    seen.push(n);
    running--;
  });
  assert.deepEqual(seen.sort(), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(peak, 3);
});

Deno.test("runPool() stops feeding on abort and rethrows a harness failure after running items end", async () => {
  const controller = new AbortController();
  const done: number[] = [];
  await runPool([1, 2, 3, 4], 1, (n) => {
    done.push(n);
    if (n === 2) controller.abort();
    return Promise.resolve();
  }, controller.signal);
  assert.deepEqual(done, [1, 2]);
  const finished: number[] = [];
  await assert.rejects(
    runPool([1, 2, 3, 4, 5], 2, async (n) => {
      if (n === 1) throw new Error("browser cannot launch");
      await new Promise((r) => setTimeout(r, 5));
      finished.push(n);
    }),
    /browser cannot launch/,
  );
  assert.ok(finished.length < 4, `stopped feeding after the failure (ran ${finished})`);
});
