/**
 * The Bookings app's deterministic data: the schema, 12 rooms on 3 floors (_seed_rooms.ts) and 58 bookings (15 of them Alex Morgan's) between
 * 2026-03-02 and 2026-04-15, weekdays only, inside opening hours (09:00-17:00).
 */
import type { AppSeed, Row } from "../../db.ts";
import { DEFAULT_USER } from "../../session.ts";
import { bookingCode } from "./_data.ts";
import { roomRows } from "./_seed_rooms.ts";

const SCHEMA = `
CREATE TABLE rooms (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  floor INTEGER NOT NULL,
  location TEXT NOT NULL,
  type TEXT NOT NULL,
  capacity INTEGER NOT NULL,
  projector INTEGER NOT NULL,
  whiteboard INTEGER NOT NULL,
  video INTEGER NOT NULL,
  accessible INTEGER NOT NULL,
  description TEXT NOT NULL,
  rules TEXT NOT NULL
);
CREATE TABLE bookings (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  room_id INTEGER NOT NULL REFERENCES rooms(id),
  date TEXT NOT NULL,
  start_time TEXT NOT NULL,
  duration_min INTEGER NOT NULL,
  attendees INTEGER NOT NULL,
  purpose TEXT NOT NULL,
  notes TEXT NOT NULL,
  contact_email TEXT NOT NULL,
  booked_by TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  cancelled_at TEXT
);
CREATE TABLE guests (
  id INTEGER PRIMARY KEY,
  booking_id INTEGER NOT NULL REFERENCES bookings(id),
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  added_at TEXT NOT NULL
);
CREATE TABLE catering (
  id INTEGER PRIMARY KEY,
  booking_id INTEGER NOT NULL UNIQUE REFERENCES bookings(id),
  package TEXT NOT NULL,
  people INTEGER NOT NULL,
  ordered_at TEXT NOT NULL
);
CREATE TABLE holds (
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL REFERENCES rooms(id),
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

const ME = DEFAULT_USER.name;
// [room name, date, start, minutes, attendees, purpose, booked by, cancelled?]
type BookingSpec = [string, string, string, number, number, string, string, boolean?];

const BOOKINGS: BookingSpec[] = [
  // Alex Morgan's bookings.
  ["Birch", "2026-03-03", "10:00", 60, 5, "Sprint planning", ME],
  ["Harbor", "2026-03-05", "14:00", 90, 8, "Quarterly budget review", ME],
  ["Cedar", "2026-03-10", "11:00", 30, 3, "1:1 with Priya", ME],
  ["Aurora", "2026-03-12", "09:00", 120, 12, "Customer workshop: Northwind", ME],
  ["Birch", "2026-03-16", "10:00", 60, 6, "Sprint planning", ME],
  ["Ember", "2026-03-17", "09:00", 30, 4, "Design sync", ME],
  ["Kestrel", "2026-03-18", "13:00", 120, 18, "All-hands rehearsal", ME],
  ["Juniper", "2026-03-19", "15:00", 90, 5, "Vendor call: Acme Logistics", ME],
  ["Cedar", "2026-03-20", "11:00", 60, 2, "Interview: backend engineer", ME, true],
  ["Fjord", "2026-03-24", "10:00", 60, 9, "Roadmap review", ME],
  ["Birch", "2026-03-26", "14:00", 60, 6, "Retrospective", ME],
  ["Iris", "2026-03-31", "15:00", 60, 1, "Focus time: report writing", ME, true],
  ["Delta", "2026-04-02", "09:00", 120, 20, "Onboarding training", ME],
  ["Harbor", "2026-04-08", "16:00", 60, 7, "Partner demo", ME],
  ["Lumen", "2026-04-14", "10:00", 30, 3, "Weekly analytics check-in", ME],
  // Colleagues' bookings, before today.
  ["Aurora", "2026-03-02", "09:00", 120, 14, "Leadership offsite prep", "Dana Whitfield"],
  ["Granite", "2026-03-02", "13:00", 60, 3, "Code review", "Jonas Berg"],
  ["Delta", "2026-03-03", "10:00", 120, 22, "Safety training", "Sara Nilsson"],
  ["Fjord", "2026-03-04", "11:00", 60, 10, "Client call: Globex", "Carlos Ortega"],
  ["Kestrel", "2026-03-05", "09:00", 90, 18, "Board prep", "Dana Whitfield"],
  ["Juniper", "2026-03-06", "14:00", 60, 6, "Marketing sync", "Mei Lin"],
  ["Lumen", "2026-03-09", "10:00", 30, 4, "Standup", "Jonas Berg"],
  ["Harbor", "2026-03-10", "15:00", 60, 9, "Hiring panel", "Priya Shah"],
  ["Ember", "2026-03-11", "09:00", 60, 5, "UX research readout", "Mei Lin"],
  ["Birch", "2026-03-12", "13:00", 120, 7, "Finance close", "Omar Haddad"],
  ["Cedar", "2026-03-13", "16:00", 60, 2, "Mentoring", "Tomás Rivera"],
  ["Aurora", "2026-03-13", "10:00", 60, 15, "Town hall dry run", "Dana Whitfield", true],
  // Colleagues' bookings, the week of 16-20 March.
  ["Aurora", "2026-03-16", "09:00", 60, 12, "Weekly leadership", "Dana Whitfield"],
  ["Birch", "2026-03-16", "14:00", 60, 8, "Sales pipeline review", "Carlos Ortega"],
  ["Kestrel", "2026-03-16", "11:00", 120, 20, "Product launch briefing", "Mei Lin"],
  ["Aurora", "2026-03-17", "13:00", 120, 14, "Customer advisory board", "Carlos Ortega"],
  ["Delta", "2026-03-17", "14:00", 90, 18, "Compliance training", "Sara Nilsson"],
  ["Fjord", "2026-03-17", "14:00", 60, 10, "Engineering sync", "Jonas Berg"],
  ["Kestrel", "2026-03-17", "13:00", 120, 16, "Quarterly planning", "Dana Whitfield"],
  ["Harbor", "2026-03-17", "10:00", 60, 8, "Support escalation review", "Priya Shah"],
  ["Birch", "2026-03-17", "14:00", 60, 6, "Lunch and learn", "Omar Haddad"],
  ["Harbor", "2026-03-18", "13:00", 60, 9, "Interview loop", "Priya Shah"],
  ["Cedar", "2026-03-18", "09:00", 30, 3, "Standup", "Jonas Berg"],
  ["Granite", "2026-03-18", "14:00", 60, 2, "Pairing session", "Tomás Rivera", true],
  ["Ember", "2026-03-19", "10:00", 60, 6, "Brand workshop", "Mei Lin"],
  ["Fjord", "2026-03-19", "15:00", 120, 11, "Client call: Initech", "Carlos Ortega"],
  ["Lumen", "2026-03-20", "11:00", 60, 4, "Data team sync", "Tomás Rivera"],
  ["Aurora", "2026-03-20", "15:00", 120, 16, "Friday demo", "Jonas Berg"],
  // Colleagues' bookings, later.
  ["Delta", "2026-03-23", "09:00", 120, 24, "New hire orientation", "Sara Nilsson"],
  ["Kestrel", "2026-03-24", "14:00", 60, 15, "Investor update", "Dana Whitfield"],
  ["Juniper", "2026-03-25", "10:00", 60, 7, "Content planning", "Mei Lin"],
  ["Iris", "2026-03-26", "09:00", 60, 1, "Focus time", "Omar Haddad"],
  ["Fjord", "2026-03-27", "11:00", 90, 12, "Partner onboarding", "Carlos Ortega"],
  ["Harbor", "2026-03-30", "10:00", 120, 10, "Security review", "Jonas Berg"],
  ["Aurora", "2026-03-31", "14:00", 60, 13, "Quarter close", "Omar Haddad"],
  ["Birch", "2026-04-01", "09:00", 60, 5, "Recruiting sync", "Priya Shah"],
  ["Ember", "2026-04-03", "13:00", 60, 4, "Design critique", "Mei Lin"],
  ["Kestrel", "2026-04-07", "10:00", 120, 20, "Sales kickoff", "Carlos Ortega"],
  ["Granite", "2026-04-09", "15:00", 30, 2, "Check-in", "Tomás Rivera"],
  ["Delta", "2026-04-10", "13:00", 120, 16, "Leadership training", "Sara Nilsson"],
  ["Fjord", "2026-04-13", "09:00", 60, 8, "Weekly ops", "Dana Whitfield"],
  ["Aurora", "2026-04-15", "10:00", 120, 15, "Quarterly business review", "Dana Whitfield"],
  ["Cedar", "2026-04-15", "14:00", 60, 3, "Interview: designer", "Priya Shah"],
];

/** A colleague's work address: "Tomás Rivera" -> "tomas.rivera@sandbox.test". */
function emailOf(name: string): string {
  if (name === ME) return DEFAULT_USER.email;
  const ascii = name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  return `${ascii.replace(/\s+/g, ".")}@sandbox.test`;
}

/** When a seeded booking was made: a week or so before its date, and never after 2026-03-13 (before the clock). */
function createdDay(date: string, index: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 7 - (index % 5));
  const day = d.toISOString().slice(0, 10);
  return day <= "2026-03-12" ? day : `2026-03-${String(2 + (index % 10)).padStart(2, "0")}`;
}

/** The day after `day` at hh:mm: when a seeded cancelled booking was cancelled. */
function dayAfter(day: string, time: string): string {
  const d = new Date(`${day}T${time}:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().replace(".000", "");
}

