/**
 * Templates on the bookings app (lib/sites/apps/bookings): its room list (search, type combobox, amenity boxes,
 * floor select, seats slider, pages), room pages and tabs, floor plans, the calendar, the booking form and date
 * picker, a booking's page (copy, .ics, cancel, reschedule, guests, catering) and questions its pages answer.
 */
import type { AppDb } from "../../sites/db.ts";
import { DEFAULT_NOW } from "../../sites/clock.ts";
import {
  addDays,
  AMENITIES,
  type AmenityKey,
  durationLabel,
  DURATIONS,
  fromMinutes,
  isWeekend,
  longDate,
  ME,
  mondayOf,
  type Room,
  SLOTS,
  takenSlots,
  toMinutes,
} from "../../sites/apps/bookings/_data.ts";
import { DIRECTORY } from "../../sites/apps/bookings/_guests.ts";
import { PACKAGES } from "../../sites/apps/bookings/_catering.ts";
import type { ActionJson, AnyTemplate, ConditionJson, NearMiss } from "../template.ts";
import {
  answeredInstead,
  answerQuestion,
  calendarClicks as calendarPicks,
  chooseFromCombobox,
  chooseRadio,
  confirmDialog,
  type ControlPlace,
  copyToClipboard,
  downloadFile,
  endsOnSibling,
  esc,
  filterBoxes,
  formSegment,
  goal,
  layered,
  navigateMenu,
  openDetail,
  openNewTab,
  paginate,
  pickDate,
  postPath,
  procedure,
  search,
  searchedFor,
  type Segment,
  selectOption,
  setSlider,
  switchTab,
  visitedWith,
} from "../macros/mod.ts";

// ---- the seeded data, read only ----

/** A room as the app's Room row, without its rules (no template reads them). */
type RoomRow = Omit<Room, "rules">;

interface BookingRow {
  id: number;
  code: string;
  room_id: number;
  room: string;
  floor: number;
  capacity: number;
  date: string;
  start_time: string;
  duration_min: number;
  attendees: number;
  purpose: string;
  booked_by: string;
  status: string;
}

/** The sandbox's frozen day (the clock every session starts on). */
const TODAY = DEFAULT_NOW.slice(0, 10);
const BASE = "/bookings";
const PAGE_SIZE = 5;

const rooms = (db: AppDb) => db.all<RoomRow>("SELECT * FROM rooms ORDER BY id");
const bookings = (db: AppDb) =>
  db.all<BookingRow>(
    `SELECT b.*, r.name AS room, r.floor AS floor, r.capacity AS capacity FROM bookings b
     JOIN rooms r ON r.id = b.room_id ORDER BY b.id`,
  );
/** Alex Morgan's bookings, by date and time (as My bookings lists them). */
const mine = (db: AppDb) =>
  db.all<BookingRow>(
    `SELECT b.*, r.name AS room, r.floor AS floor, r.capacity AS capacity FROM bookings b
     JOIN rooms r ON r.id = b.room_id WHERE b.booked_by = ? ORDER BY b.date, b.start_time`,
    ME,
  );
/** Alex's bookings that can still be changed: confirmed and not in the past. */
const upcoming = (db: AppDb) => mine(db).filter((b) => b.status === "confirmed" && b.date >= TODAY);
/** The My bookings tab a booking is listed under (besides All). */
const tabOf = (b: BookingRow) => b.status === "cancelled" ? "cancelled" : b.date < TODAY ? "past" : "upcoming";

/** True when no confirmed booking of the room (but `exclude`) overlaps start..start+minutes on `date`. */
function isFree(db: AppDb, roomId: number, date: string, start: string, minutes: number, exclude = 0): boolean {
  const s = toMinutes(start), e = s + minutes;
  if (e > toMinutes("17:00")) return false;
  return !db.all<{ start_time: string; duration_min: number }>(
    "SELECT start_time, duration_min FROM bookings WHERE room_id = ? AND date = ? AND status = 'confirmed' AND id != ?",
    roomId,
    date,
    exclude,
  ).some((b) => toMinutes(b.start_time) < e && s < toMinutes(b.start_time) + b.duration_min);
}

/** A bookable day: a weekday after today. */
const bookable = (d: string) => d > TODAY && !isWeekend(d);

// ---- phrasing and page helpers ----

/** "Tuesday 17 March 2026". */
const day = (d: string) => longDate(d).replace(",", "");
const slotId = (s: string) => `slot-${s.replace(":", "")}`;
const endOf = (s: string, minutes: number) => fromMinutes(toMinutes(s) + minutes);
/** The query string the app's GET forms make of `q` (spaces as `+`). */
const formQ = (q: string) => new URLSearchParams({ q }).toString();
const amenityLabel = (k: string) => AMENITIES.find((a) => a.key === k)!.label;
const amenityPhrase: Record<string, string> = {
  projector: "a projector",
  whiteboard: "a whiteboard",
  video: "video conferencing",
  accessible: "step-free access",
};
const hasAmenity = (r: RoomRow, k: string) => r[k as AmenityKey] === 1;

/** The room list's page of a room when no filter is set (rooms by id, five a page). */
const listPage = (db: AppDb, roomId: number) =>
  Math.ceil((rooms(db).findIndex((r) => r.id === roomId) + 1) / PAGE_SIZE);
const listUrl = (page: number) => `${BASE}/rooms${page > 1 ? `?page=${page}` : ""}`;

/** The rooms the room list's text search finds for `q` (every word in name, type, location or description). */
const searchRooms = (db: AppDb, q: string) =>
  rooms(db).filter((r) => {
    const text = `${r.name} ${r.type} ${r.location} ${r.description}`.toLowerCase();
    return q.toLowerCase().split(/\s+/).every((w) => text.includes(w));
  });

/** Month-view clicks from the calendar's first month (today's) to `date`'s day. */
function calendarClicks(date: string): ActionJson[] {
  const [fy, fm] = TODAY.split("-").map(Number), [ty, tm] = date.split("-").map(Number);
  const diff = (ty - fy) * 12 + (tm - fm);
  const id = diff >= 0 ? "#next-month" : "#prev-month";
  return [
    ...Array.from({ length: Math.abs(diff) }, () => ({ click: { selector: id } })),
    { click: { selector: `#day-${date}` } },
  ];
}

const menuClick = (path: string): ActionJson => ({ click: { selector: `.topbar .menu a[href='${BASE}${path}']` } });
/** The booking just made, then cancelled from its page: the write undone by another, which must fail. */
const thenCancelled = (roomId: number): NearMiss => ({
  name: "then_cancelled",
  category: "overshoot",
  after_reference: [{ click: { selector: "#cancel-booking" } }],
  reason: "field_mismatch",
  witness: {
    change: {
      site: "bookings",
      table: "bookings",
      op: "update",
      after: { room_id: roomId, status: { exact: "cancelled" } },
    },
    ever: true,
  },
});
const openBooking = (id: number): ActionJson => ({ click: { selector: `tr[data-booking-id='${id}'] a` } });
const visitedRe = (re: string, times?: number): ConditionJson => ({
  visited: { regex: re },
  ...(times === undefined ? {} : { times }),
});
const roomPageRe = (id: number) => `^${BASE}/rooms/${id}(\\?|$)`;
const searchRe = (q: string) => `^${BASE}/rooms\\?q=${esc(formQ(q).slice(2))}(&|$)`;
const homeSearch = (q: string): ActionJson[] => [
  { input: { selector: "#home-q", text: q } },
  { click: { selector: "#home-search-submit" } },
];

/** A booking's insert, every field the form writes. */
function bookingInsert(
  f: { room_id: number; date: string; slot: string; duration: number; attendees: number; purpose: string },
): ConditionJson {
  return {
    change: {
      site: "bookings",
      table: "bookings",
      op: "insert",
      after: {
        room_id: f.room_id,
        date: { date: f.date },
        start_time: { exact: f.slot },
        duration_min: f.duration,
        attendees: f.attendees,
        purpose: { text: f.purpose },
        notes: { exact: "" },
        contact_email: { exact: "alex@sandbox.test" },
        status: { exact: "confirmed" },
      },
    },
  };
}

/** Rebookings the seed suggests: a booking's room, slot, length, attendees and purpose some weeks later, when free. */
function rebookings(db: AppDb, offsets: readonly number[], perBooking: number) {
  const out: {
    room: string;
    room_id: number;
    date: string;
    slot: string;
    duration: number;
    attendees: number;
    purpose: string;
  }[] = [];
  const seen = new Set<string>();
  for (const b of bookings(db)) {
    if (b.status !== "confirmed") continue;
    let made = 0;
    for (const off of offsets) {
      if (made >= perBooking) break;
      const d = addDays(b.date, off);
      const key = `${b.room_id}|${d}|${b.start_time}`;
      if (!bookable(d) || seen.has(key) || !isFree(db, b.room_id, d, b.start_time, b.duration_min)) continue;
      seen.add(key);
      made++;
      out.push({
        room: b.room,
        room_id: b.room_id,
        date: d,
        slot: b.start_time,
        duration: b.duration_min,
        attendees: b.attendees,
        purpose: b.purpose,
      });
    }
  }
  return out;
}

// ---- submit_form: book a room (open_detail > submit_form) ----

type BookP = {
  room: string;
  room_id: number;
  date: string;
  slot: string;
  duration: number;
  attendees: number;
  purpose: string;
  list_page: number;
};

/**
 * The room's "Book this room" form: the date set in its calendar, the slot and the duration chosen, then attendees
 * (`attendees`) and purpose typed and the form submitted; a note typed too is the field nobody listed.
 */
const bookingForm = (p: BookP, attendees = p.attendees) =>
  formSegment({
    macro: "submit_form",
    open: [{ click: { selector: "#book-room" } }],
    set: [
      ...calendarPicks("#date", p.date),
      { click: { selector: `#${slotId(p.slot)}` } },
      { select_dropdown: { selector: "#duration", text: durationLabel(p.duration) } },
    ],
    fields: [{ selector: "#attendees", text: String(attendees) }, { selector: "#purpose", text: p.purpose }],
    submit: "#submit-booking",
    posts: postPath(`${BASE}/book`),
    enter: "#purpose",
    extra: {
      steps: [{ input: { selector: "#notes", text: "Projector needed" } }],
      witness: {
        change: {
          site: "bookings",
          table: "bookings",
          op: "insert",
          after: { room_id: p.room_id, date: { date: p.date }, notes: { exact: "Projector needed" } },
        },
      },
    },
  });

