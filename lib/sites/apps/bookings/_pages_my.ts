/** The app's home page and the user's own bookings (upcoming, past, cancelled). */
import { html } from "hono/html";
import type { Hono } from "hono";
import type { SandboxEnv } from "../../types.ts";
import { allRooms, type BookingView, isWeekend, longDate, myBookings } from "./_data.ts";
import { BASE, bookingTable, type Ctx, page } from "./_views.ts";

type Show = "upcoming" | "past" | "cancelled" | "all";
const SHOWS: { key: Show; label: string }[] = [
  { key: "upcoming", label: "Upcoming" },
  { key: "past", label: "Past" },
  { key: "cancelled", label: "Cancelled" },
  { key: "all", label: "All" },
];

function pick(rows: BookingView[], show: Show, today: string): BookingView[] {
  switch (show) {
    case "upcoming":
      return rows.filter((b) => b.status === "confirmed" && b.date >= today);
    case "past":
      return rows.filter((b) => b.status === "confirmed" && b.date < today).reverse();
    case "cancelled":
      return rows.filter((b) => b.status === "cancelled");
    default:
      return rows;
  }
}

function myList(c: Ctx) {
  const asked = c.req.query("show") as Show;
  const show: Show = SHOWS.some((s) => s.key === asked) ? asked : "upcoming";
  const today = c.get("clock").today();
  const mine = myBookings(c.get("db"));
  return page(c, {
    title: "My bookings",
    section: "my",
    crumbs: [{ href: `${BASE}/my`, label: "My bookings" }],
    body: html`
      <div class="row"><h1>My bookings</h1><span class="spacer"></span>
        <a class="button" href="${BASE}/book" id="new-booking">Book a room</a></div>
      <nav class="tabs" aria-label="Which bookings">${SHOWS.map((s) =>
        html`
          <a href="${BASE}/my?show=${s.key}" id="show-${s.key}" class="${s.key === show ? "active" : ""}"
            ${s.key === show ? html`aria-current="page"` : ""}>${s.label} (${pick(mine, s.key, today).length})</a>
        `
      )}</nav>
      ${bookingTable(pick(mine, show, today), "my-bookings")}
    `,
  });
}

function home(c: Ctx) {
  const db = c.get("db");
  const today = c.get("clock").today();
  const next = myBookings(db).filter((b) => b.status === "confirmed" && b.date >= today).slice(0, 3);
  const rooms = allRooms(db);
  return page(c, {
    title: "Room bookings",
    body: html`
      <h1>Room bookings</h1>
      <p id="today-line">Today is ${longDate(today)}.${isWeekend(today)
        ? " The office is closed today; you can book rooms for weekdays from tomorrow on."
        : ""}</p>
      <form method="get" action="${BASE}/rooms" class="row card" id="home-search" role="search">
        <label for="home-q" style="flex:0 0 auto">Find a room</label>
        <input type="search" id="home-q" name="q" placeholder="Name, type or feature" style="flex:1">
        <button type="submit" id="home-search-submit">Search</button>
      </form>
      <div class="grid">
        <div class="card"><h2>Rooms</h2>
          <p>${rooms.length} rooms on 3 floors.</p><a href="${BASE}/rooms" id="home-rooms">Browse rooms</a></div>
        <div class="card"><h2>Calendar</h2>
          <p>See which rooms are free on any day.</p><a href="${BASE}/calendar" id="home-calendar">Open calendar</a></div>
        <div class="card"><h2>Book</h2>
          <p>Pick a room, a date and a slot.</p><a class="button" href="${BASE}/book" id="home-book">Book a room</a></div>
      </div>
      <h2>Your next bookings</h2>
      ${bookingTable(next, "next-bookings")}
      <p><a href="${BASE}/my" id="home-my">All my bookings</a></p>
    `,
  });
}

export function mountMy(app: Hono<SandboxEnv>): void {
  app.get("/", home);
  app.get("/my", myList);
}
