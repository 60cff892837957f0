/** The issue page (tabs Details / Comments / History) and its actions: status, inline title, comment, delete. */
import type { Hono } from "hono";
import { html, raw } from "hono/html";
import type { Html } from "../../layout.ts";
import type { SandboxEnv } from "../../types.ts";
import { actorId, blockers, changeIssue, moveIssue, titleError } from "./_actions.ts";
import { type Issue, issueByKey, priorityLabel, STATUSES, statusLabel, typeLabel } from "./_model.ts";
import {
  BASE,
  type Ctx,
  day,
  EXTRA_CSS,
  issueHref,
  labelList,
  notFound,
  page,
  priorityBadge,
  redirectWith,
  statusBadge,
  when,
} from "./_views.ts";

const TABS = [["details", "Details"], ["comments", "Comments"], ["history", "History"]] as const;
type Tab = typeof TABS[number][0];

/** What a failed inline action shows again: the field's error and the submitted text. */
interface Retry {
  titleError?: string;
  title?: string;
  commentError?: string;
  comment?: string;
}

function detailsTab(c: Ctx, i: Issue): Html {
  const { blockedBy, blocks } = blockers(c.get("db"), i);
  return html`
    <div class="card">
      <dl class="fields" id="issue-fields">
        <dt>Status</dt>
        <dd id="field-status">${statusBadge(i.status)}</dd>
        <dt>Type</dt>
        <dd id="field-type">${typeLabel(i.type)}</dd>
        <dt>Priority</dt>
        <dd id="field-priority">${priorityBadge(i.priority)}</dd>
        <dt>Assignee</dt>
        <dd id="field-assignee">${i.assignee ?? "Unassigned"}</dd>
        <dt>Reporter</dt>
        <dd id="field-reporter">${i.reporter ?? "—"}</dd>
        <dt>Estimate</dt>
        <dd id="field-estimate">${i.estimate} points</dd>
        <dt>Sprint</dt>
        <dd id="field-sprint">${i.sprint
          ? html`<a href="${BASE}/sprints/${i.sprint_id}">${i.sprint}</a>`
          : "No sprint"}</dd>
        <dt>Due date</dt>
        <dd id="field-due">${day(i.due_date) || "—"}</dd>
        <dt>Labels</dt>
        <dd id="field-labels">${labelList(i.labels)}</dd>
        <dt>Blocked by</dt>
        <dd id="field-blocked-by">${blockedBy
          ? html`<a href="${issueHref(blockedBy.key)}">${blockedBy.key}</a> ${blockedBy.title} (${
            statusLabel(
              blockedBy.status,
            )
          })`
          : "—"}</dd>
        <dt>Blocks</dt>
        <dd id="field-blocks">${blocks.length
          ? blocks.map((b) => html`<a href="${issueHref(b.key)}">${b.key}</a> ${b.title}<br>`)
          : "—"}</dd>
        <dt>Created</dt>
        <dd>${when(i.created_at)}</dd>
        <dt>Updated</dt>
        <dd>${when(i.updated_at)}</dd>
      </dl>
      <h3>Description</h3>
      <p id="issue-description">${i.description || html`<span class="muted">No description.</span>`}</p>
    </div>
    <form method="post" action="${issueHref(i.key)}/status" id="status-form" class="card row">
      <label for="status-select">Move to</label>
      <select id="status-select" name="status" style="width:auto">${STATUSES.map((s) =>
        html`<option value="${s.value}" ${s.value === i.status ? "selected" : ""}>${s.label}</option>`
      )}</select>
      <button type="submit" id="update-status">Update status</button>
    </form>
  `;
}

