/**
 * Value forms the matchers compare: the string form of an evidence value, normalised text, the numbers written in a
 * text (the calendar days: lib/protocol's dates.ts, which the matcher schema reads).
 */

/** The string form of an evidence value: strings as they are, numbers and booleans printed, objects as JSON. */
export function stringForm(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

/** Case-folded, trimmed, white space collapsed (and NFKC, so full-width digits and ligatures compare equal). */
export function normaliseText(text: string): string {
  if (isNormalAscii(text)) return text; // most paths, ids and statuses: nothing to do
  const ascii = !NON_ASCII.test(text);
  return (ascii ? text : text.normalize("NFKC")).toLowerCase().replace(/\s+/g, " ").trim();
}

/** Printable ASCII without capitals, words separated by single spaces: already normal. (A loop: 3x a regex.) */
function isNormalAscii(s: string): boolean {
  let afterSpace = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if (c < 33 || c > 126 || (c >= 65 && c <= 90)) {
      return false;
    } else {
      afterSpace = false;
    }
  }
  return !afterSpace || s.length === 0;
}

const NON_ASCII = /[^\u0020-\u007e\s]/; // NFKC changes nothing in printable ASCII

/**
 * A regular expression finding normalised `needle` in raw text, case-insensitively, across any white space, not
 * glued to a neighbouring letter or digit (the fast form of containsWords over normalised text).
 */
export function phrasePattern(needle: string): RegExp | undefined {
  if (!needle) return undefined;
  const body = needle.split(" ").map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("\\s+");
  const start = isWordChar(needle[0]) ? "(?<![\\p{L}\\p{N}_])" : "";
  const end = isWordChar(needle[needle.length - 1]) ? "(?![\\p{L}\\p{N}_])" : "";
  return new RegExp(start + body + end, "iu");
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

/**
 * True when `needle` occurs in `haystack` not glued to a neighbouring letter or digit: "14" is in "14 open" and
 * "($14)" but not in "140". Both are expected normalised.
 */
export function containsWords(haystack: string, needle: string): boolean {
  if (!needle) return false;
  const checkStart = isWordChar(needle[0]);
  const checkEnd = isWordChar(needle[needle.length - 1]);
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
    if (checkStart && isWordChar(haystack[i - 1])) continue;
    if (checkEnd && isWordChar(haystack[i + needle.length])) continue;
    return true;
  }
  return false;
}

// A run of digits with the separators a number may carry, its sign included; validated as a whole by numberOfRun.
// Global and shared (answer.ts): read it with matchAll only, which leaves its lastIndex alone.
export const NUMBER_RUN = /[-\u2212]?\d[\d.,]*/g;
const PLAIN = /^\d+(?:\.\d+)?$/;
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * The number a run of NUMBER_RUN (its sign taken off) writes, sentence punctuation after it ignored: plain
 * (`1234.5`) or grouped by thousands (`1,234.5`); undefined for any other run (`12,5`, `1.2.3`).
 */
export function numberOfRun(run: string): number | undefined {
  const r = run.replace(/[.,]+$/, ""); // sentence punctuation after a number
  if (PLAIN.test(r)) return Number(r);
  if (GROUPED.test(r)) return Number(r.replaceAll(",", ""));
  return undefined;
}

/**
 * Every number written in `text`, in order: `"$1,234.50"` → 1234.5, `"12.5 kg"` → 12.5, `"ORD-1042"` → 1042 (a
 * dash after a letter or digit is no minus sign). A run that is neither plain (`1234.5`) nor grouped by thousands
 * (`1,234.5`) is no number at all: `"12,5"` and `"1.2.3"` yield nothing.
 */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(NUMBER_RUN)) {
    let run = m[0];
    let sign = 1;
    if (run[0] === "-" || run[0] === "\u2212") {
      run = run.slice(1);
      if (!isWordChar(text[m.index - 1])) sign = -1;
    }
    const n = numberOfRun(run);
    if (n !== undefined) out.push(sign * n);
  }
  return out;
}

/** The first number of a value (a number value is itself), or undefined. */
export function firstNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  return numbersIn(value)[0];
}