const bookRoom = layered<BookP>({
  id: "bookings.submit_form.book_room",
  site: "bookings",
  macro: "submit_form",
  prefix: ["open_detail"],
  summary: "open a room from the room list, then book it (picker date, slot, duration, attendees, purpose)",
  params: (db) => rebookings(db, [7, 14, 21, 28], 3).map((r) => ({ ...r, list_page: listPage(db, r.room_id) })),
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `Open the ${p.room} room from the room list, then book it for ${day(p.date)} from ${p.slot} for ${
        durationLabel(p.duration)
      }, for ${p.attendees} attendees, with the purpose "${p.purpose}".`
    ),
    procedure((p) =>
      `In the room list, click through to ${p.room} and use "Book this room": ${p.date} at ${p.slot}, ${p.duration} minutes, ${p.attendees} people, purpose "${p.purpose}". Leave the other fields as they are.`
    ),
    goal((p) =>
      `Go to the ${p.room} room's page from this list and get it booked on ${day(p.date)}, ${p.slot} for ${
        durationLabel(p.duration)
      }: ${p.attendees} attendees, "${p.purpose}". Nothing else.`
    ),
    goal((p) =>
      `From its page in the room list, reserve ${p.room} for "${p.purpose}" (${p.attendees} people) on ${p.date}, starting ${p.slot}, ${p.duration} minutes long.`
    ),
  ],
  start: (p) => ({ url: listUrl(p.list_page) }),
  chain: (p) => [
    openDetail(
      `${BASE}/rooms`,
      { click: { selector: `tr[data-room-id='${p.room_id}'] a.room-link` } },
      `${BASE}/rooms/${p.room_id}`,
    ),
    bookingForm(p),
  ],
  outcome: (p) => [bookingInsert(p)],
  nearMisses: (p, _db, steps) => {
    const wrong = p.attendees > 1 ? p.attendees - 1 : p.attendees + 1;
    return [
      {
        name: "attendees_off",
        category: "wrong_item",
        steps: [steps[0], ...bookingForm(p, wrong).steps],
        reason: "field_mismatch",
        witness: {
          change: {
            site: "bookings",
            table: "bookings",
            op: "insert",
            after: { room_id: p.room_id, attendees: wrong },
          },
        },
      },
      thenCancelled(p.room_id),
    ];
  },
});

// ---- pick_date: the date of a prefilled booking form ----

type PrefillP = {
  room: string;
  room_id: number;
  date: string;
  slot: string;
  duration: number;
  attendees: number;
  purpose: string;
  other: string;
};

/** The new booking form's Date, empty before, set to `date` in its calendar and the form submitted. */
const newBookingDate = (date: string) =>
  pickDate("#date", date, {
    after: [{ click: { selector: "#submit-booking" } }],
    saves: { method: "POST", path: `${BASE}/book` },
    blur: "#purpose",
  });

const pickDatePrefilled = layered<PrefillP>({
  id: "bookings.pick_date.prefilled_form",
  site: "bookings",
  macro: "pick_date",
  summary: "a booking form filled in but for the date: pick the date in the picker and confirm",
  params: (db) =>
    rebookings(db, [14, 21, 28, 35, 42], 3).flatMap((r) => {
      // The neighbouring day an agent might click instead: the next bookable day the room is free.
      for (let i = 1; i <= 7; i++) {
        const d = addDays(r.date, i);
        if (bookable(d) && isFree(db, r.room_id, d, r.slot, r.duration)) return [{ ...r, other: d }];
      }
      return [];
    }),
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `The booking form for the ${p.room} room at ${p.slot} is filled in except for the date. Pick ${
        day(p.date)
      } in the date picker and confirm the booking.`
    ),
    procedure((p) =>
      `Finish this ${p.room} booking ("${p.purpose}"): choose ${p.date} with the calendar pop-up of the Date field, then confirm it.`
    ),
    goal((p) => `This ${p.room} booking at ${p.slot} only lacks its day: book it for ${day(p.date)}.`),
    goal((p) => `Complete the "${p.purpose}" booking on screen so that it takes place on ${p.date}.`),
  ],
  start: (p) => ({
    url: `${BASE}/book?room=${p.room_id}&slot=${p.slot}`,
    setup: [
      ...(p.duration === 60 ? [] : [{ select_dropdown: { selector: "#duration", text: durationLabel(p.duration) } }]),
      { input: { selector: "#attendees", text: String(p.attendees) } },
      { input: { selector: "#purpose", text: p.purpose } },
    ],
  }),
  chain: (p) => [newBookingDate(p.date)],
  outcome: (p) => [bookingInsert(p)],
  nearMisses: (p) => [
    {
      name: "next_day",
      category: "wrong_item",
      steps: newBookingDate(p.other).steps,
      reason: "field_mismatch",
      witness: {
        change: {
          site: "bookings",
          table: "bookings",
          op: "insert",
          after: { room_id: p.room_id, date: { date: p.other } },
        },
      },
    },
    thenCancelled(p.room_id),
  ],
});

// ---- pick_date: move one of your bookings to another day (open_detail > pick_date) ----

/** open_detail on My bookings: the booking's row link opens its page. */
const openMyBooking = (id: number) => openDetail(`${BASE}/my`, openBooking(id), `${BASE}/reservations/${id}`);

/** A control of a booking's edit form: the form opened with "Edit / reschedule" and saved with its submit button. */
const bookingEditForm = (id: number): ControlPlace => ({
  before: [{ click: { selector: "#edit-booking" } }],
  after: [{ click: { selector: "#submit-booking" } }],
  saves: { method: "POST", path: `${BASE}/reservations/${id}/edit` },
});

/** The booking `id` updated from `before` to `after`, still confirmed. */
const bookingUpdated = (
  id: number,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): ConditionJson => ({
  change: {
    site: "bookings",
    table: "bookings",
    op: "update",
    key: id,
    after: { ...after, status: { exact: "confirmed" } },
    ...(Object.keys(before).length ? { before } : {}),
  },
});

/** The booking moved to `at` (its day and start time), its room and length kept; `before`, what it had. */
const bookingMoved = (
  p: { id: number; room_id: number; duration: number },
  at: { date: string; slot: string },
  before: Record<string, unknown>,
) =>
  bookingUpdated(p.id, before, {
    date: { date: at.date },
    start_time: { exact: at.slot },
    room_id: p.room_id,
    duration_min: p.duration,
  });

type MoveDayP = {
  id: number;
  code: string;
  purpose: string;
  room: string;
  room_id: number;
  date: string;
  slot: string;
  duration: number;
  to: string;
  other: string;
};

/** The edit form's Date set to `to` in its calendar (which opens on the booking's day) and saved. */
const moveDate = (p: MoveDayP, to: string) =>
  pickDate("#date", to, { ...bookingEditForm(p.id), shows: p.date, blur: "#purpose" });

const pickDateMoveDay = layered<MoveDayP>({
  id: "bookings.pick_date.move_day",
  site: "bookings",
  macro: "pick_date",
  prefix: ["open_detail"],
  summary: "open one of your bookings from My bookings, then move it to another day with the edit form's picker",
  params: (db) =>
    upcoming(db).flatMap((b) => {
      const days: string[] = [];
      for (let i = -4; i <= 12; i++) {
        const d = addDays(b.date, i);
        if (i !== 0 && bookable(d) && isFree(db, b.room_id, d, b.start_time, b.duration_min, b.id)) days.push(d);
      }
      return days.slice(0, 10).map((to, i, all) => ({
        id: b.id,
        code: b.code,
        purpose: b.purpose,
        room: b.room,
        room_id: b.room_id,
        date: b.date,
        slot: b.start_time,
        duration: b.duration_min,
        to,
        other: all[(i + 1) % all.length],
      })).filter((p) => p.other !== p.to);
    }),
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `In My bookings, open your "${p.purpose}" booking of ${day(p.date)}, then move it to ${
        day(p.to)
      } with the date picker of its edit form, keeping the same time, room and duration.`
    ),
    procedure((p) =>
      `Reschedule "${p.purpose}" (${p.room}, ${p.date} ${p.slot}) to ${p.to}: open it from your bookings list, choose Edit and pick the new day in the calendar pop-up. Change nothing else.`
    ),
    goal((p) =>
      `Your "${p.purpose}" booking of ${day(p.date)} has to happen on ${
        day(p.to)
      } instead, at the same time, in the same room and for as long.`
    ),
    goal((p) =>
      `Move "${p.purpose}" (${p.room}, ${p.slot}) from ${p.date} to ${p.to} and leave everything else as it is.`
    ),
  ],
  start: () => ({ url: `${BASE}/my` }),
  chain: (p) => [openMyBooking(p.id), moveDate(p, p.to)],
  outcome: (p) => [
    bookingMoved(p, { date: p.to, slot: p.slot }, { date: { date: p.date } }),
  ],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_day",
      category: "wrong_item",
      steps: [steps[0], ...moveDate(p, p.other).steps],
      reason: "field_mismatch",
      witness: bookingUpdated(p.id, {}, { date: { date: p.other } }),
    },
  ],
});

// ---- choose_from_combobox: the room type filter (navigate_menu > choose_from_combobox) ----

type TypeP = { type: string; extra: string; extra_kind: string; other: string };

/** What an extra filter adds to the room list's query. */
const extraQuery = (p: { extra: string; extra_kind: string }): Record<string, string> =>
  p.extra_kind === "floor" ? { floor: p.extra } : p.extra_kind === "amenity" ? { amenity: p.extra } : {};
const extraStep = (p: { extra: string; extra_kind: string }): ActionJson[] =>
  p.extra_kind === "floor"
    ? [{ select_dropdown: { selector: "#floor", text: `Floor ${p.extra}` } }]
    : p.extra_kind === "amenity"
    ? [{ click: { selector: `#amenity-${p.extra}` } }]
    : [];
const extraPhrase = (p: { extra: string; extra_kind: string }) =>
  p.extra_kind === "floor"
    ? ` on floor ${p.extra}`
    : p.extra_kind === "amenity"
    ? ` with ${amenityPhrase[p.extra]}`
    : "";

/** The Room type combobox of the room list choosing `type` (beside the extra filter), and the filters applied. */
const typeCombo = (p: { extra: string; extra_kind: string }, type: string) =>
  chooseFromCombobox({ box: "#type-combo", label: "Room type" }, type.split(" ")[0], type, {
    before: extraStep(p),
    list: { path: `${BASE}/rooms`, query: { type, ...extraQuery(p) }, submit: "#apply-filters" },
  });

