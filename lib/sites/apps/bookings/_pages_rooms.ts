/** The room directory: the filtered, paged list and the floor plans. */
import { html, raw } from "hono/html";
import type { Hono } from "hono";
import type { SandboxEnv } from "../../types.ts";
import { allRooms, AMENITIES, type AmenityKey, type Room, ROOM_TYPES } from "./_data.ts";
import { amenityBadges, BASE, type Ctx, notFound, page } from "./_views.ts";

const PAGE_SIZE = 5;
const ANY_TYPE = "Any type";
const MAX_CAPACITY = 24;

interface RoomFilters {
  q: string;
  type: string;
  min: number;
  floor: string;
  amenities: AmenityKey[];
  page: number;
}

function readFilters(c: Ctx): RoomFilters {
  const q = (c.req.query("q") ?? "").trim();
  const rawType = c.req.query("type") ?? "";
  const min = Math.min(MAX_CAPACITY, Math.max(1, Math.floor(Number(c.req.query("min") ?? 1)) || 1));
  const floor = ["1", "2", "3"].includes(c.req.query("floor") ?? "") ? c.req.query("floor")! : "";
  const keys = AMENITIES.map((a) => a.key as string);
  const amenities = (c.req.queries("amenity") ?? []).filter((a) => keys.includes(a)) as AmenityKey[];
  const page = Math.max(1, Math.floor(Number(c.req.query("page") ?? 1)) || 1);
  return { q, type: ROOM_TYPES.includes(rawType) ? rawType : "", min, floor, amenities, page };
}

function matches(r: Room, f: RoomFilters): boolean {
  const text = `${r.name} ${r.type} ${r.location} ${r.description}`.toLowerCase();
  return (!f.q || f.q.toLowerCase().split(/\s+/).every((w) => text.includes(w))) &&
    (!f.type || r.type === f.type) && r.capacity >= f.min && (!f.floor || String(r.floor) === f.floor) &&
    f.amenities.every((a) => r[a] === 1);
}

/** The list's query string for page `n`, keeping the filters. */
function pageHref(f: RoomFilters, n: number): string {
  const p = new URLSearchParams();
  if (f.q) p.set("q", f.q);
  if (f.type) p.set("type", f.type);
  if (f.min > 1) p.set("min", String(f.min));
  if (f.floor) p.set("floor", f.floor);
  for (const a of f.amenities) p.append("amenity", a);
  if (n > 1) p.set("page", String(n));
  const s = p.toString();
  return `${BASE}/rooms${s ? `?${s}` : ""}`;
}

function filterForm(f: RoomFilters) {
  const options = JSON.stringify([ANY_TYPE, ...ROOM_TYPES]);
  return html`
    <form method="get" action="${BASE}/rooms" id="room-filters" class="card">
      <div class="grid">
        <div><label for="q">Search rooms</label><input type="search" id="q" name="q" value="${f.q}"
            placeholder="Name, type or feature"></div>
        <div><label id="type-label">Room type</label>
          <div class="combobox" id="type-combo" data-combobox data-name="type" data-label="Room type"
            data-options="${options}" data-value="${f.type}" data-placeholder="${ANY_TYPE}"></div></div>
        <div><label for="min-capacity">Seats at least: <output id="min-capacity-value">${f.min}</output></label>
          <input type="range" id="min-capacity" name="min" min="1" max="${MAX_CAPACITY}" step="1" value="${f.min}"
            data-output="min-capacity-value"></div>
        <div><label for="floor">Floor</label>
          <select id="floor" name="floor">
            <option value="">Any floor</option>
            ${["1", "2", "3"].map((n) =>
              html`<option value="${n}" ${f.floor === n ? "selected" : ""}>Floor ${n}</option>`
            )}
          </select></div>
      </div>
      <fieldset id="amenity-filters" style="border:none;padding:0;margin:12px 0">
        <legend>Amenities</legend>
        <div class="row">${AMENITIES.map((a) =>
          html`<label for="amenity-${a.key}" style="font-weight:400"><input type="checkbox" id="amenity-${a.key}"
            name="amenity" value="${a.key}" ${f.amenities.includes(a.key) ? "checked" : ""}> ${a.label}</label>`
        )}</div>
      </fieldset>
      <div class="row"><button type="submit" id="apply-filters">Apply filters</button>
        <a href="${BASE}/rooms" id="clear-filters">Clear filters</a></div>
    </form>
  `;
}

