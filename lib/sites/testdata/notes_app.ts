/** A minimal app for the core's own tests: a list of notes, a form that validates, one login-guarded twin. */
import { Hono } from "hono";
import { html } from "hono/html";
import { renderPage } from "../layout.ts";
import type { SandboxEnv, SiteApp } from "../types.ts";

function notesRoutes(): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>({ strict: false });
  routes.get("/", (c) => {
    const notes = c.get("db").all<{ id: number; body: string }>("SELECT * FROM notes ORDER BY id");
    return c.html(renderPage({
      title: "Notes",
      app: "Notes",
      now: c.get("clock").now().toISOString(),
      body: html`
        <h1>Notes</h1>
        <ul>${notes.map((n) => html`<li>${n.body}</li>`)}</ul>
      `,
    }));
  });
  routes.post("/", async (c) => {
    const body = String((await c.req.parseBody()).body ?? "").trim();
    if (!body) return c.text("body is required", 422);
    c.get("db").insert("notes", { body, created: c.get("clock").today() });
    return c.redirect("/notes/", 303);
  });
  routes.post("/:id/edit", async (c) => {
    const body = String((await c.req.parseBody()).body ?? "");
    c.get("db").update("notes", Number(c.req.param("id")), { body });
    return c.redirect("/notes/", 303);
  });
  routes.post("/:id/delete", (c) => {
    c.get("db").remove("notes", Number(c.req.param("id")));
    return c.redirect("/notes/", 303);
  });
  return routes;
}

const seed = () => ({
  schema: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, created TEXT)",
  rows: {
    notes: [{ id: 1, body: "first note", created: "2026-03-01" }, {
      id: 2,
      body: "second note",
      created: "2026-03-02",
    }],
  },
});

export const notesApp: SiteApp = {
  id: "notes",
  title: "Notes",
  description: "Test notes",
  seed,
  routes: notesRoutes(),
};
export const secretApp: SiteApp = {
  id: "secret",
  title: "Secret",
  description: "Login-guarded notes",
  requiresLogin: true,
  seed,
  routes: notesRoutes(),
};
