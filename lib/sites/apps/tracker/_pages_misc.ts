/** The tracker's home (projects), project overviews, sprints and the help page. */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { issuesWhere, type Project, projectByKey, projects, sprints, statusCounts, STATUSES } from "./_model.ts";
import { BASE, type Ctx, EXTRA_CSS, issueTable, notFound, page, projectMenu } from "./_views.ts";

function countsTable(counts: Record<string, number>, id: string) {
  return html`
    <table id="${id}" class="counts">
      <tr>${STATUSES.map((s) => html`<th>${s.label}</th>`)}</tr>
      <tr>${STATUSES.map((s) => html`<td>${counts[s.value]}</td>`)}</tr>
    </table>
  `;
}

function homePage(c: Ctx) {
  const db = c.get("db");
  const mine = issuesWhere(db, "i.assignee_id = 1 AND i.status != 'done'", "i.due_date IS NULL, i.due_date, i.id");
  return page(c, {
    title: "Projects",
    active: "projects",
    body: html`${EXTRA_CSS}
      <div class="row"><h1>Projects</h1><span class="spacer"></span>
        <a href="${BASE}/docs" id="docs-link" target="_blank" rel="noopener">Docs ↗</a></div>
      <div class="grid" id="project-list">${
      projects(db).map((p) =>
        html`
          <div class="card" id="project-${p.key}">
            <h2><a href="${BASE}/projects/${p.key}">${p.name}</a> <span class="badge">${p.key}</span></h2>
            <p class="muted">${p.description}</p>
            ${countsTable(statusCounts(db, p.id), `counts-${p.key}`)}
            <p class="row"><a href="${BASE}/issues?project=${p.key}">Issues</a>
              <a href="${BASE}/projects/${p.key}/board">Board</a>
              <a href="${BASE}/projects/${p.key}/backlog">Backlog</a></p>
          </div>
        `
      )
    }</div>
      <h2>Assigned to me</h2>
      ${issueTable(mine, "my-issues")}`,
  });
}

function projectPage(c: Ctx, p: Project) {
  const db = c.get("db");
  const lead = db.byId<{ name: string }>("people", p.lead_id)?.name ?? "—";
  const urgent = issuesWhere(
    db,
    "i.project_id = ? AND i.status != 'done' AND i.priority IN ('urgent', 'high')",
    "i.priority = 'urgent' DESC, i.due_date",
    p.id,
  );
  return page(c, {
    title: p.name,
    crumbs: [{ href: `${BASE}/projects/${p.key}`, label: p.name }],
    active: "projects",
    body: html`${EXTRA_CSS}
      <h1>${p.name} <span class="badge">${p.key}</span></h1>
      ${projectMenu(p, "overview")}
      <p>${p.description}</p>
      <p>Project lead: <b id="project-lead">${lead}</b> ·
        <a href="${BASE}/issues/new?project=${p.key}" id="new-project-issue">New ${p.key} issue</a></p>
      ${countsTable(statusCounts(db, p.id), "status-counts")}
      <h2>Open high-priority issues</h2>
      ${issueTable(urgent, "priority-issues")}`,
  });
}

function sprintsPage(c: Ctx) {
  const db = c.get("db");
  return page(c, {
    title: "Sprints",
    active: "sprints",
    crumbs: [{ href: `${BASE}/sprints`, label: "Sprints" }],
    body: html`
      ${EXTRA_CSS}
            <h1>Sprints</h1>
            <table id="sprint-list">
        <thead>
          <tr>
            <th>Sprint</th>
            <th>Start</th>
            <th>End</th>
            <th>State</th>
            <th>Issues</th>
          </tr>
        </thead>
        <tbody>${sprints(db).map((s) => {
          const n = db.get<{ n: number }>("SELECT COUNT(*) AS n FROM issues WHERE sprint_id = ?", s.id)!.n;
          return html`
            <tr>
              <td><a href="${BASE}/sprints/${s.id}">${s.name}</a></td>
              <td>${s.start_date}</td>
              <td>${s.end_date}</td>
              <td>${s.state}</td>
              <td>${n}</td>
            </tr>
          `;
        })}</tbody>
      </table>
    `,
  });
}

function sprintPage(c: Ctx) {
  const db = c.get("db");
  const s = sprints(db).find((x) => String(x.id) === c.req.param("id"));
  if (!s) return notFound(c, `Sprint ${c.req.param("id")}`);
  const issues = issuesWhere(db, "i.sprint_id = ?", "p.key, i.number", s.id);
  return page(c, {
    title: s.name,
    active: "sprints",
    crumbs: [{ href: `${BASE}/sprints`, label: "Sprints" }, { href: "", label: s.name }],
    body: html`${EXTRA_CSS}
      <h1>${s.name}</h1>
      <p>${s.start_date} to ${s.end_date} · <span class="badge">${s.state}</span> · ${issues.length} issues</p>
      ${issueTable(issues, "sprint-issues")}`,
  });
}

function docsPage(c: Ctx) {
  return page(c, {
    title: "Tracker docs",
    crumbs: [{ href: `${BASE}/docs`, label: "Docs" }],
    body: html`
      <h1>Tracker documentation</h1>
      <div class="card" id="docs">
        <h2>Workflow</h2>
        <p>Every issue moves through four statuses: <b>To do</b>, <b>In progress</b>, <b>Review</b> and <b>Done</b>.
          Drag a card on a project's board to change its status, or use “Move to” on the issue page.</p>
        <h2>Backlog</h2>
        <p>The backlog lists a project's open issues by rank. Drag issues into order, or use the ↑ and ↓ buttons.</p>
        <h2>Estimates</h2>
        <p>Estimates are story points from 0 to 20. A sprint's load is the sum of its issues' estimates.</p>
        <h2>Issue keys</h2>
        <p>Keys combine the project key and a number, e.g. <code>WEB-12</code>. Use “Copy key” on an issue to share it.</p>
        <h2>Rules for new issues</h2>
        <ul>
          <li>Title: 5 to 120 characters.</li>
          <li>Project: required.</li>
          <li>Due date: today or later.</li>
          <li>Estimate: 0 to 20 points.</li>
        </ul>
      </div>
    `,
  });
}

export function miscRoutes(app: Hono<SandboxEnv>): void {
  app.get("/", homePage);
  app.get("/projects", (c) => c.redirect(`${BASE}/`, 302));
  app.get("/projects/:key", (c) => {
    const p = projectByKey(c.get("db"), c.req.param("key"));
    return p ? projectPage(c, p) : notFound(c, `Project ${c.req.param("key")}`);
  });
  app.get("/sprints", sprintsPage);
  app.get("/sprints/:id", sprintPage);
  app.get("/docs", docsPage);
}
