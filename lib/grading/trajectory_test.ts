/** The trajectory a human verifier reads: the recorder stream with the request log merged in. Pure functions. */
import assert from "node:assert/strict";
import { gate } from "./gate.ts";
import { humanTrajectory, trajectoryEvidence } from "./trajectory.ts";

const BASE = "http://127.0.0.1:40115";
const iso = (ms: number) => new Date(ms).toISOString();

Deno.test("humanTrajectory() merges the request log into the recorder stream in the order things happened", () => {
  // The click posts its recorder entry after the navigation it caused was logged: seq says GET first, time says click.
  const record = [
    { seq: 2, time: iso(1_000_020), type: "observation", kind: "page_load", url: `${BASE}/shop/`, t: 1_000_000 },
    { seq: 5, time: iso(1_000_300), type: "action", action: "click", target: 'a "Audio"', t: 1_000_100 },
    {
      seq: 6,
      time: iso(1_000_310),
      type: "observation",
      kind: "page_load",
      url: `${BASE}/shop/category/audio`,
      t: 1_000_200,
    },
    { seq: 7, type: "network", method: "GET", path: "/ignored" }, // recorder network entries are not kept
  ];
  const log = [
    { seq: 1, time: iso(1_000_010), method: "GET", path: "/shop/", query: {}, body: null, status: 200 },
    {
      seq: 4,
      time: iso(1_000_150),
      method: "GET",
      path: "/shop/category/audio",
      query: { sort: ["a", "b"] },
      body: null,
      status: 200,
    },
  ];
  const before = JSON.stringify([record, log]);
  const traj = humanTrajectory(record, log);
  assert.deepEqual(traj.map((e) => `${e.type}:${e.seq}`), [
    "observation:2",
    "network:1",
    "action:5",
    "network:4",
    "observation:6",
  ]);
  assert.equal(JSON.stringify([record, log]), before, "the inputs are not modified");
  const get = traj.find((e) => e.seq === 4)!;
  assert.equal(get.url, "/shop/category/audio?sort=a&sort=b");
  assert.equal(get.t, 1_000_150);
  // Without times, seq decides.
  assert.deepEqual(
    humanTrajectory([{ seq: 3, type: "action" }], [{ seq: 2, method: "GET", path: "/", status: 200 }]).map((e) =>
      e.seq
    ),
    [2, 3],
  );
});

Deno.test("trajectoryEvidence() feeds lib/grading: requests from network events, the rest as the recorder stream", () => {
  const traj = humanTrajectory(
    [{ seq: 3, type: "action", action: "input", target: "input#q", value: "lamp", t: 10 }],
    [{ seq: 2, time: iso(20), method: "GET", path: "/shop/products", query: { q: "lamp" }, body: null, status: 200 }],
  );
  const ev = trajectoryEvidence(traj, "42");
  assert.equal(ev.log.length, 1);
  assert.equal(ev.record.length, 1);
  assert.equal(ev.answer, "42");
  assert.ok(gate({ visited: "/shop/products?q=lamp" }, null, ev).ok);
  assert.ok(gate({ record: { action: "input", value: "lamp" } }, null, ev).ok);
  assert.equal(gate({ record: { action: "input", value: "lamps" } }, null, ev).ok, false, "a near miss fails");
});
