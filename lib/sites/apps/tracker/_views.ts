/** The tracker's page frame and the pieces several pages share (issue table, badges, project menu). */
import type { Context } from "hono";
import { html } from "hono/html";
import { type HoverMenu, type Html, type NavLink, renderPage } from "../../layout.ts";
import { DEFAULT_USER } from "../../session.ts";
import type { SandboxEnv } from "../../types.ts";
import { type Issue, priorityLabel, type Project, projects, statusLabel, typeLabel } from "./_model.ts";

export const BASE = "/tracker";
export type Ctx = Context<SandboxEnv>;

const NAV: [string, string][] = [
  ["projects", "Projects"],
  ["issues", "Issues"],
  ["board", "Board"],
  ["backlog", "Backlog"],
  ["sprints", "Sprints"],
  ["new", "New issue"],
  ["inbox", "Inbox"],
];
const NAV_HREF: Record<string, string> = {
  projects: `${BASE}/`,
  issues: `${BASE}/issues`,
  board: `${BASE}/board`,
  backlog: `${BASE}/backlog`,
  sprints: `${BASE}/sprints`,
  new: `${BASE}/issues/new`,
  inbox: `${BASE}/inbox`,
};

export interface TrackerPage {
  title: string;
  /** Which top menu entry is current. */
  active?: string;
  crumbs?: NavLink[];
  body: Html;
  status?: 200 | 404 | 422;
}

/** Renders a tracker page in the shared frame; the flash message comes from `?flash=`. */
export function page(c: Ctx, p: TrackerPage): Response | Promise<Response> {
  const nav = NAV.map(([id, label]) => ({ href: NAV_HREF[id], label, active: id === p.active }));
  const doc = renderPage({
    title: p.title,
    app: "Tracker",
    appHref: `${BASE}/`,
    nav,
    hoverMenus: [backlogsMenu(c)],
    crumbs: p.crumbs ? [{ href: `${BASE}/`, label: "Tracker" }, ...p.crumbs] : undefined,
    user: c.get("session").flags.loggedIn ? DEFAULT_USER.name : null,
    now: c.get("clock").now().toISOString(),
    flash: c.req.query("flash") || undefined,
    body: p.body,
  });
  return c.html(doc, p.status ?? 200);
}

/** The top bar's "Backlogs" menu: it opens on hover, one entry per project's backlog. */
function backlogsMenu(c: Ctx): HoverMenu {
  const items = projects(c.get("db")).map((p) => ({ href: `${BASE}/projects/${p.key}/backlog`, label: p.name }));
  return { id: "backlogs-menu", label: "Backlogs", items };
}

export function notFound(c: Ctx, what: string): Response | Promise<Response> {
  return page(c, {
    title: "Not found",
    status: 404,
    crumbs: [{ href: "", label: "Not found" }],
    body: html`
      <h1>Not found</h1>
      <p>${what} does not exist. <a href="${BASE}/issues">Back to the issues</a></p>
    `,
  });
}

