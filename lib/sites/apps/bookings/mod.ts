/**
 * Bookings: a room and resource booking app. Rooms with filters and tabs, a month calendar and day view, a booking
 * form with server-side validation (past dates, weekends, overlaps, capacity), rescheduling, cancelling (a status
 * update), confirmation codes to copy and .ics downloads; a catering menu whose diets are icons and a facilities
 * handbook in a scrolling text box; a room's month planner whose bookings lie over the day cells, where days are held
 * for maintenance by dragging across them.
 */
import { Hono } from "hono";
import type { SandboxEnv, SiteApp } from "../../types.ts";
import { mountCatering } from "./_catering.ts";
import { mountGuests } from "./_guests.ts";
import { mountBooking } from "./_pages_book.ts";
import { mountInfoPages } from "./_pages_info.ts";
import { mountPlanner } from "./_pages_planner.ts";
import { mountCalendar } from "./_pages_calendar.ts";
import { mountMy } from "./_pages_my.ts";
import { mountReservation } from "./_pages_reservation.ts";
import { mountRoomPages } from "./_pages_room.ts";
import { mountRoomList } from "./_pages_rooms.ts";
import { bookingsSeed } from "./_seed.ts";

function bookingsRoutes(): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>({ strict: false });
  mountMy(app);
  mountRoomList(app);
  mountRoomPages(app);
  mountCalendar(app);
  mountBooking(app);
  mountReservation(app);
  mountGuests(app);
  mountCatering(app);
  mountInfoPages(app);
  mountPlanner(app);
  return app;
}

export const bookingsApp: SiteApp = {
  id: "bookings",
  title: "Bookings",
  description: "Book meeting rooms: find a room, check the calendar, manage your bookings.",
  seed: bookingsSeed,
  grading: {
    bookkeeping: { bookings: ["updated_at", "cancelled_at"], catering: ["ordered_at"] },
    generated: {
      bookings: ["id", "code", "booked_by", "created_at", "updated_at", "cancelled_at"],
      guests: ["id", "name", "added_at"],
      catering: ["id", "ordered_at"],
      holds: ["id", "created_at"],
    },
    queryDefaults: { page: "1", min: "1" },
    ignoredQuery: ["flash"],
    caselessQuery: ["q"],
    irreversible: [
      { name: "book", table: "bookings", op: "insert" },
      { name: "order catering", table: "catering", op: "insert" },
      { name: "invite guest", table: "guests", op: "insert" },
    ],
  },
  routes: bookingsRoutes(),
};
