/** The page frame and small view pieces the Bookings pages share. */
import type { Context } from "hono";
import { html, raw } from "hono/html";
import { type Html, type NavLink, renderPage } from "../../layout.ts";
import { DEFAULT_USER } from "../../session.ts";
import type { SandboxEnv } from "../../types.ts";
import {
  AMENITIES,
  type BookingView,
  durationLabel,
  endTime,
  ME,
  overlaps,
  type Room,
  shortDate,
  toMinutes,
} from "./_data.ts";

export const BASE = "/bookings";
export type Ctx = Context<SandboxEnv>;

const MENU = [
  { href: `${BASE}/rooms`, label: "Rooms", key: "rooms" },
  { href: `${BASE}/calendar`, label: "Calendar", key: "calendar" },
  { href: `${BASE}/my`, label: "My bookings", key: "my" },
];

/** Messages a redirect can ask for with `?flash=KEY`. */
const FLASHES: Record<string, string> = {
  created: "Booking confirmed.",
  updated: "Booking updated.",
  cancelled: "Booking cancelled.",
  unchanged: "Nothing changed; the booking is as it was.",
  guest: "Guest added.",
  held: "Days held for maintenance.",
  nohold: "Nothing held: give a first and a last day, the last not before the first.",
};

export interface FrameOptions {
  title: string;
  /** Which menu entry is current: rooms, calendar or my. */
  section?: string;
  crumbs?: NavLink[];
  body: Html;
  status?: 200 | 400 | 403 | 404 | 409 | 422;
}

/** Renders a page of the app in the sandbox frame. */
export function page(c: Ctx, o: FrameOptions): Response | Promise<Response> {
  const flashKey = c.req.query("flash");
  return c.html(
    renderPage({
      title: o.title,
      app: "Bookings",
      appHref: `${BASE}/`,
      nav: MENU.map((m) => ({ href: m.href, label: m.label, active: m.key === o.section })),
      crumbs: o.crumbs ? [{ href: `${BASE}/`, label: "Bookings" }, ...o.crumbs] : undefined,
      user: c.get("session").flags.loggedIn ? DEFAULT_USER.name : null,
      now: c.get("clock").now().toISOString(),
      flash: flashKey ? FLASHES[flashKey] : undefined,
      body: o.body,
    }),
    o.status ?? 200,
  );
}

/** A plain "not found" page inside the app. */
export function notFound(c: Ctx, what: string): Response | Promise<Response> {
  return page(c, {
    title: "Not found",
    status: 404,
    body: html`
      <h1>Not found</h1>
      <p>${what} does not exist. <a href="${BASE}/rooms">Browse rooms</a></p>
    `,
  });
}

export function amenityBadges(room: Room): Html {
  const have = AMENITIES.filter((a) => room[a.key] === 1);
  return have.length
    ? html`${
      have.map((a) =>
        html`
          <span class="badge amenity-${a.key}">${a.label}</span>
        `
      )
    }`
    : html`<span class="muted">None</span>`;
}

/** The badge classes of a booking status: red for cancelled, green for confirmed. */
export function statusClass(status: string): string {
  return `status-${status} ${status === "cancelled" ? "high" : "low"}`;
}

export function timeRange(b: BookingView): string {
  return `${b.start_time}–${endTime(b)}`;
}

/** A table of bookings with code, room, date, time, duration, purpose and status. */
export function bookingTable(rows: BookingView[], id: string): Html {
  if (rows.length === 0) return html`<p class="muted" id="${id}-empty">No bookings here.</p>`;
  return html`
    <table id="${id}">
      <thead>
        <tr>
          <th>Code</th>
          <th>Room</th>
          <th>Date</th>
          <th>Time</th>
          <th>Duration</th>
          <th>Purpose</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>${rows.map((b) =>
        html`
          <tr data-booking-id="${b.id}">
            <td><a href="${BASE}/reservations/${b.id}">${b.code}</a></td>
            <td>${b.room_name}</td>
            <td>${shortDate(b.date)}</td>
            <td>${timeRange(b)}</td>
            <td>${durationLabel(b.duration_min)}</td>
            <td>${b.purpose}</td>
            <td><span class="badge ${statusClass(b.status)}">${b.status}</span></td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

/** One hourly slot of one room and day: your booking, a colleague's, free (a link to book it) or past. */
export function slotCell(room: Room, date: string, slot: string, day: BookingView[], today: string): Html {
  const b = day.find((x) => overlaps(x, toMinutes(slot), toMinutes(slot) + 60));
  if (b) {
    return b.booked_by === ME
      ? html`
        <td
          class="slot mine"><a href="${BASE}/reservations/${b.id}">Your booking</a><br><small>${b
            .purpose} · ${timeRange(b)}</small></td>
      `
      : html`<td class="slot booked">Booked<br><small class="muted">${b.booked_by} · ${timeRange(b)}</small></td>`;
  }
  return date < today
    ? html`<td class="slot past muted">—</td>`
    : html`<td class="slot free"><a href="${BASE}/book?room=${room.id}&date=${date}&slot=${slot}">Free</a></td>`;
}

/** Colours of the slot grids (room schedule, day view) and of the month calendar. */
export const GRID_STYLE = raw(`<style>
.slot-grid{table-layout:fixed}.slot-grid th:first-child{width:120px}
td.slot{font-size:13px}td.slot.booked{background:#fef2f2}td.slot.mine{background:#eff6ff}td.slot.past{background:#f8fafc}
#month-grid td.other-month{opacity:.45}#month-grid td.today{outline:2px solid #2563eb;outline-offset:-2px}
#month-grid td.weekend{background:#f8fafc}
</style>`);
