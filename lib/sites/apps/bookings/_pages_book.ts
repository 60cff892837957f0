/** Booking a room, rescheduling a booking, and the availability lookup the form's script uses. */
import { html } from "hono/html";
import type { Hono } from "hono";
import type { SandboxEnv } from "../../types.ts";
import {
  bookingById,
  bookingCode,
  type BookingView,
  isIsoDate,
  isWeekend,
  ME,
  nextBookingId,
  roomById,
  SLOTS,
  takenSlots,
} from "./_data.ts";
import {
  type BookingFields,
  type BookingInput,
  EMPTY_INPUT,
  type FieldErrors,
  readInput,
  validateBooking,
} from "./_form.ts";
import { bookingForm } from "./_form_view.ts";
import { BASE, type Ctx, notFound, page } from "./_views.ts";

function clockOf(c: Ctx) {
  const now = c.get("clock").now();
  return { today: c.get("clock").today(), nowMin: now.getUTCHours() * 60 + now.getUTCMinutes() };
}

function newForm(c: Ctx, v: BookingInput, e: FieldErrors, status: 200 | 422 = 200) {
  return page(c, {
    title: "Book a room",
    section: "rooms",
    status,
    crumbs: [{ href: `${BASE}/rooms`, label: "Rooms" }, { href: "", label: "Book a room" }],
    body: html`
      <h1>Book a room</h1>
      <p class="muted">Rooms can be booked Monday to Friday, 09:00–17:00.</p>
      ${bookingForm(c.get("db"), v, e, {
        action: `${BASE}/book`,
        submitLabel: "Confirm booking",
        cancelHref: `${BASE}/rooms`,
      })}
    `,
  });
}

function showNewForm(c: Ctx) {
  const q = c.req.query();
  const v: BookingInput = {
    ...EMPTY_INPUT,
    room: roomById(c.get("db"), q.room) ? String(Number(q.room)) : "",
    date: isIsoDate(q.date ?? "") ? q.date : "",
    slot: SLOTS.includes(q.slot ?? "") ? q.slot : "",
  };
  return newForm(c, v, {});
}

async function createBooking(c: Ctx) {
  const db = c.get("db");
  const v = readInput(await c.req.parseBody());
  const { errors, fields } = validateBooking(db, v, clockOf(c));
  if (!fields) return newForm(c, v, errors, 422);
  const id = nextBookingId(db);
  db.insert("bookings", {
    id,
    code: bookingCode(id),
    ...fields,
    booked_by: ME,
    status: "confirmed",
    created_at: c.get("clock").now().toISOString(),
    updated_at: null,
    cancelled_at: null,
  });
  return c.redirect(`${BASE}/reservations/${id}?flash=created`, 303);
}

function toInput(b: BookingView): BookingInput {
  return {
    room: String(b.room_id),
    date: b.date,
    slot: b.start_time,
    duration: String(b.duration_min),
    attendees: String(b.attendees),
    purpose: b.purpose,
    notes: b.notes,
    email: b.contact_email,
  };
}

/** Why booking `b` cannot be changed by the user, or undefined when it can. */
export function lockReason(b: BookingView, today: string): string | undefined {
  if (b.booked_by !== ME) return `Booking ${b.code} belongs to ${b.booked_by}; only they can change it.`;
  if (b.status === "cancelled") return `Booking ${b.code} is cancelled and can no longer be changed.`;
  if (b.date < today) return `Booking ${b.code} has already taken place and can no longer be changed.`;
  return undefined;
}

function lockedPage(c: Ctx, b: BookingView, reason: string) {
  return page(c, {
    title: "Booking locked",
    section: "my",
    status: b.booked_by === ME ? 409 : 403,
    crumbs: [{ href: `${BASE}/my`, label: "My bookings" }, { href: `${BASE}/reservations/${b.id}`, label: b.code }],
    body: html`
      <h1>Booking ${b.code} cannot be changed</h1>
      <div class="errors" role="alert" id="locked-reason">${reason}</div>
      <p><a href="${BASE}/reservations/${b.id}">Back to the booking</a></p>
    `,
  });
}

function editForm(c: Ctx, b: BookingView, v: BookingInput, e: FieldErrors, status: 200 | 422 = 200) {
  return page(c, {
    title: `Reschedule ${b.code}`,
    section: "my",
    status,
    crumbs: [
      { href: `${BASE}/my`, label: "My bookings" },
      { href: `${BASE}/reservations/${b.id}`, label: b.code },
      { href: "", label: "Edit" },
    ],
    body: html`
      <h1>Edit booking <span id="booking-code">${b.code}</span></h1>
      ${bookingForm(c.get("db"), v, e, {
        action: `${BASE}/reservations/${b.id}/edit`,
        submitLabel: "Save changes",
        excludeId: b.id,
        cancelHref: `${BASE}/reservations/${b.id}`,
      })}
    `,
  });
}

/** Loads the booking of the route and checks the user may change it; a Response when not. */
function editable(c: Ctx): BookingView | Response | Promise<Response> {
  const b = bookingById(c.get("db"), c.req.param("id"));
  if (!b) return notFound(c, `Booking ${c.req.param("id")}`);
  const reason = lockReason(b, c.get("clock").today());
  return reason ? lockedPage(c, b, reason) : b;
}

function showEditForm(c: Ctx) {
  const b = editable(c);
  return "code" in b ? editForm(c, b, toInput(b), {}) : b;
}

async function updateBooking(c: Ctx) {
  const b = editable(c);
  if (!("code" in b)) return b;
  const v = readInput(await c.req.parseBody());
  const { errors, fields } = validateBooking(c.get("db"), v, clockOf(c), b.id);
  if (!fields) return editForm(c, b, v, errors, 422);
  const changed = (Object.keys(fields) as (keyof BookingFields)[]).some((k) => fields[k] !== b[k]);
  if (!changed) return c.redirect(`${BASE}/reservations/${b.id}?flash=unchanged`, 303);
  c.get("db").update("bookings", b.id, { ...fields, updated_at: c.get("clock").now().toISOString() });
  return c.redirect(`${BASE}/reservations/${b.id}?flash=updated`, 303);
}

/** JSON for the form's script: which hourly slots of a room and day are taken. */
function availability(c: Ctx) {
  const db = c.get("db");
  const room = roomById(db, c.req.query("room"));
  const date = c.req.query("date") ?? "";
  if (!room || !isIsoDate(date)) return c.json({ error: "room and date (YYYY-MM-DD) are required" }, 400);
  const exclude = Number(c.req.query("exclude") || 0) || undefined;
  return c.json({
    room: room.name,
    date,
    closed: isWeekend(date),
    past: date < c.get("clock").today(),
    taken: takenSlots(db, room.id, date, exclude),
  });
}

export function mountBooking(app: Hono<SandboxEnv>): void {
  app.get("/book", showNewForm);
  app.post("/book", createBooking);
  app.get("/availability", availability);
  app.get("/reservations/:id/edit", showEditForm);
  app.post("/reservations/:id/edit", updateBooking);
}