function commentsTab(c: Ctx, i: Issue, r: Retry): Html {
  const rows = c.get("db").all<{ id: number; body: string; created_at: string; author: string | null }>(
    `SELECT c.id, c.body, c.created_at, p.name AS author FROM comments c LEFT JOIN people p ON p.id = c.author_id
     WHERE c.issue_id = ? ORDER BY c.created_at, c.id`,
    i.id,
  );
  return html`
    <div id="comments">${rows.length
      ? rows.map((m) =>
        html`
          <article class="card" id="comment-${m.id}">
            <div class="muted"><b>${m.author ?? "Guest"}</b> · ${when(m.created_at)}</div>
            <p>${m.body}</p>
          </article>
        `
      )
      : html`<p class="muted" id="no-comments">No comments yet.</p>`}</div>
    ${r.commentError ? html`<div class="errors" role="alert">${r.commentError}</div>` : ""}
    <form method="post" action="${issueHref(i.key)}/comments" id="comment-form" class="stack card">
      <label for="comment-body">Add a comment</label>
      <textarea id="comment-body" name="body">${r.comment ?? ""}</textarea>
      ${r.commentError ? html`<span class="field-error">${r.commentError}</span>` : ""}
      <div><button type="submit" id="add-comment">Comment</button></div>
    </form>
  `;
}

const showValue = (field: string, v: string | null) =>
  v === null || v === "" ? "—" : field === "status" ? statusLabel(v) : field === "priority" ? priorityLabel(v) : v;

function historyTab(c: Ctx, i: Issue): Html {
  const rows = c.get("db").all<
    { field: string; old_value: string | null; new_value: string | null; created_at: string; actor: string | null }
  >(
    `SELECT a.field, a.old_value, a.new_value, a.created_at, p.name AS actor FROM activity a
     LEFT JOIN people p ON p.id = a.actor_id WHERE a.issue_id = ? ORDER BY a.created_at DESC, a.id DESC`,
    i.id,
  );
  return html`
    <table id="history">
      <thead>
        <tr>
          <th>When</th>
          <th>Who</th>
          <th>Change</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map((h) =>
          html`
            <tr>
              <td>${when(h.created_at)}</td>
              <td>${h.actor ?? "Guest"}</td>
              <td>Changed <b>${h.field}</b> from
                        “${showValue(h.field, h.old_value)}” to “${showValue(h.field, h.new_value)}”</td>
            </tr>
          `
        )}
        <tr><td>${when(i.created_at)}</td><td>${i.reporter ?? "Guest"}</td><td>Created the issue</td></tr>
      </tbody>
    </table>
  `;
}

const INLINE_EDIT = raw(`<script>
(() => {
  const edit = document.getElementById("edit-title"), form = document.getElementById("title-form");
  const input = document.getElementById("title-input"), cancel = document.getElementById("cancel-title");
  const heading = document.getElementById("issue-heading");
  edit.addEventListener("click", (e) => {
    e.preventDefault(); form.hidden = false; edit.hidden = true; heading.hidden = true; input.focus(); input.select();
  });
  cancel.addEventListener("click", (e) => {
    e.preventDefault(); form.hidden = true; edit.hidden = false; heading.hidden = false; input.value = input.defaultValue;
  });
})();
</script>`);

function titleBlock(i: Issue, r: Retry, editing: boolean): Html {
  return html`
    <div class="row">
      <h1 id="issue-heading"
        ${editing ? "hidden" : ""}><span class="muted">${i.key}</span> <span id="title-text">${i
          .title}</span></h1>
      <a href="${issueHref(i.key)}?edit=title" id="edit-title" class="button secondary" ${editing
        ? "hidden"
        : ""}>Edit</a>
    </div>
    <form method="post" action="${issueHref(i.key)}/title" id="title-form" class="card stack" ${editing
      ? ""
      : "hidden"}>
      ${r.titleError ? html`<div class="errors" role="alert">${r.titleError}</div>` : ""}
      <label for="title-input">Title of ${i.key}</label>
      <input type="text" id="title-input" name="title" value="${r.title ?? i.title}">
      ${r.titleError ? html`<span class="field-error">${r.titleError}</span>` : ""}
      <div class="row"><button type="submit" id="save-title">Save</button>
        <a href="${issueHref(i.key)}" id="cancel-title">Cancel</a></div>
    </form>
  `;
}

