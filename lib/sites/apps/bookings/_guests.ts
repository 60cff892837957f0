/// <reference lib="dom" />
/**
 * Guests of a booking, added with an autocomplete: a text box (role=combobox) whose suggestions from the company
 * directory pop up as a listbox of options, chosen with the mouse or the keyboard (arrows, Enter, Escape); the
 * choice fills a hidden field and "Add guest" posts it.
 */
import type { Hono } from "hono";
import { html, raw } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { bookingById, ME } from "./_data.ts";
import { lockReason } from "./_pages_book.ts";
import { BASE, type Ctx, notFound } from "./_views.ts";

/** The company directory the guest search suggests from (name, email, team). */
export const DIRECTORY: readonly { name: string; email: string; team: string }[] = [
  { name: "Priya Shah", email: "priya.shah@sandbox.test", team: "Frontend" },
  { name: "Marcus Chen", email: "marcus.chen@sandbox.test", team: "Backend" },
  { name: "Sofia Marin", email: "sofia.marin@sandbox.test", team: "Product" },
  { name: "Sofia Martins", email: "sofia.martins@sandbox.test", team: "Finance" },
  { name: "Daniel Okafor", email: "daniel.okafor@sandbox.test", team: "Operations" },
  { name: "Emma Lindqvist", email: "emma.lindqvist@sandbox.test", team: "Finance" },
  { name: "Grace Adeyemi", email: "grace.adeyemi@sandbox.test", team: "Sales" },
  { name: "Hannah Becker", email: "hannah.becker@sandbox.test", team: "Documentation" },
  { name: "Oliver Grant", email: "oliver.grant@sandbox.test", team: "Design" },
  { name: "Mariana Costa", email: "mariana.costa@sandbox.test", team: "Marketing" },
];

export interface Guest {
  id: number;
  name: string;
  email: string;
}

export function guestsOf(c: Ctx, bookingId: number): Guest[] {
  return c.get("db").all<Guest>("SELECT id, name, email FROM guests WHERE booking_id = ? ORDER BY id", bookingId);
}

/** The autocomplete's behaviour; runs in the page (closes over nothing). */
export function guestAutocomplete(): void {
  const box = document.getElementById("guest-search") as HTMLInputElement | null;
  const list = document.getElementById("guest-listbox");
  const email = document.getElementById("guest-email") as HTMLInputElement | null;
  if (!box || !list || !email) return;
  const people: { name: string; email: string; team: string }[] = JSON.parse(list.dataset.people ?? "[]");
  let shown: typeof people = [];
  let active = -1;
  const close = () => {
    list.hidden = true;
    box.setAttribute("aria-expanded", "false");
    box.removeAttribute("aria-activedescendant");
    active = -1;
  };
  const mark = () => {
    for (const [i, li] of [...list.children].entries()) li.setAttribute("aria-selected", String(i === active));
    if (active >= 0) box.setAttribute("aria-activedescendant", `guest-option-${active}`);
  };
  const choose = (p: (typeof people)[number]) => {
    box.value = p.name;
    email.value = p.email;
    close();
    // A pick is the box's change, as the shared combobox reports one (lib/sites/page/widgets.ts): a value set by a
    // script fires no event, so without it nothing on the page (the recorder) would know a colleague was picked.
    box.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const render = () => {
    const q = box.value.trim().toLowerCase();
    email.value = "";
    shown = q ? people.filter((p) => `${p.name} ${p.email}`.toLowerCase().includes(q)) : [];
    active = -1;
    list.replaceChildren(...shown.map((p, i) => {
      const li = document.createElement("li");
      li.id = `guest-option-${i}`;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.dataset.email = p.email;
      li.innerHTML = `<span class="ac-name"></span><span class="ac-meta"></span>`;
      li.firstElementChild!.textContent = p.name;
      li.lastElementChild!.textContent = `${p.team} · ${p.email}`;
      li.addEventListener("mousedown", (e) => {
        e.preventDefault();
        choose(p);
      });
      return li;
    }));
    list.hidden = shown.length === 0;
    box.setAttribute("aria-expanded", String(!list.hidden));
  };
  box.addEventListener("input", render);
  box.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (list.hidden) render();
      if (!shown.length) return;
      e.preventDefault();
      // From no active option, ArrowDown goes to the first and ArrowUp to the last; both wrap around.
      const from = active < 0 ? (e.key === "ArrowDown" ? -1 : shown.length) : active;
      active = (from + (e.key === "ArrowDown" ? 1 : -1) + shown.length) % shown.length;
      mark();
    } else if (e.key === "Enter" && !list.hidden) {
      e.preventDefault();
      choose(shown[Math.max(active, 0)]);
    } else if (e.key === "Escape") close();
  });
  box.addEventListener("blur", () => setTimeout(close, 150));
}

