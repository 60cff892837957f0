/** The mail app's page frame (folder menu, search box) and its shared pieces: the message list and the pager. */
import type { Context } from "hono";
import { html, raw } from "hono/html";
import { type Html, type NavLink, renderPage } from "../../layout.ts";
import { DEFAULT_USER } from "../../session.ts";
import type { SandboxEnv } from "../../types.ts";
import { folderCounts, type ListedMessage } from "./_data.ts";
import { FOLDERS, folderTitle, labelList, LABELS, shortDate } from "./_model.ts";

export const BASE = "/mail";

export interface ShellOptions {
  title: string;
  /** The folder view, label or section to highlight: "inbox", "label:Work", "contacts", "settings", ... */
  active?: string;
  crumbs?: NavLink[];
  /** Defaults to the `flash` query parameter. */
  flash?: string;
  body: Html;
}

const CSS = `
[hidden]{display:none !important}
.icon-btn{background:none;border:1px solid transparent;border-radius:4px;padding:2px 4px;color:#52606d;cursor:pointer}
.icon-btn:hover{border-color:#cbd2d9;color:#1f2933}
.icon-btn svg{display:block;fill:currentColor}
.mail-layout{display:grid;grid-template-columns:210px 1fr;gap:20px;align-items:start}
.mail-side ul{list-style:none;margin:0 0 12px;padding:0}
.mail-side li a{display:flex;gap:6px;align-items:center;padding:6px 10px;border-radius:6px;color:#1f2933}
.mail-side li a.active{background:#dbeafe;font-weight:600}
.mail-side li a .count{margin-left:auto}
.mail-side h3{font-size:12px;text-transform:uppercase;color:#64748b;margin:14px 10px 6px}
#compose-button{display:block;text-align:center;margin-bottom:12px}
#contacts-table td{white-space:nowrap}#contacts-table .copy-address{padding:3px 8px;font-size:13px}
#search-form{display:flex;gap:8px;margin-bottom:14px}
table.messages tr.unread td{font-weight:700;background:#fff}
table.messages tr.read td{color:#475569}
table.messages td.date{white-space:nowrap}
.star{font-size:17px;color:#d97706}
.msg-body{white-space:pre-wrap;font-family:inherit;margin:0}
.pane-right{display:grid;grid-template-columns:1fr 1fr;gap:14px;align-items:start}
`;

function sideMenu(c: Context<SandboxEnv>, active: string | undefined): Html {
  const counts = folderCounts(c.get("db"));
  const folder = (f: typeof FOLDERS[number]) => {
    const on = active === f;
    const n = counts[f];
    return html`<li><a href="${BASE}/${f}" id="folder-${f}" class="${on ? "active" : ""}" ${
      on ? html`aria-current="page"` : ""
    }>${folderTitle(f)}${
      n.unread && f !== "drafts" && f !== "sent"
        ? html`
          <b class="unread-count" title="unread">${n.unread} unread</b>
        `
        : ""
    }<span class="count badge" title="messages">${n.total}</span></a></li>`;
  };
  const label = (l: string) => {
    const on = active === `label:${l}`;
    return html`<li><a href="${BASE}/labels/${l}" id="label-link-${l.toLowerCase()}" class="${
      on ? "active" : ""
    }">${l}</a></li>`;
  };
  return html`
    <aside class="mail-side">
      <a class="button" id="compose-button" href="${BASE}/compose">Compose</a>
      <nav id="folders" aria-label="Folders">
        <ul>${FOLDERS.map(folder)}</ul>
      </nav>
      <h3>Labels</h3>
      <nav id="labels-nav" aria-label="Labels">
        <ul>${LABELS.map(label)}</ul>
      </nav>
    </aside>
  `;
}

/** A full page of the mail app: top menu, folder menu on the left, search box and the page's body. */
export function mailPage(c: Context<SandboxEnv>, o: ShellOptions): Html {
  const section = o.active === "contacts" || o.active === "settings" ? o.active : "mail";
  const nav: NavLink[] = [
    { href: `${BASE}/inbox`, label: "Mail", active: section === "mail" },
    { href: `${BASE}/contacts`, label: "Contacts", active: section === "contacts" },
    { href: `${BASE}/settings`, label: "Settings", active: section === "settings" },
  ];
  const q = o.active === "search" ? c.req.query("q") ?? "" : "";
  return renderPage({
    title: o.title,
    app: "Mail",
    appHref: `${BASE}/`,
    nav,
    crumbs: o.crumbs,
    user: c.get("session").flags.loggedIn ? DEFAULT_USER.name : null,
    now: c.get("clock").now().toISOString(),
    flash: o.flash ?? c.req.query("flash"),
    body: html`<style>${raw(CSS)}</style>
<div class="mail-layout">${sideMenu(c, o.active)}<section class="mail-main">
<form method="get" action="${BASE}/search" role="search" id="search-form">
<input type="search" id="search-q" name="q" value="${q}" placeholder="Search mail" aria-label="Search mail">
<button type="submit" id="search-button">Search</button>
</form>
${o.body}</section></div>`,
  });
}

/** The first crumb of every mail page. */
export const MAIL_CRUMB: NavLink = { href: `${BASE}/inbox`, label: "Mail" };

export interface ListOptions {
  /** Show the recipients instead of the sender (Sent, Drafts). */
  showTo?: boolean;
  /** Show each message's folder (views that span folders). */
  showFolder?: boolean;
  /** Where the subject links to (default: the message page). */
  href?: (m: ListedMessage) => string;
  /** The page to come back to after starring from the list. */
  returnTo: string;
  /**
   * Icon-only row actions (Archive; Mark as unread on a read message), as webmail lists have them: buttons with no
   * text, no label and no title, told apart only by their class and their icon's symbol (docs/perception.md).
   */
  rowActions?: boolean;
  empty: string;
}

