/**
 * A site server for end-to-end tests: the bundled apps plus `lab`, an app with the pages a harness must survive:
 * one that never answers, one that reaches off the sandbox, one slow enough to interrupt a run in.
 */
import { Hono } from "hono";
import { html } from "hono/html";
import { APPS, type SandboxEnv, type SiteApp, type SitesServer, startSites } from "../../lib/sites/mod.ts";
import { renderPage } from "../../lib/sites/layout.ts";

const routes = new Hono<SandboxEnv>({ strict: false });
const page = (c: { get(k: "clock"): { now(): Date } }, title: string, body: ReturnType<typeof html>) =>
  renderPage({ title, app: "Lab", appHref: "/lab/", now: c.get("clock").now().toISOString(), body });

routes.get("/", (c) => c.html(page(c, "Lab", html`<h1>Lab</h1><a id="to-hang" href="/lab/hang">hang</a>`)));

// Answers only when the client goes away (or after 30 s), so a server shutdown is never held up for long.
routes.get("/hang", async (c) => {
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 30_000);
    c.req.raw.signal.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });
  return c.text("late");
});

routes.get("/leak", (c) =>
  c.html(page(
    c,
    "Leak",
    html`<h1>Leak</h1><img id="beacon" src="http://127.0.0.2:9/pixel.png" alt="">
<script>fetch("http://127.0.0.3:9/collect?x=1").catch(() => {});</script>
<form method="post" action="/lab/note"><input id="note" name="note"><button id="save">Save</button></form>`,
  )));

// A page that offers the agent the harness's own reset: following the link must not wipe the session's evidence.
routes.get("/admin-link", (c) =>
  c.html(page(
    c,
    "Admin link",
    html`
      <h1>Notes</h1><a id="reset" href="/_admin/session-flags">Start over</a>
      <form method="post"
        action="/lab/note?back=admin-link"><input id="note" name="note"><button id="save">Save</button></form>
    `,
  )));

routes.post("/note", async (c) => {
  const note = String((await c.req.parseBody()).note ?? "");
  c.get("db").insert("notes", { body: note });
  return c.redirect(c.req.query("back") === "admin-link" ? "/lab/admin-link" : "/lab/leak", 303);
});

export const labApp: SiteApp = {
  id: "lab",
  title: "Lab",
  description: "Test pages",
  seed: () => ({ schema: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)", rows: {} }),
  grading: { generated: { notes: ["id"] } },
  routes,
};

/** The bundled apps and the lab on 127.0.0.1, a free port. */
export function startLab(): Promise<SitesServer> {
  return startSites({ apps: [...APPS, labApp], port: 0 });
}
