/**
 * The phrasing helpers every template shares (docs/generation.md, "Phrasings"): the text artifacts of issue #31
 * (doubled punctuation after an abbreviation, "1 points") are ruled out here once, not per template.
 */

/** `text` ended with a period, unless it already ends with terminal punctuation (`Harbor Print Co.` stays as is). */
export function period(text: string): string {
  return /[.!?…]["'”’)]?$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

/** `n` and its noun in the right number: `1 point`, `3 points`; `many` for an irregular plural. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The day of an ISO date `YYYY-MM-DD` written with another year after it: `10 March (2025)` for a year before. */
export function dayOfYear(iso: string, year: number): string {
  const [, m, d] = iso.split("-").map(Number);
  return `${d} ${MONTH_NAMES[m - 1]} (${year})`;
}
