/** The message page and its actions (star, mark unread, labels, move, delete) and the attachment downloads. */
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { attachmentsOf, getMessage, markRead } from "./_data.ts";
import { attachmentTable, messageMeta } from "./_message_view.ts";
import { type Attachment, folderTitle, labelList, LABELS, type Message, MOVE_TARGETS } from "./_model.ts";
import { BASE, MAIL_CRUMB, mailPage, safeReturn } from "./_views.ts";

function actions(m: Message): ReturnType<typeof html> {
  const trash = m.folder === "trash";
  return html`<div class="row" id="message-actions" style="margin-bottom:14px">
${
    m.folder === "drafts"
      ? html`<a class="button" id="edit-draft" href="${BASE}/compose?draft=${m.id}">Edit draft</a>`
      : html`<a class="button" id="reply-link" href="${BASE}/compose?reply=${m.id}">Reply</a>`
  }
<a class="button secondary" id="forward-link" href="${BASE}/compose?forward=${m.id}">Forward</a>
<form method="post" action="${BASE}/messages/${m.id}/star" class="inline">
<button class="secondary" id="star-toggle" aria-pressed="${m.starred ? "true" : "false"}">${
    m.starred ? "★ Unstar" : "☆ Star"
  }</button></form>
<form method="post" action="${BASE}/messages/${m.id}/unread" class="inline"><button class="secondary" id="mark-unread">Mark as unread</button></form>
<span class="spacer"></span>
<form method="post" action="${BASE}/messages/${m.id}/delete" class="inline" id="delete-form" data-confirm="${
    trash ? "Delete this message forever? This cannot be undone." : "Move this message to Trash?"
  }">
<button class="danger" id="delete-message">${trash ? "Delete forever" : "Delete"}</button></form>
</div>`;
}

function organize(m: Message): ReturnType<typeof html> {
  const on = labelList(m);
  const targets = MOVE_TARGETS.includes(m.folder) ? MOVE_TARGETS : [m.folder, ...MOVE_TARGETS];
  return html`
    <div class="grid" id="organize">
      <form method="post" action="${BASE}/messages/${m.id}/labels" class="card" id="labels-form">
        <fieldset style="border:none;padding:0;margin:0"><legend><b>Labels</b></legend>
    ${LABELS.map((l) =>
      html`
        <label
          style="display:flex;gap:8px;align-items:center;font-weight:400"><input type="checkbox" name="label" value="${l}" id="label-${l
            .toLowerCase()}" ${on.includes(l) ? "checked" : ""}> ${l}</label>
      `
    )}
        </fieldset>
        <button type="submit" id="save-labels" style="margin-top:8px">Save labels</button>
      </form>
      <form method="post" action="${BASE}/messages/${m.id}/move" class="card" id="move-form">
        <label for="move-folder">Move to folder</label>
        <select id="move-folder" name="folder">${targets.map((f) =>
          html`<option value="${f}" ${f === m.folder ? "selected" : ""}>${folderTitle(f)}</option>`
        )}</select>
        <button type="submit" id="move-button" style="margin-top:8px">Move</button>
      </form>
    </div>
  `;
}

function messagePage(c: Context<SandboxEnv>, m: Message, error = "") {
  const db = c.get("db");
  const body = html`<h1 id="message-subject">${m.subject || "(no subject)"}</h1>
${error ? html`<div class="errors" role="alert">${error}</div>` : ""}
${actions(m)}
<div class="card">${messageMeta(db, m)}<hr><pre class="msg-body" id="message-body">${m.body}</pre></div>
${attachmentTable(attachmentsOf(db, m.id))}
<h2>Organize</h2>
${organize(m)}`;
  return c.html(
    mailPage(c, {
      title: m.subject || "(no subject)",
      active: m.folder,
      crumbs: [MAIL_CRUMB, { href: `${BASE}/${m.folder}`, label: folderTitle(m.folder) }, {
        href: `${BASE}/messages/${m.id}`,
        label: m.subject || "(no subject)",
      }],
      body,
    }),
    error ? 422 : 200,
  );
}

const withFlash = (path: string, flash: string) =>
  `${path}${path.includes("?") ? "&" : "?"}flash=${encodeURIComponent(flash)}`;

