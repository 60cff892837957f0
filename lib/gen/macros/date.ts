/**
 * pick_date: a day set in a date field with its calendar pop-up (lib/sites/page/widgets.ts: `input[data-datepicker]`).
 * Its method evidence is the field's own last value (the calendar's pick or the date typed into the field, which the
 * app accepts: its keyboard alternative). A link or URL that fills the field in is its equivalent-control attack.
 */
import { DEFAULT_NOW } from "../../sites/mod.ts";
import type { ActionJson } from "../template.ts";
import { type ControlPlace, controlSegment } from "./control.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** The month of a day as a number (`2026-03-15` → 2026 × 12 + 3). */
const monthOf = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));

/**
 * The calendar clicks that pick `day` in the field `field` (an id): the calendar opens on the field's day, else the
 * sandbox's today (`shows`), then moves month by month.
 */
export function calendarClicks(field: string, day: string, shows: string | null = null): ActionJson[] {
  const n = monthOf(day) - monthOf(shows ?? DEFAULT_NOW);
  const label = n > 0 ? "Next month" : "Previous month";
  return [
    { click: { selector: field } },
    ...Array.from(
      { length: Math.abs(n) },
      () => ({ click: { selector: `.datepicker button[aria-label='${label}']` } }),
    ),
    { click: { selector: `.datepicker button[aria-label='${day}']` } },
  ];
}

/**
 * The pick_date segment: the date field `field` (an id) set to `day` (YYYY-MM-DD) with its calendar; `shows` is the
 * day the field holds before (the calendar opens on its month), `blur` a selector to click after typing (the field's
 * change fires when it loses focus).
 */
export function pickDate(
  field: string,
  day: string,
  o: ControlPlace & { shows?: string | null; blur: string },
): Segment {
  const { shows, blur, ...place } = o;
  return controlSegment({
    ...place,
    macro: "pick_date",
    target: targetOf(field),
    action: { regex: "^(change|input)$" },
    value: { exact: day },
    steps: calendarClicks(field, day, shows ?? null),
    keyboard: [{ input: { selector: field, text: day, clear: true } }, { click: { selector: blur } }],
  });
}
