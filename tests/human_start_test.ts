/** How human and proposed episodes start, and the trajectory a human verifier reads. Pure functions. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  appDirectory,
  humanStart,
  type HumanTask,
  humanTrajectory,
  loadHumanTasks,
  proposedStart,
  resolveStartUrl,
  trajectoryEvidence,
} from "../lib/human/mod.ts";
import { gate } from "../lib/grading/mod.ts";

const ANNOTATIONS = fileURLToPath(new URL("../fixtures/annotations", import.meta.url));
const BASE = "http://127.0.0.1:40115";
const tasks = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
const byId = (id: string) => tasks.find((t) => t.task_id === id)!;

Deno.test("humanStart() starts a login task logged out on its recorded page, rebased onto the base", () => {
  const task = byId("mail_h_login_hotel_checkin");
  const s = humanStart(task, BASE);
  assert.equal(s.logout, true);
  assert.equal(s.startUrl, `${BASE}/mail/inbox`, "the recording's origin is replaced by the run's base");
  assert.equal(s.prompt, task.instruction);
  const plain = humanStart(byId("mail_h_q2_meeting_bring"), `${BASE}/`);
  assert.equal(plain.logout, false, "a mail task without the login macro starts logged in");
  assert.equal(plain.startUrl, `${BASE}/mail/inbox`);
});

Deno.test("humanStart() starts a cross-site task on the portal with an app directory after the instruction", () => {
  const task = byId("cross_h_order_total_to_sofia");
  const s = humanStart(task, BASE);
  assert.equal(s.startUrl, `${BASE}/`);
  assert.ok(s.prompt.startsWith(task.instruction + "\n\n"));
  assert.match(s.prompt, new RegExp(`- Shop: ${BASE}/shop/ - An online store`));
  assert.match(s.prompt, new RegExp(`- Mail: ${BASE}/mail/ \\(sign-in required\\)`));
  assert.doesNotMatch(s.prompt, /Tracker|Bookings/, "only the task's own sites");
  assert.equal(appDirectory(BASE, ["nowhere"], []).trim().split("\n").pop(), `- nowhere: ${BASE}/nowhere/`);
});

Deno.test("humanStart() prefers agent_start_url to the recording, and the recording to starting_url", () => {
  const task: HumanTask = { ...byId("shop_h_monitor_stand") };
  assert.equal(humanStart(task, BASE).startUrl, `${BASE}/shop/products/11`);
  assert.equal(
    humanStart({ ...task, start_hint: "/shop/products/12?tab=specs" }, BASE).startUrl,
    `${BASE}/shop/products/12?tab=specs`,
  );
  assert.equal(humanStart({ ...task, start_hint: null }, BASE).startUrl, `${BASE}/shop/`, "no hint: the site home");
  assert.equal(resolveStartUrl(BASE, "http://localhost:9/shop/cart#x", "shop"), `${BASE}/shop/cart#x`);
  assert.equal(resolveStartUrl(`${BASE}/`, "cart", "shop"), `${BASE}/shop/cart`);
});

Deno.test("proposedStart() starts logged in on the task's start path", () => {
  const task = {
    kind: "proposed" as const,
    task_id: "p1",
    site: "shop",
    macro: "search" as const,
    instruction: "Find lamps.",
    start_path: "/shop/products?q=x",
    option: null,
  };
  assert.deepEqual(proposedStart(task, `${BASE}/`), {
    logout: false,
    startUrl: `${BASE}/shop/products?q=x`,
    prompt: "Find lamps.",
  });
});

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
