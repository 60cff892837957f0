/** The booking form's fields and their server-side validation (shared by "book" and "reschedule"). */
import type { AppDb } from "../../db.ts";
import { DEFAULT_USER } from "../../session.ts";
import {
  type BookingFields,
  bookingsOn,
  CLOSE_MIN,
  DURATIONS,
  endTime,
  isIsoDate,
  isWeekend,
  longDate,
  overlaps,
  type Room,
  roomById,
  SLOTS,
  toMinutes,
} from "./_data.ts";

/** The form's values as submitted (strings), kept to re-render the form. */
export interface BookingInput {
  room: string;
  date: string;
  slot: string;
  duration: string;
  attendees: string;
  purpose: string;
  notes: string;
  email: string;
}

export type FieldErrors = Partial<Record<keyof BookingInput, string>>;

export type { BookingFields } from "./_data.ts";

export const EMPTY_INPUT: BookingInput = {
  room: "",
  date: "",
  slot: "",
  duration: "60",
  attendees: "",
  purpose: "",
  notes: "",
  email: DEFAULT_USER.email,
};

const FIELD_ORDER: (keyof BookingInput)[] = ["room", "date", "slot", "duration", "attendees", "purpose", "email"];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_PURPOSE = 120;
const MAX_NOTES = 1000;

/** Reads the form body into strings. */
export function readInput(body: Record<string, unknown>): BookingInput {
  const s = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : "").trim();
  return {
    room: s("room"),
    date: s("date"),
    slot: s("slot"),
    duration: s("duration"),
    attendees: s("attendees"),
    purpose: s("purpose"),
    notes: s("notes"),
    email: s("email"),
  };
}

/** The date's problem, if any: its format, the past, a weekend, a time already gone today. */
function dateError(v: BookingInput, today: string, nowMin: number): string | undefined {
  if (!v.date) return "Choose a date.";
  if (!isIsoDate(v.date)) return `"${v.date}" is not a date; use YYYY-MM-DD.`;
  if (v.date < today) return `${longDate(v.date)} is in the past; choose today or a later date.`;
  if (isWeekend(v.date)) return `The office is closed on weekends (${longDate(v.date)}); choose a weekday.`;
  if (v.date === today && SLOTS.includes(v.slot) && toMinutes(v.slot) <= nowMin) {
    return `${v.slot} today has already passed; choose a later slot.`;
  }
  return undefined;
}

function slotError(db: AppDb, v: BookingInput, room: Room | undefined, excludeId?: number): string | undefined {
  if (!SLOTS.includes(v.slot)) return "Choose a time slot.";
  const minutes = Number(v.duration);
  if (!DURATIONS.includes(minutes)) return undefined;
  const start = toMinutes(v.slot), end = start + minutes;
  if (end > CLOSE_MIN) return `A ${minutes}-minute booking from ${v.slot} ends after closing time (17:00).`;
  if (!room || !isIsoDate(v.date)) return undefined;
  const clash = bookingsOn(db, v.date, room.id).find((b) => b.id !== excludeId && overlaps(b, start, end));
  return clash
    ? `${room.name} is already booked ${clash.start_time}–${endTime(clash)} on ${longDate(v.date)}; ` +
      "choose another slot, a shorter duration or another room."
    : undefined;
}

function attendeesError(v: BookingInput, room: Room | undefined): string | undefined {
  const n = Number(v.attendees);
  if (!v.attendees || !Number.isInteger(n) || n < 1) {
    return "Enter the number of attendees (a whole number, 1 or more).";
  }
  if (room && n > room.capacity) return `${room.name} seats ${room.capacity}; ${n} attendees do not fit.`;
  return undefined;
}

/** Every problem of the form, keyed by field, in the form's order. */
export function validateBooking(
  db: AppDb,
  v: BookingInput,
  clock: { today: string; nowMin: number },
  excludeId?: number,
): { errors: FieldErrors; fields?: BookingFields } {
  const room = roomById(db, v.room);
  const found: FieldErrors = {
    room: room ? undefined : "Choose a room.",
    date: dateError(v, clock.today, clock.nowMin),
    slot: slotError(db, v, room, excludeId),
    duration: DURATIONS.includes(Number(v.duration)) ? undefined : "Choose a duration of 30, 60, 90 or 120 minutes.",
    attendees: attendeesError(v, room),
    purpose: !v.purpose
      ? "Enter the purpose of the booking."
      : v.purpose.length > MAX_PURPOSE
      ? `Keep the purpose under ${MAX_PURPOSE} characters.`
      : undefined,
    notes: v.notes.length > MAX_NOTES ? `Keep the notes under ${MAX_NOTES} characters.` : undefined,
    email: !v.email ? "Enter a contact email." : EMAIL.test(v.email) ? undefined : `"${v.email}" is not a valid email.`,
  };
  const errors: FieldErrors = {};
  for (const k of [...FIELD_ORDER, "notes" as const]) if (found[k]) errors[k] = found[k];
  if (Object.keys(errors).length > 0 || !room) return { errors };
  return {
    errors,
    fields: {
      room_id: room.id,
      date: v.date,
      start_time: v.slot,
      duration_min: Number(v.duration),
      attendees: Number(v.attendees),
      purpose: v.purpose,
      notes: v.notes,
      contact_email: v.email,
    },
  };
}
