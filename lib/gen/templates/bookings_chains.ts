/**
 * Bookings chains that leave the select adapter (issue 31, item 5): a room search from the home page, an amenity's
 * filter box, then a room opened from the narrowed list (rest → select → rest). It reads like a table.
 */
import type { AppDb } from "../../sites/db.ts";
import { allRooms, AMENITIES, type Room } from "../../sites/apps/bookings/_data.ts";
import type { AnyTemplate } from "../template.ts";
import { filterBoxes, goal, layered, openDetail, procedure, search } from "../macros/mod.ts";

const ROOMS = "/bookings/rooms";
const has = (r: Room, k: string) => (r as unknown as Record<string, number>)[k] === 1;
const label = (k: string) => AMENITIES.find((a) => a.key === k)!.label.toLowerCase();

type RoomP = { q: string; amenity: string; id: number; room: string; other: number };

/** Each room a search for its type finds that has an amenity, when the narrowed list fits one page (5 rooms). */
function roomRows(db: AppDb): RoomP[] {
  const rooms = allRooms(db);
  return [...new Set(rooms.map((r) => r.type.toLowerCase()))].sort().flatMap((q) =>
    AMENITIES.flatMap(({ key }) => {
      const found = rooms.filter((r) => r.type.toLowerCase() === q && has(r, key));
      const text = (r: Room) => `${r.name} ${r.type} ${r.location} ${r.description}`.toLowerCase();
      const all = rooms.filter((r) => q.split(/\s+/).every((w) => text(r).includes(w)));
      if (found.length > 5 || found.length !== all.filter((r) => has(r, key)).length) return [];
      const other = all.find((r) => !has(r, key));
      return other ? found.map((r) => ({ q, amenity: key, id: r.id, room: r.name, other: other.id })) : [];
    })
  );
}

const searchAmenityOpen = layered<RoomP>({
  id: "bookings.open_detail.search_amenity_open",
  site: "bookings",
  macro: "open_detail",
  prefix: ["search", "toggle_checkbox"],
  summary: "search the rooms from the home page, tick an amenity box, then open a room from the narrowed list",
  params: roomRows,
  entity: (p) => `room:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Search the rooms for "${p.q}" from the home page, tick the ${
        label(p.amenity)
      } filter, apply, then open ${p.room}.`
    ),
    procedure((p) =>
      `Use the home page's room search for "${p.q}", narrow it with the ${
        label(p.amenity)
      } checkbox and click ${p.room}.`
    ),
    goal((p) => `Among the rooms matching "${p.q}" that have ${label(p.amenity)}, go to the page of ${p.room}.`),
    goal((p) => `List the rooms matching "${p.q}" that have ${label(p.amenity)}, then open ${p.room} from that list.`),
  ],
  start: () => ({ url: "/bookings/" }),
  chain: (p) => [
    search("bookings", p.q, {}, "home"),
    filterBoxes([`#amenity-${p.amenity}`], "#apply-filters", ROOMS, { q: p.q, amenity: p.amenity }),
    openDetail(ROOMS, { click: { selector: `tr[data-room-id='${p.id}'] a.room-link` } }, `${ROOMS}/${p.id}`),
  ],
  outcome: (p) => [{ page: { path: `${ROOMS}/${p.id}`, query: {} } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    {
      name: "room_without_amenity",
      category: "wrong_item",
      steps: [...steps.slice(0, -3), { click: { selector: `tr[data-room-id='${p.other}'] a.room-link` } }],
      reason: "final_page",
      witness: { page: { path: `${ROOMS}/${p.other}` } },
    },
    {
      name: "filter_only",
      category: "wrong_item",
      steps: steps.slice(0, -1),
      reason: "final_page",
      witness: { page: { path: ROOMS, query: { q: p.q, amenity: p.amenity } } },
    },
  ],
});

export const BOOKINGS_CHAIN_TEMPLATES: readonly AnyTemplate[] = [searchAmenityOpen];
