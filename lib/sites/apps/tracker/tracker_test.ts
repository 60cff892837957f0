import assert from "node:assert/strict";
import { TrackerClient } from "./_test_client.ts";
import { issuesCsv } from "./_pages_list.ts";
import { formFromIssue } from "./_form.ts";
import { issueByKey } from "./_model.ts";
import { seedDb } from "../../../gen/data.ts";

const PAGES: [string, string][] = [
  ["/tracker/", "Website Redesign"],
  ["/tracker/issues", "60</b> issues"],
  ["/tracker/issues?page=3", "showing 41–60"],
  ["/tracker/issues?q=safari", "WEB-9"],
  ["/tracker/issues/new", 'id="create-issue"'],
  ["/tracker/issues/WEB-9", "Checkout button unresponsive on Safari"],
  ["/tracker/issues/WEB-9?tab=comments", "Reproduced on Safari 17.3"],
  ["/tracker/issues/WEB-9?tab=history", "Changed <b>priority</b>"],
  ["/tracker/issues/WEB-9?edit=title", 'id="title-input"'],
  ["/tracker/issues/API-4/edit", "Edit API-4"],
  ["/tracker/projects/MOB", "Mobile App"],
  ["/tracker/projects/WEB/board", 'id="card-WEB-8"'],
  ["/tracker/projects/API/backlog", 'id="item-API-20"'],
  ["/tracker/sprints", "Sprint 14"],
  ["/tracker/sprints/4", "API-19"],
  ["/tracker/docs", "Tracker documentation"],
];

Deno.test("tracker pages render with their content", async () => {
  const t = new TrackerClient();
  for (const [path, expected] of PAGES) {
    const { status, text } = await t.get(path);
    assert.equal(status, 200, path);
    assert.ok(text.includes(expected), `${path} lacks ${expected}`);
    assert.match(text, /<h1/, path);
  }
  const missing = await t.get("/tracker/issues/WEB-99");
  assert.equal(missing.status, 404);
  const board = await t.get("/tracker/board");
  assert.equal(board.res.headers.get("location"), "/tracker/projects/WEB/board");
});

Deno.test("issue list filters, sorts and paginates", async () => {
  const t = new TrackerClient();
  const todo = await t.get("/tracker/issues?status=todo&status=review");
  assert.ok(todo.text.includes("<b>34</b> issues"));
  const priya = await t.get("/tracker/issues?assignee=Priya+Shah&status=in_progress");
  assert.ok(priya.text.includes("<b>1</b> issue"));
  assert.ok(priya.text.includes("API-13"));
  const oldest = await t.get("/tracker/issues?status=todo&status=in_progress&status=review&sort=oldest");
  assert.ok(oldest.text.indexOf("MOB-3") < oldest.text.indexOf("API-4"));
  const page2 = await t.get("/tracker/issues?page=2");
  assert.ok(page2.text.includes("showing 21–40 · page 2"));
  const clamped = await t.get("/tracker/issues?project=API&page=2");
  assert.ok(clamped.text.includes("<b>20</b> issues · showing 1–20 · page 1"));
  assert.ok(!clamped.text.includes('id="pager"'));
  const p3 = await t.get("/tracker/issues?page=3");
  assert.ok(p3.text.includes('id="prev-page"') && !p3.text.includes('id="next-page"'));
});

Deno.test("CSV export honours the filters and is an attachment", async () => {
  const t = new TrackerClient();
  const { res, text } = await t.get("/tracker/issues/export.csv?label=security");
  assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename="tracker-issues-2026-03-15\.csv"$/);
  const lines = text.trim().split("\r\n");
  assert.equal(lines.length, 1 + 8);
  assert.ok(lines[0].startsWith("Key,Title,Project"));
  assert.ok(lines.some((l) => l.startsWith("API-20,Sandbox keys leak into logs,Payments API")));
  assert.equal(
    issuesCsv([]),
    "Key,Title,Project,Type,Status,Priority,Assignee,Estimate,Sprint,Due date,Labels,Created\r\n",
  );
});

const GOOD_ISSUE = {
  project: "WEB",
  title: "Add breadcrumbs to docs pages",
  description: "Readers get lost.",
  type: "feature",
  priority: "high",
  assignee: "Priya Shah",
  labels: ["ui", "docs"],
  due_date: "2026-03-25",
  estimate: "5",
  sprint: "4",
};

Deno.test("new issue: server validation, then a created row", async () => {
  const t = new TrackerClient();
  const bad = await t.post("/tracker/issues", {
    ...GOOD_ISSUE,
    project: "",
    title: "Oops",
    due_date: "2026-03-01",
    estimate: "25",
  });
  assert.equal(bad.status, 422);
  for (
    const msg of [
      "Choose a project.",
      "Title must be 5 to 120 characters.",
      "Due date cannot be in the past.",
      "Estimate must be a whole number from 0 to 20.",
    ]
  ) {
    assert.ok(bad.text.includes(msg), msg);
  }
  assert.ok(bad.text.includes('class="errors" role="alert"') && bad.text.includes('value="Oops"'));
  assert.deepEqual(await t.changes(), []);

  const good = await t.post("/tracker/issues", GOOD_ISSUE);
  assert.equal(good.status, 303);
  assert.match(good.location ?? "", /^\/tracker\/issues\/WEB-21\?flash=/);
  const [change] = await t.changes();
  assert.equal(change.table, "issues");
  assert.equal(change.op, "insert");
  assert.deepEqual(
    [change.after?.key, change.after?.status, change.after?.priority, change.after?.assignee_id, change.after?.labels],
    ["WEB-21", "todo", "high", 2, "ui,docs"],
  );
  assert.deepEqual([change.after?.estimate, change.after?.due_date, change.after?.sprint_id, change.after?.rank], [
    5,
    "2026-03-25",
    4,
    21,
  ]);
  assert.ok((await t.get("/tracker/issues/WEB-21")).text.includes("Add breadcrumbs to docs pages"));
});

