/** The address book: the contact list with "Copy address", the add-contact form and a page per contact. */
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { allContacts, contactByEmail, listMessages } from "./_data.ts";
import { type Contact, isEmail } from "./_model.ts";
import { BASE, MAIL_CRUMB, mailPage, messageTable } from "./_views.ts";

interface ContactValues {
  name: string;
  email: string;
  company: string;
  phone: string;
}
type ContactErrors = Partial<Record<"name" | "email", string>>;

const EMPTY: ContactValues = { name: "", email: "", company: "", phone: "" };
const CRUMB = { href: `${BASE}/contacts`, label: "Contacts" };

function contactRow(ct: Contact) {
  return html`
    <tr data-contact-id="${ct.id}">
      <td><a href="${BASE}/contacts/${ct.id}" class="contact-name">${ct.name}</a></td>
      <td class="contact-email">${ct.email}</td>
      <td>${ct.company}</td>
      <td>${ct.phone}</td>
      <td><button type="button" class="secondary copy-address" id="copy-${ct.id}" data-copy="${ct
        .email}">Copy address</button>
    <a href="${BASE}/compose?to=${encodeURIComponent(ct.email)}" class="write-to" id="write-${ct.id}">Write</a></td>
    </tr>
  `;
}

function addForm(v: ContactValues, e: ContactErrors) {
  const err = (k: keyof ContactErrors) =>
    e[k] ? html`<span class="field-error" id="contact-${k}-error">${e[k]}</span>` : "";
  return html`
    <h2 id="add-contact">Add a contact</h2>
    ${Object.keys(e).length
      ? html`<div class="errors" role="alert" id="contact-errors">The contact was not added: ${
        Object.values(e).join(" ")
      }</div>`
      : ""}
    <form method="post" action="${BASE}/contacts" class="stack card" id="add-contact-form">
      <div><label for="contact-name">Name</label><input type="text" id="contact-name" name="name" value="${v
        .name}">${err("name")}</div>
      <div><label for="contact-email">Email</label><input type="email" id="contact-email" name="email" value="${v
        .email}">${err("email")}</div>
      <div><label for="contact-company">Company <span class="muted">(optional)</span></label>
    <input type="text" id="contact-company" name="company" value="${v.company}"></div>
      <div><label for="contact-phone">Phone <span class="muted">(optional)</span></label>
    <input type="tel" id="contact-phone" name="phone" value="${v.phone}"></div>
      <div><button type="submit" id="add-contact-button">Add contact</button></div>
    </form>
  `;
}

function contactsPage(c: Context<SandboxEnv>, v = EMPTY, e: ContactErrors = {}) {
  const list = allContacts(c.get("db"));
  const body = html`
    <h1>Contacts</h1>
    <p class="muted" id="contacts-summary">${list.length} contacts</p>
    <table id="contacts-table">
      <thead>
        <tr>
          <th>Name</th>
          <th>Email</th>
          <th>Company</th>
          <th>Phone</th>
          <th></th>
        </tr>
      </thead>
      <tbody>${list.map(contactRow)}</tbody>
    </table>
    ${addForm(v, e)}
  `;
  const bad = Object.keys(e).length > 0;
  return c.html(
    mailPage(c, { title: "Contacts", active: "contacts", crumbs: [MAIL_CRUMB, CRUMB], body }),
    bad ? 422 : 200,
  );
}

function validate(c: Context<SandboxEnv>, v: ContactValues): ContactErrors {
  const e: ContactErrors = {};
  if (!v.name) e.name = "Enter a name.";
  if (!isEmail(v.email)) e.email = "Enter a valid email address, like name@example.com.";
  else {
    const dup = contactByEmail(c.get("db"), v.email);
    if (dup) e.email = `A contact with the email ${v.email} already exists (${dup.name}).`;
  }
  return e;
}

function contactPage(c: Context<SandboxEnv>) {
  const id = Number(c.req.param("id"));
  const ct = Number.isInteger(id) ? c.get("db").byId<Contact>("contacts", id) : undefined;
  if (!ct) return c.notFound();
  const p = listMessages(c.get("db"), { kind: "contact", email: ct.email }, 1, 200);
  const body = html`
    <h1 id="contact-heading">${ct.name}</h1>
    <div class="card">
      <dl style="display:grid;grid-template-columns:90px 1fr;gap:4px 10px;margin:0">
        <dt class="muted">Email</dt>
        <dd style="margin:0" id="contact-email-value">${ct.email}
    <button type="button" class="secondary copy-address" id="copy-address" data-copy="${ct
      .email}">Copy address</button></dd>
        <dt class="muted">Company</dt>
        <dd style="margin:0">${ct.company || "—"}</dd>
        <dt class="muted">Phone</dt>
        <dd style="margin:0">${ct.phone || "—"}</dd>
      </dl>
      <p><a class="button" id="write-contact" href="${BASE}/compose?to=${encodeURIComponent(
        ct.email,
      )}">Write an email</a></p>
    </div>
    <h2>Messages with ${ct.name} (${p.total})</h2>
    ${messageTable(p.rows, {
      showFolder: true,
      returnTo: `${BASE}/contacts/${ct.id}`,
      empty: `No messages with ${ct.name} yet (Trash not included).`,
    })}
  `;
  return c.html(mailPage(c, {
    title: ct.name,
    active: "contacts",
    crumbs: [MAIL_CRUMB, CRUMB, { href: `${BASE}/contacts/${ct.id}`, label: ct.name }],
    body,
  }));
}

export function contactRoutes(app: Hono<SandboxEnv>): void {
  app.get("/contacts", (c) => contactsPage(c));
  app.get("/contacts/:id", contactPage);
  app.post("/contacts", async (c) => {
    const form = await c.req.parseBody({ all: true });
    const s = (k: string) => (typeof form[k] === "string" ? form[k] as string : "").trim();
    const v: ContactValues = { name: s("name"), email: s("email"), company: s("company"), phone: s("phone") };
    const e = validate(c, v);
    if (Object.keys(e).length) return contactsPage(c, v, e);
    c.get("db").insert("contacts", v as unknown as Record<string, unknown>);
    return c.redirect(`${BASE}/contacts?flash=${encodeURIComponent(`Contact “${v.name}” added.`)}`, 303);
  });
}
