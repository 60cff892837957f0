/** One room's page, with its Overview, Schedule (a week of slots, in a panel that scrolls) and Rules tabs. */
import { html } from "hono/html";
import type { Hono } from "hono";
import type { Html } from "../../layout.ts";
import type { SandboxEnv } from "../../types.ts";
import {
  addDays,
  bookingsBetween,
  isIsoDate,
  isWeekend,
  mondayOf,
  type Room,
  roomById,
  shortDate,
  SLOTS,
} from "./_data.ts";
import { amenityBadges, BASE, type Ctx, GRID_STYLE, notFound, page, slotCell } from "./_views.ts";

type Tab = "overview" | "schedule" | "rules";
const TABS: { key: Tab; label: string; path: string }[] = [
  { key: "overview", label: "Overview", path: "" },
  { key: "schedule", label: "Schedule", path: "/schedule" },
  { key: "rules", label: "Rules", path: "/rules" },
];

const HOUSE_RULES = [
  "Rooms can be booked Monday to Friday, 09:00–17:00. The office is closed on weekends.",
  "A booking starts on the hour and lasts 30, 60, 90 or 120 minutes; it must end by 17:00.",
  "The number of attendees may not exceed the room's seats.",
  "Cancel bookings you no longer need so that colleagues can use the room.",
];

function roomFrame(c: Ctx, room: Room, tab: Tab, body: Html) {
  const label = TABS.find((t) => t.key === tab)!.label;
  return page(c, {
    title: `${room.name} · ${label}`,
    section: "rooms",
    crumbs: [
      { href: `${BASE}/rooms`, label: "Rooms" },
      { href: `${BASE}/rooms/${room.id}`, label: room.name },
      ...(tab === "overview" ? [] : [{ href: "", label }]),
    ],
    body: html`
      <div class="row"><h1>${room.name}</h1><span class="badge">${room.type}</span><span class="spacer"></span>
        <a href="${BASE}/floors/${room.floor}?room=${room.id}" target="_blank" rel="noopener" id="floor-plan">Floor
          plan</a>
        <a class="button" href="${BASE}/book?room=${room.id}" id="book-room">Book this room</a></div>
      <nav class="tabs" aria-label="Room sections">${TABS.map((t) =>
        html`
          <a href="${BASE}/rooms/${room.id}${t.path}" id="tab-${t.key}" class="${t.key === tab ? "active" : ""}"
            ${t.key === tab ? html`aria-current="page"` : ""}>${t.label}</a>
        `
      )}</nav>
      ${body}
    `,
  });
}

function overview(room: Room): Html {
  return html`
    <div class="card" id="room-overview">
      <p>${room.description}</p>
      <table>
        <tbody>
          <tr>
            <th>Location</th>
            <td id="room-location">${room.location}</td>
          </tr>
          <tr>
            <th>Type</th>
            <td id="room-type">${room.type}</td>
          </tr>
          <tr>
            <th>Seats</th>
            <td id="room-capacity">${room.capacity}</td>
          </tr>
          <tr>
            <th>Amenities</th>
            <td id="room-amenities">${amenityBadges(room)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  `;
}

/** The week shown by the schedule tab: ?week=DATE (its Monday), or this week; next week on a weekend. */
function scheduleWeek(c: Ctx): string {
  const asked = c.req.query("week") ?? "";
  if (isIsoDate(asked)) return mondayOf(asked);
  const today = c.get("clock").today();
  return isWeekend(today) ? mondayOf(addDays(today, 2)) : mondayOf(today);
}

function schedule(c: Ctx, room: Room): Html {
  const monday = scheduleWeek(c);
  const days = [0, 1, 2, 3, 4].map((i) => addDays(monday, i));
  const week = bookingsBetween(c.get("db"), days[0], days[4]).filter((b) => b.room_id === room.id);
  const today = c.get("clock").today();
  return html`
    <div class="row" id="week-nav">
      <a href="${BASE}/rooms/${room.id}/schedule?week=${addDays(monday, -7)}" id="prev-week">‹ Previous week</a>
      <strong id="week-label">Week of ${shortDate(monday)}</strong>
      <a href="${BASE}/rooms/${room.id}/schedule?week=${addDays(monday, 7)}" id="next-week">Next week ›</a>
    </div>
    ${GRID_STYLE}
    <div id="schedule-panel" class="schedule-panel" style="max-height:260px;overflow-y:auto;border:1px solid #e5e7eb">
      <table id="room-schedule" class="slot-grid">
        <thead>
          <tr><th>Time</th>${days.map((d) => html`<th>${shortDate(d)}</th>`)}</tr>
        </thead>
        <tbody>${SLOTS.map((s) =>
          html`<tr data-slot="${s}"><th>${s}</th>${
            days.map((d) => slotCell(room, d, s, week.filter((b) => b.date === d), today))
          }</tr>`
        )}</tbody>
      </table>
    </div>
    <p class="muted">Times are hourly slots (the panel scrolls); a slot is booked when any booking overlaps it.</p>
  `;
}

function rules(room: Room): Html {
  return html`
    <div class="card" id="room-rules">
      <h2>House rules</h2>
      <ul>${HOUSE_RULES.map((r) => html`<li>${r}</li>`)}</ul>
      <h2>Rules for ${room.name}</h2>
      <p id="room-specific-rules">${room.rules}</p>
    </div>
  `;
}

function roomTab(tab: Tab) {
  return (c: Ctx) => {
    const room = roomById(c.get("db"), c.req.param("id"));
    if (!room) return notFound(c, `Room ${c.req.param("id")}`);
    const body = tab === "overview" ? overview(room) : tab === "schedule" ? schedule(c, room) : rules(room);
    return roomFrame(c, room, tab, body);
  };
}

export function mountRoomPages(app: Hono<SandboxEnv>): void {
  app.get("/rooms/:id", roomTab("overview"));
  app.get("/rooms/:id/schedule", roomTab("schedule"));
  app.get("/rooms/:id/rules", roomTab("rules"));
}
