/**
 * The kanban board (cards dragged between status columns) and the sortable backlog (items dragged into order), both
 * real HTML5 drag and drop persisted by fetch POST, with form fallbacks.
 */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { isStatus, moveIssue, reorderBacklog } from "./_actions.ts";
import {
  type Issue,
  issueByKey,
  issuesWhere,
  type Project,
  projectByKey,
  projects,
  STATUSES,
  statusLabel,
} from "./_model.ts";
import { BACKLOG_SCRIPT, BOARD_SCRIPT } from "./_scripts.ts";
import {
  BASE,
  type Ctx,
  EXTRA_CSS,
  issueHref,
  notFound,
  page,
  priorityBadge,
  projectMenu,
  projectSwitcher,
  redirectWith,
} from "./_views.ts";

function card(i: Issue) {
  return html`
    <article class="kcard" draggable="true" id="card-${i.key}" data-key="${i.key}" data-card
      aria-label="${i.key} ${i
        .title}">
      <a href="${issueHref(i.key)}" draggable="false">${i.key}</a> ${i.title}
      <div class="meta">${priorityBadge(i.priority)} · ${i.assignee ?? "Unassigned"} · ${i
        .estimate} pts${i.blocked_by_id
        ? html`
          · <span class="badge urgent">Blocked</span>
        `
        : ""}</div>
    </article>
  `;
}

function boardPage(c: Ctx, p: Project) {
  const issues = issuesWhere(c.get("db"), "i.project_id = ?", "i.rank, i.id", p.id);
  return page(c, {
    title: `${p.key} board`,
    active: "board",
    crumbs: [{ href: `${BASE}/projects/${p.key}`, label: p.name }, { href: "", label: "Board" }],
    body: html`${EXTRA_CSS}
      <div class="row"><h1>${p.name} board</h1><span class="spacer"></span>${
      projectSwitcher(projects(c.get("db")), p, "board")
    }</div>
      ${projectMenu(p, "board")}
      <p class="muted">Drag a card to another column to change its status.</p>
      <p id="board-status" role="status" aria-live="polite"></p>
      <div class="board" id="board" data-project="${p.key}">${
      STATUSES.map((s) => {
        const cards = issues.filter((i) => i.status === s.value);
        return html`
          <section class="column" id="col-${s.value}" data-status="${s.value}" aria-label="${s.label}">
            <h3>${s.label} <span class="muted count" id="count-${s.value}">${cards.length}</span></h3>
            <div class="cards">${cards.map(card)}</div>
          </section>
        `;
      })
    }</div>
      ${BOARD_SCRIPT}`,
  });
}

function backlogPage(c: Ctx, p: Project) {
  const open = issuesWhere(c.get("db"), "i.project_id = ? AND i.status != 'done'", "i.rank, i.id", p.id);
  const moveForm = (i: Issue, dir: "up" | "down", label: string) =>
    html`<form method="post" action="${BASE}/projects/${p.key}/backlog/move" class="inline">
      <input type="hidden" name="issue" value="${i.key}"><input type="hidden" name="dir" value="${dir}">
      <button type="submit" class="secondary" id="${dir}-${i.key}" aria-label="Move ${i.key} ${dir}">${label}</button>
    </form>`;
  return page(c, {
    title: `${p.key} backlog`,
    active: "backlog",
    crumbs: [{ href: `${BASE}/projects/${p.key}`, label: p.name }, { href: "", label: "Backlog" }],
    body: html`${EXTRA_CSS}
      <div class="row"><h1>${p.name} backlog</h1><span class="spacer"></span>${
      projectSwitcher(projects(c.get("db")), p, "backlog")
    }</div>
      ${projectMenu(p, "backlog")}
      <p class="muted">Open issues in priority order: the top of the list is worked on first. Drag an issue to
        reorder.</p>
      <p id="backlog-status" role="status" aria-live="polite"></p>
      <ol class="sortable" id="backlog-list" data-project="${p.key}">${
      open.map((i, n) =>
        html`
          <li draggable="true" id="item-${i.key}" data-key="${i.key}">
            <span class="pos muted">${n + 1}.</span>
            <a href="${issueHref(i.key)}" draggable="false">${i.key}</a>
            <span class="grow">${i.title}</span>
            <span class="muted">${statusLabel(i.status)}</span> ${priorityBadge(i.priority)}
            <span class="muted">${i.estimate} pts</span>
            ${moveForm(i, "up", "↑")} ${moveForm(i, "down", "↓")}
          </li>
        `
      )
    }</ol>
      ${BACKLOG_SCRIPT}`,
  });
}

