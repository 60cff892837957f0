/**
 * The inbox: Alex Morgan's notifications as a custom list of plain `div` rows, as many real apps build them (no
 * link, role, tabindex or onclick attribute): a page script binds each row's click with addEventListener and posts
 * the row's open request, which marks the notification read and redirects to its issue.
 */
import type { Hono } from "hono";
import { html, raw } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { BASE, type Ctx, EXTRA_CSS, issueHref, page, when } from "./_views.ts";

interface Notification {
  id: number;
  key: string;
  title: string;
  actor: string;
  text: string;
  created_at: string;
  read: number;
}

/** The inbox's notifications, newest first. */
export function notifications(c: Ctx): Notification[] {
  return c.get("db").all<Notification>(
    `SELECT n.id, i.key, i.title, p.name AS actor, n.text, n.created_at, n.read
     FROM notifications n JOIN issues i ON i.id = n.issue_id JOIN people p ON p.id = n.actor_id
     ORDER BY n.created_at DESC, n.id`,
  );
}

const initials = (name: string) => name.split(" ").map((w) => w[0]).join("");

/** A colour per person, so the avatars differ. */
const hueOf = (name: string) => [...name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 7);

const STYLE = html`<style>
  .inbox{background:#fff;border:1px solid #e5e7eb;border-radius:12px;overflow:hidden;max-width:820px}
  .note-row{display:flex;gap:14px;align-items:center;padding:12px 16px;border-bottom:1px solid #f1f5f9;cursor:pointer}
  .note-row:hover{background:#faf5ff}.note-row.unread{border-left:4px solid #7c3aed;background:#fdfcff}
  .note-row.unread .note-text{font-weight:600}.note-row:not(.unread){border-left:4px solid transparent;color:#64748b}
  .note-avatar{width:34px;height:34px;border-radius:50%;color:#fff;display:flex;align-items:center;justify-content:center;
  font-size:13px;font-weight:700;flex:none}.note-body{flex:1}.note-issue{font-size:12px;color:#7c3aed}
  .note-time{font-size:12px;color:#94a3b8;white-space:nowrap}
</style>`;

/**
 * The page script: each row's click posts a form built on the fly (so that the navigation starts within the click,
 * as a link's would).
 */
const SCRIPT = raw(`<script>
for (const row of document.querySelectorAll(".note-row")) {
  row.addEventListener("click", () => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = row.dataset.open;
    document.body.append(form);
    form.submit();
  });
}
</script>`);

function inboxPage(c: Ctx) {
  const list = notifications(c);
  const unread = list.filter((n) => !n.read).length;
  return page(c, {
    title: "Inbox",
    active: "inbox",
    crumbs: [{ href: `${BASE}/inbox`, label: "Inbox" }],
    body: html`${EXTRA_CSS}${STYLE}
      <h1>Inbox</h1>
      <p class="muted" id="inbox-count">${unread} unread notification${unread === 1 ? "" : "s"}</p>
      <div class="inbox" id="inbox-list">${
      list.map((n) =>
        html`
          <div class="note-row${n.read ? "" : " unread"}" id="note-${n.id}"
            data-open="${BASE}/inbox/${n.id}/open">
            <div class="note-avatar" style="background:hsl(${hueOf(n.actor)} 55% 45%)">${initials(n.actor)}</div>
            <div class="note-body">
              <div class="note-text">${n.text}</div>
              <div class="note-issue">${n.key} · ${n.title}</div>
            </div>
            <div class="note-time">${when(n.created_at)}</div>
          </div>
        `
      )
    }</div>${SCRIPT}`,
  });
}

/** Opens one notification: marks it read and redirects (303) to its issue; 404 for an unknown one. */
function openNotification(c: Ctx) {
  const db = c.get("db");
  const id = Number(c.req.param("id"));
  const n = db.get<{ key: string }>(
    "SELECT i.key FROM notifications n JOIN issues i ON i.id = n.issue_id WHERE n.id = ?",
    id,
  );
  if (!n) return c.text(`Notification ${c.req.param("id")} not found`, 404);
  db.update("notifications", id, { read: 1 });
  return c.redirect(issueHref(n.key), 303);
}

export function inboxRoutes(app: Hono<SandboxEnv>): void {
  app.get("/inbox", inboxPage);
  app.post("/inbox/:id/open", openNotification);
}