/** The message of the `:id` parameter, or undefined (the handler answers 404). */
function param(c: Context<SandboxEnv>): Message | undefined {
  return getMessage(c.get("db"), Number(c.req.param("id")));
}

function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function attachmentText(a: Attachment): string {
  return a.content ??
    `${a.name} (${a.type}, ${a.size} bytes)\n\nThis sandbox keeps only the name, type and size of uploaded binary files.\n`;
}

function messageActionRoutes(app: Hono<SandboxEnv>): void {
  app.post("/messages/:id/star", async (c) => {
    const m = param(c);
    if (!m) return c.notFound();
    const form = await c.req.parseBody({ all: true });
    c.get("db").update("messages", m.id, { starred: m.starred ? 0 : 1 });
    const flash = m.starred ? "Star removed." : "Message starred.";
    return c.redirect(withFlash(safeReturn(form.return, `${BASE}/messages/${m.id}`), flash), 303);
  });
  app.post("/messages/:id/unread", (c) => {
    const m = param(c);
    if (!m) return c.notFound();
    c.get("db").update("messages", m.id, { read: 0 });
    return c.redirect(withFlash(`${BASE}/${m.folder}`, `“${m.subject}” marked as unread.`), 303);
  });
  app.post("/messages/:id/labels", async (c) => {
    const m = param(c);
    if (!m) return c.notFound();
    const raw = (await c.req.parseBody({ all: true })).label;
    const picked = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
    const bad = picked.find((l) => !(LABELS as readonly string[]).includes(l));
    if (bad) return messagePage(c, m, `“${bad}” is not a label. Choose from ${LABELS.join(", ")}.`);
    const labels = LABELS.filter((l) => picked.includes(l)).join(",");
    const changed = c.get("db").update("messages", m.id, { labels });
    return c.redirect(withFlash(`${BASE}/messages/${m.id}`, changed ? "Labels updated." : "Labels unchanged."), 303);
  });
  app.post("/messages/:id/move", async (c) => {
    const m = param(c);
    if (!m) return c.notFound();
    const folder = String((await c.req.parseBody({ all: true })).folder ?? "");
    if (folder === m.folder) {
      return c.redirect(withFlash(`${BASE}/messages/${m.id}`, "The message is already there."), 303);
    }
    if (!(MOVE_TARGETS as string[]).includes(folder)) {
      return messagePage(c, m, `Choose a folder to move to: ${MOVE_TARGETS.map(folderTitle).join(", ")}.`);
    }
    c.get("db").update("messages", m.id, { folder });
    return c.redirect(withFlash(`${BASE}/${m.folder}`, `Message moved to ${folderTitle(folder)}.`), 303);
  });
  app.post("/messages/:id/delete", (c) => {
    const m = param(c);
    if (!m) return c.notFound();
    const db = c.get("db");
    if (m.folder !== "trash") {
      db.update("messages", m.id, { folder: "trash" });
      return c.redirect(withFlash(`${BASE}/${m.folder}`, "Message moved to Trash."), 303);
    }
    for (const a of attachmentsOf(db, m.id)) db.remove("attachments", a.id);
    db.remove("messages", m.id);
    return c.redirect(withFlash(`${BASE}/trash`, "Message deleted forever."), 303);
  });
}

export function messageRoutes(app: Hono<SandboxEnv>): void {
  app.get("/messages/:id", (c) => {
    const m = param(c);
    if (!m) return c.notFound();
    markRead(c.get("db"), m);
    return messagePage(c, { ...m, read: 1 });
  });
  messageActionRoutes(app);
  const attachment = (c: Context<SandboxEnv>) =>
    Number.isInteger(Number(c.req.param("id")))
      ? c.get("db").byId<Attachment>("attachments", Number(c.req.param("id")))
      : undefined;
  app.get("/attachments/:id", (c) => {
    const a = attachment(c);
    if (!a) return c.notFound();
    return c.body(attachmentText(a), 200, {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": contentDisposition("inline", a.name),
    });
  });
  app.get("/attachments/:id/download", (c) => {
    const a = attachment(c);
    if (!a) return c.notFound();
    const type = a.content === null ? "text/plain" : a.type || "application/octet-stream";
    return c.body(attachmentText(a), 200, {
      "content-type": type.startsWith("text/") ? `${type}; charset=utf-8` : type,
      "content-disposition": contentDisposition("attachment", a.name),
    });
  });
}
