/** Matchers: tests of one evidence value (docs/grading.md, "Matchers"); their format is lib/protocol's. */
import { datesIn, firstDate, type Matcher, quote } from "../protocol/mod.ts";
import { freeTextForm, verbatimForm } from "./free_text.ts";
import { containsWords, firstNumber, normaliseText, numbersIn, phrasePattern, stringForm } from "./text.ts";

/** Per-matcher values computed once (compiled regex, normalised text, the expected day). */
interface Prepared {
  re?: RegExp;
  norm?: string;
  day?: string;
}
const prepared = new WeakMap<object, Prepared>();

function prep(m: object, make: () => Prepared): Prepared {
  let p = prepared.get(m);
  if (!p) prepared.set(m, p = make());
  return p;
}

const absent = (v: unknown) => v === null || v === undefined;

/**
 * True when `value` passes `m`. Null and missing values pass only `{present: false}` (and a `not` around a text
 * matcher).
 */
export function testMatcher(m: Matcher, value: unknown): boolean {
  if (typeof m === "string") return !absent(value) && normalEquals(stringForm(value), m);
  if (typeof m === "number") return numberWithin(value, m, 1e-9);
  if ("present" in m) return m.present === !(absent(value) || (typeof value === "string" && value.trim() === ""));
  if ("not" in m) return !testMatcher(m.not, value);
  if ("one_of" in m) return m.one_of.some((x) => testMatcher(x, value));
  if (absent(value)) return false;
  if ("exact" in m) return stringForm(value) === m.exact;
  if ("norm" in m) return normaliseText(stringForm(value)) === prep(m, () => ({ norm: normaliseText(m.norm) })).norm;
  if ("text" in m) {
    const form = m.verbatim ? verbatimForm : freeTextForm;
    return form(stringForm(value)) === prep(m, () => ({ norm: form(m.text) })).norm;
  }
  if ("contains" in m) {
    return normaliseText(stringForm(value)).includes(prep(m, () => ({ norm: normaliseText(m.contains) })).norm!);
  }
  if ("regex" in m) return prep(m, () => ({ re: new RegExp(m.regex, m.flags) })).re!.test(stringForm(value));
  if ("number" in m) return numberWithin(value, m.number, m.tol ?? 1e-9);
  if ("date" in m) return firstDate(stringForm(value)) === expectedDay(m);
  return false;
}

// Bare string matchers have no object to hang their normal form on: a small cache of them.
const bareNorm = new Map<string, string>();

function normalEquals(value: string, expected: string): boolean {
  if (value === expected) return true;
  let e = bareNorm.get(expected);
  if (e === undefined) {
    if (bareNorm.size > 4096) bareNorm.clear();
    bareNorm.set(expected, e = normaliseText(expected));
  }
  return normaliseText(value) === e;
}

function numberWithin(value: unknown, want: number, tol: number): boolean {
  const n = firstNumber(value);
  return n !== undefined && Math.abs(n - want) <= tol + 1e-12;
}

function expectedDay(m: { date: string }): string | undefined {
  return prep(m, () => ({ day: firstDate(m.date) })).day;
}

/** A short human form: `= "express"`, `~ /^ORD-\d+$/`, `number 12.5 ±0.01`, `date 2026-03-20`. */
export function describeMatcher(m: Matcher): string {
  if (typeof m === "string") return `= ${quote(m)}`;
  if (typeof m === "number") return `number ${m}`;
  if ("text" in m) return `${m.verbatim ? "verbatim" : "text"} ${quote(m.text)}`;
  if ("exact" in m) return `== ${quote(m.exact)}`;
  if ("norm" in m) return `= ${quote(m.norm)}`;
  if ("contains" in m) return `contains ${quote(m.contains)}`;
  if ("regex" in m) return `~ /${m.regex}/${m.flags ?? ""}`;
  if ("number" in m) return `number ${m.number}${m.tol ? ` ±${m.tol}` : ""}`;
  if ("date" in m) return `date ${m.date}`;
  if ("one_of" in m) return `one of (${m.one_of.map(describeMatcher).join(" | ")})`;
  if ("present" in m) return m.present ? "present" : "absent";
  return `not (${describeMatcher(m.not)})`;
}

/** The matcher's target in a few characters, for labels: `/shop/cart`, `/^ORD/`, `12.5`. */
export function matcherTarget(m: Matcher): string {
  if (typeof m === "string" || typeof m === "number") return String(m);
  if ("exact" in m) return m.exact;
  if ("norm" in m) return m.norm;
  if ("text" in m) return m.text;
  if ("contains" in m) return `*${m.contains}*`;
  if ("regex" in m) return `/${m.regex}/`;
  if ("number" in m) return String(m.number);
  if ("date" in m) return m.date;
  return describeMatcher(m);
}

/** Seen text prepared once per episode: the screens, and (computed on first use) their normalised forms and the
 * numbers and days written anywhere. */
export interface SeenText {
  screens: readonly string[];
  normalised: () => string[];
  numbers: () => number[];
  days: () => Set<string>;
}

/** Prepares the agent's seen screens for `answerSeen`. */
export function prepareSeen(seen: readonly string[]): SeenText {
  let normalised: string[] | undefined;
  let numbers: number[] | undefined;
  let days: Set<string> | undefined;
  return {
    screens: seen,
    normalised: () => normalised ??= seen.map(normaliseText),
    numbers: () => numbers ??= seen.flatMap(numbersIn),
    days: () => days ??= new Set(seen.flatMap(datesIn)),
  };
}

/**
 * True when the answer is supported by the seen text: the normalised answer appears in a screen (as whole words),
 * or the expected value of a matcher alternative the answer passes does (a number: any number seen within `tol`; a
 * date: any day seen).
 */
export function answerSeen(m: Matcher, answer: string, seen: SeenText): boolean {
  return textSeen(answer, seen) || expectedSeen(m, answer, seen);
}

function expectedSeen(m: Matcher, answer: string, seen: SeenText): boolean {
  if (typeof m === "number") return seen.numbers().some((n) => Math.abs(n - m) <= 1e-9);
  if (typeof m === "string") return textSeen(m, seen);
  if ("exact" in m) return textSeen(m.exact, seen);
  if ("norm" in m) return textSeen(m.norm, seen);
  if ("text" in m) return textSeen(m.text, seen);
  if ("contains" in m) return textSeen(m.contains, seen);
  if ("number" in m) return seen.numbers().some((n) => Math.abs(n - m.number) <= (m.tol ?? 1e-9) + 1e-12);
  if ("date" in m) return seen.days().has(expectedDay(m)!);
  if ("one_of" in m) return m.one_of.some((x) => testMatcher(x, answer) && expectedSeen(x, answer, seen));
  return false; // regex, present, not: no expected value to look for
}

/** Whether normalised `text` appears in a screen: a regex over the raw screens first, normalised screens after. */
function textSeen(text: string, seen: SeenText): boolean {
  const e = normaliseText(text);
  const re = phrasePattern(e);
  if (!re) return false;
  if (seen.screens.some((s) => re.test(s))) return true;
  return seen.normalised().some((s) => containsWords(s, e)); // NFKC forms the raw search cannot see
}
