/** The month calendar (per-day links, previous/next month) and the day view of every room's slots. */
import { html } from "hono/html";
import type { Hono } from "hono";
import type { Html } from "../../layout.ts";
import type { SandboxEnv } from "../../types.ts";
import {
  addDays,
  allRooms,
  bookingsBetween,
  bookingsOn,
  type BookingView,
  isIsoDate,
  isWeekend,
  longDate,
  ME,
  SLOTS,
} from "./_data.ts";
import { BASE, type Ctx, GRID_STYLE, notFound, page, slotCell, timeRange } from "./_views.ts";

/** "2026-03" -> "March 2026". */
function monthTitle(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-GB", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

function shiftMonth(month: string, by: number): string {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + by);
  return d.toISOString().slice(0, 7);
}

function dayCell(date: string, inMonth: boolean, today: string, day: BookingView[]): Html {
  const mine = day.filter((b) => b.booked_by === ME).length;
  const cls = ["cal-day", inMonth ? "" : "other-month", date === today ? "today" : "", isWeekend(date) ? "weekend" : ""]
    .filter(Boolean).join(" ");
  return html`<td class="${cls}" data-date="${date}">
    <a href="${BASE}/calendar/${date}" id="day-${date}"${
    date === today
      ? html`
        aria-current="date"
      `
      : ""
  }>${
    Number(
      date.slice(8),
    )
  }</a>
    ${
    isWeekend(date)
      ? html`<div class="muted"><small>Closed</small></div>`
      : html`<div><small>${day.length} booked</small></div>`
  }
    ${mine ? html`<div><span class="badge mine-count">${mine} mine</span></div>` : ""}
  </td>`;
}

function monthView(c: Ctx) {
  const today = c.get("clock").today();
  const asked = c.req.query("month") ?? "";
  const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(asked) ? asked : today.slice(0, 7);
  const first = `${month}-01`;
  const start = addDays(first, -((new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7));
  const last = addDays(`${shiftMonth(month, 1)}-01`, -1);
  const weeks: string[][] = [];
  for (let d = start; d <= last || weeks.at(-1)?.length !== 7; d = addDays(d, 1)) {
    if (!weeks.length || weeks.at(-1)!.length === 7) weeks.push([]);
    weeks.at(-1)!.push(d);
  }
  const booked = bookingsBetween(c.get("db"), start, weeks.at(-1)!.at(-1)!);
  return page(c, {
    title: monthTitle(month),
    section: "calendar",
    crumbs: [{ href: `${BASE}/calendar`, label: "Calendar" }, { href: "", label: monthTitle(month) }],
    body: html`
      <h1>Calendar: <span id="month-title">${monthTitle(month)}</span></h1>
      <div class="row" id="month-nav">
        <a href="${BASE}/calendar?month=${shiftMonth(month, -1)}" id="prev-month">‹ ${monthTitle(
          shiftMonth(month, -1),
        )}</a>
        <a href="${BASE}/calendar" id="this-month">Today</a>
        <a href="${BASE}/calendar?month=${shiftMonth(month, 1)}" id="next-month">${monthTitle(
          shiftMonth(month, 1),
        )} ›</a>
      </div>
      ${GRID_STYLE}
      <table id="month-grid" style="table-layout:fixed">
        <thead>
          <tr>${["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) => html`<th>${d}</th>`)}</tr>
        </thead>
        <tbody>${weeks.map((w) =>
          html`<tr>${w.map((d) => dayCell(d, d.startsWith(month), today, booked.filter((b) => b.date === d)))}</tr>`
        )}</tbody>
      </table>
      <p class="muted">Counts are confirmed bookings across all rooms. Choose a day to see which rooms are free.</p>
    `,
  });
}

function dayGrid(c: Ctx, date: string): Html {
  const db = c.get("db");
  const today = c.get("clock").today();
  const day = bookingsOn(db, date);
  return html`
    ${GRID_STYLE}
    <table id="day-grid" class="slot-grid">
      <thead>
        <tr><th>Room</th>${SLOTS.map((s) => html`<th>${s}</th>`)}</tr>
      </thead>
      <tbody>${allRooms(db).map((r) =>
        html`<tr data-room-id="${r.id}"><th><a href="${BASE}/rooms/${r.id}">${r.name}</a><br><small
          class="muted">${r.capacity} seats</small></th>${
          SLOTS.map((s) => slotCell(r, date, s, day.filter((b) => b.room_id === r.id), today))
        }</tr>`
      )}</tbody>
    </table>
    <h2>Bookings on this day</h2>
    ${day.length
      ? html`<ul id="day-bookings">${
        day.map((b) =>
          html`<li>${timeRange(b)} · ${b.room_name} · ${
            b.booked_by === ME
              ? html`<a href="${BASE}/reservations/${b.id}">${b.purpose}</a> (you)`
              : html`${b.purpose} (${b.booked_by})`
          }</li>`
        )
      }</ul>`
      : html`<p class="muted" id="day-bookings-empty">No bookings.</p>`}
  `;
}

function dayView(c: Ctx) {
  const date = c.req.param("date") ?? "";
  if (!isIsoDate(date)) return notFound(c, `The day "${date}"`);
  return page(c, {
    title: longDate(date),
    section: "calendar",
    crumbs: [
      { href: `${BASE}/calendar`, label: "Calendar" },
      { href: `${BASE}/calendar?month=${date.slice(0, 7)}`, label: monthTitle(date.slice(0, 7)) },
      { href: "", label: longDate(date) },
    ],
    body: html`
      <h1 id="day-title">${longDate(date)}</h1>
      <div class="row" id="day-nav">
        <a href="${BASE}/calendar/${addDays(date, -1)}" id="prev-day">‹ Previous day</a>
        <a href="${BASE}/calendar?month=${date.slice(0, 7)}" id="back-to-month">Month view</a>
        <a href="${BASE}/calendar/${addDays(date, 1)}" id="next-day">Next day ›</a>
      </div>
      ${isWeekend(date)
        ? html`<div class="card" id="closed-note">The office is closed on weekends; no rooms can be booked.</div>`
        : dayGrid(c, date)}
    `,
  });
}

export function mountCalendar(app: Hono<SandboxEnv>): void {
  app.get("/calendar", monthView);
  app.get("/calendar/:date", dayView);
}
