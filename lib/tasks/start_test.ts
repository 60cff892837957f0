/** How human and proposed episodes start. Pure functions. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { APPS } from "../sites/mod.ts";
import { loadHumanTasks } from "./human_load.ts";
import type { HumanTask } from "./human_task.ts";
import { appDirectory, type AppInfo, humanStart, proposedStart, resolveStartUrl } from "./start.ts";

const ANNOTATIONS = fileURLToPath(new URL("../../fixtures/annotations", import.meta.url));
const BASE = "http://127.0.0.1:40115";
/** The sandbox's app directory, as `/_admin/health` lists it. */
const APP_INFO: AppInfo[] = APPS.map(({ id, title, description, requiresLogin }) => ({
  id,
  title,
  description,
  requiresLogin,
}));
const tasks = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
const byId = (id: string) => tasks.find((t) => t.task_id === id)!;

Deno.test("humanStart() starts a login task logged out on its recorded page, rebased onto the base", () => {
  const task = byId("mail_h_login_hotel_checkin");
  const s = humanStart(task, BASE, APP_INFO);
  assert.equal(s.logout, true);
  assert.equal(s.startUrl, `${BASE}/mail/inbox`, "the recording's origin is replaced by the run's base");
  assert.equal(s.prompt, task.instruction);
  const plain = humanStart(byId("mail_h_q2_meeting_bring"), `${BASE}/`, APP_INFO);
  assert.equal(plain.logout, false, "a mail task without the login macro starts logged in");
  assert.equal(plain.startUrl, `${BASE}/mail/inbox`);
});

Deno.test("humanStart() starts a cross-site task on the portal with an app directory after the instruction", () => {
  const task = byId("cross_h_order_total_to_sofia");
  const s = humanStart(task, BASE, APP_INFO);
  assert.equal(s.startUrl, `${BASE}/`);
  assert.ok(s.prompt.startsWith(task.instruction + "\n\n"));
  assert.match(s.prompt, new RegExp(`- Shop: ${BASE}/shop/ - An online store`));
  assert.match(s.prompt, new RegExp(`- Mail: ${BASE}/mail/ \\(sign-in required\\)`));
  assert.doesNotMatch(s.prompt, /Tracker|Bookings/, "only the task's own sites");
  assert.equal(appDirectory(BASE, ["nowhere"], []).trim().split("\n").pop(), `- nowhere: ${BASE}/nowhere/`);
});

Deno.test("humanStart() prefers agent_start_url to the recording, and the recording to starting_url", () => {
  const task: HumanTask = { ...byId("shop_h_monitor_stand") };
  assert.equal(humanStart(task, BASE, APP_INFO).startUrl, `${BASE}/shop/products/11`);
  assert.equal(
    humanStart({ ...task, start_hint: "/shop/products/12?tab=specs" }, BASE, APP_INFO).startUrl,
    `${BASE}/shop/products/12?tab=specs`,
  );
  assert.equal(
    humanStart({ ...task, start_hint: null }, BASE, APP_INFO).startUrl,
    `${BASE}/shop/`,
    "no hint: the site home",
  );
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
    setup: [],
    evidenceFrom: "session",
  });
});
