/** One booking: its detail page, the copy/calendar actions, and cancelling it (a status update, not a delete). */
import { html } from "hono/html";
import type { Hono } from "hono";
import type { SandboxEnv } from "../../types.ts";
import { bookingById, type BookingView, durationLabel, endTime, longDate, ME, roomById } from "./_data.ts";
import { cateringFrame } from "./_catering.ts";
import { guestsPanel } from "./_guests.ts";
import { lockReason } from "./_pages_book.ts";
import { BASE, type Ctx, notFound, page, statusClass, timeRange } from "./_views.ts";

function actions(b: BookingView, locked: string | undefined) {
  return html`
    <div class="row" id="booking-actions" style="margin-top:14px">
      <button type="button" class="secondary" id="copy-code" data-copy="${b.code}">Copy confirmation code</button>
      <a class="button secondary" href="${BASE}/reservations/${b.id}/ics" id="add-to-calendar" download>Add to
        calendar</a>
      ${locked ? "" : html`
        <a class="button secondary" href="${BASE}/reservations/${b.id}/edit" id="edit-booking">Edit / reschedule</a>
        <form method="post" action="${BASE}/reservations/${b.id}/cancel" class="inline" id="cancel-form"
          data-confirm="Cancel booking ${b.code} (${b.room_name}, ${longDate(b.date)} ${b.start_time})?">
          <button type="submit" class="danger" id="cancel-booking">Cancel booking</button>
        </form>
      `}
    </div>
    ${locked && b.booked_by === ME ? html`<p class="muted" id="locked-note">${locked}</p>` : ""}
  `;
}

function detail(c: Ctx) {
  const db = c.get("db");
  const b = bookingById(db, c.req.param("id"));
  if (!b) return notFound(c, `Booking ${c.req.param("id")}`);
  const room = roomById(db, b.room_id)!;
  const mine = b.booked_by === ME;
  const row = (label: string, id: string, value: unknown) =>
    html`
      <tr>
        <th style="width:180px">${label}</th>
        <td id="${id}">${value}</td>
      </tr>
    `;
  return page(c, {
    title: `Booking ${b.code}`,
    section: "my",
    crumbs: [
      mine ? { href: `${BASE}/my`, label: "My bookings" } : { href: `${BASE}/calendar`, label: "Calendar" },
      { href: "", label: b.code },
    ],
    body: html`
      <div class="row"><h1>Booking <span id="booking-code">${b.code}</span></h1>
        <span class="badge ${statusClass(b.status)}" id="booking-status">${b.status}</span></div>
      <table id="booking-details">
        <tbody>
          ${row("Room", "detail-room", html`<a href="${BASE}/rooms/${room.id}">${room.name}</a> · ${room.location}`)}
          ${row("Date", "detail-date", longDate(b.date))}
          ${row("Time", "detail-time", timeRange(b))}
          ${row("Duration", "detail-duration", durationLabel(b.duration_min))}
          ${row("Attendees", "detail-attendees", b.attendees)}
          ${row("Purpose", "detail-purpose", b.purpose)}
          ${mine ? row("Notes", "detail-notes", b.notes || "—") : ""}
          ${row("Booked by", "detail-booked-by", mine ? `${b.booked_by} (you)` : b.booked_by)}
          ${mine ? row("Contact email", "detail-email", b.contact_email) : ""}
        </tbody>
      </table>
      ${mine ? actions(b, lockReason(b, c.get("clock").today())) : ""}
      ${mine && !lockReason(b, c.get("clock").today())
        ? html`${guestsPanel(c, b.id, c.req.query("guest_error") ? "Choose a colleague from the suggestions." : "")}${
          cateringFrame(b.id)
        }`
        : ""}
    `,
  });
}

async function cancel(c: Ctx) {
  const db = c.get("db");
  const b = bookingById(db, c.req.param("id"));
  if (!b) return notFound(c, `Booking ${c.req.param("id")}`);
  await c.req.parseBody();
  const reason = lockReason(b, c.get("clock").today());
  if (reason) {
    return page(c, {
      title: "Cannot cancel",
      section: "my",
      status: b.booked_by === ME ? 409 : 403,
      body: html`
        <h1>Booking ${b.code} cannot be cancelled</h1>
        <div class="errors" role="alert" id="locked-reason">${reason}</div>
        <p><a href="${BASE}/reservations/${b.id}">Back to the booking</a></p>
      `,
    });
  }
  db.update("bookings", b.id, { status: "cancelled", cancelled_at: c.get("clock").now().toISOString() });
  return c.redirect(`${BASE}/reservations/${b.id}?flash=cancelled`, 303);
}

/** RFC 5545 text: backslash, semicolon, comma and newline escaped. */
function icsText(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\n/g, "\\n");
}

const icsStamp = (date: string, time: string) => `${date.replaceAll("-", "")}T${time.replace(":", "")}00Z`;

function ics(c: Ctx) {
  const db = c.get("db");
  const b = bookingById(db, c.req.param("id"));
  if (!b || b.booked_by !== ME) return notFound(c, `Booking ${c.req.param("id")}`);
  const room = roomById(db, b.room_id)!;
  const stamp = c.get("clock").now().toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Sandbox//Bookings//EN",
    "BEGIN:VEVENT",
    `UID:${b.code}@bookings.sandbox.test`,
    `DTSTAMP:${stamp}`,
    `DTSTART:${icsStamp(b.date, b.start_time)}`,
    `DTEND:${icsStamp(b.date, endTime(b))}`,
    `SUMMARY:${icsText(`${b.purpose} (${room.name})`)}`,
    `LOCATION:${icsText(`${room.name}, ${room.location}`)}`,
    `DESCRIPTION:${icsText(`Confirmation code ${b.code}. ${b.attendees} attendees.`)}`,
    `STATUS:${b.status === "cancelled" ? "CANCELLED" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return c.body(lines.join("\r\n") + "\r\n", 200, {
    "content-type": "text/calendar; charset=utf-8",
    "content-disposition": `attachment; filename="${b.code}.ics"`,
  });
}

export function mountReservation(app: Hono<SandboxEnv>): void {
  app.get("/reservations/:id", detail);
  app.post("/reservations/:id/cancel", cancel);
  app.get("/reservations/:id/ics", ics);
}
