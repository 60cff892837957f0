import assert from "node:assert/strict";
import { Watchdog } from "./_watchdog.ts";

Deno.test("Watchdog.answers() is false once a ping goes unanswered past the bound, and tells its owner once", async () => {
  let silent = 0;
  const frozen = new Watchdog(() => new Promise(() => {}), 50, () => true, () => silent++);
  assert.equal(await frozen.answers(), false);
  assert.equal(await frozen.answers(), false, "a browser found frozen stays so");
  assert.equal(silent, 1);
});

Deno.test("Watchdog.answers() is true for a browser that answers, slowly within the bound, or whose connection closed", async () => {
  let silent = 0;
  const slow = new Watchdog(() => new Promise((r) => setTimeout(r, 20)), 500, () => true, () => silent++);
  assert.equal(await slow.answers(), true);
  const gone = new Watchdog(() => Promise.reject(new Error("Connection closed")), 500, () => true, () => silent++);
  assert.equal(await gone.answers(), true, "a dead browser is known otherwise, not as a frozen one");
  assert.equal(silent, 0);
});

Deno.test("Watchdog.start() pings while its browser is busy and stops when it is not", async () => {
  let pings = 0;
  let busy = true;
  const dog = new Watchdog(() => (pings++, Promise.resolve()), 500, () => busy, () => {});
  dog.start();
  dog.start(); // one loop, however often started
  await new Promise((r) => setTimeout(r, 2500));
  busy = false;
  const seen = pings;
  assert.ok(seen >= 2, `pinged again while busy: ${seen}`);
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal(pings, seen, "no ping once nothing runs");
});