const typeFilter = layered<TypeP>({
  id: "bookings.choose_from_combobox.menu_room_type",
  site: "bookings",
  macro: "choose_from_combobox",
  prefix: ["navigate_menu"],
  summary: "menu to Rooms, then the room type combobox (with a floor or amenity filter where asked)",
  params: (db) => {
    const all = rooms(db);
    const types = [...new Set(all.map((r) => r.type))].sort();
    const floors = [...new Set(all.map((r) => String(r.floor)))].sort();
    const out: TypeP[] = [];
    for (const [i, type] of types.entries()) {
      const other = types[(i + 1) % types.length];
      const extras: [string, string][] = [
        ["", ""],
        ...floors.map((f): [string, string] => ["floor", f]),
        ...AMENITIES.map((a): [string, string] => ["amenity", a.key]),
      ];
      for (const [kind, extra] of extras) {
        const found = all.filter((r) =>
          r.type === type && (kind !== "floor" || String(r.floor) === extra) &&
          (kind !== "amenity" || hasAmenity(r, extra))
        );
        if (found.length) out.push({ type, extra, extra_kind: kind, other });
      }
    }
    return out;
  },
  entity: (p) => `type:${p.type}`,
  phrasings: [
    procedure((p) =>
      `Use the top menu to open Rooms, then use the room type filter to show only ${p.type.toLowerCase()}s${
        extraPhrase(p)
      }.`
    ),
    procedure((p) =>
      `Go to the room list from the app's menu and pick "${p.type}" in the Room type box${
        extraPhrase(p)
      }, then apply the filters.`
    ),
    goal((p) => `List every ${p.type.toLowerCase()} you can book${extraPhrase(p)}, and nothing else.`),
    goal((p) => `Which rooms are of the type "${p.type}"${extraPhrase(p)}? Leave that list of rooms on screen.`),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [navigateMenu("bookings", "Rooms", `${BASE}/rooms`), typeCombo(p, p.type)],
  outcome: (p) => [{ page: { path: `${BASE}/rooms`, query: { type: p.type, ...extraQuery(p) } } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_type",
      category: "wrong_item",
      steps: [steps[0], ...typeCombo(p, p.other).steps],
      reason: "final_page",
      witness: { page: { path: `${BASE}/rooms`, query: { type: p.other, ...extraQuery(p) } } },
    },
    {
      name: "then_cleared",
      category: "overshoot",
      after_reference: [{ click: { selector: "#clear-filters" } }],
      reason: "final_page",
      witness: {
        all: [
          visitedRe(`^${BASE}/rooms\\?.*type=`),
          { record: { action: "click", target: { contains: "#clear-filters" } } },
          { page: { path: `${BASE}/rooms`, query: {} } },
        ],
      },
    },
  ],
});

// ---- choose_from_combobox: invite a guest (open_detail > choose_from_combobox) ----

type GuestP = {
  id: number;
  code: string;
  purpose: string;
  date: string;
  guest: string;
  team: string;
  email: string;
  other: string;
  other_email: string;
  sibling: number;
  sibling_code: string;
};

/** The guest panel's autocomplete (lib/sites/apps/bookings/_guests.ts): its box is named by its placeholder. */
const GUEST_BOX = { box: "#guest-form", label: "Start typing a name…" };

/** The colleague `name` picked in the booking `id`'s guest autocomplete and added with "Add guest". */
const guestPick = (id: number, name: string) =>
  chooseFromCombobox(GUEST_BOX, name, name, {
    after: [{ click: { selector: "#add-guest" } }],
    saves: { method: "POST", path: `${BASE}/reservations/${id}/guests` },
  });

/** The colleague with `email` added to the booking `id`'s guests. */
const guestAdded = (id: number, email: string): ConditionJson => ({
  change: { site: "bookings", table: "guests", op: "insert", after: { booking_id: id, email: { exact: email } } },
});

const inviteGuest = layered<GuestP>({
  id: "bookings.choose_from_combobox.invite_guest",
  site: "bookings",
  macro: "choose_from_combobox",
  prefix: ["open_detail"],
  summary: "open one of your bookings from My bookings, then invite a colleague with the guest autocomplete",
  params: (db) => {
    const up = upcoming(db);
    return up.flatMap((b, bi) =>
      DIRECTORY.map((g, i) => {
        const o = DIRECTORY[(i + 1) % DIRECTORY.length];
        const s = up[(bi + 1) % up.length];
        return {
          id: b.id,
          code: b.code,
          purpose: b.purpose,
          date: b.date,
          guest: g.name,
          team: g.team,
          email: g.email,
          other: o.name,
          other_email: o.email,
          sibling: s.id,
          sibling_code: s.code,
        };
      })
    );
  },
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `Open your "${p.purpose}" booking on ${
        day(p.date)
      } from My bookings, then invite ${p.guest} (${p.team}) as a guest: pick them from the guest search's suggestions and add them.`
    ),
    procedure((p) =>
      `From your bookings list, go to "${p.purpose}" (${p.date}) and add ${p.guest} as a guest using the "Invite a colleague" search suggestions.`
    ),
    goal((p) => `${p.guest} from ${p.team} should be a guest of your "${p.purpose}" booking on ${day(p.date)}.`),
    goal((p) => `Invite ${p.guest} to "${p.purpose}" (${p.date}), one of your bookings. Add no one else.`),
  ],
  start: () => ({ url: `${BASE}/my` }),
  chain: (p) => [openMyBooking(p.id), guestPick(p.id, p.guest)],
  outcome: (p) => [guestAdded(p.id, p.email), { only_writes: [{ site: "bookings", table: "guests" }] }],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_colleague",
      category: "wrong_item",
      steps: [steps[0], ...guestPick(p.id, p.other).steps],
      reason: "field_mismatch",
      witness: guestAdded(p.id, p.other_email),
    },
    {
      name: "two_guests",
      category: "collateral",
      // The other colleague added first: the asked pick stays the box's last (its method holds), the extra row fails.
      steps: [steps[0], ...guestPick(p.id, p.other).steps, ...guestPick(p.id, p.guest).steps],
      reason: "irreversible_extra",
      witness: { all: [guestAdded(p.id, p.email), guestAdded(p.id, p.other_email)] },
    },
    {
      name: "other_booking",
      category: "wrong_item",
      steps: [openMyBooking(p.sibling).steps[0], ...guestPick(p.sibling, p.guest).steps],
      reason: "field_mismatch",
      witness: guestAdded(p.sibling, p.email),
    },
  ],
});

// ---- toggle_checkbox: amenity boxes on a search result (search > toggle_checkbox) ----

/** Search words the room list answers: each room type and each wing or zone of a location. */
function searchTerms(db: AppDb): string[] {
  const all = rooms(db);
  const terms = [
    ...all.map((r) => r.type.toLowerCase()),
    ...all.map((r) => r.location.split(", ")[1]?.toLowerCase() ?? ""),
  ].filter(Boolean);
  return [...new Set(terms)].sort();
}

type AmenityP = { q: string; amenities: string; other: string };
const amenityList = (p: { amenities: string }) => p.amenities.split(",");
const amenityQuery = (list: string[]) => list.length === 1 ? list[0] : list;
const amenityWords = (list: string[]) => list.map((k) => amenityLabel(k)).join(" and ");

