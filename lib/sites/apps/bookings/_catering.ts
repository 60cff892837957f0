/// <reference lib="dom" />
/**
 * Catering for a booking, as a same-origin iframe on the booking's page (as payment and map widgets are embedded):
 * the frame is its own small document served by the app, with a package choice, a − / + people counter and an
 * order button that posts inside the frame; one order per booking (ordering again replaces it).
 */
import type { Hono } from "hono";
import { html, raw } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { bookingById, type BookingView, ME } from "./_data.ts";
import { lockReason } from "./_pages_book.ts";
import { BASE, type Ctx } from "./_views.ts";

/** The packages: value, label, what it holds. */
export const PACKAGES: readonly [string, string, string][] = [
  ["coffee", "Coffee & pastries", "Filter coffee, tea and a pastry each"],
  ["lunch", "Sandwich lunch", "Sandwiches, salad and fruit"],
  ["snacks", "Fruit & snacks", "A fruit bowl and savoury snacks"],
];

const MAX_PEOPLE = 40;

interface Catering {
  id: number;
  package: string;
  people: number;
}

const orderOf = (c: Ctx, bookingId: number) =>
  c.get("db").get<Catering>("SELECT id, package, people FROM catering WHERE booking_id = ?", bookingId);

/** The iframe that shows the widget on a booking's page. */
export function cateringFrame(bookingId: number) {
  return html`
    <section style="margin-top:16px;max-width:620px" id="catering">
      <iframe src="${BASE}/reservations/${bookingId}/catering" id="catering-frame" title="Catering order"
        style="width:100%;height:300px;border:0;border-radius:14px;box-shadow:0 0 0 1px #fed7aa"></iframe>
    </section>
  `;
}

/** The counter's behaviour inside the frame; runs in the frame (closes over nothing). */
function counter(): void {
  const out = document.getElementById("people-value")!;
  const field = document.getElementById("people") as HTMLInputElement;
  const set = (n: number) => {
    const v = Math.min(Number(field.max), Math.max(1, n));
    field.value = String(v);
    out.textContent = String(v);
  };
  document.getElementById("people-minus")!.addEventListener("click", () => set(Number(field.value) - 1));
  document.getElementById("people-plus")!.addEventListener("click", () => set(Number(field.value) + 1));
}

function frameDoc(b: BookingView, order: Catering | undefined, message: string) {
  const chosen = order?.package ?? "";
  const people = order?.people ?? b.attendees;
  return html`
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <title>Catering</title>
        <style>
      body{margin:0;font:14px/1.4 Georgia,"Times New Roman",serif;color:#431407;background:#fff7ed;padding:14px 18px}
      h1{font-size:18px;margin:0 0 8px}.pk{display:flex;gap:8px;margin-bottom:12px}
      .pk label{flex:1;border:1px solid #fdba74;border-radius:10px;padding:8px;background:#fff;cursor:pointer}
      .pk input{accent-color:#ea580c}.pk small{display:block;color:#9a3412}
      .count{display:flex;align-items:center;gap:10px;margin-bottom:12px}
      .count button{width:34px;height:34px;border-radius:50%;border:1px solid #ea580c;background:#fff;color:#ea580c;font-size:18px;cursor:pointer}
      #people-value{min-width:28px;text-align:center;font-size:18px;font-weight:bold}
      .order{background:#ea580c;color:#fff;border:0;border-radius:8px;padding:8px 16px;font:inherit;cursor:pointer}
      .note{color:#9a3412;margin:0 0 8px}
    </style>
      </head>
      <body>
    <h1>Catering for ${b.purpose}</h1>
    ${message ? html`<p class="note" id="catering-status" role="status">${message}</p>` : ""}
    <form method="post" action="${BASE}/reservations/${b.id}/catering" id="catering-form">
      <div class="pk" role="radiogroup" aria-label="Package">${PACKAGES.map(([value, label, what]) =>
        html`<label><input type="radio" name="package" value="${value}" id="package-${value}"
        ${value === chosen ? "checked" : ""}> ${label}<small>${what}</small></label>`
      )}</div>
      <div class="count"><span>People</span>
        <button type="button" id="people-minus" aria-label="Fewer people">−</button>
        <span id="people-value" aria-live="polite">${people}</span>
        <button type="button" id="people-plus" aria-label="More people">+</button>
        <input type="hidden" name="people" id="people" value="${people}" max="${MAX_PEOPLE}">
      </div>
      <button type="submit" class="order" id="order-catering">${order
        ? "Update catering order"
        : "Order catering"}</button>
    </form>
    <script>(${raw(counter.toString())})();</script>
      </body>
    </html>
  `;
}

function statusText(order: Catering | undefined): string {
  if (!order) return "";
  const label = PACKAGES.find((p) => p[0] === order.package)?.[1] ?? order.package;
  return `Ordered: ${label} for ${order.people} people.`;
}

function showFrame(c: Ctx) {
  const b = bookingById(c.get("db"), c.req.param("id"));
  if (!b || b.booked_by !== ME) return c.text(`Booking ${c.req.param("id")} not found`, 404);
  const locked = lockReason(b, c.get("clock").today());
  if (locked) return c.html(html`<p>${locked}</p>`);
  const error = c.req.query("error") ? "Choose a package and 1 to 40 people." : "";
  const order = orderOf(c, b.id);
  return c.html(frameDoc(b, order, error || statusText(order)));
}

/** POST package=…&people=N: inserts the booking's catering order, or changes it. */
async function placeOrder(c: Ctx) {
  const db = c.get("db");
  const b = bookingById(db, c.req.param("id"));
  if (!b || b.booked_by !== ME || lockReason(b, c.get("clock").today())) {
    return c.text(`Booking ${c.req.param("id")} cannot take a catering order`, 404);
  }
  const form = await c.req.parseBody();
  const pkg = String(form.package ?? "");
  const people = Number(form.people);
  const back = `${BASE}/reservations/${b.id}/catering`;
  if (!PACKAGES.some((p) => p[0] === pkg) || !Number.isInteger(people) || people < 1 || people > MAX_PEOPLE) {
    return c.redirect(`${back}?error=1`, 303);
  }
  const now = c.get("clock").now().toISOString();
  const have = orderOf(c, b.id);
  if (have) db.update("catering", have.id, { package: pkg, people, ordered_at: now });
  else db.insert("catering", { booking_id: b.id, package: pkg, people, ordered_at: now });
  return c.redirect(back, 303);
}

export function mountCatering(app: Hono<SandboxEnv>): void {
  app.get("/reservations/:id/catering", showFrame);
  app.post("/reservations/:id/catering", placeOrder);
}
