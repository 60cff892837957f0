/** The booking form's markup and its availability script. */
import { html, raw } from "hono/html";
import type { AppDb } from "../../db.ts";
import type { Html } from "../../layout.ts";
import {
  allRooms,
  durationLabel,
  DURATIONS,
  fromMinutes,
  isIsoDate,
  roomById,
  SLOTS,
  takenSlots,
  toMinutes,
} from "./_data.ts";
import type { BookingInput, FieldErrors } from "./_form.ts";
import { BASE } from "./_views.ts";

export interface FormMode {
  action: string;
  submitLabel: string;
  /** The booking being rescheduled: its own slots are not taken. */
  excludeId?: number;
  cancelHref: string;
}

const err = (e: FieldErrors, k: keyof BookingInput) =>
  e[k] ? html`<span class="field-error" id="${k}-error">${e[k]}</span>` : "";

function errorSummary(e: FieldErrors): Html | string {
  const msgs = Object.values(e).filter(Boolean);
  if (msgs.length === 0) return "";
  return html`
    <div class="errors" role="alert" id="form-errors">
      <strong>The booking could not be saved:</strong>
      <ul>${msgs.map((m) => html`<li>${m}</li>`)}</ul>
    </div>
  `;
}

function slotRadios(db: AppDb, v: BookingInput, e: FieldErrors, mode: FormMode): Html {
  const room = roomById(db, v.room);
  const taken = room && isIsoDate(v.date) ? takenSlots(db, room.id, v.date, mode.excludeId) : [];
  return html`<fieldset id="slot-group" style="border:none;padding:0;margin:0">
    <legend><strong>Time slot</strong> <small class="muted" id="slot-hint">${
    room && isIsoDate(v.date)
      ? `Availability of ${room.name} on ${v.date}`
      : "Choose a room and a date to see which slots are taken"
  }</small></legend>
    <div class="row" id="slots">${
    SLOTS.map((s) => {
      const isTaken = taken.includes(s);
      const id = `slot-${s.replace(":", "")}`;
      return html`
        <label for="${id}" class="slot-option${isTaken ? " taken" : ""}" style="font-weight:400"
        ><input type="radio" name="slot" id="${id}" value="${s}" ${v.slot === s && !isTaken ? "checked" : ""}
                  ${isTaken ? "disabled" : ""}> ${s}–${fromMinutes(
                    toMinutes(s) + 60,
                  )}<span class="slot-state muted">${isTaken ? " (taken)" : ""}</span></label>
      `;
    })
  }</div>
    ${err(e, "slot")}
  </fieldset>`;
}

/** The whole form: room, date, slot, duration, attendees, purpose, notes, email. */
export function bookingForm(db: AppDb, v: BookingInput, e: FieldErrors, mode: FormMode): Html {
  const rooms = allRooms(db);
  return html`
    ${errorSummary(e)}
    <form method="post" action="${mode.action}" class="stack card" id="booking-form" novalidate
      data-exclude="${mode.excludeId ?? ""}">
      <div><label for="room">Room</label>
        <select id="room" name="room">
          <option value="">Choose a room…</option>
          ${rooms.map((r) =>
            html`
              <option value="${r.id}" data-capacity="${r.capacity}"
                ${String(r.id) === v.room ? "selected" : ""}>${r
                  .name} · ${r.type}, floor ${r.floor}, seats ${r.capacity}</option>
            `
          )}
        </select>${err(e, "room")}</div>
      <div style="position:relative"><label for="date">Date</label>
        <input type="text" id="date" name="date" data-datepicker value="${v.date}" placeholder="YYYY-MM-DD">${err(
          e,
          "date",
        )}</div>
      ${slotRadios(db, v, e, mode)}
      <div><label for="duration">Duration</label>
        <select id="duration" name="duration">${DURATIONS.map((d) =>
          html`<option value="${d}" ${String(d) === v.duration ? "selected" : ""}>${durationLabel(d)}</option>`
        )}</select>${err(e, "duration")}</div>
      <div><label for="attendees">Attendees</label>
        <input type="number" id="attendees" name="attendees" min="1" value="${v.attendees}">${err(e, "attendees")}</div>
      <div><label for="purpose">Purpose</label>
        <input type="text" id="purpose" name="purpose" value="${v.purpose}" placeholder="e.g. Sprint planning">${err(
          e,
          "purpose",
        )}</div>
      <div><label for="notes">Notes <small class="muted">(optional)</small></label>
        <textarea id="notes" name="notes">${v.notes}</textarea>${err(e, "notes")}</div>
      <div><label for="email">Contact email</label>
        <input type="email" id="email" name="email" value="${v.email}">${err(e, "email")}</div>
      <div class="row"><button type="submit" id="submit-booking">${mode.submitLabel}</button>
        <a href="${mode.cancelHref}" id="cancel-form">Back</a></div>
    </form>
    ${raw(`<style>${SLOT_CSS}</style><script>${AVAILABILITY_SCRIPT}</script>`)}
  `;
}

const SLOT_CSS = `.slot-option{border:1px solid #cbd5e1;border-radius:6px;padding:4px 8px;background:#fff}
.slot-option.taken{color:#94a3b8;background:#f1f5f9;text-decoration:line-through}`;

/** Re-marks taken slots when the room or the date changes (asks the server, which knows the bookings). */
const AVAILABILITY_SCRIPT = `(() => {
  const form = document.getElementById("booking-form");
  const room = document.getElementById("room"), date = document.getElementById("date");
  const hint = document.getElementById("slot-hint");
  const refresh = async () => {
    if (!room.value || !/^\\d{4}-\\d{2}-\\d{2}$/.test(date.value)) return;
    const q = new URLSearchParams({ room: room.value, date: date.value, exclude: form.dataset.exclude || "" });
    const res = await fetch("${BASE}/availability?" + q);
    if (!res.ok) return;
    const a = await res.json();
    hint.textContent = a.closed ? "The office is closed on " + a.date + " (weekend)"
      : "Availability of " + a.room + " on " + a.date;
    for (const input of form.querySelectorAll("input[name=slot]")) {
      const taken = a.taken.includes(input.value);
      input.disabled = taken;
      if (taken) input.checked = false;
      input.parentElement.classList.toggle("taken", taken);
      input.parentElement.querySelector(".slot-state").textContent = taken ? " (taken)" : "";
    }
  };
  room.addEventListener("change", refresh);
  date.addEventListener("change", refresh);
})();`;