const searchAmenities = layered<AmenityP>({
  id: "bookings.toggle_checkbox.search_amenities",
  site: "bookings",
  macro: "toggle_checkbox",
  prefix: ["search"],
  summary: "search the rooms from the home page, then tick one or two amenity boxes on the result",
  params: (db) => {
    const keys = AMENITIES.map((a) => a.key as string);
    const sets = [...keys.map((k) => [k]), ...keys.flatMap((a, i) => keys.slice(i + 1).map((b) => [a, b]))];
    return searchTerms(db).flatMap((q) => {
      const found = searchRooms(db, q);
      return sets.flatMap((set) => {
        if (!found.some((r) => set.every((k) => hasAmenity(r, k)))) return [];
        const other = keys.find((k) => !set.includes(k) && found.some((r) => hasAmenity(r, k)))!;
        return other ? [{ q, amenities: set.join(","), other }] : [];
      });
    });
  },
  entity: (p) => `search:${p.q}`,
  phrasings: [
    procedure((p) =>
      `From the Bookings home page, search the rooms for "${p.q}", then tick the ${
        amenityWords(amenityList(p))
      } amenity filter${amenityList(p).length > 1 ? "s" : ""} and apply.`
    ),
    procedure((p) =>
      `Find rooms matching "${p.q}" with the home page's search box, then narrow the result with the amenity checkbox${
        amenityList(p).length > 1 ? "es" : ""
      } for ${amenityWords(amenityList(p))}.`
    ),
    goal((p) => `Show the rooms matching "${p.q}" that have ${amenityWords(amenityList(p))}, and only those.`),
    goal((p) => `Which rooms found for "${p.q}" offer ${amenityWords(amenityList(p))}? Leave that list on screen.`),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [
    search("bookings", p.q, {}, "home"),
    filterBoxes(
      amenityList(p).map((k) => `#amenity-${k}`),
      "#apply-filters",
      `${BASE}/rooms`,
      { q: p.q, amenity: amenityQuery(amenityList(p)) },
    ),
  ],
  outcome: (p) => [
    { page: { path: `${BASE}/rooms`, query: { q: p.q, amenity: amenityQuery(amenityList(p)) } } },
    { no_writes: true },
  ],
  nearMisses: (p) => {
    const list = amenityList(p);
    const swapped = [...list.slice(0, -1), p.other];
    const ordered = AMENITIES.map((a) => a.key as string).filter((k) => swapped.includes(k));
    const more = AMENITIES.map((a) => a.key as string).filter((k) => list.includes(k) || k === p.other);
    return [
      {
        name: "other_amenity",
        category: "wrong_item",
        steps: [
          ...homeSearch(p.q),
          ...ordered.map((k) => ({ click: { selector: `#amenity-${k}` } })),
          { click: { selector: "#apply-filters" } },
        ],
        reason: "final_page",
        witness: { page: { path: `${BASE}/rooms`, query: { q: p.q, amenity: amenityQuery(ordered) } } },
      },
      {
        name: "one_more_amenity",
        category: "unlisted_field",
        after_reference: [{ click: { selector: `#amenity-${p.other}` } }, { click: { selector: "#apply-filters" } }],
        reason: "final_page",
        witness: { page: { path: `${BASE}/rooms`, query: { q: p.q, amenity: amenityQuery(more) } } },
      },
    ];
  },
});

// ---- search: the room list's search box (navigate_menu > search) ----

const STOP = new Set(["with", "and", "the", "for", "next", "good", "meant", "please", "calls", "your"]);

/** Phrases of `n` words (two by default) of the rooms' descriptions that the search finds. */
function descriptionPhrases(db: AppDb, n = 2): string[] {
  const out = new Set<string>();
  for (const r of rooms(db)) {
    const words = r.description.toLowerCase().replace(/[^a-z0-9 -]+/g, " ").split(/\s+/).filter(Boolean);
    for (let i = 0; i + n <= words.length; i++) {
      const w = words.slice(i, i + n);
      if (w.some((x) => x.length < 3 || /^\d/.test(x)) || STOP.has(w[0]) || STOP.has(w[n - 1])) continue;
      out.add(w.join(" "));
    }
  }
  return [...out].sort().filter((q) => searchRooms(db, q).length > 0);
}

type SearchP = { q: string; first: string; found: number; floor: string };

const menuSearch = layered<SearchP>({
  id: "bookings.search.menu_rooms",
  site: "bookings",
  macro: "search",
  prefix: ["navigate_menu"],
  summary: "menu to Rooms, then search the room list for a phrase of a room's description",
  params: (db) =>
    [...new Set([...searchTerms(db), ...descriptionPhrases(db)])].flatMap((q) => {
      const found = searchRooms(db, q);
      const first = q.split(" ")[0];
      if (searchRooms(db, first).length === found.length && first === q) return [];
      return [{ q, first, found: found[0].id, floor: String(found[0].floor) }];
    }),
  entity: (p) => `search:${p.q}`,
  phrasings: [
    procedure((p) => `Open Rooms from the top menu, then search the rooms for "${p.q}".`),
    procedure((p) => `Use the app's menu to get to the room list and look up "${p.q}" with its search box.`),
    goal((p) => `Find the rooms that match "${p.q}".`),
    goal((p) => `Which rooms come up for "${p.q}"? Leave that list of rooms on screen, with no other filter.`),
  ],
  start: () => ({ url: `${BASE}/calendar` }),
  chain: (p) => [navigateMenu("bookings", "Rooms", `${BASE}/rooms`), search("bookings", p.q)],
  outcome: (p) => [{ page: { path: `${BASE}/rooms`, query: { q: p.q } } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    searchedFor("first_word_only", "bookings", p.first, [steps[0]]),
    {
      name: "plus_floor",
      category: "unlisted_field",
      after_reference: [
        { select_dropdown: { selector: "#floor", text: `Floor ${p.floor}` } },
        { click: { selector: "#apply-filters" } },
      ],
      reason: "final_page",
      witness: { page: { path: `${BASE}/rooms`, query: { q: p.q, floor: p.floor } } },
    },
    {
      name: "opened_room",
      category: "overshoot",
      after_reference: [roomLink(p.found)],
      reason: "final_page",
      witness: { all: [visitedRe(searchRe(p.q)), { page: { path: `${BASE}/rooms/${p.found}` } }] },
    },
  ],
});

// ---- switch_tab: a room's tabs (search > open_detail > switch_tab) ----

type TabP = { room: string; room_id: number; tab: string; other: string };
const TAB_LABEL: Record<string, string> = { overview: "Overview", schedule: "Schedule", rules: "Rules" };
const tabPath = (t: string) => t === "overview" ? "" : `/${t}`;

const roomTab = layered<TabP>({
  id: "bookings.switch_tab.search_room_tab",
  site: "bookings",
  macro: "switch_tab",
  prefix: ["search", "open_detail"],
  summary: "search a room by name from the home page, open it, then switch to its Schedule or Rules tab",
  params: (db) =>
    rooms(db).filter((r) => searchRooms(db, r.name).slice(0, PAGE_SIZE).some((x) => x.id === r.id)).flatMap((r) =>
      ["schedule", "rules"].map((tab) => ({
        room: r.name,
        room_id: r.id,
        tab,
        other: tab === "schedule" ? "rules" : "schedule",
      }))
    ),
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `Search the rooms for "${p.room}" from the home page, open the ${p.room} room from the result, then switch to its ${
        TAB_LABEL[p.tab]
      } tab.`
    ),
    procedure((p) =>
      `Use the home page's "Find a room" box to look up ${p.room}, click through to the room and show its ${
        TAB_LABEL[p.tab]
      } tab.`
    ),
    goal((p) => `Look up the ${p.room} room from the home page and show its ${TAB_LABEL[p.tab].toLowerCase()}.`),
    goal((p) =>
      `I want to see the ${TAB_LABEL[p.tab].toLowerCase()} of ${p.room}: find the room with a search and bring them up.`
    ),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [
    search("bookings", p.room, {}, "home"),
    openDetail(
      `${BASE}/rooms`,
      { click: { selector: `tr[data-room-id='${p.room_id}'] a.room-link` } },
      `${BASE}/rooms/${p.room_id}`,
    ),
    switchTab("bookings", p.tab, { path: `${BASE}/rooms/${p.room_id}/${p.tab}` }),
  ],
  outcome: (p) => [{ page: { path: `${BASE}/rooms/${p.room_id}/${p.tab}`, query: {} } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    endsOnSibling(
      "other_tab",
      steps,
      { click: { selector: `#tab-${p.other}` } },
      `${BASE}/rooms/${p.room_id}/${p.other}`,
    ),
    {
      name: "back_to_overview",
      category: "overshoot",
      after_reference: [{ click: { selector: "#tab-overview" } }],
      reason: "final_page",
      witness: {
        all: [visitedRe(`^${BASE}/rooms/${p.room_id}/${p.tab}`), { page: { path: `${BASE}/rooms/${p.room_id}` } }],
      },
    },
  ],
});

// ---- open_detail: a room among search results (search > open_detail) ----

type PickP = { q: string; room: string; room_id: number; sibling: number };

/** A room's link on the room list (its name). */
const roomLink = (id: number): ActionJson => ({ click: { selector: `tr[data-room-id='${id}'] a.room-link` } });
/** The room list's row link opening the room's page. */
const roomFromList = (id: number) => openDetail(`${BASE}/rooms`, roomLink(id), `${BASE}/rooms/${id}`);

const searchOpen = layered<PickP>({
  id: "bookings.open_detail.search_result_room",
  site: "bookings",
  macro: "open_detail",
  prefix: ["search"],
  summary: "search the rooms from the home page, then open one room of the result",
  params: (db) =>
    [
      ...searchTerms(db),
      ...AMENITIES.map((a) => a.key === "accessible" ? "step-free" : a.key),
      ...descriptionPhrases(db),
    ].flatMap((q) => {
      const shown = searchRooms(db, q).slice(0, PAGE_SIZE);
      if (shown.length < 2) return [];
      return shown.map((r, i) => ({
        q,
        room: r.name,
        room_id: r.id,
        sibling: shown[(i + 1) % shown.length].id,
      }));
    }).filter((p, i, all) => all.findIndex((x) => x.q === p.q && x.room_id === p.room_id) === i),
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `Search the rooms for "${p.q}" from the Bookings home page, then open the ${p.room} room from the results.`
    ),
    procedure((p) =>
      `Look up "${p.q}" with the home page's room search and click through to ${p.room}'s page in the result list.`
    ),
    goal((p) => `Among the rooms found for "${p.q}", bring up the page of ${p.room}.`),
    goal((p) => `${p.room} should be one of the rooms matching "${p.q}": find it that way and show its page.`),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [search("bookings", p.q, {}, "home"), roomFromList(p.room_id)],
  outcome: (p) => [{ page: { path: `${BASE}/rooms/${p.room_id}`, query: {} } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    endsOnSibling("neighbour_room", steps, roomLink(p.sibling), `${BASE}/rooms/${p.sibling}`),
    {
      name: "then_schedule",
      category: "overshoot",
      after_reference: [{ click: { selector: "#tab-schedule" } }],
      reason: "final_page",
      witness: { all: [visitedRe(roomPageRe(p.room_id)), { page: { path: `${BASE}/rooms/${p.room_id}/schedule` } }] },
    },
  ],
});

// ---- navigate_menu: from a room's tab to a menu section ----

type MenuP = { room: string; room_id: number; tab: string; dest: string; other: string };
const MENU_ITEMS: { label: string; path: string; home: string }[] = [
  { label: "Rooms", path: "/rooms", home: "#home-rooms" },
  { label: "Calendar", path: "/calendar", home: "#home-calendar" },
  { label: "My bookings", path: "/my", home: "#home-my" },
];
const menuItem = (label: string) => MENU_ITEMS.find((m) => m.label === label)!;

const menuFromRoom = layered<MenuP>({
  id: "bookings.navigate_menu.from_room_page",
  site: "bookings",
  macro: "navigate_menu",
  summary: "from a room's tab, open Rooms, Calendar or My bookings with the top menu",
  params: (db) =>
    rooms(db).flatMap((r) =>
      ["overview", "schedule", "rules"].flatMap((tab) =>
        MENU_ITEMS.map((m, i) => ({
          room: r.name,
          room_id: r.id,
          tab,
          dest: m.label,
          other: MENU_ITEMS[(i + 1) % MENU_ITEMS.length].label,
        }))
      )
    ),
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `You are on the ${TAB_LABEL[p.tab]} tab of the ${p.room} room. Use the app's top menu to go to ${p.dest}.`
    ),
    procedure((p) => `From ${p.room}'s ${TAB_LABEL[p.tab]} page, open ${p.dest} with the menu in the top bar.`),
    goal((p) => `Leave the ${TAB_LABEL[p.tab]} tab of the ${p.room} room and bring up the app's ${p.dest} page.`),
    goal((p) => `I am done with the ${p.tab} of ${p.room}; take me to ${p.dest} now.`),
  ],
  start: (p) => ({ url: `${BASE}/rooms/${p.room_id}${tabPath(p.tab)}` }),
  chain: (p) => {
    const { path, home } = menuItem(p.dest);
    const viaHome = [{ click: { selector: `nav.crumbs a[href='${BASE}/']` } }, { click: { selector: home } }];
    return [navigateMenu("bookings", p.dest, `${BASE}${path}`, `${BASE}${path}`, undefined, viaHome)];
  },
  outcome: (p) => [{ page: { path: `${BASE}${menuItem(p.dest).path}`, query: {} } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    endsOnSibling("other_section", steps, menuClick(menuItem(p.other).path), `${BASE}${menuItem(p.other).path}`),
    {
      name: "home_page_only",
      category: "wrong_item",
      steps: [{ click: { selector: `nav.crumbs a[href='${BASE}/']` } }],
      reason: "final_page",
      witness: { page: { path: `${BASE}/`, query: {} } },
    },
  ],
});

// ---- confirm_dialog: cancel a booking (navigate_menu > confirm_dialog) ----

type CancelP = { id: number; code: string; purpose: string; date: string; room: string; sibling: number };

/** A booking's Cancel booking button, its dialog accepted. */
const cancelDialog = (id: number) =>
  confirmDialog({ control: "#cancel-booking", posts: `${BASE}/reservations/${id}/cancel` });
/** A booking's status set to cancelled (`was`: from confirmed). */
const cancelled = (id: number, was = false): ConditionJson => ({
  change: {
    site: "bookings",
    table: "bookings",
    op: "update",
    key: id,
    after: { status: { exact: "cancelled" } },
    ...(was ? { before: { status: { exact: "confirmed" } } } : {}),
  },
});

const cancelBooking = layered<CancelP>({
  id: "bookings.confirm_dialog.menu_cancel",
  site: "bookings",
  macro: "confirm_dialog",
  prefix: ["navigate_menu", "open_detail"],
  summary: "menu to My bookings, open one booking, then cancel it, confirming the dialog",
  params: (db) => {
    const up = upcoming(db);
    return up.map((b, i) => ({
      id: b.id,
      code: b.code,
      purpose: b.purpose,
      date: b.date,
      room: b.room,
      sibling: up[(i + 1) % up.length].id,
    }));
  },
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `Open My bookings from the top menu, then cancel your "${p.purpose}" booking on ${
        day(p.date)
      }, confirming when asked. Leave your other bookings as they are.`
    ),
    procedure((p) =>
      `Using the app's menu, go to your bookings and cancel "${p.purpose}" (${p.room}, ${p.date}); accept the confirmation dialog.`
    ),
    goal((p) => `Your booking "${p.purpose}" on ${day(p.date)} is no longer needed: cancel it, and only it.`),
    goal((p) => `Make sure the ${p.room} booking for "${p.purpose}" (${day(p.date)}) ends up cancelled.`),
  ],
  start: () => ({ url: `${BASE}/rooms` }),
  chain: (p) => [
    navigateMenu("bookings", "My bookings", `${BASE}/my`),
    openDetail(`${BASE}/my`, openBooking(p.id), `${BASE}/reservations/${p.id}`),
    cancelDialog(p.id),
  ],
  outcome: (p) => [cancelled(p.id, true)],
  nearMisses: (p, _db, steps) => [
    {
      name: "sibling_cancelled",
      category: "wrong_item",
      steps: [steps[0], openBooking(p.sibling), ...cancelDialog(p.sibling).steps],
      reason: "field_mismatch",
      witness: cancelled(p.sibling),
    },
    {
      name: "two_cancelled",
      category: "collateral",
      after_reference: [{ navigate: { url: `${BASE}/reservations/${p.sibling}` } }, ...cancelDialog(p.sibling).steps],
      reason: "unclaimed_write",
      witness: cancelled(p.sibling),
    },
  ],
});

