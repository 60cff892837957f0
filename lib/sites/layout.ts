/**
 * The page frame every sandbox app shares: top bar, app menu, breadcrumbs, the user menu, the stylesheet, the
 * recorder and the shared widgets, and the frozen clock for page scripts.
 */
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface NavLink {
  href: string;
  label: string;
  active?: boolean;
}

/** A top-bar menu that opens when the pointer rests on it (CSS :hover); its items are hidden until then. */
export interface HoverMenu {
  /** The menu's element id (`<nav id>`): a click on an item is recorded in region `nav#ID.hovermenu`. */
  id: string;
  /** The trigger's text (and the menu's accessible name). */
  label: string;
  items: NavLink[];
}

interface PageOptions {
  /** The document title; the app's name is appended. */
  title: string;
  /** The app's display name, shown in the top bar ("" for the portal). */
  app: string;
  /** The app's home path, the top bar's link. */
  appHref?: string;
  nav?: NavLink[];
  /** Menus after the app menu that open on hover (their items are not shown until the pointer is over them). */
  hoverMenus?: HoverMenu[];
  crumbs?: NavLink[];
  /** The signed-in user's display name, or null when logged out. */
  user?: string | null;
  /** The frozen clock's instant, exposed to page scripts as window.__SANDBOX_NOW. */
  now: string;
  /** A flash message shown above the content. */
  flash?: string;
  body: Html;
}

/** A full HTML document in the sandbox frame. */
export function renderPage(o: PageOptions): Html {
  const nav = (o.nav ?? []).map((l) =>
    html`
      <a href="${l.href}" class="${l.active ? "active" : ""}" ${l.active ? raw(' aria-current="page"') : ""}>${l
        .label}</a>
    `
  );
  const hover = (o.hoverMenus ?? []).map((m) =>
    html`
      <nav class="hovermenu" id="${m.id}"
        aria-label="${m.label}"><span class="hovermenu-trigger" tabindex="0" aria-haspopup="true">${m.label} ▾</span>
            <div class="hovermenu-items">${m.items.map((l) => html`<a href="${l.href}">${l.label}</a>`)}</div></nav>
    `
  );
  const crumbs = o.crumbs?.length
    ? html`<nav class="crumbs" aria-label="Breadcrumb">${
      o.crumbs.map((c, i) =>
        i === o.crumbs!.length - 1 ? html`<span>${c.label}</span>` : html`
          <a href="${c.href}">${c.label}</a> /
        `
      )
    }</nav>`
    : "";
  const user = o.user
    ? html`
      <span class="user">Signed in as <b>${o.user}</b></span>
      <form method="post" action="/logout" class="inline"><button class="link">Sign out</button></form>
    `
    : html`<a href="/login">Sign in</a>`;
  return html`
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <title>${o.title}${o.app ? ` · ${o.app}` : ""}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="/_sandbox/style.css">
        <script>window.__SANDBOX_NOW = ${raw(JSON.stringify(o.now))};</script>
        <script src="/_sandbox/recorder.js"></script>
        <script src="/_sandbox/widgets.js" defer></script>
      </head>
      <body>
        <header
          class="topbar"><a class="home" href="/">Sandbox</a>${o.app
            ? html`<a class="app" href="${o.appHref ?? "/"}">${o.app}</a>`
            : ""}<nav class="menu">${nav}</nav>${hover}<div class="account">${user}</div></header>
        <main>${crumbs}${o.flash ? html`<div class="flash" role="status">${o.flash}</div>` : ""}${o.body}</main>
        <footer>Sandbox web apps · ${o.now.slice(0, 10)}</footer>
      </body>
    </html>
  `;
}