function issuePage(c: Ctx, i: Issue, tab: Tab, r: Retry = {}, status: 200 | 422 = 200) {
  const editing = c.req.query("edit") === "title" || !!r.titleError;
  const link = `${new URL(c.req.url).origin}${issueHref(i.key)}`;
  const body = tab === "comments" ? commentsTab(c, i, r) : tab === "history" ? historyTab(c, i) : detailsTab(c, i);
  return page(c, {
    title: `${i.key} ${i.title}`,
    active: "issues",
    status,
    crumbs: [
      { href: `${BASE}/issues`, label: "Issues" },
      { href: `${BASE}/projects/${i.project_key}`, label: i.project_name },
      { href: issueHref(i.key), label: i.key },
    ],
    body: html`
      ${EXTRA_CSS} ${titleBlock(i, r, editing)}
            <div class="row" id="issue-actions">
        <a class="button secondary" href="${issueHref(i.key)}/edit" id="edit-issue">Edit issue</a>
        <button type="button" class="secondary" id="copy-key" data-copy="${i.key}">Copy key</button>
        <button type="button" class="secondary" id="copy-link" data-copy="${link}">Copy link</button>
        <span class="spacer"></span>
        <form method="post" action="${issueHref(i.key)}/delete" class="inline" id="delete-form"
          data-confirm="Delete ${i.key}? This cannot be undone."><button type="submit" class="danger" id="delete-issue"
                >Delete</button></form>
      </div>
            <nav class="tabs" id="issue-tabs" aria-label="Issue sections" style="margin-top:14px">${TABS.map((
              [id, label],
            ) =>
              html`<a href="${issueHref(i.key)}?tab=${id}" id="tab-${id}" class="${id === tab ? "active" : ""}" ${
                id === tab ? raw('aria-current="page"') : ""
              }>${label}</a>`
            )}</nav>
            <section id="tab-panel" data-tab="${tab}">${body}</section>
            ${INLINE_EDIT}
    `,
  });
}

/** The issue named by the :key param, or a 404 page. */
function withIssue(handler: (c: Ctx, i: Issue) => Response | Promise<Response>) {
  return (c: Ctx) => {
    const issue = issueByKey(c.get("db"), c.req.param("key") ?? "");
    return issue ? handler(c, issue) : notFound(c, `Issue ${c.req.param("key")}`);
  };
}

export function issueRoutes(app: Hono<SandboxEnv>): void {
  app.get(
    "/issues/:key",
    withIssue((c, i) => {
      const tab = TABS.find(([id]) => id === c.req.query("tab"))?.[0] ?? "details";
      return issuePage(c, i, tab);
    }),
  );
  app.post(
    "/issues/:key/status",
    withIssue(async (c, i) => {
      const status = String((await c.req.parseBody()).status ?? "");
      if (!moveIssue(c, i, status)) return redirectWith(c, issueHref(i.key), "Choose one of the four statuses.");
      return redirectWith(c, issueHref(i.key), `${i.key} is now ${statusLabel(status)}.`);
    }),
  );
  app.post(
    "/issues/:key/title",
    withIssue(async (c, i) => {
      const title = String((await c.req.parseBody()).title ?? "");
      const error = titleError(title);
      if (error) return issuePage(c, i, "details", { titleError: error, title }, 422);
      changeIssue(c, i, { title: title.trim() });
      return redirectWith(c, issueHref(i.key), "Title saved.");
    }),
  );
  app.post(
    "/issues/:key/comments",
    withIssue(async (c, i) => {
      const body = String((await c.req.parseBody()).body ?? "").trim();
      if (!body || body.length > 2000) {
        const commentError = body ? "A comment can be at most 2000 characters." : "Write a comment first.";
        return issuePage(c, i, "comments", { commentError, comment: body }, 422);
      }
      const now = c.get("clock").now().toISOString();
      const id = c.get("db").insert("comments", { issue_id: i.id, author_id: actorId(c), body, created_at: now });
      return redirectWith(c, `${issueHref(i.key)}?tab=comments#comment-${id}`, "Comment added.");
    }),
  );
  app.post(
    "/issues/:key/delete",
    withIssue((c, i) => {
      const db = c.get("db");
      for (const b of db.all<{ id: number }>("SELECT id FROM issues WHERE blocked_by_id = ?", i.id)) {
        db.update("issues", b.id, { blocked_by_id: null });
      }
      db.remove("issues", i.id);
      return redirectWith(c, `${BASE}/issues`, `Deleted ${i.key}.`);
    }),
  );
}
