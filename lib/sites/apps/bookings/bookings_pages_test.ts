import assert from "node:assert/strict";
import { type Booking, bookingCode, isWeekend, overlaps, type Room, toMinutes } from "./_data.ts";
import { bookingsSeed } from "./_seed.ts";
import { BookingsClient, pageText } from "./_test_helpers.ts";

/** Every GET page of the app, with one piece of content it must show. */
const PAGES: [string, string | RegExp][] = [
  ["/bookings/", "Today is Sunday, 15 March 2026. The office is closed today"],
  ["/bookings/rooms", "12 rooms match · page 1 of 3"],
  ["/bookings/rooms?page=3", "Kestrel"],
  ["/bookings/rooms?min=10", "5 rooms match"],
  ["/bookings/rooms?q=lake+view", "1 room matches"],
  ["/bookings/rooms/6", "Conference room with a lake view"],
  ["/bookings/rooms/6/schedule?week=2026-03-17", "Jonas Berg · 14:00–15:00"],
  ["/bookings/rooms/6/rules", "Client meetings take priority"],
  ["/bookings/floors/2?room=6", "Floor 2 plan"],
  ["/bookings/calendar", "Calendar: March 2026"],
  ["/bookings/calendar?month=2026-04", "Calendar: April 2026"],
  ["/bookings/calendar/2026-03-17", "Tuesday, 17 March 2026"],
  ["/bookings/calendar/2026-03-21", "The office is closed on weekends"],
  ["/bookings/book", "Book a room"],
  ["/bookings/my", "Upcoming (9)"],
  ["/bookings/my?show=cancelled", "Interview: backend engineer"],
  ["/bookings/reservations/21", "Booking BK-XSGUW"],
  ["/bookings/reservations/21/edit", "Edit booking BK-XSGUW"],
];

Deno.test("bookings pages render with their content", async (t) => {
  const client = new BookingsClient();
  for (const [path, expected] of PAGES) {
    await t.step(path, async () => {
      const res = await client.get(path);
      assert.equal(res.status, 200, `${path} answered ${res.status}`);
      assert.match(res.text, /<h1[ >]/);
      const text = pageText(res.text);
      if (typeof expected === "string") assert.ok(text.includes(expected), `${path} lacks "${expected}"`);
      else assert.match(text, expected);
    });
  }
});

Deno.test("bookings unknown rooms, bookings and days answer 404", async () => {
  const client = new BookingsClient();
  for (const path of ["/bookings/rooms/99", "/bookings/reservations/999", "/bookings/calendar/2026-02-30"]) {
    assert.equal((await client.get(path)).status, 404, path);
  }
});

Deno.test("room list filters combine type, amenities, capacity and floor, and pages keep them", async () => {
  const client = new BookingsClient();
  const names = (html: string) => [...html.matchAll(/class="room-link">([^<]+)</g)].map((m) => m[1]);
  const conf = await client.get("/bookings/rooms?type=Conference+room&amenity=video&amenity=accessible");
  assert.deepEqual(names(conf.text), ["Aurora", "Fjord", "Kestrel"]);
  assert.deepEqual(names((await client.get("/bookings/rooms?floor=3&min=5")).text), ["Juniper", "Kestrel", "Lumen"]);
  const page1 = await client.get("/bookings/rooms?amenity=whiteboard");
  assert.ok(pageText(page1.text).includes("8 rooms match · page 1 of 2"));
  assert.match(page1.text, /href="\/bookings\/rooms\?amenity=whiteboard&amp;page=2" id="next-page"/);
  // The numbered links have the id every app's pager gives them (lib/gen/macros/pages.ts: the shared pager model).
  assert.match(page1.text, /href="\/bookings\/rooms\?amenity=whiteboard&amp;page=2" aria-label="Page 2" id="page-2"/);
});

