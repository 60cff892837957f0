/** The portal (`/`, the app directory that cross-site tasks start from) and the sign-in form that guards apps. */
import { Hono } from "hono";
import { html } from "hono/html";
import { renderPage } from "./layout.ts";
import { DEFAULT_USER } from "./session.ts";
import type { SandboxEnv, SiteApp } from "./types.ts";

/** A path on this origin to go back to after signing in; anything else becomes the portal. */
function safeNext(raw: string | undefined): string {
  return raw && raw.startsWith("/") && !raw.startsWith("//") ? raw : "/";
}

export function portalRoutes(apps: SiteApp[]): Hono<SandboxEnv> {
  const portal = new Hono<SandboxEnv>();
  const user = (s: { flags: { loggedIn: boolean } }) => s.flags.loggedIn ? DEFAULT_USER.name : null;

  portal.get("/", (c) =>
    c.html(renderPage({
      title: "App directory",
      app: "",
      now: c.get("clock").now().toISOString(),
      user: user(c.get("session")),
      body: html`
        <h1>App directory</h1>
        <p class="muted">Every app of this workspace. Choose one to open it.</p>
        <table id="app-directory">
          <thead>
            <tr>
              <th>App</th>
              <th>What it is for</th>
              <th>Address</th>
            </tr>
          </thead>
          <tbody>${apps.map((a) =>
            html`
              <tr>
                <td><a href="/${a.id}/">${a.title}</a>${a.requiresLogin
                  ? html`
                    <span class="badge">sign-in</span>
                  `
                  : ""}</td>
                <td>${a.description}</td>
                <td class="muted">/${a.id}/</td>
              </tr>
            `
          )}</tbody>
        </table>
      `,
    })));

  const loginPage = (now: string, next: string, error = "", username = "") =>
    renderPage({
      title: "Sign in",
      app: "",
      now,
      user: null,
      body: html`<h1>Sign in</h1>
<div class="card" style="max-width:420px">
${error ? html`<div class="errors" role="alert">${error}</div>` : ""}
<form method="post" action="/login" class="stack" id="login-form">
<input type="hidden" name="next" value="${next}">
<label for="username">Username</label><input id="username" name="username" type="text" value="${username}" autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">Sign in</button>
</form></div>`,
    });

  portal.get("/login", (c) => c.html(loginPage(c.get("clock").now().toISOString(), safeNext(c.req.query("next")))));
  portal.post("/login", async (c) => {
    const form = await c.req.parseBody();
    const username = String(form.username ?? "").trim();
    const next = safeNext(String(form.next ?? ""));
    if (username !== DEFAULT_USER.username || String(form.password ?? "") !== DEFAULT_USER.password) {
      const msg = !username ? "Enter your username." : "Wrong username or password.";
      return c.html(loginPage(c.get("clock").now().toISOString(), next, msg, username), 401);
    }
    c.get("session").flags.loggedIn = true;
    return c.redirect(next, 303);
  });
  portal.post("/logout", (c) => {
    c.get("session").flags.loggedIn = false;
    return c.redirect("/", 303);
  });
  return portal;
}
