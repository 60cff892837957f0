import assert from "node:assert/strict";
import { startSites } from "../../server.ts";
import { bookingCode } from "./_data.ts";
import { BookingsClient, GOOD_BOOKING, pageText } from "./_test_helpers.ts";
import { bookingsApp } from "./mod.ts";

/** Bad booking forms: the field changes and the message the page must show. */
const BAD: [string, Record<string, string>, string][] = [
  ["past date", { date: "2026-03-13" }, "Friday, 13 March 2026 is in the past"],
  ["weekend", { date: "2026-03-21" }, "The office is closed on weekends (Saturday, 21 March 2026)"],
  ["overlap", { room: "1", attendees: "8" }, "Aurora is already booked 13:00–15:00 on Tuesday, 17 March 2026"],
  ["overlap by duration", { slot: "09:00", duration: "90" }, "Harbor is already booked 10:00–11:00"],
  ["after closing", { slot: "16:00", duration: "90" }, "ends after closing time (17:00)"],
  ["over capacity", { attendees: "12" }, "Harbor seats 10; 12 attendees do not fit."],
  ["missing purpose", { purpose: "  " }, "Enter the purpose of the booking."],
  ["invalid email", { email: "alex@sandbox" }, '"alex@sandbox" is not a valid email.'],
  ["no slot", { slot: "" }, "Choose a time slot."],
  ["bad date", { date: "17/03/2026" }, '"17/03/2026" is not a date; use YYYY-MM-DD.'],
];

Deno.test("booking form rejects bad submissions with 422, the error on the page and no write", async (t) => {
  const client = new BookingsClient();
  for (const [name, patch, message] of BAD) {
    await t.step(name, async () => {
      const res = await client.post("/bookings/book", { ...GOOD_BOOKING, ...patch });
      assert.equal(res.status, 422);
      assert.match(res.text, /<div class="errors" role="alert"/);
      assert.match(res.text, /<span class="field-error"/);
      assert.ok(pageText(res.text).includes(message), `page lacks "${message}"`);
      assert.ok(res.text.includes(`value="${GOOD_BOOKING.notes}"`) || res.text.includes(GOOD_BOOKING.notes));
    });
  }
  assert.deepEqual(await client.changes(), []);
});

Deno.test("a good booking is inserted with its code and redirects to its page", async () => {
  const client = new BookingsClient();
  const res = await client.post("/bookings/book", GOOD_BOOKING);
  assert.equal(res.status, 303);
  assert.equal(res.location, "/bookings/reservations/59?flash=created");
  const [change, ...rest] = await client.changes();
  assert.equal(rest.length, 0);
  assert.equal(change.table, "bookings");
  assert.equal(change.op, "insert");
  assert.equal(change.key, 59);
  assert.deepEqual({ ...change.after, created_at: undefined }, {
    id: 59,
    code: bookingCode(59),
    room_id: 8,
    date: "2026-03-17",
    start_time: "14:00",
    duration_min: 60,
    attendees: 8,
    purpose: "Quarterly planning with finance",
    notes: "Need the projector",
    contact_email: "alex@sandbox.test",
    booked_by: "Alex Morgan",
    status: "confirmed",
    created_at: undefined,
    updated_at: null,
    cancelled_at: null,
  });
  const page = await client.get(res.location);
  assert.ok(pageText(page.text).includes(`Booking confirmed. Booking ${bookingCode(59)}`));
  const again = await client.post("/bookings/book", GOOD_BOOKING);
  assert.equal(again.status, 422, "the same slot cannot be booked twice");
});

Deno.test("rescheduling validates, then updates the booking in place", async () => {
  const client = new BookingsClient();
  const bad = await client.post("/bookings/reservations/34/edit", {
    ...GOOD_BOOKING,
    room: "6",
    date: "2026-03-19",
    slot: "15:00",
  });
  assert.equal(bad.status, 422);
  assert.ok(pageText(bad.text).includes("Fjord is already booked 15:00–17:00"));
  assert.deepEqual(await client.changes(), []);
  const form = { room: "10", date: "2026-03-20", slot: "10:00", duration: "90", attendees: "5" };
  const good = await client.post("/bookings/reservations/34/edit", {
    ...form,
    purpose: "Vendor call: Acme Logistics",
    notes: "",
    email: "alex@sandbox.test",
  });
  assert.equal(good.status, 303);
  assert.equal(good.location, "/bookings/reservations/34?flash=updated");
  const [change] = await client.changes();
  assert.equal(change.op, "update");
  assert.equal(change.key, 34);
  assert.equal(change.before?.date, "2026-03-19");
  assert.equal(change.after?.date, "2026-03-20");
  assert.equal(change.after?.start_time, "10:00");
  assert.equal(change.after?.code, "BK-WD24A");
  assert.equal(change.after?.updated_at, "2026-03-15T10:00:00.000Z");
});