Deno.test("booking form marks taken slots of the chosen room and day", async () => {
  const client = new BookingsClient();
  const res = await client.get("/bookings/book?room=8&date=2026-03-17&slot=14:00");
  assert.match(res.text, /id="slot-1000" value="10:00"\s+disabled/);
  assert.match(res.text, /id="slot-1400" value="14:00" checked/);
  assert.match(res.text, /<option value="8" data-capacity="10"\s+selected>/);
  const json = await client.get("/bookings/availability?room=1&date=2026-03-17");
  assert.deepEqual(JSON.parse(json.text), {
    room: "Aurora",
    date: "2026-03-17",
    closed: false,
    past: false,
    taken: ["13:00", "14:00"],
  });
  const mine = await client.get("/bookings/availability?room=5&date=2026-03-17&exclude=21");
  assert.deepEqual(JSON.parse(mine.text).taken, []);
  assert.equal((await client.get("/bookings/availability?room=5")).status, 400);
});

Deno.test("booking detail offers copy, calendar, edit and a confirmed cancel", async () => {
  const client = new BookingsClient();
  const res = await client.get("/bookings/reservations/21");
  assert.match(res.text, /id="copy-code" data-copy="BK-XSGUW"/);
  assert.match(res.text, /href="\/bookings\/reservations\/21\/ics" id="add-to-calendar"/);
  assert.match(res.text, /id="cancel-form"\s+data-confirm="Cancel booking BK-XSGUW/);
  const past = await client.get("/bookings/reservations/3");
  assert.ok(!past.text.includes('id="cancel-booking"'), "a past booking offers no cancel button");
  const theirs = await client.get("/bookings/reservations/22");
  assert.ok(!theirs.text.includes('id="copy-code"'), "a colleague's booking offers no actions");
});

Deno.test("room page opens its floor plan in a new tab", async () => {
  const res = await new BookingsClient().get("/bookings/rooms/8");
  assert.match(res.text, /href="\/bookings\/floors\/2\?room=8" target="_blank"/);
});

Deno.test("ics download is an attachment with the booking's times", async () => {
  const res = await new BookingsClient().get("/bookings/reservations/21/ics");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-disposition"), 'attachment; filename="BK-XSGUW.ics"');
  assert.match(res.headers.get("content-type") ?? "", /^text\/calendar/);
  assert.ok(res.text.includes("DTSTART:20260317T090000Z\r\nDTEND:20260317T093000Z\r\n"));
  assert.ok(res.text.includes("SUMMARY:Design sync (Ember)"));
});

Deno.test("bookingCode() is deterministic and distinct across ids", () => {
  assert.equal(bookingCode(21), "BK-XSGUW");
  const codes = new Set(Array.from({ length: 5000 }, (_, i) => bookingCode(i + 1)));
  assert.equal(codes.size, 5000);
  for (const c of codes) assert.match(c, /^BK-[2-9A-HJ-NP-Z]{5}$/);
});

Deno.test("seed holds 12 rooms and 58 weekday bookings inside opening hours, none overlapping", () => {
  const { rows } = bookingsSeed();
  const rooms = rows.rooms as unknown as Room[];
  const bookings = rows.bookings as unknown as Booking[];
  assert.equal(rooms.length, 12);
  assert.equal(rooms.filter((r) => r.capacity >= 10).length, 5);
  assert.equal(bookings.length, 58);
  for (const b of bookings) {
    assert.ok(!isWeekend(b.date), `booking ${b.id} falls on a weekend`);
    const start = toMinutes(b.start_time);
    assert.ok(start >= 9 * 60 && start + b.duration_min <= 17 * 60, `booking ${b.id} is outside hours`);
    assert.ok(b.created_at < "2026-03-15", `booking ${b.id} was made after the clock`);
    const clash = bookings.find((o) =>
      o.id !== b.id && o.status === "confirmed" && b.status === "confirmed" && o.room_id === b.room_id &&
      o.date === b.date && overlaps(o, start, start + b.duration_min)
    );
    assert.equal(clash, undefined, `booking ${b.id} overlaps ${clash?.id}`);
  }
  const nextWeek = bookings.filter((b) =>
    b.booked_by === "Alex Morgan" && b.status === "confirmed" && b.date >= "2026-03-16" && b.date <= "2026-03-20"
  );
  assert.equal(nextWeek.length, 4);
});
