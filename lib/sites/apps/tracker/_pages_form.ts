/** New issue and edit issue: GET shows the form, POST validates on the server (422 with errors) or saves (303). */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { actorId, changeIssue } from "./_actions.ts";
import {
  emptyForm,
  type FormErrors,
  formFromBody,
  formFromIssue,
  type IssueForm,
  issueForm,
  validateForm,
} from "./_form.ts";
import { type Issue, issueByKey, projectByKey } from "./_model.ts";
import { BASE, type Ctx, EXTRA_CSS, issueHref, notFound, page, redirectWith } from "./_views.ts";

function newPage(c: Ctx, f: IssueForm, e: FormErrors, status: 200 | 422 = 200) {
  return page(c, {
    title: "New issue",
    active: "new",
    status,
    crumbs: [{ href: `${BASE}/issues`, label: "Issues" }, { href: "", label: "New issue" }],
    body: html`${EXTRA_CSS}
      <h1>New issue</h1>
      ${issueForm(c.get("db"), f, e)}`,
  });
}

function editPage(c: Ctx, issue: Issue, f: IssueForm, e: FormErrors, status: 200 | 422 = 200) {
  return page(c, {
    title: `Edit ${issue.key}`,
    active: "issues",
    status,
    crumbs: [
      { href: `${BASE}/projects/${issue.project_key}`, label: issue.project_name },
      { href: issueHref(issue.key), label: issue.key },
      { href: "", label: "Edit" },
    ],
    body: html`${EXTRA_CSS}
      <h1>Edit ${issue.key}</h1>
      ${issueForm(c.get("db"), f, e, issue)}`,
  });
}

async function createIssue(c: Ctx) {
  const db = c.get("db");
  const f = formFromBody(await c.req.parseBody({ all: true }));
  const { errors, row } = validateForm(db, f, c.get("clock").today());
  if (!row) return newPage(c, f, errors, 422);
  const project = projectByKey(db, f.project)!;
  const last = db.get<{ n: number; r: number }>(
    "SELECT COALESCE(MAX(number), 0) AS n, COALESCE(MAX(rank), 0) AS r FROM issues WHERE project_id = ?",
    project.id,
  )!;
  const key = `${project.key}-${last.n + 1}`;
  const now = c.get("clock").now().toISOString();
  db.insert("issues", {
    ...row,
    number: last.n + 1,
    key,
    status: "todo",
    reporter_id: actorId(c),
    rank: last.r + 1,
    blocked_by_id: null,
    created_at: now,
    updated_at: now,
  });
  return redirectWith(c, issueHref(key), `Created ${key}.`);
}

export function formRoutes(app: Hono<SandboxEnv>): void {
  app.get("/issues/new", (c) => {
    const project = projectByKey(c.get("db"), c.req.query("project") ?? "");
    return newPage(c, emptyForm(project?.key ?? ""), {});
  });
  app.post("/issues", createIssue);
  app.get("/issues/:key/edit", (c) => {
    const issue = issueByKey(c.get("db"), c.req.param("key"));
    return issue ? editPage(c, issue, formFromIssue(issue), {}) : notFound(c, `Issue ${c.req.param("key")}`);
  });
  app.post("/issues/:key/edit", async (c) => {
    const db = c.get("db");
    const issue = issueByKey(db, c.req.param("key"));
    if (!issue) return notFound(c, `Issue ${c.req.param("key")}`);
    const f = { ...formFromBody(await c.req.parseBody({ all: true })), project: issue.project_key };
    const { errors, row } = validateForm(db, f, c.get("clock").today(), issue);
    if (!row) return editPage(c, issue, f, errors, 422);
    const changed = changeIssue(c, issue, row);
    return redirectWith(c, issueHref(issue.key), changed.length ? `Saved ${issue.key}.` : "No changes.");
  });
}