// ---- copy_to_clipboard: a booking's code from a My bookings tab (switch_tab > copy_to_clipboard) ----

type CopyP = {
  id: number;
  code: string;
  purpose: string;
  date: string;
  tab: string;
  sibling: number;
  sibling_code: string;
};
const SHOW_LABEL: Record<string, string> = { past: "Past", cancelled: "Cancelled", all: "All", upcoming: "Upcoming" };

const copyCode = layered<CopyP>({
  id: "bookings.copy_to_clipboard.tab_code",
  site: "bookings",
  macro: "copy_to_clipboard",
  prefix: ["switch_tab", "open_detail"],
  summary: "switch My bookings to a tab, open a booking and copy its code with the copy button",
  params: (db) => {
    const all = mine(db);
    return all.flatMap((b) => {
      const tabs = [...(tabOf(b) === "upcoming" ? [] : [tabOf(b)]), "all"];
      return tabs.flatMap((tab) => {
        const listed = tab === "all" ? all : all.filter((x) => tabOf(x) === tab);
        const s = listed[(listed.findIndex((x) => x.id === b.id) + 1) % listed.length];
        if (s.id === b.id) return [];
        return [{
          id: b.id,
          code: b.code,
          purpose: b.purpose,
          date: b.date,
          tab,
          sibling: s.id,
          sibling_code: s.code,
        }];
      });
    });
  },
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `In My bookings, switch to the ${SHOW_LABEL[p.tab]} tab, open your "${p.purpose}" booking of ${
        day(p.date)
      } and copy its confirmation code with the page's copy button.`
    ),
    procedure((p) =>
      `Show the ${
        SHOW_LABEL[p.tab]
      } list of your bookings, go to "${p.purpose}" (${p.date}) and use "Copy confirmation code".`
    ),
    goal((p) =>
      `From the ${SHOW_LABEL[p.tab]} bookings in My bookings, get the confirmation code of "${p.purpose}" (${
        day(p.date)
      }) onto the clipboard.`
    ),
    goal((p) =>
      `Your "${p.purpose}" booking of ${p.date} is listed under ${
        SHOW_LABEL[p.tab]
      } in My bookings. Copy its confirmation code from its page.`
    ),
  ],
  start: () => ({ url: `${BASE}/my` }),
  chain: (p) => [
    switchTab("bookings", p.tab, { path: `${BASE}/my`, query: { show: p.tab } }, "my"),
    // The tab's link is another link of the list page: a typed booking URL after it is method_unbound.
    openDetail(`${BASE}/my`, openBooking(p.id), `${BASE}/reservations/${p.id}`, [], true),
    copyToClipboard({
      control: "#copy-code",
      text: p.code,
      another: {
        steps: [{ navigate: { url: `${BASE}/reservations/${p.sibling}` } }, { click: { selector: "#copy-code" } }],
        matcher: { exact: p.sibling_code },
      },
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    {
      name: "sibling_code",
      category: "wrong_item",
      steps: [{ click: { selector: `#show-${p.tab}` } }, openBooking(p.sibling), { click: { selector: "#copy-code" } }],
      reason: "clipboard_mismatch",
      witness: {
        all: [{ record: { action: "click", target: { contains: "#copy-code" } } }, {
          clipboard: { exact: p.sibling_code },
        }],
      },
    },
  ],
});

// ---- download_file: a booking's .ics from the calendar (navigate_menu > open_detail > download_file) ----

type IcsP = {
  id: number;
  code: string;
  purpose: string;
  date: string;
  room: string;
  sibling: number;
  sib_date: string;
};

/** Every booking's .ics path. */
const ICS_KIND = `^${esc(BASE)}/reservations/\\d+/ics$`;
const icsPath = (id: number) => `${BASE}/reservations/${id}/ics`;

/** The Calendar from the top menu, the booking `id` opened from its day's page (`date`), its .ics downloaded. */
const icsChain = (id: number, date: string, sibling: number): Segment[] => [
  navigateMenu("bookings", "Calendar", `${BASE}/calendar`),
  openDetail(
    `${BASE}/calendar/${date}`,
    { click: { selector: `#day-bookings a[href='${BASE}/reservations/${id}']` } },
    `${BASE}/reservations/${id}`,
    calendarClicks(date),
  ),
  downloadFile({
    control: "#add-to-calendar",
    path: icsPath(id),
    kind: ICS_KIND,
    another: {
      steps: [{ navigate: { url: `${BASE}/reservations/${sibling}` } }, { click: { selector: "#add-to-calendar" } }],
      path: icsPath(sibling),
    },
  }),
];

const downloadIcs = layered<IcsP>({
  id: "bookings.download_file.calendar_ics",
  site: "bookings",
  macro: "download_file",
  prefix: ["navigate_menu", "open_detail"],
  summary: "menu to the Calendar, open the day of one of your bookings, open the booking and download its .ics",
  params: (db) => {
    const ok = mine(db).filter((b) => b.status === "confirmed");
    return ok.map((b, i) => {
      const s = ok[(i + 1) % ok.length];
      return {
        id: b.id,
        code: b.code,
        purpose: b.purpose,
        date: b.date,
        room: b.room,
        sibling: s.id,
        sib_date: s.date,
      };
    });
  },
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `Open the Calendar from the top menu, go to ${
        day(p.date)
      }, open your "${p.purpose}" booking there and download its .ics file (Add to calendar).`
    ),
    procedure((p) =>
      `Through the app's Calendar menu entry, find ${p.date} and add your "${p.purpose}" booking in ${p.room} to your calendar by downloading its .ics.`
    ),
    goal((p) =>
      `Find your "${p.purpose}" booking on ${day(p.date)} in the bookings calendar and save its calendar file.`
    ),
    goal((p) =>
      `I need the .ics of the ${p.room} booking "${p.purpose}" that the calendar shows on ${p.date}. Download it.`
    ),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => icsChain(p.id, p.date, p.sibling),
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    {
      name: "sibling_ics",
      category: "wrong_item",
      steps: icsChain(p.sibling, p.sib_date, p.id).flatMap((s) => s.steps),
      reason: "request_missing",
      witness: { request: { method: "GET", path: { exact: icsPath(p.sibling) }, status: 200 } },
    },
    ...(p.date > TODAY
      ? [{
        name: "then_cancelled",
        category: "overshoot" as const,
        after_reference: [{ click: { selector: "#cancel-booking" } }],
        reason: "unclaimed_write" as const,
        witness: {
          all: [
            { request: { method: "GET", path: { exact: icsPath(p.id) }, status: 200 } },
            {
              change: {
                site: "bookings",
                table: "bookings",
                op: "update",
                key: p.id,
                after: { status: { exact: "cancelled" } },
              },
            },
          ],
        },
      }]
      : []),
  ],
});

// ---- open_new_tab: the floor plan of a room found in a day view (open_detail > open_new_tab) ----

type DayPlanP = {
  date: string;
  room: string;
  room_id: number;
  floor: number;
  purpose: string;
  time: string;
  sibling: number;
  sib_floor: number;
};

const floorPage = (floor: number, roomId: number): ConditionJson => ({
  page: { path: `${BASE}/floors/${floor}`, query: { room: String(roomId) }, tab: "any" },
});
/** A room page's Floor plan link, opening the plan of its floor with the room marked in a new tab. */
const floorPlan = (floor: number, roomId: number) =>
  openNewTab({ click: { selector: "#floor-plan" } }, "Floor plan", `${BASE}/floors/${floor}`, {
    query: { room: String(roomId) },
  });
/** The plan opened, then left for the room's page by its link under the plan: the plan is no longer shown. */
const planLeft = (floor: number, roomId: number): NearMiss => ({
  name: "plan_left_for_room",
  category: "overshoot",
  after_reference: [{ click: { selector: `#floor-rooms a[href='${BASE}/rooms/${roomId}']` } }],
  reason: "final_page",
  witness: {
    all: [visitedWith(`${BASE}/floors/${floor}`, [["room", String(roomId)]]), { not: floorPage(floor, roomId) }],
  },
});
/** A room's link in a calendar day's grid. */
const gridRoom = (id: number): ActionJson => ({ click: { selector: `#day-grid tr[data-room-id='${id}'] th a` } });