function bookingRows(): Row[] {
  const roomId = new Map(roomRows().map((r) => [r.name as string, r.id as number]));
  const sorted = BOOKINGS.map((b, i) => ({ b, i })).sort((x, y) =>
    (x.b[1] + x.b[2]).localeCompare(y.b[1] + y.b[2]) || roomId.get(x.b[0])! - roomId.get(y.b[0])!
  );
  return sorted.map(({ b: [room, date, start, minutes, attendees, purpose, by, cancelled] }, i) => ({
    id: i + 1,
    code: bookingCode(i + 1),
    room_id: roomId.get(room)!,
    date,
    start_time: start,
    duration_min: minutes,
    attendees,
    purpose,
    notes: "",
    contact_email: emailOf(by),
    booked_by: by,
    status: cancelled ? "cancelled" : "confirmed",
    created_at: `${createdDay(date, i)}T${String(8 + (i % 9)).padStart(2, "0")}:15:00Z`,
    updated_at: null,
    cancelled_at: cancelled ? dayAfter(createdDay(date, i), "17:30") : null,
  }));
}

/** The app's schema and rows. */
export function bookingsSeed(): AppSeed {
  return { schema: SCHEMA, rows: { rooms: roomRows(), bookings: bookingRows(), guests: [], catering: [], holds: [] } };
}
