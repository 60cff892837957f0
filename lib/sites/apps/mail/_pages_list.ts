/** The list pages: folders (with the optional reading pane), labels and search. */
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { type Filter, getMessage, getSettings, listMessages, markRead } from "./_data.ts";
import { messagePreview } from "./_message_view.ts";
import { type Folder, folderTitle, type FolderView, LABELS } from "./_model.ts";
import { BASE, MAIL_CRUMB, mailPage, messageTable, pager } from "./_views.ts";

const pageParam = (c: Context<SandboxEnv>) => Number(c.req.query("page") ?? 1);

function folderFilter(f: FolderView): Filter {
  return f === "starred" ? { kind: "starred" } : { kind: "folder", folder: f as Folder };
}

/** The reading pane's message (`?m=ID`), opened (and so marked read) when the pane is on. */
function paneMessage(c: Context<SandboxEnv>, pane: string) {
  if (pane === "off") return undefined;
  const m = getMessage(c.get("db"), Number(c.req.query("m")));
  if (m) markRead(c.get("db"), m);
  return m ? getMessage(c.get("db"), m.id) : undefined;
}

function folderPage(c: Context<SandboxEnv>, f: FolderView) {
  const db = c.get("db");
  const settings = getSettings(db);
  const opened = paneMessage(c, settings.reading_pane);
  const p = listMessages(db, folderFilter(f), pageParam(c), settings.page_size);
  const here = (n: number) => `${BASE}/${f}?page=${n}`;
  const unread = p.rows.length
    ? db.get<{ n: number }>(
      f === "starred"
        ? "SELECT COUNT(*) AS n FROM messages WHERE starred = 1 AND folder != 'trash' AND read = 0"
        : "SELECT COUNT(*) AS n FROM messages WHERE folder = ? AND read = 0",
      ...(f === "starred" ? [] : [f]),
    )?.n ?? 0
    : 0;
  const list = messageTable(p.rows, {
    showTo: f === "sent" || f === "drafts",
    showFolder: f === "starred",
    returnTo: here(p.page),
    rowActions: f === "inbox",
    href: settings.reading_pane === "off" ? undefined : (m) => `${here(p.page)}&m=${m.id}`,
    empty: `No messages in ${folderTitle(f)}.`,
  });
  const pane = settings.reading_pane === "off"
    ? ""
    : opened
    ? messagePreview(db, opened)
    : html`<div class="card muted" id="reading-pane">Select a message to read it here.</div>`;
  const body = html`<h1>${folderTitle(f)}</h1>
<p class="muted" id="folder-summary">${p.total} message${p.total === 1 ? "" : "s"}${
    unread ? html`, ${unread} unread` : ""
  }</p>
<div class="${settings.reading_pane === "right" ? "pane-right" : ""}"><div>${list}${
    p.pages > 1 ? pager(p.page, p.pages, p.total, settings.page_size, here) : ""
  }</div>${pane}</div>`;
  return c.html(mailPage(c, {
    title: folderTitle(f),
    active: f,
    crumbs: [MAIL_CRUMB, { href: here(1), label: folderTitle(f) }],
    body,
  }));
}

function labelPage(c: Context<SandboxEnv>) {
  const label = LABELS.find((l) => l.toLowerCase() === c.req.param("label")?.toLowerCase());
  if (!label) return c.notFound();
  const db = c.get("db");
  const size = getSettings(db).page_size;
  const p = listMessages(db, { kind: "label", label }, pageParam(c), size);
  const here = (n: number) => `${BASE}/labels/${label}?page=${n}`;
  const body = html`<h1>Label: ${label}</h1>
<p class="muted" id="folder-summary">${p.total} message${
    p.total === 1 ? "" : "s"
  } labelled ${label} (Trash not included)</p>
${messageTable(p.rows, { showFolder: true, returnTo: here(p.page), empty: `No messages are labelled ${label}.` })}
${p.pages > 1 ? pager(p.page, p.pages, p.total, size, here) : ""}`;
  return c.html(mailPage(c, {
    title: `Label ${label}`,
    active: `label:${label}`,
    crumbs: [MAIL_CRUMB, { href: here(1), label: `Label: ${label}` }],
    body,
  }));
}

function searchPage(c: Context<SandboxEnv>) {
  const q = (c.req.query("q") ?? "").trim();
  const db = c.get("db");
  const size = getSettings(db).page_size;
  const here = (n: number) => `${BASE}/search?q=${encodeURIComponent(q)}&page=${n}`;
  let body;
  if (!q) {
    body = html`
      <h1>Search</h1>
      <p class="muted" id="search-summary">Type a word from a subject, a sender or a message body.</p>
    `;
  } else {
    const p = listMessages(db, { kind: "search", q }, pageParam(c), size);
    body = html`
      <h1>Search results for “${q}”</h1>
      <p class="muted"
        id="search-summary">${p.total} message${p.total === 1
          ? ""
          : "s"} found (subject, sender and body; Trash not included)</p>
      ${messageTable(p.rows, { showFolder: true, returnTo: here(p.page), empty: `No messages match “${q}”.` })}
      ${p.pages > 1 ? pager(p.page, p.pages, p.total, size, here) : ""}
    `;
  }
  return c.html(mailPage(c, {
    title: q ? `Search: ${q}` : "Search",
    active: "search",
    crumbs: [MAIL_CRUMB, { href: `${BASE}/search`, label: "Search" }],
    body,
  }));
}

export function listRoutes(app: Hono<SandboxEnv>): void {
  app.get("/", (c) => c.redirect(`${BASE}/inbox`, 302));
  app.get(
    "/:folder{inbox|starred|sent|drafts|archive|trash}",
    (c) => folderPage(c, c.req.param("folder") as FolderView),
  );
  app.get("/labels/:label", labelPage);
  app.get("/search", searchPage);
}