Deno.test("rescheduling keeps the booking's own slot free and writes nothing when unchanged", async () => {
  const client = new BookingsClient();
  const same = {
    room: "5",
    date: "2026-03-17",
    slot: "09:00",
    duration: "30",
    attendees: "4",
    purpose: "Design sync",
    notes: "",
    email: "alex@sandbox.test",
  };
  const res = await client.post("/bookings/reservations/21/edit", same);
  assert.equal(res.location, "/bookings/reservations/21?flash=unchanged");
  const longer = await client.post("/bookings/reservations/21/edit", { ...same, duration: "60" });
  assert.equal(longer.status, 303);
  assert.equal((await client.changes()).length, 1);
});

Deno.test("cancelling sets the status; colleagues' and past bookings cannot be changed", async () => {
  const client = new BookingsClient();
  assert.equal((await client.post("/bookings/reservations/22/cancel", {})).status, 403);
  assert.equal((await client.post("/bookings/reservations/3/cancel", {})).status, 409);
  assert.equal((await client.post("/bookings/reservations/22/edit", GOOD_BOOKING)).status, 403);
  assert.deepEqual(await client.changes(), []);
  const res = await client.post("/bookings/reservations/30/cancel", {});
  assert.equal(res.status, 303);
  const [change] = await client.changes();
  assert.deepEqual([change.table, change.op, change.key], ["bookings", "update", 30]);
  assert.equal(change.before?.status, "confirmed");
  assert.equal(change.after?.status, "cancelled");
  assert.equal(change.after?.cancelled_at, "2026-03-15T10:00:00.000Z");
  assert.equal((await client.post("/bookings/reservations/30/cancel", {})).status, 409, "already cancelled");
  const slots = JSON.parse((await client.get("/bookings/availability?room=11&date=2026-03-18")).text);
  assert.deepEqual(slots.taken, [], "the cancelled booking frees Kestrel");
});

Deno.test("session reset restores the seed", async () => {
  const client = new BookingsClient();
  await client.post("/bookings/book", GOOD_BOOKING);
  assert.equal((await client.get("/bookings/reservations/59")).status, 200);
  const reset = await client.get("/_admin/session-flags?reset=1");
  assert.equal(reset.status, 200);
  assert.deepEqual(await client.changes(), []);
  assert.equal((await client.get("/bookings/reservations/59")).status, 404);
  assert.ok(pageText((await client.get("/bookings/my")).text).includes("Upcoming (9)"));
});

Deno.test("two sessions do not see each other's bookings", async () => {
  const a = new BookingsClient();
  const b = new BookingsClient(a.sb);
  await a.get("/bookings/");
  await b.get("/bookings/");
  assert.notEqual(a.cookie, b.cookie);
  assert.equal((await a.post("/bookings/book", GOOD_BOOKING)).status, 303);
  assert.ok(pageText((await a.get("/bookings/my")).text).includes("Upcoming (10)"));
  assert.ok(pageText((await b.get("/bookings/my")).text).includes("Upcoming (9)"));
  assert.equal((await b.get("/bookings/reservations/59")).status, 404);
  assert.deepEqual(await b.changes(), []);
  assert.equal((await b.post("/bookings/book", GOOD_BOOKING)).status, 303, "b's Harbor is still free");
});

Deno.test("book, view and cancel through the real server", async () => {
  await using srv = await startSites({ apps: [bookingsApp], port: 0 });
  let cookie = "";
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(srv.base + path, { ...init, redirect: "manual", headers: { ...init.headers, cookie } });
    cookie ||= (res.headers.get("set-cookie") ?? "").split(";")[0];
    return { res, text: await res.text() };
  };
  const form = (body: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  });
  assert.equal((await send("/bookings/book?room=8")).res.status, 200);
  const created = await send("/bookings/book", form(GOOD_BOOKING));
  assert.equal(created.res.status, 303);
  const detail = await send(created.res.headers.get("location")!);
  assert.ok(detail.text.includes(`data-copy="${bookingCode(59)}"`));
  const cancelled = await send("/bookings/reservations/59/cancel", form({}));
  assert.equal(cancelled.res.status, 303);
  const log = JSON.parse((await send("/_admin/log")).text).entries as { method: string; path: string }[];
  assert.deepEqual(log.filter((e) => e.method === "POST").map((e) => e.path), [
    "/bookings/book",
    "/bookings/reservations/59/cancel",
  ]);
  const changes = JSON.parse((await send("/_admin/changes")).text).entries as { op: string }[];
  assert.deepEqual(changes.map((c) => c.op), ["insert", "update"]);
});
