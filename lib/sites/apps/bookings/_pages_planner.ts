/**
 * A room's month planner, as calendar widgets draw one: a grid of day cells with the room's bookings as event blocks
 * laid over them (over all of a cell but its day-number strip). Days are held for maintenance by dragging across
 * them, pressing on a day's visible part (a press on an event opens that booking instead), then "Hold these days";
 * or by typing the first and last day into the form below. A hold is a row of `holds`.
 */
import type { Hono } from "hono";
import { html, raw } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { addDays, bookingsBetween, isIsoDate, mondayOf, type Room, roomById, shortDate } from "./_data.ts";
import { BASE, type Ctx, notFound, page } from "./_views.ts";

interface Hold {
  id: number;
  start_date: string;
  end_date: string;
}

/** The selection by drag: mousedown on a day (not on its event), moves over days, mouseup ends it. */
const PLANNER_SCRIPT = raw(`<script>
(function () {
  var grid = document.getElementById("month"), from = null, to = null;
  var dayAt = function (x, y) { var el = document.elementFromPoint(x, y); return el && el.closest(".day[data-date]"); };
  var paint = function () {
    var lo = from < to ? from : to, hi = from < to ? to : from;
    grid.querySelectorAll(".day[data-date]").forEach(function (d) {
      var on = d.dataset.date >= lo && d.dataset.date <= hi;
      d.classList.toggle("picked", on);
    });
    document.getElementById("start_date").value = lo;
    document.getElementById("end_date").value = hi;
    document.getElementById("picked").textContent = lo === hi ? lo : lo + " to " + hi;
    document.getElementById("hold-bar").hidden = false;
  };
  grid.querySelectorAll(".day[data-date]").forEach(function (day) {
    day.addEventListener("mousedown", function (e) {
      if (e.target.closest(".event")) return; // a press on an event opens it (click), it selects nothing
      from = to = day.dataset.date;
      paint();
      e.preventDefault();
    });
  });
  document.addEventListener("mousemove", function (e) {
    if (!from || !(e.buttons & 1)) return;
    var d = dayAt(e.clientX, e.clientY);
    if (d && d.dataset.date !== to) { to = d.dataset.date; paint(); }
  });
  document.addEventListener("mouseup", function (e) {
    if (!from) return;
    var d = dayAt(e.clientX, e.clientY);
    if (d) { to = d.dataset.date; paint(); }
    from = null;
  });
  grid.querySelectorAll(".event").forEach(function (ev) {
    ev.addEventListener("click", function () { location.href = ev.dataset.href; });
  });
})();
</script>`);

const STYLE = html`<style>
  #month{display:grid;grid-template-columns:repeat(7,120px);gap:2px;user-select:none}
  #month .head{font-weight:600;padding:4px}
  .day{position:relative;height:84px;background:#f8fafc;border:1px solid #e2e8f0;box-sizing:border-box;cursor:cell}
  .day .num{display:block;height:16px;padding:0 4px;font-size:12px;color:#475569}
  .day.out{background:#fff;color:#cbd5e1}.day.picked{background:#dbeafe}
  .event{position:absolute;left:2px;right:2px;top:17px;bottom:2px;background:#1d4ed8;color:#fff;border-radius:4px;
    font-size:12px;padding:2px 4px;overflow:hidden;cursor:pointer}
  .event.hold{background:#64748b}
</style>`;

/** The Monday-first weeks covering `month` (YYYY-MM), as ISO dates. */
function weeksOf(month: string): string[][] {
  const first = `${month}-01`;
  const weeks: string[][] = [];
  for (let d = mondayOf(first); d.slice(0, 7) <= month; d = addDays(d, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(d, i)));
  }
  return weeks;
}

function dayCell(room: Room, date: string, month: string, events: ReturnType<typeof bookingsBetween>, holds: Hold[]) {
  if (date.slice(0, 7) !== month) {
    return html`<div class="day out"><span class="num">${Number(date.slice(8))}</span></div>`;
  }
  const booking = events.find((b) => b.date === date && b.room_id === room.id && b.status === "confirmed");
  const hold = holds.find((h) => h.start_date <= date && date <= h.end_date);
  return html`<div class="day" data-date="${date}"><span class="num">${Number(date.slice(8))}</span>${
    booking
      ? html`<div class="event" data-href="${BASE}/reservations/${booking.id}">${booking.start_time} ${booking.purpose}</div>`
      : hold
      ? html`<div class="event hold" data-href="#hold-${hold.id}">Maintenance</div>`
      : ""
  }</div>`;
}

function planner(c: Ctx) {
  const db = c.get("db");
  const room = roomById(db, c.req.param("id"));
  if (!room) return notFound(c, `Room ${c.req.param("id")}`);
  const asked = c.req.query("month") ?? "";
  const month = /^\d{4}-\d{2}$/.test(asked) ? asked : c.get("clock").today().slice(0, 7);
  const events = bookingsBetween(db, `${month}-01`, `${month}-31`);
  const holds = db.all<Hold>("SELECT id, start_date, end_date FROM holds WHERE room_id = ? ORDER BY id", room.id);
  return page(c, {
    title: `${room.name} planner`,
    section: "rooms",
    crumbs: [{ href: `${BASE}/rooms/${room.id}`, label: room.name }, { href: "", label: "Planner" }],
    body: html`
      ${STYLE}
            <h1>${room.name}: ${month}</h1>
            <p class="muted">Drag across days to hold the room for maintenance; click a booking to open it.</p>
            <div id="month" role="grid" aria-label="${month}">${["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((
              d,
            ) => html`<div class="head">${d}</div>`)}${weeksOf(month).flat().map((d) =>
              dayCell(room, d, month, events, holds)
            )}</div>
            <form method="post" action="${BASE}/rooms/${room.id}/holds" id="hold-form" style="margin-top:12px">
        <p id="hold-bar" hidden>Selected: <strong id="picked"></strong>
                <button id="hold-days">Hold these days</button></p>
        <label>First day <input type="date" name="start_date" id="start_date"></label>
        <label>Last day <input type="date" name="end_date" id="end_date"></label>
        <button id="save-hold">Save hold</button>
      </form>
            ${holds.length
              ? html`
                <h2>Holds</h2>
                <ul id="holds">${holds.map((h) =>
                  html`<li id="hold-${h.id}">${shortDate(h.start_date)} to ${shortDate(h.end_date)}</li>`
                )}</ul>
              `
              : ""}
            ${PLANNER_SCRIPT}
    `,
  });
}

async function addHold(c: Ctx) {
  const db = c.get("db");
  const room = roomById(db, c.req.param("id"));
  if (!room) return notFound(c, `Room ${c.req.param("id")}`);
  const body = await c.req.parseBody();
  const [start, end] = [String(body.start_date ?? ""), String(body.end_date ?? "")];
  const month = start.slice(0, 7);
  if (!isIsoDate(start) || !isIsoDate(end) || end < start) {
    return c.redirect(`${BASE}/rooms/${room.id}/planner?flash=nohold`, 303);
  }
  db.insert("holds", {
    room_id: room.id,
    start_date: start,
    end_date: end,
    created_at: c.get("clock").now().toISOString(),
  });
  return c.redirect(`${BASE}/rooms/${room.id}/planner?month=${month}&flash=held`, 303);
}

/** Mounts the month planner and its holds. */
export function mountPlanner(app: Hono<SandboxEnv>): void {
  app.get("/rooms/:id/planner", planner);
  app.post("/rooms/:id/holds", addHold);
}
