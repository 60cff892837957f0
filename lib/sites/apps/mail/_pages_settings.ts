/** Settings: the inline-editable signature and the preferences (reading pane, messages per page). */
import type { Context, Hono } from "hono";
import { html, raw } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { getSettings } from "./_data.ts";
import { MAX_SIGNATURE_CHARS, PAGE_SIZES, READING_PANES, type Settings } from "./_model.ts";
import { BASE, MAIL_CRUMB, mailPage, textarea } from "./_views.ts";

const PANE_LABELS: Record<string, string> = {
  off: "No reading pane (open each message on its own page)",
  right: "Right of the message list",
  bottom: "Below the message list",
};

/** Shows the signature form in place of the signature, and back. */
const TOGGLE = `
(() => {
  const view = document.getElementById("signature-view");
  const form = document.getElementById("signature-form");
  const box = document.getElementById("signature");
  document.getElementById("edit-signature").addEventListener("click", () => {
    view.hidden = true; form.hidden = false; box.focus();
  });
  document.getElementById("cancel-signature").addEventListener("click", () => {
    box.value = box.defaultValue; form.hidden = true; view.hidden = false;
  });
})();`;

function signatureCard(s: Settings, editing: string | null, error: string) {
  const value = editing ?? s.signature;
  return html`
    <section class="card" id="signature-section">
      <h2 style="margin-top:0">Signature</h2>
      <div id="signature-view" ${editing !== null ? "hidden" : ""}>
    ${s.signature
      ? html`<pre class="msg-body" id="signature-text">${s.signature}</pre>`
      : html`<p class="muted" id="signature-text">No signature.</p>`}
    <button type="button" class="secondary" id="edit-signature">Edit signature</button>
      </div>
      <form method="post" action="${BASE}/settings/signature" class="stack" id="signature-form" ${editing === null
        ? "hidden"
        : ""}>
    ${error ? html`<div class="errors" role="alert" id="signature-errors">${error}</div>` : ""}
    <label for="signature">Signature</label>
    ${textarea("signature", "signature", 4, value)}
    ${error ? html`<span class="field-error" id="signature-error">${error}</span>` : ""}
    <span class="muted">Added below every message you send. Up to ${MAX_SIGNATURE_CHARS} characters; leave it empty for no signature.</span>
    <div class="row"><button type="submit" id="save-signature">Save signature</button>
    <button type="button" class="secondary" id="cancel-signature">Cancel</button></div>
      </form>
      <script>${raw(TOGGLE)}</script>
    </section>
  `;
}

function preferencesCard(s: Settings, error: string) {
  const radio = (name: string, value: string | number, label: string, on: boolean, id: string) =>
    html`
      <label
        style="display:flex;gap:8px;align-items:center;font-weight:400"><input type="radio" name="${name}" value="${value}" id="${id}" ${on
          ? "checked"
          : ""}> ${label}</label>
    `;
  return html`<section class="card" id="preferences-section"><h2 style="margin-top:0">Preferences</h2>
${error ? html`<div class="errors" role="alert" id="preferences-errors">${error}</div>` : ""}
<form method="post" action="${BASE}/settings" class="stack" id="preferences-form">
<fieldset><legend>Reading pane</legend>
${READING_PANES.map((p) => radio("reading_pane", p, PANE_LABELS[p], s.reading_pane === p, `pane-${p}`))}</fieldset>
<fieldset><legend>Messages per page</legend>
${PAGE_SIZES.map((n) => radio("page_size", n, String(n), s.page_size === n, `page-size-${n}`))}</fieldset>
<div><button type="submit" id="save-preferences">Save preferences</button></div>
</form></section>`;
}

interface SettingsState {
  /** The signature being edited (the bad value after a failed save). */
  editing?: string | null;
  signatureError?: string;
  preferencesError?: string;
  prefs?: Settings;
}

function settingsPage(c: Context<SandboxEnv>, st: SettingsState = {}) {
  const s = getSettings(c.get("db"));
  const body = html`<h1>Settings</h1>
${signatureCard(s, st.editing ?? null, st.signatureError ?? "")}
${preferencesCard(st.prefs ?? s, st.preferencesError ?? "")}`;
  const bad = Boolean(st.signatureError || st.preferencesError);
  return c.html(
    mailPage(c, {
      title: "Settings",
      active: "settings",
      crumbs: [MAIL_CRUMB, { href: `${BASE}/settings`, label: "Settings" }],
      body,
    }),
    bad ? 422 : 200,
  );
}

export function settingsRoutes(app: Hono<SandboxEnv>): void {
  app.get("/settings", (c) => settingsPage(c));
  app.post("/settings/signature", async (c) => {
    const form = await c.req.parseBody({ all: true });
    const signature = (typeof form.signature === "string" ? form.signature : "").replace(/\r\n/g, "\n").trim();
    if (signature.length > MAX_SIGNATURE_CHARS) {
      const signatureError =
        `The signature is ${signature.length} characters long; keep it to ${MAX_SIGNATURE_CHARS} characters or fewer.`;
      return settingsPage(c, { editing: signature, signatureError });
    }
    const changed = c.get("db").update("settings", 1, { signature });
    return c.redirect(
      `${BASE}/settings?flash=${encodeURIComponent(changed ? "Signature saved." : "Signature unchanged.")}`,
      303,
    );
  });
  app.post("/settings", async (c) => {
    const form = await c.req.parseBody({ all: true });
    const pane = String(form.reading_pane ?? "");
    const size = Number(form.page_size);
    const cur = getSettings(c.get("db"));
    const okPane = (READING_PANES as readonly string[]).includes(pane);
    const okSize = (PAGE_SIZES as readonly number[]).includes(size);
    if (!okPane || !okSize) {
      const preferencesError = !okPane ? "Choose a reading pane option." : "Choose how many messages to show per page.";
      const prefs = {
        ...cur,
        reading_pane: okPane ? pane : cur.reading_pane,
        page_size: okSize ? size : cur.page_size,
      };
      return settingsPage(c, { preferencesError, prefs: prefs as Settings });
    }
    const changed = c.get("db").update("settings", 1, { reading_pane: pane, page_size: size });
    return c.redirect(
      `${BASE}/settings?flash=${encodeURIComponent(changed ? "Preferences saved." : "Preferences unchanged.")}`,
      303,
    );
  });
}