const dayRoomPlan = layered<DayPlanP>({
  id: "bookings.open_new_tab.day_room_plan",
  site: "bookings",
  macro: "open_new_tab",
  prefix: ["open_detail"],
  summary: "in a calendar day view, open the room of a named booking, then its floor plan (new tab)",
  params: (db) => {
    const all = rooms(db);
    const seen = new Set<string>();
    return bookings(db).filter((b) => b.status === "confirmed").flatMap((b) => {
      const key = `${b.date}|${b.room_id}`;
      if (seen.has(key)) return [];
      seen.add(key);
      const s = all[all.findIndex((r) => r.id === b.room_id) % all.length + 1] ?? all[0];
      return [{
        date: b.date,
        room: b.room,
        room_id: b.room_id,
        floor: b.floor,
        purpose: b.purpose,
        time: b.start_time,
        sibling: s.id,
        sib_floor: s.floor,
      }];
    });
  },
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `On this day view (${
        day(p.date)
      }), open the room where "${p.purpose}" is booked at ${p.time}, then open that room's floor plan (it opens in a new tab).`
    ),
    procedure((p) =>
      `Find the room booked for "${p.purpose}" (${p.time}) in the day's grid, go to the room's page and open its Floor plan link, which opens a new tab.`
    ),
    goal((p) => `Show the floor plan of the room where "${p.purpose}" takes place at ${p.time} on ${day(p.date)}.`),
    goal((p) =>
      `Where is the "${p.purpose}" meeting of ${day(p.date)} (${p.time})? Bring up its room on the floor plan.`
    ),
  ],
  start: (p) => ({ url: `${BASE}/calendar/${p.date}` }),
  chain: (p) => [
    openDetail(`${BASE}/calendar/${p.date}`, gridRoom(p.room_id), `${BASE}/rooms/${p.room_id}`),
    floorPlan(p.floor, p.room_id),
  ],
  outcome: (p) => [floorPage(p.floor, p.room_id), { no_writes: true }],
  nearMisses: (p) => [
    {
      name: "neighbour_room_plan",
      category: "wrong_item",
      steps: [gridRoom(p.sibling), ...floorPlan(p.sib_floor, p.sibling).steps],
      reason: "final_page",
      witness: floorPage(p.sib_floor, p.sibling),
    },
    planLeft(p.floor, p.room_id),
  ],
});

// ---- open_new_tab: the floor plan of the room a search finds (search > open_detail > open_new_tab) ----

type SearchPlanP = { q: string; room: string; room_id: number; floor: number; sibling: number; sib_floor: number };

const searchPlan = layered<SearchPlanP>({
  id: "bookings.open_new_tab.search_room_plan",
  site: "bookings",
  macro: "open_new_tab",
  prefix: ["search", "open_detail"],
  summary: "search a description phrase that finds one room, open it, then its floor plan (new tab)",
  params: (db) => {
    const all = rooms(db);
    return [...new Set([...descriptionPhrases(db), ...descriptionPhrases(db, 3)])].flatMap((q) => {
      const found = searchRooms(db, q);
      if (found.length !== 1) return [];
      const r = found[0];
      const s = all[all.findIndex((x) => x.id === r.id) % all.length + 1] ?? all[0];
      return [{ q, room: r.name, room_id: r.id, floor: r.floor, sibling: s.id, sib_floor: s.floor }];
    });
  },
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `From the home page, search the rooms for "${p.q}", open the room it finds, and open that room's floor plan (a new tab).`
    ),
    procedure((p) =>
      `Which room is described with "${p.q}"? Find it with the home page's search, go to its page and open its Floor plan link in the new tab it makes.`
    ),
    goal((p) => `Search the rooms for "${p.q}" and show the floor plan of the one room it finds.`),
    goal((p) => `Only one room matches "${p.q}". Look it up and bring up where it sits on its floor's plan.`),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [search("bookings", p.q, {}, "home"), roomFromList(p.room_id), floorPlan(p.floor, p.room_id)],
  outcome: (p) => [floorPage(p.floor, p.room_id), { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_room_plan",
      category: "wrong_item",
      steps: [
        ...steps.slice(0, 2),
        { navigate: { url: `${BASE}/rooms/${p.sibling}` } },
        ...floorPlan(p.sib_floor, p.sibling).steps,
      ],
      reason: "final_page",
      witness: floorPage(p.sib_floor, p.sibling),
    },
    planLeft(p.floor, p.room_id),
  ],
});

// ---- choose_radio: move a booking to another slot (open_detail > choose_radio) ----

type SlotP = {
  id: number;
  code: string;
  purpose: string;
  room: string;
  room_id: number;
  date: string;
  from: string;
  to: string;
  other: string;
  duration: number;
  alt_duration: number;
};

/** The slot radios of the booking's edit form that are not taken (its own slot is not), in the page's order. */
const openSlots = (db: AppDb, p: SlotP) =>
  SLOTS.filter((s) => !takenSlots(db, p.room_id, p.date, p.id).includes(s)).map((s) => `#${slotId(s)}`);

/** The edit form's time slot radio `slot` checked and saved. */
const slotRadio = (db: AppDb, p: SlotP, slot: string) =>
  chooseRadio(openSlots(db, p), `#${slotId(slot)}`, slot, bookingEditForm(p.id));

const moveSlot = layered<SlotP>({
  id: "bookings.choose_radio.move_slot",
  site: "bookings",
  macro: "choose_radio",
  prefix: ["open_detail"],
  summary: "open one of your bookings from My bookings, then move it to another time slot on its edit form",
  params: (db) =>
    upcoming(db).flatMap((b) => {
      const free = SLOTS.filter((s) => s !== b.start_time && isFree(db, b.room_id, b.date, s, b.duration_min, b.id));
      return free.map((to, i) => {
        const alt = DURATIONS.find((d) => d !== b.duration_min && isFree(db, b.room_id, b.date, to, d, b.id)) ?? 0;
        return {
          id: b.id,
          code: b.code,
          purpose: b.purpose,
          room: b.room,
          room_id: b.room_id,
          date: b.date,
          from: b.start_time,
          to,
          other: free[(i + 1) % free.length],
          duration: b.duration_min,
          alt_duration: alt,
        };
      }).filter((p) => p.other !== p.to);
    }),
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `Open your "${p.purpose}" booking on ${
        day(p.date)
      } from My bookings, choose Edit / reschedule and tick the ${p.to} time slot, then save the change.`
    ),
    procedure((p) =>
      `From your bookings list, reschedule "${p.purpose}" (${p.room}, ${p.date}, now at ${p.from}) to start at ${p.to} using the time slot choice of its edit form. Change nothing else.`
    ),
    goal((p) =>
      `Your "${p.purpose}" meeting on ${
        day(p.date)
      } should start at ${p.to} instead of ${p.from}. Keep its day, room and length.`
    ),
    goal((p) =>
      `Push the start of "${p.purpose}" (${p.room}, ${p.date}) from ${p.from} to ${p.to}; nothing else about it changes.`
    ),
  ],
  start: () => ({ url: `${BASE}/my` }),
  chain: (p, db) => [openMyBooking(p.id), slotRadio(db, p, p.to)],
  outcome: (p) => [
    bookingMoved(p, { date: p.date, slot: p.to }, { start_time: { exact: p.from } }),
  ],
  nearMisses: (p, db, steps) => [
    {
      name: "other_slot",
      category: "wrong_item",
      steps: [steps[0], ...slotRadio(db, p, p.other).steps],
      reason: "field_mismatch",
      witness: bookingUpdated(p.id, {}, { start_time: { exact: p.other } }),
    },
    ...(p.alt_duration
      ? [{
        name: "duration_changed",
        category: "unlisted_field" as const,
        steps: [
          ...steps.slice(0, -1),
          { select_dropdown: { selector: "#duration", text: durationLabel(p.alt_duration) } },
          ...steps.slice(-1),
        ],
        reason: "field_mismatch" as const,
        witness: bookingUpdated(p.id, {}, { start_time: { exact: p.to }, duration_min: p.alt_duration }),
      }]
      : []),
  ],
});

// ---- submit_form: order catering for a booking (open_detail > submit_form) ----

type CateringP = {
  id: number;
  code: string;
  purpose: string;
  date: string;
  package: string;
  label: string;
  people: number;
  attendees: number;
  other: string;
};

/**
 * The booking `id`'s catering panel (an iframe that loads after its page: a person waits for it to show): the
 * package `pkg` chosen, the people counter (which starts at the attendees) raised `plus` times, the order placed.
 */
const cateringForm = (id: number, pkg: string, plus: number) =>
  formSegment({
    macro: "submit_form",
    open: [{ wait: { seconds: 2 } }],
    set: [
      { click: { selector: `#catering-frame >>> #package-${pkg}` } },
      ...Array.from({ length: plus }, () => ({ click: { selector: "#catering-frame >>> #people-plus" } })),
    ],
    fields: [],
    submit: "#catering-frame >>> #order-catering",
    posts: postPath(`${BASE}/reservations/${id}/catering`),
  });
const cateringInsert = (id: number, pkg: string, people: number): ConditionJson => ({
  change: {
    site: "bookings",
    table: "catering",
    op: "insert",
    after: { booking_id: id, package: { exact: pkg }, people },
  },
});

const orderCatering = layered<CateringP>({
  id: "bookings.submit_form.order_catering",
  site: "bookings",
  macro: "submit_form",
  prefix: ["open_detail"],
  summary: "open one of your bookings from My bookings, then order a catering package for some people",
  params: (db) =>
    upcoming(db).flatMap((b) =>
      PACKAGES.flatMap(([value, label], i) =>
        [0, 1, 2].map((more) => ({
          id: b.id,
          code: b.code,
          purpose: b.purpose,
          date: b.date,
          package: value,
          label,
          people: b.attendees + more,
          attendees: b.attendees,
          other: PACKAGES[(i + 1) % PACKAGES.length][0],
        }))
      )
    ),
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `Open your "${p.purpose}" booking on ${
        day(p.date)
      } from My bookings and order the ${p.label} catering for ${p.people} people in the catering panel on its page.`
    ),
    procedure((p) =>
      `For "${p.purpose}" (${p.date}), go to the booking from your list and use its catering panel: ${p.label}, ${p.people} people, then order.`
    ),
    goal((p) =>
      `Make sure ${p.people} people get the ${p.label} catering at your "${p.purpose}" booking on ${day(p.date)}.`
    ),
    goal((p) => `Your "${p.purpose}" meeting (${p.date}) needs food: ${p.label} for ${p.people}. Get it ordered.`),
  ],
  start: () => ({ url: `${BASE}/my` }),
  chain: (p) => [openMyBooking(p.id), cateringForm(p.id, p.package, p.people - p.attendees)],
  outcome: (p) => [
    cateringInsert(p.id, p.package, p.people),
    { only_writes: [{ site: "bookings", table: "catering" }] },
  ],
  nearMisses: (p, _db, steps) => [
    {
      name: "one_person_more",
      category: "overshoot",
      steps: [steps[0], ...cateringForm(p.id, p.package, p.people - p.attendees + 1).steps],
      reason: "field_mismatch",
      witness: cateringInsert(p.id, p.package, p.people + 1),
    },
    {
      name: "other_package",
      category: "wrong_item",
      steps: [steps[0], ...cateringForm(p.id, p.other, p.people - p.attendees).steps],
      reason: "field_mismatch",
      witness: cateringInsert(p.id, p.other, p.people),
    },
  ],
});