/** A 303 to `path` with a flash message. */
export function redirectWith(c: Ctx, path: string, flash: string): Response {
  const sep = path.includes("?") ? "&" : "?";
  const [p, hash] = path.split("#");
  return c.redirect(`${p}${sep}flash=${encodeURIComponent(flash)}${hash ? `#${hash}` : ""}`, 303);
}

export const issueHref = (key: string) => `${BASE}/issues/${key}`;
export const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");
export const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

export const statusBadge = (s: string) => html`<span class="badge status-${s}">${statusLabel(s)}</span>`;
export const priorityBadge = (p: string) => html`<span class="badge ${p}">${priorityLabel(p)}</span>`;
export const labelList = (labels: string) =>
  labels
    ? labels.split(",").map((l) =>
      html`
        <span class="badge label">${l}</span>
      `
    )
    : html`<span class="muted">—</span>`;

/** The issue table of the list, sprint and project pages. */
export function issueTable(issues: Issue[], id = "issue-table"): Html {
  if (!issues.length) return html`<p class="muted" id="no-issues">No issues match.</p>`;
  return html`
    <table id="${id}">
      <thead>
        <tr>
          <th>Key</th>
          <th>Title</th>
          <th>Type</th>
          <th>Status</th>
          <th>Priority</th>
          <th>Assignee</th>
          <th>Estimate</th>
          <th>Due</th>
          <th>Labels</th>
        </tr>
      </thead>
      <tbody>${issues.map((i) =>
        html`
          <tr id="row-${i.key}" data-key="${i.key}">
            <td><a href="${issueHref(i.key)}">${i.key}</a></td>
            <td><a href="${issueHref(i.key)}">${i.title}</a>${i.blocked_by_id
              ? html`
                <span class="badge urgent">Blocked</span>
              `
              : ""}</td>
            <td>${typeLabel(i.type)}</td>
            <td>${statusBadge(i.status)}</td>
            <td>${priorityBadge(i.priority)}</td>
            <td>${i.assignee ?? html`<span class="muted">Unassigned</span>`}</td>
            <td>${i.estimate}</td>
            <td>${day(i.due_date)}</td>
            <td>${labelList(i.labels)}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

/** The per-project menu: Overview, Issues, Board, Backlog. */
export function projectMenu(p: Project, active: string): Html {
  const items: [string, string, string][] = [
    ["overview", "Overview", `${BASE}/projects/${p.key}`],
    ["issues", "Issues", `${BASE}/issues?project=${p.key}`],
    ["board", "Board", `${BASE}/projects/${p.key}/board`],
    ["backlog", "Backlog", `${BASE}/projects/${p.key}/backlog`],
  ];
  return html`
    <nav class="tabs" id="project-menu" aria-label="${p.name} menu">${items.map(([id, label, href]) =>
      html`
        <a href="${href}" id="project-${id}" class="${id === active ? "active" : ""}">${label}</a>
      `
    )}</nav>
  `;
}

/** A drop-down switcher between the projects' pages of one kind (board or backlog). */
export function projectSwitcher(all: Project[], current: Project, kind: string): Html {
  return html`
    <details class="switcher" id="project-switcher">
      <summary>${current.key} · ${current.name} ▾</summary>
      <ul role="menu">${all.map((p) =>
        html`
          <li
            role="none"><a role="menuitem" href="${BASE}/projects/${p.key}/${kind}">${p.key} · ${p.name}</a></li>
        `
      )}</ul>
    </details>
  `;
}

/** Page-local styles (the shared stylesheet has the rest). */
export const EXTRA_CSS = html`
  <style>
  .switcher{position:relative;display:inline-block}.switcher summary{cursor:pointer;padding:6px 12px;border:1px solid #cbd5e1;
  border-radius:6px;background:#fff;list-style:none}.switcher ul{position:absolute;z-index:5;margin:4px 0 0;padding:4px 0;
  background:#fff;border:1px solid #cbd5e1;border-radius:6px;min-width:240px;list-style:none;right:0}
  .switcher li a{display:block;padding:6px 12px}.badge.label{background:#eef2ff;color:#3730a3}
  .badge.status-done{background:#dcfce7;color:#166534}.badge.status-in_progress{background:#dbeafe;color:#1e40af}
  .badge.status-review{background:#fef3c7;color:#92400e}
  .column.over{outline:2px dashed #2563eb}.sortable li.drop-before{box-shadow:0 -3px 0 #2563eb}
  .sortable li.drop-after{box-shadow:0 3px 0 #2563eb}fieldset.choices{border:1px solid #e2e8f0;border-radius:8px}.kcard.dragging,.sortable li.dragging{opacity:.5}
  .kcard a{font-weight:600}.kcard .meta{font-size:12px;color:#64748b;margin-top:4px}
  .sortable li{display:flex;gap:10px;align-items:center}.sortable li .grow{flex:1}
  .sortable li form button{padding:2px 8px}.filters{display:grid;grid-template-columns:repeat(4,1fr);gap:10px;align-items:end}
  .filters fieldset{grid-column:1/-1;border:1px solid #e2e8f0;border-radius:8px;display:flex;gap:16px}
  .filters fieldset label{display:inline-flex;gap:6px;font-weight:400}
  dl.fields{display:grid;grid-template-columns:160px 1fr;gap:6px 12px;margin:0}dl.fields dt{color:#64748b}
  dl.fields dd{margin:0}.choices{display:flex;gap:14px;flex-wrap:wrap}.choices label{display:inline-flex;gap:6px;font-weight:400}
  </style>
`;