function listRow(m: ListedMessage, o: ListOptions): Html {
  const who = o.showTo ? (m.to_addrs ? `To: ${m.to_addrs}` : "(no recipient)") : m.from_name;
  const href = o.href ? o.href(m) : `${BASE}/messages/${m.id}`;
  return html`<tr class="${m.read ? "read" : "unread"}" data-id="${m.id}">
<td><form method="post" action="${BASE}/messages/${m.id}/star" class="inline">
<input type="hidden" name="return" value="${o.returnTo}">
<button class="link star" id="star-${m.id}" aria-pressed="${m.starred ? "true" : "false"}" aria-label="${
    m.starred ? "Unstar" : "Star"
  } message ${m.id}">${m.starred ? "★" : "☆"}</button></form></td>
<td class="from">${who}</td>
<td><a href="${href}" class="subject" id="msg-${m.id}">${m.subject || "(no subject)"}</a>${
    labelList(m).map((l) =>
      html`
        <span class="badge label">${l}</span>
      `
    )
  }${
    m.n_att
      ? html`
        <span class="badge attachment-count" title="attachments">${m.n_att} file${m.n_att === 1 ? "" : "s"}</span>
      `
      : ""
  }${
    m.read ? "" : html`
      <span class="badge" aria-label="unread">new</span>
    `
  }</td>
${o.showFolder ? html`<td>${folderTitle(m.folder)}</td>` : ""}
<td class="date">${shortDate(m.date)}, ${m.date.slice(11, 16)}</td>
${o.rowActions ? rowActions(m) : ""}
</tr>`;
}

/** The icons the row actions draw (one hidden sprite per list). */
const ICON_SPRITE = `<svg width="0" height="0" style="position:absolute" aria-hidden="true">
<symbol id="i-archive" viewBox="0 0 16 16"><path d="M1 2h14v4H1zM2 6h12v8H2zM6 8h4v1.5H6z"/></symbol>
<symbol id="i-mail-unread" viewBox="0 0 16 16"><path d="M1 3h14v10H1zM1.5 3.5 8 9l6.5-5.5" fill="none" stroke="currentColor"/></symbol>
</svg>`;

/** A row's icon-only buttons: each a form posting the action, its only content an SVG icon. */
function rowActions(m: ListedMessage): Html {
  const icon = (symbol: string) =>
    html`
      <svg class="icon" width="16" height="16" aria-hidden="true">
        <use href="#${symbol}"></use>
      </svg>
    `;
  return html`<td class="row-actions">
<form method="post" action="${BASE}/messages/${m.id}/move" class="inline">
<input type="hidden" name="folder" value="archive">
<button class="icon-btn archive" id="archive-${m.id}">${icon("i-archive")}</button></form>
${
    m.read
      ? html`<form method="post" action="${BASE}/messages/${m.id}/unread" class="inline">
<button class="icon-btn mark-unread" id="unread-${m.id}">${icon("i-mail-unread")}</button></form>`
      : ""
  }
</td>`;
}

/** The table of a list of messages. */
export function messageTable(rows: ListedMessage[], o: ListOptions): Html {
  if (rows.length === 0) return html`<p class="muted" id="empty-list">${o.empty}</p>`;
  return html`
    <table id="message-list" class="messages">
      <thead>
        <tr><th style="width:34px"><span aria-label="Starred">★</span></th><th>${o.showTo
          ? "To"
          : "From"}</th><th>Subject</th>${o
            .showFolder
          ? html`<th>Folder</th>`
          : ""}<th style="width:120px">Date</th>${o.rowActions ? html`<th style="width:70px"></th>` : ""}</tr>
      </thead>
      <tbody>${rows.map((m) => listRow(m, o))}</tbody>
    </table>${o.rowActions ? raw(ICON_SPRITE) : ""}
  `;
}

/** Previous/next and numbered page links; `href(n)` is page n's address. */
export function pager(page: number, pages: number, total: number, size: number, href: (n: number) => string): Html {
  const from = total === 0 ? 0 : (page - 1) * size + 1;
  const to = Math.min(total, page * size);
  const nums = Array.from({ length: pages }, (_, i) => i + 1);
  return html`<nav class="pager" aria-label="Pagination" id="pager">
${page > 1 ? html`<a href="${href(page - 1)}" rel="prev" id="prev-page">‹ Previous</a>` : ""}
${
    nums.map((n) =>
      n === page
        ? html`<span class="current" aria-current="page">${n}</span>`
        : html`<a href="${href(n)}" class="page-link" id="page-${n}">${n}</a>`
    )
  }
${page < pages ? html`<a href="${href(page + 1)}" rel="next" id="next-page">Next ›</a>` : ""}
<span class="muted" id="page-range" style="border:none;background:none">${from}–${to} of ${total}</span>
</nav>`;
}

/** A `return` form value that stays inside the app, or `fallback`. */
export function safeReturn(raw: unknown, fallback: string): string {
  const s = typeof raw === "string" ? raw : "";
  return s.startsWith(`${BASE}/`) && !s.startsWith("//") ? s : fallback;
}

/** A textarea holding `value` exactly (the HTML parser drops one newline right after the start tag). */
export function textarea(id: string, name: string, rows: number, value: string): Html {
  return html`<textarea id="${id}" name="${name}" rows="${rows}">${"\n"}${value}</textarea>`;
}