// ---- answer_question: the one free room (navigate_menu > answer_question) ----

type FreeP = {
  date: string;
  slot: string;
  seats: number;
  amenity: string;
  room: string;
  rival: string;
  others: string;
};

const freeRoom = layered<FreeP>({
  id: "bookings.answer_question.free_room",
  site: "bookings",
  macro: "answer_question",
  prefix: ["navigate_menu"],
  summary: "menu to the Calendar, then name the one room with some seats (and an amenity) free in a slot",
  params: (db) => {
    const all = rooms(db);
    const last = db.get<{ d: string }>("SELECT MAX(date) AS d FROM bookings")!.d;
    const seatsList = [...new Set(all.map((r) => r.capacity))].sort((a, b) => b - a);
    const out: FreeP[] = [];
    for (let d = addDays(TODAY, 1); d <= last; d = addDays(d, 1)) {
      if (isWeekend(d)) continue;
      for (const slot of SLOTS) {
        const busy = new Set(all.filter((r) => !isFree(db, r.id, d, slot, 60)).map((r) => r.id));
        if (!busy.size) continue;
        for (const amenity of ["", ...AMENITIES.map((a) => a.key as string)]) {
          let made = 0;
          for (const seats of seatsList) {
            if (made >= 2) break;
            const fit = all.filter((r) => r.capacity >= seats && (!amenity || hasAmenity(r, amenity)));
            const free = fit.filter((r) => !busy.has(r.id));
            const taken = fit.filter((r) => busy.has(r.id));
            if (free.length !== 1 || taken.length === 0) continue;
            made++;
            out.push({
              date: d,
              slot,
              seats,
              amenity,
              room: free[0].name,
              rival: taken[0].name,
              others: all.filter((r) => r.id !== free[0].id).map((r) => r.name).join(","),
            });
          }
        }
      }
    }
    return out;
  },
  entity: (p) => `day:${p.date}`,
  phrasings: [
    procedure((p) =>
      `Use the top menu to open the Calendar, then the day ${day(p.date)}. Which room ${
        freeWords(p)
      } is still free from ${p.slot} to ${endOf(p.slot, 60)} that day? Answer with the room's name.`
    ),
    procedure((p) =>
      `Open the Calendar from the app's menu, go to ${p.date} and find the room ${
        freeWords(p)
      } that nobody has booked between ${p.slot} and ${endOf(p.slot, 60)}. Reply with its name.`
    ),
    goal((p) =>
      `Which room ${freeWords(p)} is still free on ${day(p.date)} from ${p.slot} to ${
        endOf(p.slot, 60)
      }? The Calendar has the bookings. Answer with the room's name.`
    ),
    goal((p) =>
      `Check the bookings Calendar: exactly one room ${freeWords(p)} is not booked on ${p.date} between ${p.slot} and ${
        endOf(p.slot, 60)
      }. Name it.`
    ),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [
    navigateMenu("bookings", "Calendar", `${BASE}/calendar`),
    answerQuestion({
      answer: p.room,
      matcher: { contains: p.room },
      others: p.others.split(","),
      page: { path: `${BASE}/calendar/${p.date}` },
      read: [...calendarClicks(p.date), { scroll: { down: true, pages: 1 } }],
      rival: p.rival,
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    answeredInstead("booked_rival", p.rival, "norm"),
  ],
});

/** "with at least 8 seats and a projector": the size and amenity a free-room question asks for. */
const freeWords = (p: { seats: number; amenity: string }) =>
  `with at least ${p.seats} seats${p.amenity ? ` and ${amenityPhrase[p.amenity]}` : ""}`;

// ---- answer_question: who booked a slot (switch_tab > answer_question) ----

type WhoP = {
  id: number;
  room: string;
  room_id: number;
  date: string;
  time: string;
  who: string;
  neighbour: string;
  others: string;
};

/** The week the Schedule tab opens on (this week; next week on a weekend), as the app decides. */
const scheduleMonday = isWeekend(TODAY) ? mondayOf(addDays(TODAY, 2)) : mondayOf(TODAY);

function weekClicks(date: string): ActionJson[] {
  const weeks = Math.round(
    (Date.parse(`${mondayOf(date)}T00:00:00Z`) - Date.parse(`${scheduleMonday}T00:00:00Z`)) / (7 * 86400000),
  );
  const id = weeks >= 0 ? "#next-week" : "#prev-week";
  return Array.from({ length: Math.abs(weeks) }, () => ({ click: { selector: id } }));
}

const whoBooked = layered<WhoP>({
  id: "bookings.answer_question.who_booked",
  site: "bookings",
  macro: "answer_question",
  prefix: ["switch_tab"],
  summary: "on a room's page, open the Schedule tab and name the colleague who booked a given slot",
  params: (db) => {
    const all = bookings(db).filter((b) => b.status === "confirmed" && b.booked_by !== ME);
    const names = [...new Set(all.map((b) => b.booked_by))].sort();
    return all.flatMap((b) => {
      // The colleague of the room's nearest other booking: the cell an agent might read instead.
      const near = all.filter((x) => x.room_id === b.room_id && x.booked_by !== b.booked_by)
        .sort((x, y) =>
          Math.abs(Date.parse(x.date) - Date.parse(b.date)) - Math.abs(Date.parse(y.date) - Date.parse(b.date)) ||
          x.id - y.id
        )[0];
      if (!near) return [];
      return [{
        id: b.id,
        room: b.room,
        room_id: b.room_id,
        date: b.date,
        time: b.start_time,
        who: b.booked_by,
        neighbour: near.booked_by,
        others: names.filter((n) => n !== b.booked_by).join(","),
      }];
    });
  },
  entity: (p) => `room:${p.room}`,
  phrasings: [
    procedure((p) =>
      `On the ${p.room} room's page, open its Schedule tab and find out who has booked ${p.room} on ${
        day(p.date)
      } at ${p.time}. Answer with the person's name.`
    ),
    procedure((p) =>
      `Switch to the Schedule tab of ${p.room} and tell me which colleague booked the room on ${p.date} from ${p.time}. Reply with their name only.`
    ),
    goal((p) =>
      `You are on the ${p.room} room's page. Who has booked it on ${
        day(p.date)
      } at ${p.time}, as its schedule shows? Answer with the person's name.`
    ),
    goal((p) =>
      `Which colleague holds ${p.room} on ${p.date} from ${p.time}? Look at the room's schedule and reply with their name only.`
    ),
  ],
  start: (p) => ({ url: `${BASE}/rooms/${p.room_id}` }),
  chain: (p) => [
    switchTab("bookings", "schedule", { path: `${BASE}/rooms/${p.room_id}/schedule` }),
    answerQuestion({
      answer: p.who,
      matcher: { contains: p.who },
      others: p.others.split(","),
      page: { path: `${BASE}/rooms/${p.room_id}/schedule` },
      read: [
        ...weekClicks(p.date),
        { scroll: { down: true, pages: 1 } },
        // The schedule is a panel that shows about four hourly rows: a later slot needs the panel scrolled.
        ...(SLOTS.indexOf(`${p.time.slice(0, 2)}:00`) >= 4
          ? [{ scroll: { selector: "#schedule-panel", down: true, pages: 1 } }]
          : []),
      ],
      rival: p.neighbour,
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    answeredInstead("neighbouring_booking", p.neighbour, "norm"),
  ],
});

// ---- answer_question: the seats of a booking's room (open_detail > answer_question) ----

type SeatsP = {
  id: number;
  code: string;
  purpose: string;
  date: string;
  room: string;
  room_id: number;
  seats: number;
  attendees: number;
  neighbour: number;
};

const roomSeats = layered<SeatsP>({
  id: "bookings.answer_question.booking_room_seats",
  site: "bookings",
  macro: "answer_question",
  prefix: ["open_detail"],
  summary: "open one of your bookings from My bookings (All), follow its room and say how many seats it has",
  params: (db) => {
    const all = rooms(db);
    return mine(db).flatMap((b) => {
      // A neighbouring room's seats (the next room of the list with another count): a misread row.
      const i = all.findIndex((r) => r.id === b.room_id);
      const n = [...all.slice(i + 1), ...all.slice(0, i)].find((r) => r.capacity !== b.capacity)!;
      if (b.attendees === b.capacity) return [];
      return [{
        id: b.id,
        code: b.code,
        purpose: b.purpose,
        date: b.date,
        room: b.room,
        room_id: b.room_id,
        seats: b.capacity,
        attendees: b.attendees,
        neighbour: n.capacity,
      }];
    });
  },
  entity: (p) => `booking:${p.code}`,
  phrasings: [
    procedure((p) =>
      `In My bookings (All tab), open your "${p.purpose}" booking of ${
        day(p.date)
      }, go to its room and tell me how many seats that room has. Answer with a number.`
    ),
    procedure((p) =>
      `How many seats does the room of your "${p.purpose}" booking (${p.date}) have? Open the booking from the All list of your bookings and follow its room link to find out.`
    ),
    goal((p) =>
      `How many seats does the room of your "${p.purpose}" booking of ${
        day(p.date)
      } have? Start from the booking's page and answer with a number.`
    ),
    goal((p) =>
      `Your "${p.purpose}" booking (${p.date}) is in a room of some size: open that booking and find how many seats its room has. Reply with the number.`
    ),
  ],
  start: () => ({ url: `${BASE}/my?show=all` }),
  chain: (p) => [
    openDetail(`${BASE}/my`, openBooking(p.id), `${BASE}/reservations/${p.id}`),
    answerQuestion({
      answer: String(p.seats),
      matcher: { number: p.seats },
      page: { path: `${BASE}/rooms/${p.room_id}` },
      read: [{ click: { selector: "#detail-room a" } }],
      rival: String(p.neighbour),
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    {
      name: "attendees_instead",
      category: "wrong_item",
      steps: [openBooking(p.id)],
      answer: String(p.attendees),
      reason: "answer_wrong",
      witness: { event: { action: "answer", value: { exact: String(p.attendees) } } },
    },
    answeredInstead("neighbour_room_count", String(p.neighbour)),
  ],
});

// ---- set_slider: the minimum seats slider (navigate_menu > set_slider) ----

type SliderP = { seats: number; floor: string };

/** The room list's query with at least `seats` seats (and a floor). */
const seatsQuery = (seats: number, floor: string): Record<string, string> => ({
  min: String(seats),
  ...(floor ? { floor } : {}),
});

/** The Seats at least slider (1 to `max`) set to `seats`, the floor chosen beside it, and the filters applied. */
const seatsSliderSegment = (seats: number, floor: string, max: number) =>
  setSlider("#min-capacity", seats, { min: 1, max, step: 1 }, {
    before: floor ? [{ select_dropdown: { selector: "#floor", text: `Floor ${floor}` } }] : [],
    list: { path: `${BASE}/rooms`, query: seatsQuery(seats, floor), submit: "#apply-filters" },
  });

const seatsSlider = layered<SliderP & { max: number }>({
  id: "bookings.set_slider.menu_min_seats",
  site: "bookings",
  macro: "set_slider",
  prefix: ["navigate_menu"],
  summary: "menu to Rooms, then set the Seats at least slider to a room size (and a floor) and apply",
  params: (db) => {
    const all = rooms(db);
    const max = Math.max(...all.map((r) => r.capacity));
    const sizes = [...new Set(all.map((r) => r.capacity))].filter((n) => n > 1).sort((a, b) => a - b);
    return sizes.flatMap((seats) =>
      ["", "1", "2", "3"].filter((f) => all.some((r) => r.capacity >= seats && (!f || String(r.floor) === f)))
        .map((floor) => ({ seats, floor, max }))
    );
  },
  entity: (p) => `seats:${p.seats}`,
  phrasings: [
    procedure((p) =>
      `Open Rooms from the top menu, set the "Seats at least" slider to ${p.seats}${
        p.floor ? `, choose Floor ${p.floor}` : ""
      } and apply the filters.`
    ),
    procedure((p) =>
      `Using the app's menu, go to the room list and move the minimum seats slider to exactly ${p.seats}${
        p.floor ? ` (floor ${p.floor} only)` : ""
      }, then apply.`
    ),
    goal((p) => `List the rooms that seat at least ${p.seats} people${p.floor ? ` on floor ${p.floor}` : ""}.`),
    goal((p) =>
      `We are ${p.seats}: show me every room${p.floor ? ` on floor ${p.floor}` : ""} with enough seats for us.`
    ),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [navigateMenu("bookings", "Rooms", `${BASE}/rooms`), seatsSliderSegment(p.seats, p.floor, p.max)],
  outcome: (p) => [{ page: { path: `${BASE}/rooms`, query: seatsQuery(p.seats, p.floor) } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => {
    // One key press too many; at the top of the scale (where the slider stops) one too few.
    const over = p.seats < p.max ? p.seats + 1 : p.seats - 1;
    const misses: NearMiss[] = [{
      name: p.seats < p.max ? "one_seat_more" : "one_seat_less",
      category: p.seats < p.max ? "overshoot" : "wrong_item",
      steps: [steps[0], ...seatsSliderSegment(over, p.floor, p.max).steps],
      reason: "final_page",
      witness: { page: { path: `${BASE}/rooms`, query: seatsQuery(over, p.floor) } },
    }];
    // Without a floor asked for, a floor chosen too narrows the list.
    if (!p.floor) {
      misses.push({
        name: "floor_too",
        category: "unlisted_field",
        steps: [steps[0], ...seatsSliderSegment(p.seats, "1", p.max).steps],
        reason: "final_page",
        witness: { page: { path: `${BASE}/rooms`, query: seatsQuery(p.seats, "1") } },
      });
    }
    return misses;
  },
});

// ---- select_option: the floor select on a search result (search > select_option) ----

type FloorP = { q: string; floor: string; other: string };

/** The Floor select of the room list set to `floor` and applied, on the results for `q`. */
const floorSelect = (q: string, floor: string) =>
  selectOption("#floor", `Floor ${floor}`, {
    list: { path: `${BASE}/rooms`, query: { q, floor }, submit: "#apply-filters" },
  }, { options: ["Any floor", "Floor 1", "Floor 2", "Floor 3"], from: "Any floor" });

const searchFloor = layered<FloorP>({
  id: "bookings.select_option.search_floor",
  site: "bookings",
  macro: "select_option",
  prefix: ["search"],
  summary: "search the rooms from the home page, then choose a floor in the Floor select and apply",
  params: (db) =>
    [
      ...new Set([
        ...searchTerms(db).filter((q) => !/wing|side|zone/.test(q)),
        ...AMENITIES.map((a) => a.key as string).slice(0, 3),
        ...descriptionPhrases(db).filter((q) => searchRooms(db, q).length > 1),
      ]),
    ]
      .flatMap((q) => {
        const floors = [...new Set(searchRooms(db, q).map((r) => String(r.floor)))].sort();
        return floors.map((floor) => ({ q, floor, other: ["1", "2", "3"].find((f) => f !== floor)! }));
      }),
  entity: (p) => `search:${p.q}`,
  phrasings: [
    procedure((p) =>
      `From the Bookings home page, search the rooms for "${p.q}", then choose Floor ${p.floor} in the Floor select and apply the filters.`
    ),
    procedure((p) =>
      `Look up "${p.q}" with the home page's room search and narrow the result to floor ${p.floor} with the Floor dropdown.`
    ),
    goal((p) => `Find the rooms matching "${p.q}" and show only those on floor ${p.floor}.`),
    goal((p) => `Which floor-${p.floor} rooms come up for "${p.q}"? Leave exactly that list on screen.`),
  ],
  start: () => ({ url: `${BASE}/` }),
  chain: (p) => [search("bookings", p.q, {}, "home"), floorSelect(p.q, p.floor)],
  outcome: (p) => [{ page: { path: `${BASE}/rooms`, query: { q: p.q, floor: p.floor } } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_floor",
      category: "wrong_item",
      steps: [...steps.slice(0, 2), ...floorSelect(p.q, p.other).steps],
      reason: "final_page",
      witness: { page: { path: `${BASE}/rooms`, query: { q: p.q, floor: p.other } } },
    },
    {
      name: "plus_video",
      category: "unlisted_field",
      after_reference: [{ click: { selector: "#amenity-video" } }, { click: { selector: "#apply-filters" } }],
      reason: "final_page",
      witness: { page: { path: `${BASE}/rooms`, query: { q: p.q, floor: p.floor, amenity: "video" } } },
    },
  ],
});

// ---- paginate: a page of a filtered room list ----

type PageP = { filter: string; what: string; page: number; pages: number };

/** The room list's query of page `n` under `filter` (a query string), page 1 without its key. */
const pageQuery = (filter: string, n: number): Record<string, string> => ({
  ...Object.fromEntries(new URLSearchParams(filter)),
  ...(n > 1 ? { page: String(n) } : {}),
});

const pagedList = layered<PageP>({
  id: "bookings.paginate.filtered_rooms",
  site: "bookings",
  macro: "paginate",
  summary: "on a filtered room list of several pages, go to a given page with the pager",
  params: (db) => {
    const all = rooms(db);
    const filters: [string, string, RoomRow[]][] = [
      ["", "all rooms", all],
      ...AMENITIES.map((a): [string, string, RoomRow[]] => [
        `amenity=${a.key}`,
        `rooms with ${amenityPhrase[a.key]}`,
        all.filter((r) => hasAmenity(r, a.key)),
      ]),
      ...[...new Set(all.map((r) => r.capacity))].filter((n) => n > 1).sort((a, b) => a - b).map((
        n,
      ): [string, string, RoomRow[]] => [
        `min=${n}`,
        `rooms with at least ${n} seats`,
        all.filter((r) => r.capacity >= n),
      ]),
    ];
    return filters.flatMap(([filter, what, found]) => {
      const pages = Math.ceil(found.length / PAGE_SIZE);
      return Array.from({ length: Math.max(0, pages - 1) }, (_, i) => ({ filter, what, page: i + 2, pages }));
    });
  },
  entity: (p) => `list:${p.filter || "all"}`,
  phrasings: [
    procedure((p) => `This room list shows ${p.what}. Go to page ${p.page} of it with the pager, keeping the filter.`),
    procedure((p) => `Click through the page links under the list of ${p.what} until you reach page ${p.page}.`),
    goal((p) => `Show page ${p.page} of this list of ${p.what}.`),
    goal((p) => `I want the rooms listed on page ${p.page} of the ${p.what} list: leave that page on screen.`),
  ],
  start: (p) => ({ url: `${BASE}/rooms${p.filter ? `?${p.filter}` : ""}` }),
  chain: (p) => [paginate("bookings", `${BASE}/rooms`, (n) => pageQuery(p.filter, n), 1, p.page)],
  outcome: (p) => [{ page: { path: `${BASE}/rooms`, query: pageQuery(p.filter, p.page) } }, { no_writes: true }],
  nearMisses: (p) => {
    const on = (n: number, filter = p.filter) => ({ page: { path: `${BASE}/rooms`, query: pageQuery(filter, n) } });
    const misses: NearMiss[] = [
      {
        name: "filter_dropped",
        category: "wrong_item",
        steps: [{ navigate: { url: `${BASE}/rooms?page=${p.page}` } }],
        reason: "final_page",
        witness: on(p.page, ""),
      },
      p.page < p.pages
        ? {
          name: "one_page_too_far",
          category: "overshoot",
          after_reference: [{ click: { selector: "#next-page" } }],
          reason: "final_page",
          witness: on(p.page + 1),
        }
        : {
          name: "back_a_page",
          category: "overshoot",
          after_reference: [{ click: { selector: "#prev-page" } }],
          reason: "final_page",
          witness: { all: [visitedRe(`page=${p.page}`), on(p.page - 1)] },
        },
    ];
    return p.filter ? misses : [misses[1], {
      name: "next_instead",
      category: "wrong_item",
      steps: [{ click: { selector: "#next-page" } }, ...(p.page > 2 ? [] : [{ click: { selector: "#next-page" } }])],
      reason: "final_page",
      witness: on(p.page === 2 ? 3 : 2),
    }];
  },
});

/** The bookings app's templates. */
export const BOOKINGS_TEMPLATES: readonly AnyTemplate[] = [
  bookRoom,
  orderCatering,
  pickDatePrefilled,
  pickDateMoveDay,
  typeFilter,
  inviteGuest,
  searchAmenities,
  menuSearch,
  roomTab,
  searchOpen,
  menuFromRoom,
  cancelBooking,
  copyCode,
  downloadIcs,
  dayRoomPlan,
  searchPlan,
  moveSlot,
  freeRoom,
  whoBooked,
  roomSeats,
  seatsSlider,
  searchFloor,
  pagedList,
];