function roomTable(rooms: Room[]) {
  return html`
    <table id="room-list">
      <thead>
        <tr>
          <th>Room</th>
          <th>Type</th>
          <th>Floor</th>
          <th>Seats</th>
          <th>Amenities</th>
          <th></th>
        </tr>
      </thead>
      <tbody>${rooms.map((r) =>
        html`
          <tr data-room-id="${r.id}">
            <td><a href="${BASE}/rooms/${r.id}" class="room-link">${r.name}</a></td>
            <td>${r.type}</td>
            <td>${r.floor}</td>
            <td class="capacity">${r.capacity}</td>
            <td>${amenityBadges(r)}</td>
            <td><a class="button secondary" href="${BASE}/book?room=${r.id}">Book</a></td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function pager(f: RoomFilters, pages: number) {
  if (pages <= 1) return "";
  const links = Array.from({ length: pages }, (_, i) => i + 1).map((n) =>
    n === f.page
      ? html`<span class="current" aria-current="page">${n}</span>`
      : html`<a href="${pageHref(f, n)}" aria-label="Page ${n}" id="page-${n}">${n}</a>`
  );
  return html`<nav class="pager" aria-label="Pages" id="room-pager">
    ${f.page > 1 ? html`<a href="${pageHref(f, f.page - 1)}" id="prev-page" rel="prev">Previous</a>` : ""}${links}
    ${f.page < pages ? html`<a href="${pageHref(f, f.page + 1)}" id="next-page" rel="next">Next</a>` : ""}</nav>`;
}

function roomList(c: Ctx) {
  const f = readFilters(c);
  const found = allRooms(c.get("db")).filter((r) => matches(r, f));
  const pages = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
  f.page = Math.min(f.page, pages);
  const shown = found.slice((f.page - 1) * PAGE_SIZE, f.page * PAGE_SIZE);
  return page(c, {
    title: "Rooms",
    section: "rooms",
    crumbs: [{ href: `${BASE}/rooms`, label: "Rooms" }],
    body: html`
      <div class="row"><h1>Rooms</h1><span class="spacer"></span>
        <a class="button" href="${BASE}/book" id="new-booking">Book a room</a></div>
      ${filterForm(f)}
      <p id="room-count">${found.length === 1 ? "1 room matches" : `${found.length} rooms match`}${pages > 1
        ? ` · page ${f.page} of ${pages}`
        : ""}</p>
      ${found.length ? roomTable(shown) : html`<p class="muted" id="no-rooms">No room matches these filters.</p>`}
      ${pager(f, pages)}
    `,
  });
}

const SVG_W = 640, SVG_H = 300;

/** A simple SVG plan: the floor's rooms side by side along a corridor, `highlight` filled. */
function floorSvg(rooms: Room[], highlight: number) {
  const w = (SVG_W - 40) / Math.max(1, rooms.length);
  const boxes = rooms.map((r, i) => {
    const x = 20 + i * w, fill = r.id === highlight ? "#bfdbfe" : "#f1f5f9";
    return `<g id="plan-room-${r.id}"><rect x="${x + 4}" y="30" width="${w - 8}" height="170" fill="${fill}"
      stroke="#334155"/><text x="${x + w / 2}" y="110" text-anchor="middle" font-size="18">${r.name}</text>
      <text x="${x + w / 2}" y="135" text-anchor="middle" font-size="13">${r.capacity} seats</text></g>`;
  }).join("");
  return raw(`<svg id="floor-svg" viewBox="0 0 ${SVG_W} ${SVG_H}" width="${SVG_W}" role="img"
    aria-label="Floor plan">${boxes}<rect x="20" y="215" width="${SVG_W - 40}" height="50" fill="#fff"
    stroke="#94a3b8" stroke-dasharray="6 4"/><text x="${SVG_W / 2}" y="245" text-anchor="middle"
    font-size="14">Corridor · lifts and stairs</text></svg>`);
}

function floorPlan(c: Ctx) {
  const n = Number(c.req.param("floor"));
  const rooms = allRooms(c.get("db")).filter((r) => r.floor === n);
  if (rooms.length === 0) return notFound(c, `Floor ${c.req.param("floor")}`);
  const highlight = Number(c.req.query("room") ?? 0);
  return page(c, {
    title: `Floor ${n} plan`,
    section: "rooms",
    crumbs: [{ href: `${BASE}/rooms`, label: "Rooms" }, { href: "", label: `Floor ${n} plan` }],
    body: html`
      <h1>Floor ${n} plan</h1>
      <div class="card">${floorSvg(rooms, highlight)}</div>
      <ul id="floor-rooms">${rooms.map((r) =>
        html`<li><a href="${BASE}/rooms/${r.id}">${r.name}</a> · ${r.type} · ${r.location}</li>`
      )}</ul>
    `,
  });
}

export function mountRoomList(app: Hono<SandboxEnv>): void {
  app.get("/rooms", roomList);
  app.get("/floors/:floor", floorPlan);
}
