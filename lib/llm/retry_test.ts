import assert from "node:assert/strict";
import { backoffDelay, sleep } from "./retry.ts";

Deno.test("backoffDelay() doubles per retry, jitters down by at most half and stays under the cap", () => {
  const opts = (r: number) => ({ backoffMs: 500, maxBackoffMs: 3_000, random: () => r });
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => backoffDelay(n, opts(0.999999))), [500, 1000, 2000, 3000, 3000]);
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffDelay(n, opts(0))), [250, 500, 1000, 1500]);
});

Deno.test("backoffDelay() honours a server's Retry-After up to the cap", () => {
  const opts = { backoffMs: 100, maxBackoffMs: 5_000, random: () => 0 };
  assert.equal(backoffDelay(1, opts, 2_000), 2_000);
  assert.equal(backoffDelay(1, opts, 60_000), 5_000);
  assert.equal(backoffDelay(1, opts, 0), 50);
});

Deno.test("sleep() resolves after the delay and rejects with the abort reason", async () => {
  await sleep(1);
  const controller = new AbortController();
  const waiting = sleep(10_000, controller.signal);
  controller.abort(new Error("stop"));
  await assert.rejects(waiting, /stop/);
  await assert.rejects(sleep(5, controller.signal), /stop/);
});