Deno.test("edit issue: errors keep the values; a save updates fields and writes history", async () => {
  const t = new TrackerClient();
  const form = {
    title: "Dark mode toggle",
    type: "feature",
    status: "todo",
    priority: "low",
    assignee: "Nobody Known",
    due_date: "",
    estimate: "8",
    sprint: "",
  };
  const bad = await t.post("/tracker/issues/WEB-16/edit", form);
  assert.equal(bad.status, 422);
  assert.ok(bad.text.includes("Choose an assignee from the list."));
  assert.deepEqual(await t.changes(), []);
  const good = await t.post("/tracker/issues/WEB-16/edit", {
    ...form,
    assignee: "Elena Rossi",
    estimate: "13",
    labels: "ui",
  });
  assert.equal(good.status, 303);
  const changes = await t.changes();
  assert.equal(changes[0].table, "issues");
  assert.deepEqual([changes[0].before?.estimate, changes[0].after?.estimate, changes[0].after?.assignee_id], [
    8,
    13,
    4,
  ]);
  assert.deepEqual(changes.slice(1).map((c) => [c.table, c.after?.field, c.after?.new_value]), [
    ["activity", "assignee", "Elena Rossi"],
    ["activity", "estimate", "13"],
  ]);
  // A due date already in the past may stay when it is not changed.
  const keep = await t.post("/tracker/issues/API-14/edit", {
    title: "Currency conversion uses stale rates",
    type: "bug",
    status: "in_progress",
    priority: "urgent",
    assignee: "Diego Alvarez",
    labels: ["bug", "backend"],
    due_date: "2026-03-13",
    estimate: "3",
    sprint: "3",
  });
  assert.equal(keep.status, 303);
});

Deno.test("issue page actions: status, inline title, comment, delete", async () => {
  const t = new TrackerClient();
  const st = await t.post("/tracker/issues/WEB-8/status", { status: "review" });
  assert.equal(st.status, 303);
  const short = await t.post("/tracker/issues/WEB-8/title", { title: "Abc" });
  assert.equal(short.status, 422);
  assert.ok(short.text.includes("Title must be 5 to 120 characters.") && short.text.includes('value="Abc"'));
  const title = await t.post("/tracker/issues/WEB-8/title", { title: "Write the marketing style guide" });
  assert.equal(title.status, 303);
  const empty = await t.post("/tracker/issues/WEB-8/comments", { body: "   " });
  assert.equal(empty.status, 422);
  assert.ok(empty.text.includes("Write a comment first."));
  const comment = await t.post("/tracker/issues/WEB-8/comments", { body: "Draft is ready." });
  assert.match(comment.location ?? "", /\?tab=comments&flash=.*#comment-41$/);
  const del = await t.post("/tracker/issues/API-4/delete", {});
  assert.equal(del.status, 303);
  const c = await t.changes();
  assert.deepEqual(c.map((e) => `${e.table}.${e.op}.${e.key}`), [
    "issues.update.8",
    "activity.insert.25",
    "issues.update.8",
    "activity.insert.26",
    "comments.insert.41",
    "issues.update.9",
    "issues.delete.24",
  ]);
  assert.deepEqual([c[0].before?.status, c[0].after?.status], ["todo", "review"]);
  assert.equal(c[2].after?.title, "Write the marketing style guide");
  assert.deepEqual([c[4].after?.body, c[4].after?.author_id], ["Draft is ready.", 1]);
  assert.deepEqual([c[5].before?.blocked_by_id, c[5].after?.blocked_by_id], [24, null]);
  assert.equal((await t.get("/tracker/issues/API-4")).status, 404);
});

Deno.test("saving an issue's edit form as the page fills it writes nothing, whatever order its labels are stored in", async () => {
  const db = seedDb("tracker");
  const keys = db.all<{ key: string }>(
    "SELECT p.key || '-' || i.number AS key FROM issues i JOIN projects p ON p.id = i.project_id ORDER BY i.id",
  ).map((r) => r.key);
  assert.ok(keys.length > 20, `${keys.length} issues`);
  const writers: string[] = [];
  for (const key of keys) {
    const t = new TrackerClient();
    const f = formFromIssue(issueByKey(db, key)!);
    const { project: _project, ...fields } = f;
    const r = await t.post(`/tracker/issues/${key}/edit`, { ...fields, labels: f.labels });
    assert.equal(r.status, 303, `${key}: ${r.text.slice(0, 300)}`);
    const changes = await t.changes();
    if (changes.length) {
      writers.push(`${key}: ${JSON.stringify(changes[0].before)} → ${JSON.stringify(changes[0].after)}`);
    }
  }
  assert.deepEqual(writers, []);
});
