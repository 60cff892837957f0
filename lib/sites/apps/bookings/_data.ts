/** Rows, reads and the calendar arithmetic of the Bookings app. */
import type { AppDb } from "../../db.ts";
import { DEFAULT_USER } from "../../session.ts";

export interface Room {
  id: number;
  name: string;
  floor: number;
  location: string;
  type: string;
  capacity: number;
  projector: number;
  whiteboard: number;
  video: number;
  accessible: number;
  description: string;
  rules: string;
}

/** The columns a valid booking form writes. */
export interface BookingFields {
  room_id: number;
  date: string;
  start_time: string;
  duration_min: number;
  attendees: number;
  purpose: string;
  notes: string;
  contact_email: string;
}

export interface Booking extends BookingFields {
  id: number;
  code: string;
  booked_by: string;
  status: "confirmed" | "cancelled";
  created_at: string;
  updated_at: string | null;
  cancelled_at: string | null;
}

/** A booking joined with its room's name. */
export type BookingView = Booking & { room_name: string };

export const ROOM_TYPES = ["Conference room", "Focus room", "Huddle room", "Meeting room", "Training room"];
export const AMENITIES = [
  { key: "projector", label: "Projector" },
  { key: "whiteboard", label: "Whiteboard" },
  { key: "video", label: "Video conferencing" },
  { key: "accessible", label: "Step-free access" },
] as const;
export type AmenityKey = typeof AMENITIES[number]["key"];

/** Opening hours: bookable starts 09:00 … 16:00, everything ends by 17:00. */
const OPEN_MIN = 9 * 60;
export const CLOSE_MIN = 17 * 60;
export const SLOTS = Array.from(
  { length: (CLOSE_MIN - OPEN_MIN) / 60 },
  (_, i) => `${String(OPEN_MIN / 60 + i).padStart(2, "0")}:00`,
);
export const DURATIONS = [30, 60, 90, 120];
export const ME = DEFAULT_USER.name;

const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/** The confirmation code of booking `id`: "BK-" and 5 characters, distinct for every id below 2^25. */
export function bookingCode(id: number): string {
  // Odd multipliers, an offset and xorshifts are each a bijection on 25 bits, so codes never collide.
  let n = (Math.imul(id, 0x2c9277b5) + 0x5f3a1) & 0x1ffffff;
  n ^= n >>> 13;
  n = Math.imul(n, 0x1b873593) & 0x1ffffff;
  n ^= n >>> 11;
  let out = "";
  for (let i = 0; i < 5; i++, n >>>= 5) out = CODE_ALPHABET[n & 31] + out;
  return `BK-${out}`;
}

// ---- time and dates (all UTC, like the sandbox clock) ----

export function toMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
}

export function fromMinutes(min: number): string {
  return `${String(Math.floor(min / 60)).padStart(2, "0")}:${String(min % 60).padStart(2, "0")}`;
}

export function endTime(b: { start_time: string; duration_min: number }): string {
  return fromMinutes(toMinutes(b.start_time) + b.duration_min);
}

export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function isWeekend(date: string): boolean {
  const d = weekday(date);
  return d === 0 || d === 6;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Monday of `date`'s week (weeks run Monday to Sunday). */
export function mondayOf(date: string): string {
  return addDays(date, -((weekday(date) + 6) % 7));
}

/** "Tuesday, 17 March 2026". */
export function longDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** "Tue 17 Mar 2026". */
export function shortDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).replace(",", "");
}

export function durationLabel(min: number): string {
  const h = Math.floor(min / 60), m = min % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : ""].filter(Boolean).join(" ");
}

// ---- reads ----

export function allRooms(db: AppDb): Room[] {
  return db.all<Room>("SELECT * FROM rooms ORDER BY id");
}

export function roomById(db: AppDb, id: unknown): Room | undefined {
  const n = Number(id);
  return Number.isInteger(n) ? db.byId<Room>("rooms", n) : undefined;
}

const VIEW_SQL = "SELECT b.*, r.name AS room_name FROM bookings b JOIN rooms r ON r.id = b.room_id";

export function bookingById(db: AppDb, id: unknown): BookingView | undefined {
  const n = Number(id);
  return Number.isInteger(n) ? db.get<BookingView>(`${VIEW_SQL} WHERE b.id = ?`, n) : undefined;
}

/** Confirmed bookings on `date` (optionally of one room), by start time. */
export function bookingsOn(db: AppDb, date: string, roomId?: number): BookingView[] {
  const room = roomId === undefined ? "" : " AND b.room_id = ?";
  const args: unknown[] = roomId === undefined ? [date] : [date, roomId];
  return db.all<BookingView>(
    `${VIEW_SQL} WHERE b.status = 'confirmed' AND b.date = ?${room} ORDER BY b.start_time, b.room_id`,
    ...args,
  );
}

/** Confirmed bookings between two dates inclusive. */
export function bookingsBetween(db: AppDb, from: string, to: string): BookingView[] {
  return db.all<BookingView>(
    `${VIEW_SQL} WHERE b.status = 'confirmed' AND b.date BETWEEN ? AND ? ORDER BY b.date, b.start_time, b.room_id`,
    from,
    to,
  );
}

/** Alex Morgan's bookings, by date and time. */
export function myBookings(db: AppDb): BookingView[] {
  return db.all<BookingView>(`${VIEW_SQL} WHERE b.booked_by = ? ORDER BY b.date, b.start_time`, ME);
}

export function overlaps(a: { start_time: string; duration_min: number }, startMin: number, endMin: number): boolean {
  const s = toMinutes(a.start_time);
  return s < endMin && startMin < s + a.duration_min;
}

/** The hourly slots of a room and day that some confirmed booking (other than `excludeId`) overlaps. */
export function takenSlots(db: AppDb, roomId: number, date: string, excludeId?: number): string[] {
  const day = bookingsOn(db, date, roomId).filter((b) => b.id !== excludeId);
  return SLOTS.filter((s) => day.some((b) => overlaps(b, toMinutes(s), toMinutes(s) + 60)));
}

/** The next free booking id, so that the confirmation code is written with the row itself. */
export function nextBookingId(db: AppDb): number {
  return (db.get<{ m: number | null }>("SELECT MAX(id) AS m FROM bookings")?.m ?? 0) + 1;
}