/** Swaps an open issue with its neighbour in the backlog (the no-drag fallback). */
function stepBacklog(c: Ctx, p: Project, key: string, dir: string): string {
  const db = c.get("db");
  const open = db.all<{ id: number; key: string; rank: number }>(
    "SELECT id, key, rank FROM issues WHERE project_id = ? AND status != 'done' ORDER BY rank, id",
    p.id,
  );
  const at = open.findIndex((r) => r.key === key.toUpperCase());
  const to = dir === "up" ? at - 1 : at + 1;
  if (at < 0) return `${key} is not in the ${p.key} backlog.`;
  if (to < 0 || to >= open.length) return `${open[at].key} is already at the ${dir === "up" ? "top" : "bottom"}.`;
  const keys = open.map((r) => r.key);
  [keys[at], keys[to]] = [keys[to], keys[at]];
  reorderBacklog(db, p.id, keys);
  return `Moved ${open[at].key} ${dir}.`;
}

function withProject(handler: (c: Ctx, p: Project) => Response | Promise<Response>) {
  return (c: Ctx) => {
    const p = projectByKey(c.get("db"), c.req.param("key") ?? "");
    return p ? handler(c, p) : notFound(c, `Project ${c.req.param("key")}`);
  };
}

export function boardRoutes(app: Hono<SandboxEnv>): void {
  app.get("/board", (c) => c.redirect(`${BASE}/projects/WEB/board`, 302));
  app.get("/backlog", (c) => c.redirect(`${BASE}/projects/WEB/backlog`, 302));
  app.get("/projects/:key/board", withProject(boardPage));
  app.get("/projects/:key/backlog", withProject(backlogPage));
  app.post("/issues/:key/move", async (c) => {
    const json = (c.req.header("content-type") ?? "").includes("application/json");
    const body = json ? await c.req.json().catch(() => ({})) : await c.req.parseBody();
    const issue = issueByKey(c.get("db"), c.req.param("key"));
    const status = (body as { status?: unknown }).status;
    if (!issue || !isStatus(status)) {
      const error = issue ? `"${String(status)}" is not a status` : `no issue ${c.req.param("key")}`;
      if (json) return c.json({ ok: false, error }, issue ? 422 : 404);
      return issue ? redirectWith(c, issueHref(issue.key), "Choose one of the four statuses.") : notFound(c, error);
    }
    moveIssue(c, issue, status);
    if (json) return c.json({ ok: true, key: issue.key, status, label: statusLabel(status) });
    return redirectWith(
      c,
      `${BASE}/projects/${issue.project_key}/board`,
      `${issue.key} moved to ${statusLabel(status)}.`,
    );
  });
  app.post(
    "/projects/:key/backlog/order",
    withProject(async (c, p) => {
      const body = await c.req.json().catch(() => ({})) as { order?: unknown };
      const result = reorderBacklog(c.get("db"), p.id, body.order);
      if (typeof result === "string") return c.json({ ok: false, error: result }, 422);
      return c.json({ ok: true, updated: result });
    }),
  );
  app.post(
    "/projects/:key/backlog/move",
    withProject(async (c, p) => {
      const body = await c.req.parseBody();
      const message = stepBacklog(c, p, String(body.issue ?? ""), String(body.dir ?? ""));
      return redirectWith(c, `${BASE}/projects/${p.key}/backlog`, message);
    }),
  );
}
