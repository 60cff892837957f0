/** The compose form: its values, how reply/forward/draft/`to` prefill them, and its markup. */
import type { Context } from "hono";
import { html } from "hono/html";
import type { AppDb } from "../../db.ts";
import type { Html } from "../../layout.ts";
import type { SandboxEnv } from "../../types.ts";
import { allContacts, attachmentsOf, displayAddress, getMessage, getSettings } from "./_data.ts";
import { type Attachment, formatSize, longDate, type Message } from "./_model.ts";
import { ME } from "./_people.ts";
import { BASE, MAIL_CRUMB, mailPage, textarea } from "./_views.ts";

export interface ComposeValues {
  to: string;
  cc: string;
  subject: string;
  body: string;
  reply_id: string;
  forward_id: string;
  draft_id: string;
}

export type ComposeErrors = Partial<Record<"to" | "cc" | "subject" | "attachment", string>>;

export const EMPTY: ComposeValues = {
  to: "",
  cc: "",
  subject: "",
  body: "",
  reply_id: "",
  forward_id: "",
  draft_id: "",
};

const prefixed = (p: string, s: string) => new RegExp(`^${p}:`, "i").test(s) ? s : `${p}: ${s}`;
const firstAddress = (s: string) => s.split(",")[0]?.trim() ?? "";

function quoted(m: Message): string {
  return `\n\nOn ${longDate(m.date)}, ${m.from_name} wrote:\n${m.body.split("\n").map((l) => `> ${l}`).join("\n")}`;
}

function forwarded(m: Message): string {
  return `\n\n---------- Forwarded message ----------\nFrom: ${m.from_name} <${m.from_email}>\nDate: ${
    longDate(m.date)
  }\nSubject: ${m.subject}\nTo: ${m.to_addrs}\n\n${m.body}`;
}

/** The form's starting values for `?reply=`, `?forward=`, `?draft=` or `?to=`. */
export function prefill(db: AppDb, q: Record<string, string>): ComposeValues {
  const reply = getMessage(db, Number(q.reply));
  if (q.reply && reply) {
    const back = reply.from_email === ME.email ? firstAddress(reply.to_addrs) : reply.from_email;
    return {
      ...EMPTY,
      to: back ? displayAddress(db, back) : "",
      subject: prefixed("Re", reply.subject),
      body: quoted(reply),
      reply_id: String(reply.id),
    };
  }
  const fwd = getMessage(db, Number(q.forward));
  if (q.forward && fwd) {
    return { ...EMPTY, subject: prefixed("Fwd", fwd.subject), body: forwarded(fwd), forward_id: String(fwd.id) };
  }
  const draft = getMessage(db, Number(q.draft));
  if (q.draft && draft?.folder === "drafts") {
    const to = firstAddress(draft.to_addrs);
    return {
      to: to ? displayAddress(db, to) : "",
      cc: draft.cc_addrs,
      subject: draft.subject,
      body: draft.body,
      reply_id: draft.in_reply_to ? String(draft.in_reply_to) : "",
      forward_id: draft.forward_of ? String(draft.forward_of) : "",
      draft_id: String(draft.id),
    };
  }
  return { ...EMPTY, to: q.to ? displayAddress(db, q.to) : "" };
}

/** Attachments that go with the message without an upload: the draft's own, or the forwarded message's. */
export function carriedAttachments(db: AppDb, v: ComposeValues): Attachment[] {
  if (v.draft_id) return attachmentsOf(db, Number(v.draft_id));
  if (v.forward_id) return attachmentsOf(db, Number(v.forward_id));
  return [];
}

function heading(v: ComposeValues): string {
  if (v.draft_id) return "Edit draft";
  if (v.reply_id) return "Reply";
  if (v.forward_id) return "Forward";
  return "New message";
}

const err = (e: ComposeErrors, k: keyof ComposeErrors) =>
  e[k] ? html`<span class="field-error" id="${k}-error">${e[k]}</span>` : "";

function signatureNote(signature: string): Html {
  return signature
    ? html`<p class="muted" id="signature-note" style="margin:0">Your signature is added below the message when you send it:
<br><i>${signature.split("\n")[0]}…</i> (<a href="${BASE}/settings">change it</a>)</p>`
    : html`<p class="muted" id="signature-note" style="margin:0">No signature (<a href="${BASE}/settings">add one</a>).</p>`;
}

function fields(db: AppDb, v: ComposeValues, e: ComposeErrors): Html {
  const options = allContacts(db).map((c) => `${c.name} <${c.email}>`);
  const carried = carriedAttachments(db, v);
  return html`<input type="hidden" name="reply_id" value="${v.reply_id}">
<input type="hidden" name="forward_id" value="${v.forward_id}">
<input type="hidden" name="draft_id" value="${v.draft_id}">
<div><label id="to-label">To</label>
<div class="combobox" id="to-combobox" data-combobox data-name="to" data-label="To" data-placeholder="Choose a contact…"
  data-options="${JSON.stringify(options)}" data-value="${v.to}"></div>${err(e, "to")}</div>
<div><label for="cc">Cc</label>
<input type="text" id="cc" name="cc" value="${v.cc}" placeholder="Addresses separated by commas" autocomplete="off">${
    err(e, "cc")
  }</div>
<div><label for="subject">Subject</label>
<input type="text" id="subject" name="subject" value="${v.subject}">${err(e, "subject")}</div>
<div><label for="body">Message</label>
${textarea("body", "body", 12, v.body)}${signatureNote(getSettings(db).signature)}</div>
<div><label for="attachment">Attach files</label>
<input type="file" id="attachment" name="attachment" multiple>
<span class="muted">Up to 5 MB in total.</span>${err(e, "attachment")}
${
    carried.length
      ? html`<ul id="carried-attachments">${
        carried.map((a) => html`<li>${a.name} <span class="muted">(${formatSize(a.size)}, included)</span></li>`)
      }</ul>`
      : ""
  }</div>`;
}

/** The compose page; with errors it is the 422 answer to a bad submission. */
export function composePage(c: Context<SandboxEnv>, v: ComposeValues, e: ComposeErrors = {}, hadFiles = false) {
  const db = c.get("db");
  const bad = Object.values(e).filter(Boolean);
  const title = heading(v);
  const body = html`
    <h1>${title}</h1>
    ${bad.length
      ? html`
        <div class="errors" role="alert"
          id="compose-errors"><b>The message was not sent.</b><ul>${bad.map((m) => html`<li>${m}</li>`)}</ul>${hadFiles
            ? html`<p>Choose your attachments again.</p>`
            : ""}</div>
      `
      : ""}
    <form method="post" action="${BASE}/compose" enctype="multipart/form-data" class="stack card" id="compose-form"
      style="max-width:760px">
    ${fields(db, v, e)}
    <div class="row">
    <button type="submit" name="action" value="send" id="send-button">Send</button>
    <button type="submit" name="action" value="draft" class="secondary" id="save-draft">Save draft</button>
    <a href="${BASE}/inbox" id="discard-link">Discard</a>
    </div>
    </form>
  `;
  return c.html(
    mailPage(c, {
      title,
      active: v.draft_id ? "drafts" : "compose",
      crumbs: [MAIL_CRUMB, { href: `${BASE}/compose`, label: title }],
      body,
    }),
    bad.length ? 422 : 200,
  );
}
