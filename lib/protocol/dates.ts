/** The calendar days written in a text: what a `{date}` matcher names, and what its schema checks it names. */

/** The month names and their abbreviations, as a regular expression's alternation (matched ignoring case). */
export const MONTHS: string =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" +
  "oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
/** An ordinal suffix after a day (`20th`), optional. */
export const ORD = "(?:st|nd|rd|th)?";
// One alternation so that matchAll yields the dates in the order they are written.
const DATE = new RegExp(
  [
    String.raw`(?<!\d)(?<iy>\d{4})-(?<im>\d{2})-(?<id>\d{2})(?![\d])`,
    String.raw`(?<![\p{L}\p{N}])(?<am>${MONTHS})\.?\s+(?<ad>\d{1,2})${ORD},?\s+(?<ay>\d{4})(?!\d)`,
    String.raw`(?<![\p{L}\p{N}])(?<bd>\d{1,2})${ORD}\s+(?<bm>${MONTHS})\.?,?\s+(?<by>\d{4})(?!\d)`,
    String.raw`(?<![\d/])(?<um>\d{1,2})/(?<ud>\d{1,2})/(?<uy>\d{4})(?!\d)`,
  ].join("|"),
  "giu",
);
const MONTH_INDEX = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function day(y: string, m: number, d: number): string | undefined {
  const year = Number(y);
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const t = new Date(Date.UTC(year, m - 1, d));
  if (t.getUTCMonth() !== m - 1) return undefined; // 31 April, 29 February of a common year
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** A month's number (1–12) from its name or abbreviation (`Mar`, `march`); 0 for no month. */
export function monthOf(name: string): number {
  return MONTH_INDEX.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

/**
 * Every calendar day written in `text` as `YYYY-MM-DD`, in order. Formats: `2026-03-20`, `2026-03-20T10:00:00Z`
 * (the day as written, no time-zone conversion), `March 20, 2026`, `Mar 20 2026`, `20 Mar 2026`, `03/20/2026`
 * (month first).
 */
export function datesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(DATE)) {
    const g = m.groups!;
    let d: string | undefined;
    if (g.iy) d = day(g.iy, Number(g.im), Number(g.id));
    else if (g.ay) d = day(g.ay, monthOf(g.am), Number(g.ad));
    else if (g.by) d = day(g.by, monthOf(g.bm), Number(g.bd));
    else d = day(g.uy, Number(g.um), Number(g.ud));
    if (d) out.push(d);
  }
  return out;
}

/** The first day written in a value, or undefined. */
export function firstDate(value: unknown): string | undefined {
  return typeof value === "string" ? datesIn(value)[0] : undefined;
}
