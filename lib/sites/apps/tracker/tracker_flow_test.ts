import assert from "node:assert/strict";
import { startSites } from "../../server.ts";
import { trackerApp } from "./mod.ts";
import { TrackerClient } from "./_test_client.ts";

const WEB_OPEN = [
  "WEB-5",
  "WEB-7",
  "WEB-8",
  "WEB-9",
  "WEB-10",
  "WEB-11",
  "WEB-12",
  "WEB-13",
  "WEB-14",
  "WEB-15",
  "WEB-16",
  "WEB-17",
  "WEB-19",
  "WEB-20",
];

Deno.test("board move: a JSON POST updates issues.status; bad statuses write nothing", async () => {
  const t = new TrackerClient();
  const bad = await t.postJson("/tracker/issues/WEB-8/move", { status: "archived" });
  assert.equal(bad.status, 422);
  assert.equal((await t.postJson("/tracker/issues/WEB-99/move", { status: "done" })).status, 404);
  assert.deepEqual(await t.changes(), []);
  const ok = await t.postJson("/tracker/issues/WEB-8/move", { status: "in_progress" });
  assert.deepEqual(ok, { status: 200, json: { ok: true, key: "WEB-8", status: "in_progress", label: "In progress" } });
  const [change, history] = await t.changes();
  assert.deepEqual([change.table, change.op, change.key, change.before?.status, change.after?.status], [
    "issues",
    "update",
    8,
    "todo",
    "in_progress",
  ]);
  assert.deepEqual([history.table, history.after?.field, history.after?.old_value], ["activity", "status", "todo"]);
  const board = await t.get("/tracker/projects/WEB/board");
  const inProgress = board.text.slice(
    board.text.indexOf('id="col-in_progress"'),
    board.text.indexOf('id="col-review"'),
  );
  assert.ok(inProgress.includes('id="card-WEB-8"'));
  assert.ok(board.text.includes('class="kcard" draggable="true"'));
  for (const ev of ["dragstart", "dragenter", "dragover", "drop"]) {
    assert.ok(board.text.includes(`addEventListener("${ev}"`), ev);
  }
  // The form fallback of the same endpoint redirects back to the board.
  const form = await t.post("/tracker/issues/WEB-8/move", { status: "done" });
  assert.equal(form.status, 303);
  assert.match(form.location ?? "", /^\/tracker\/projects\/WEB\/board\?flash=/);
});

Deno.test("backlog order: a permutation rewrites only the ranks that changed", async () => {
  const t = new TrackerClient();
  const partial = await t.postJson("/tracker/projects/WEB/backlog/order", { order: ["WEB-20", "WEB-5"] });
  assert.equal(partial.status, 422);
  const foreign = await t.postJson("/tracker/projects/WEB/backlog/order", { order: [...WEB_OPEN.slice(1), "API-4"] });
  assert.equal(foreign.status, 422);
  assert.deepEqual(await t.changes(), []);
  const order = ["WEB-20", ...WEB_OPEN.filter((k) => k !== "WEB-20")];
  const ok = await t.postJson("/tracker/projects/WEB/backlog/order", { order });
  assert.deepEqual(ok.json, { ok: true, updated: 14 });
  const changes = await t.changes();
  assert.ok(changes.every((c) => c.table === "issues" && c.op === "update"));
  assert.deepEqual([changes[0].after?.key, changes[0].before?.rank, changes[0].after?.rank], ["WEB-20", 20, 5]);
  const page = await t.get("/tracker/projects/WEB/backlog");
  assert.ok(page.text.indexOf('id="item-WEB-20"') < page.text.indexOf('id="item-WEB-5"'));
});

Deno.test("backlog buttons swap an issue with its neighbour", async () => {
  const t = new TrackerClient();
  const top = await t.post("/tracker/projects/WEB/backlog/move", { issue: "WEB-5", dir: "up" });
  assert.ok(decodeURIComponent(top.location ?? "").includes("WEB-5 is already at the top."));
  assert.deepEqual(await t.changes(), []);
  const down = await t.post("/tracker/projects/WEB/backlog/move", { issue: "WEB-5", dir: "down" });
  assert.equal(down.status, 303);
  const changes = await t.changes();
  assert.deepEqual(changes.map((c) => [c.after?.key, c.after?.rank]), [["WEB-7", 5], ["WEB-5", 7]]);
});

Deno.test("session reset restores the seed", async () => {
  const t = new TrackerClient();
  await t.postJson("/tracker/issues/MOB-3/move", { status: "done" });
  assert.equal((await t.changes()).length, 2);
  await t.reset();
  assert.deepEqual(await t.changes(), []);
  const page = await t.get("/tracker/issues/MOB-3");
  assert.ok(page.text.includes('<dd id="field-status"><span class="badge status-in_progress">In progress</span>'));
});

Deno.test("two sessions do not see each other's writes", async () => {
  const a = new TrackerClient();
  const b = a.other();
  await a.get("/tracker/");
  await b.get("/tracker/");
  assert.notEqual(a.cookie, b.cookie);
  await a.post("/tracker/issues/WEB-20/title", { title: "Sitemap misses blog posts" });
  assert.ok((await a.get("/tracker/issues/WEB-20")).text.includes("Sitemap misses blog posts"));
  assert.ok((await b.get("/tracker/issues/WEB-20")).text.includes("Sitemap.xml excludes blog posts"));
  assert.deepEqual(await b.changes(), []);
});

Deno.test("real server: create an issue, move it, read its copy buttons, export it", async () => {
  await using srv = await startSites({ apps: [trackerApp], port: 0 });
  let cookie = "";
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(srv.base + path, { ...init, redirect: "manual", headers: { ...init.headers, cookie } });
    cookie = res.headers.get("set-cookie")?.split(";")[0] ?? cookie;
    return res;
  };
  await (await call("/tracker/issues")).body?.cancel();
  const form = new URLSearchParams({
    project: "MOB",
    title: "Support Android 15 edge-to-edge",
    type: "task",
    priority: "medium",
    estimate: "2",
  });
  const created = await call("/tracker/issues", { method: "POST", body: form });
  await created.body?.cancel();
  assert.equal(created.status, 303);
  assert.match(created.headers.get("location") ?? "", /^\/tracker\/issues\/MOB-21\?/);
  const moved = await call("/tracker/issues/MOB-21/move", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ status: "review" }),
  });
  assert.equal((await moved.json()).ok, true);
  const page = await call("/tracker/issues/MOB-21");
  const html = await page.text();
  assert.ok(html.includes(`data-copy="${srv.base}/tracker/issues/MOB-21"`));
  assert.ok(html.includes('data-copy="MOB-21"'));
  const csv = await call("/tracker/issues/export.csv?status=review&project=MOB");
  const text = await csv.text();
  assert.ok(text.includes("MOB-21,Support Android 15 edge-to-edge,Mobile App,task,Review"));
  const changes = await (await call("/_admin/changes")).json();
  assert.deepEqual(changes.entries.map((e: { table: string; op: string }) => `${e.table}.${e.op}`), [
    "issues.insert",
    "issues.update",
    "activity.insert",
  ]);
});