const STYLE = html`<style>
  .guests{background:#f0fdf4;border:1px solid #bbf7d0;border-radius:14px;padding:14px 18px;margin-top:16px;max-width:620px}
  .guests h2{margin:0 0 8px;font-size:17px;color:#14532d}.guests ul.guest-list{margin:0 0 10px;padding-left:18px}
  .ac{position:relative;flex:1}.ac input{border-radius:999px!important;border-color:#86efac!important}
  .ac-list{position:absolute;z-index:15;left:0;right:0;top:100%;margin:4px 0 0;padding:4px;list-style:none;background:#fff;
  border:1px solid #86efac;border-radius:12px;box-shadow:0 10px 24px rgba(20,83,45,.18)}
  .ac-list li{display:flex;flex-direction:column;padding:6px 10px;border-radius:8px;cursor:pointer}
  .ac-list li[aria-selected=true],.ac-list li:hover{background:#dcfce7}.ac-meta{font-size:12px;color:#4d7c0f}
  .guests button{background:#16a34a;border-color:#15803d;border-radius:999px}
</style>`;

/** The guests panel of one of the user's bookings. */
export function guestsPanel(c: Ctx, bookingId: number, error = "") {
  const guests = guestsOf(c, bookingId);
  return html`${STYLE}<section class="guests" id="guests" aria-labelledby="guests-title">
    <h2 id="guests-title">Guests</h2>
    ${
    guests.length
      ? html`<ul class="guest-list" id="guest-list">${
        guests.map((g) => html`<li>${g.name} <span class="muted">${g.email}</span></li>`)
      }</ul>`
      : html`<p class="muted" id="no-guests">No guests yet.</p>`
  }
    ${error ? html`<div class="errors" role="alert" id="guest-error">${error}</div>` : ""}
    <form method="post" action="${BASE}/reservations/${bookingId}/guests" class="row" id="guest-form">
      <label for="guest-search" class="muted">Invite a colleague</label>
      <div class="ac">
        <input type="text" id="guest-search" role="combobox" aria-autocomplete="list" aria-expanded="false"
          aria-controls="guest-listbox" autocomplete="off" placeholder="Start typing a name…">
        <ul id="guest-listbox" role="listbox" class="ac-list" aria-label="Matching colleagues" hidden
          data-people="${JSON.stringify(DIRECTORY)}"></ul>
      </div>
      <input type="hidden" name="email" id="guest-email">
      <button type="submit" id="add-guest">Add guest</button>
    </form>
    <script>(${raw(guestAutocomplete.toString())})();</script>
  </section>`;
}

/** POST email=… (a directory address): adds that colleague once; a re-added guest changes nothing. */
async function addGuest(c: Ctx) {
  const db = c.get("db");
  const b = bookingById(db, c.req.param("id"));
  if (!b || b.booked_by !== ME) return notFound(c, `Booking ${c.req.param("id")}`);
  const email = String((await c.req.parseBody()).email ?? "").trim();
  const person = DIRECTORY.find((p) => p.email === email);
  const locked = lockReason(b, c.get("clock").today());
  if (locked) return c.redirect(`${BASE}/reservations/${b.id}`, 303);
  if (!person) return c.redirect(`${BASE}/reservations/${b.id}?guest_error=1#guests`, 303);
  const have = db.get("SELECT id FROM guests WHERE booking_id = ? AND email = ?", b.id, email);
  if (!have) {
    db.insert("guests", {
      booking_id: b.id,
      name: person.name,
      email,
      added_at: c.get("clock").now().toISOString(),
    });
  }
  return c.redirect(`${BASE}/reservations/${b.id}?flash=guest`, 303);
}

export function mountGuests(app: Hono<SandboxEnv>): void {
  app.post("/reservations/:id/guests", addGuest);
}
