/**
 * Strict answer reading: the typed values an answer states (numbers, days, times), and whether an answer passes a
 * matcher without hedging. Pure, no I/O; every regular expression is compiled once, here.
 *
 * Reading an answer (`answerCandidates`), in this order, each step blanking what it took so later steps skip it:
 *
 * 1. **Dates**: the formats of text.ts (`2026-03-20`, an ISO timestamp, `March 20, 2026`, `20 Mar 2026`,
 *    `03/20/2026`; a weekday before them is just a word), plus a day without its year (`March 17`, `17 March`, with a
 *    capitalised month) as `--MM-DD`, and a bare month with its year (`March 2026`, which states no day). An ISO date
 *    glued to a code (`INV-2026-03-12`) is part of that code.
 * 2. **Times**: `14:00`, `9:30`, `10:00:00`, `2 pm`, `2:30pm`, `2 p.m.`, `14h00`, as `HH:MM` (24 h); an ISO
 *    timestamp's time too. Impossible ones (`25:70`) are not times.
 * 3. **Codes**: a token of letters and digits joined directly or by `-`, `_`, `#`, `/`, `.` that has both
 *    (`SO-10242`, `WEB-8`, `MOB15`, `v2`, `4f3a`, `5-star`) states no number. A number followed only by letters is
 *    a number with its unit (`64GB`, `5kg`, `3rd`), and a currency code before one is no code (`USD161.99`).
 * 4. **Numbers**: the grammar of text.ts (`1234.5`, `1,234.50`; `12,5` is no number; signs and units around it are
 *    ignored). A number right after a word with a capital letter and one space names a thing (`Sprint 14`,
 *    `Room 3`, `iPhone 15`): it is a *label*, not a number, unless that word is a currency code (`USD 161.99`) or
 *    one of the function and quantity words of NOT_NAMES (`Total 66`, `About 66`, `In 2024`). `#12` is a label too.
 *    Labels stand in for numbers only when an answer states no number at all (`Room 3` answers `{"number": 3}`).
 *    A capitalised verb opening a sentence (`Sold 66 units`) is read as a name too: the price of the rule.
 *
 * Strict matching (`strictAnswerFailure`): a number (date) matcher needs the answer's distinct numbers (days) to be
 * one value within tolerance; a second value is a hedge unless it too is within tolerance (or, given a reference
 * answer, the reference states it as context). A text matcher must pass and the answer must not negate or hedge
 * where the expected text does not (word families: negation, alternatives, uncertainty). `exact` is exact after
 * trimming outer white space; `one_of` needs one strictly passing alternative, or several that agree; `not` and
 * `present` are as testMatcher has them.
 */
import { describeMatcher, type Matcher, testMatcher } from "./matcher.ts";
import {
  containsWords,
  firstDate,
  monthOf,
  MONTHS,
  normaliseText,
  NUMBER_RUN,
  numberOfRun,
  ORD,
  quote,
} from "./text.ts";

/** The typed values an answer states, in the order written. */
export interface AnswerCandidates {
  /** Quantities: numbers not inside a date, a time, a code or a name. */
  numbers: number[];
  /** Days as `YYYY-MM-DD`; a day written without its year as `--MM-DD`. */
  dates: string[];
  /** Times of day as `HH:MM`, 24 h. */
  times: string[];
  /** Numbers that name a thing (`Sprint 14`, `Room 3`, `#12`): read as the number only when no number is stated. */
  labels: number[];
}

// Stands in for what a step took: neither a letter, a digit, white space nor a joiner.
const FILL = "\u0001";
const DIGIT = /\d/;

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// One alternation, so that at one position the full forms win over the year-less ones.
const DATE_SPAN = new RegExp(
  [
    String.raw`(?<![\p{L}\p{N}_#]|\p{L}[-/])(?<iso>\d{4}-\d{2}-\d{2})` +
    String.raw`(?:T(?<th>\d{2}):(?<tm>\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?` +
    String.raw`(?![\p{N}_]|[-/#][\p{L}\p{N}])`,
    String.raw`(?<full>(?<![\p{L}\p{N}])(?:${MONTHS})\.?\s+\d{1,2}${ORD},?\s+\d{4}(?!\d))`,
    String.raw`(?<full2>(?<![\p{L}\p{N}])\d{1,2}${ORD}\s+(?:${MONTHS})\.?,?\s+\d{4}(?!\d))`,
    String.raw`(?<full3>(?<![\d/])\d{1,2}/\d{1,2}/\d{4}(?!\d))`,
    String.raw`(?<![\p{L}\p{N}])(?<ym>${MONTHS})\.?\s+(?<yd>\d{1,2})${ORD}(?![\p{L}\p{N}]|[:.,]\d)`,
    String.raw`(?<![\p{L}\p{N}.,])(?<zd>\d{1,2})${ORD}\s+(?<zm>${MONTHS})\.?(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:${MONTHS})\.?\s+\d{4}(?!\d)`,
  ].join("|"),
  "giu",
);

// Cheap tests that rule the spans out for most answers: no month name, no dash or slash after a digit; no
// colon, h, a.m. or p.m. after a digit.
const DATE_HINT = new RegExp(String.raw`\d[-/]|(?<![\p{L}])(?:${MONTHS})`, "iu");
const TIME_HINT = /\d\s?[:hap]/i;

const TIME_SPAN = new RegExp(
  [
    String.raw`(?<![\p{L}\p{N}:.,])(?<h>\d{1,2}):(?<mi>\d{2})(?::\d{2}(?:\.\d+)?)?` +
    String.raw`(?:\s?(?<ap>[ap])\.?m\.?(?![\p{L}\p{N}]))?(?![\p{N}]|:\d)`,
    String.raw`(?<![\p{L}\p{N}:.,])(?<h2>\d{1,2})\s?(?<ap2>[ap])\.?m\.?(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?<h3>\d{1,2})h(?<m3>\d{2})(?![\p{L}\p{N}])`,
  ].join("|"),
  "giu",
);

const HAS_LETTER = /\p{L}/u;
const UNIT = /^\d+(?:[.,]\d+)*\p{L}+$/u;
const CURRENCY_CODES = "usd eur gbp jpy cad aud chf cny inr nzd sek nok dkk pln czk mxn brl zar sgd hkd krw".split(" ");
const CURRENCY_LEAD = new RegExp(`^(?:${CURRENCY_CODES.join("|")})\\d[\\d.,]*$`, "i");

/**
 * Words with a capital letter that do not make the number after them a name: currency codes, and the function and
 * quantity words an answer opens with (`Total 66`, `About 66`, `In 2024`, `The 3 rooms`). Lower case.
 */
const NOT_NAMES = new Set([
  ...CURRENCY_CODES,
  ..."a an the i it its this that these those there here is are was were be has have had".split(" "),
  ..."in on at by for from to of with since after before until till between within per via".split(" "),
  ..."and or but so yes no not only just also all both each every".split(" "),
  ..."about approximately approx around roughly nearly almost exactly over under above below".split(" "),
  ..."up down than plus minus less more least most top maybe probably possibly perhaps".split(" "),
  ..."total subtotal sum answer count amount price cost costs balance quantity qty score rating".split(" "),
  ..."average avg mean median max min maximum minimum overall remaining currently now today".split(" "),
]);

const ALNUM = /[\p{L}\p{N}]/u;

/** A letter or digit at `i` (ASCII by code, the rest by regex). */
function isAlnum(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return ALNUM.test(s[i]);
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isJoiner = (ch: string) => ch === "-" || ch === "_" || ch === "#" || ch === "/" || ch === ".";

/** The token around position `i`: letters and digits, joined by `-`, `_`, `#`, `/`, `.` between two of them. */
function tokenAround(s: string, i: number): [number, number] {
  let a = i;
  while (a > 0 && (isAlnum(s, a - 1) || (a >= 2 && isJoiner(s[a - 1]) && isAlnum(s, a - 2)))) a--;
  let b = i;
  while (b < s.length && (isAlnum(s, b) || (isJoiner(s[b]) && b + 1 < s.length && isAlnum(s, b + 1)))) b++;
  return [a, b];
}

/** `--MM-DD` for a day without its year, when the month has that day (29 February included). */
function yearlessDay(monthName: string, dayText: string): string | undefined {
  if (monthName[0] === monthName[0].toLowerCase()) return undefined; // "2 may be free": no date
  const m = monthOf(monthName);
  const d = Number(dayText);
  if (m < 1 || d < 1 || d > MONTH_DAYS[m - 1]) return undefined;
  return `--${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function clock(h: number, mi: number, ap: string | undefined): string | undefined {
  if (mi > 59) return undefined;
  if (ap !== undefined) {
    if (h < 1 || h > 12) return undefined;
    h = h % 12 + (ap.toLowerCase() === "p" ? 12 : 0);
  } else if (h > 23) return undefined;
  return `${String(h).padStart(2, "0")}:${String(mi).padStart(2, "0")}`;
}

/** True when the number starting at `start` follows a name word and one space (`Sprint 14`). */
function namedAt(s: string, start: number): boolean {
  const space = s[start - 1];
  if (space !== " " && space !== "\u00a0") return false;
  let j = start - 2;
  while (j >= 0 && isAlnum(s, j) && !isDigit(s.charCodeAt(j))) j--;
  if (j === start - 2) return false;
  const word = s.slice(j + 1, start - 1);
  const lower = word.toLowerCase();
  return word !== lower && !NOT_NAMES.has(lower);
}

/**
 * The numbers, days, times and labels `text` states (see the module comment for the rules):
 * `"Sprint 14 has 66 story points planned."` → numbers [66], labels [14]; `"On March 24 at 10:00 there were 3"` →
 * numbers [3], dates ["--03-24"], times ["10:00"]; `"Order SO-10242: $161.99"` → numbers [161.99].
 */
export function answerCandidates(text: string): AnswerCandidates {
  const out: AnswerCandidates = { numbers: [], dates: [], times: [], labels: [] };
  if (!DIGIT.test(text)) return out;
  const dateSpan = (span: string, ...args: unknown[]): string => {
    const g = args[args.length - 1] as Record<string, string | undefined>;
    let d: string | undefined;
    if (g.iso !== undefined) {
      d = firstDate(g.iso);
      if (g.th !== undefined) {
        const t = clock(Number(g.th), Number(g.tm), undefined);
        if (t) out.times.push(t);
      }
    } else if (g.full !== undefined || g.full2 !== undefined || g.full3 !== undefined) {
      d = firstDate(span);
    } else if (g.ym !== undefined || g.zm !== undefined) {
      d = g.ym !== undefined ? yearlessDay(g.ym, g.yd!) : yearlessDay(g.zm!, g.zd!);
      if (!d) return span;
    }
    if (d) out.dates.push(d);
    return FILL.repeat(span.length); // also an impossible day (2026-02-30): date-shaped, no quantity
  };
  const timeSpan = (span: string, ...args: unknown[]): string => {
    const g = args[args.length - 1] as Record<string, string | undefined>;
    const t = g.h !== undefined
      ? clock(Number(g.h), Number(g.mi), g.ap)
      : g.h2 !== undefined
      ? clock(Number(g.h2), 0, g.ap2)
      : clock(Number(g.h3), Number(g.m3), undefined);
    if (!t) return span;
    out.times.push(t);
    return FILL.repeat(span.length);
  };
  let s = DATE_HINT.test(text) ? text.replace(DATE_SPAN, dateSpan) : text;
  if (!DIGIT.test(s)) return out;
  if (TIME_HINT.test(s)) s = s.replace(TIME_SPAN, timeSpan);
  if (!DIGIT.test(s)) return out;
  let codeEnd = -1; // the end of the last code read: its further digits are skipped
  for (const m of s.matchAll(NUMBER_RUN)) {
    let run = m[0];
    let start = m.index;
    let sign = 1;
    if (run[0] === "-" || run[0] === "\u2212") {
      run = run.slice(1);
      start++;
      if (!(start >= 2 && isAlnum(s, start - 2))) sign = -1; // a dash after a letter or digit is no minus
    }
    if (start < codeEnd) continue;
    const [a, b] = tokenAround(s, start);
    if (a < start || b > start + run.length) { // more than the run's own digits: a code, or a number with a unit
      const tok = s.slice(a, b);
      if (HAS_LETTER.test(tok) && !UNIT.test(tok) && !CURRENCY_LEAD.test(tok)) {
        codeEnd = b;
        continue;
      }
    }
    const value = numberOfRun(run);
    if (value === undefined) continue;
    const n = sign * value;
    if (sign === 1 && (s[start - 1] === "#" || namedAt(s, start))) out.labels.push(n);
    else out.numbers.push(n);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Strict matching

/** Word families an answer may use only when the expected text does: bits of a mask. */
const NEGATION = 1;
const ALTERNATIVES = 2;
const UNCERTAINTY = 4;

const HEDGE_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}'’])(?:no|none|not|neither|nor|never|nothing|nobody|cannot|unavailable|or|either|` +
    String.raw`maybe|probably|possibly|perhaps)(?![\p{L}\p{N}'’])|(?<=\p{L})n['’]t(?![\p{L}\p{N}])`,
  "giu",
);
const FAMILY: Record<string, number> = {
  or: ALTERNATIVES,
  either: ALTERNATIVES,
  maybe: UNCERTAINTY,
  probably: UNCERTAINTY,
  possibly: UNCERTAINTY,
  perhaps: UNCERTAINTY,
};
// URLs and paths are not alternatives; a slash between two words is, a slash between two numbers (3/4) is not.
const URL_OR_PATH = /[a-z][a-z0-9+.-]*:\/\/\S*|(?<![\p{L}\p{N}])\/[\p{L}\p{N}][^\s]*/giu;
const SLASH = /\p{L}\s?\/\s?[\p{L}\p{N}$€£(]|[\p{N}%)]\s?\/\s?[\p{L}$€£(]/u;
const REGEX_ESCAPE = /\\[a-zA-Z]/g;

interface Hedge {
  family: number;
  word: string;
}

/** The negation, alternative and uncertainty words of a text, in order (a `/` between words is an alternative). */
function hedgesIn(text: string): Hedge[] {
  const out: Hedge[] = [];
  for (const m of text.matchAll(HEDGE_WORD)) {
    out.push({ family: FAMILY[m[0].toLowerCase()] ?? NEGATION, word: m[0] });
  }
  if (text.includes("/") && SLASH.test(text.replace(URL_OR_PATH, " "))) out.push({ family: ALTERNATIVES, word: "/" });
  return out;
}

function hedgeMask(text: string): number {
  let mask = 0;
  for (const h of hedgesIn(text)) mask |= h.family;
  return mask;
}

/** What a reference answer (the QA tier's `expected`) allows: its hedge words, and the values it states. */
interface Reference {
  mask: number;
  numbers: number[];
  dates: string[];
}

const references = new Map<string, Reference>();

function reference(text: string): Reference {
  let r = references.get(text);
  if (!r) {
    if (references.size > 1024) references.clear();
    const c = answerCandidates(text);
    r = { mask: hedgeMask(text), numbers: [...c.numbers, ...c.labels], dates: c.dates };
    references.set(text, r);
  }
  return r;
}

/** Per-matcher values computed once: the hedge words its expected text allows, its compiled regex, its day. */
interface Prepared {
  mask: number;
  re?: RegExp;
  day?: string;
}
const prepared = new WeakMap<object, Prepared>();

function prep(m: Exclude<Matcher, string | number>): Prepared {
  let p = prepared.get(m);
  if (!p) {
    if ("contains" in m) p = { mask: hedgeMask(String(m.contains)) };
    else if ("regex" in m) {
      p = { mask: hedgeMask(m.regex.replace(REGEX_ESCAPE, " ")), re: new RegExp(m.regex, m.flags) };
    } else if ("date" in m) p = { mask: 0, day: firstDate(m.date) };
    else p = { mask: 0 };
    prepared.set(m, p);
  }
  return p;
}

/** One answer under test, its readings computed on first use. */
class Reading {
  #candidates?: AnswerCandidates;
  #hedges?: Hedge[];
  constructor(readonly answer: string, readonly ref: Reference | undefined) {}
  /** The answer quoted, for reasons. */
  get q(): string {
    return quote(this.answer, 60);
  }
  get candidates(): AnswerCandidates {
    return this.#candidates ??= answerCandidates(this.answer);
  }
  get hedges(): Hedge[] {
    return this.#hedges ??= hedgesIn(this.answer);
  }
}

/**
 * Null when `answer` passes `m` under the strict rules (module comment), else a short reason:
 * `"66 or 61" states 2 numbers (66, 61) where one is asked: a hedge`. `others` names the other candidates of the
 * same kind (the other rooms): an answer naming one of them as whole words fails, unless the expected text contains
 * it. `reference` is a reference answer as a person wrote it (the QA tiers' `expected`): hedge words it uses are
 * allowed, and the numbers and days it states are context, not rival values.
 */
export function strictAnswerFailure(
  m: Matcher,
  answer: string,
  others?: readonly string[],
  reference_?: string,
): string | null {
  const r = new Reading(answer, reference_ === undefined ? undefined : reference(reference_));
  const fail = strict(m, r);
  if (fail !== null || !others?.length) return fail;
  const said = normaliseText(answer);
  const expected = expectedTexts(m).map(normaliseText);
  for (const other of others) {
    const o = normaliseText(other);
    if (!o || expected.some((e) => containsWords(e, o))) continue;
    if (containsWords(said, o)) return `${r.q} names ${quote(other)}, another candidate`;
  }
  return null;
}

/** What the rules tier made of an answer: passed, failed (why), or undecided (why: the judge's turn). */
export type AnswerDecision = { ok: true } | { ok: false; why: string } | { ok: null; why: string };

/** What decideStrictAnswer reads besides the matcher and the answer. */
export interface AnswerContext {
  /** The other candidates of the same kind (the other rooms): picking one fails. */
  others?: readonly string[];
  /** The task's instruction: the entity names it mentions may be repeated in an answer. */
  instruction?: string;
  /** A reference answer as a person wrote it (the QA tiers' `expected`). */
  reference?: string;
}

/** Decides an answer under the rules tier: pass, fail, or undecided (the judge decides). */
export function decideStrictAnswer(m: Matcher, answer: string, context: AnswerContext = {}): AnswerDecision {
  const why = strictAnswerFailure(m, answer, context.others, context.reference);
  return why === null ? { ok: true } : { ok: false, why };
}

function strict(m: Matcher, r: Reading): string | null {
  if (typeof m === "string") return testMatcher(m, r.answer) ? null : mismatch(m, r); // equal texts hedge alike
  // A value stated and denied ("It was not $161.99.") is no answer: numbers and dates take no negation either.
  const typed = typeof m === "number" || (typeof m === "object" && ("number" in m || "date" in m));
  if (typed) {
    const allowed = ((r.ref?.mask ?? 0) & NEGATION) !== 0; // the reference itself negates
    const denied = allowed ? undefined : r.hedges.find((h) => h.family === NEGATION);
    if (denied) return `${r.q} says ${quote(denied.word)}, a negation: the value is denied, not stated`;
  }
  if (typeof m === "number") return numberFailure(m, m, 1e-9, r);
  if ("present" in m || "not" in m) return testMatcher(m, r.answer) ? null : mismatch(m, r);
  if ("one_of" in m) return oneOfFailure(m, r);
  if ("exact" in m) return r.answer.trim() === String(m.exact).trim() ? null : mismatch(m, r);
  if ("norm" in m) return testMatcher(m, r.answer) ? null : mismatch(m, r);
  if ("number" in m) return numberFailure(m, m.number, m.tol ?? 1e-9, r);
  if ("date" in m) return dateFailure(m, r);
  const p = prep(m);
  const passes = "regex" in m ? p.re!.test(r.answer) : testMatcher(m, r.answer);
  if (!passes) return mismatch(m, r);
  const allowed = p.mask | (r.ref?.mask ?? 0);
  const h = r.hedges.find((h) => (h.family & allowed) === 0);
  if (!h) return null;
  if (h.family === NEGATION) return `${r.q} says ${quote(h.word)}, a negation the expected text does not have`;
  if (h.family === ALTERNATIVES) return `${r.q} joins alternatives with ${quote(h.word)}: a hedge`;
  return `${r.q} hedges with ${quote(h.word)}`;
}

function mismatch(m: Matcher, r: Reading): string {
  return `${r.q} does not match ${describeMatcher(m)}`;
}

const within = (v: number, want: number, tol: number) => Math.abs(v - want) <= tol + 1e-12;

function numberFailure(m: Matcher, want: number, tol: number, r: Reading): string | null {
  const c = r.candidates;
  const values = [...new Set(c.numbers.length > 0 ? c.numbers : c.labels)];
  if (values.length === 0) return `${r.q} states no number`;
  const hit = values.some((v) => within(v, want, tol));
  const context = r.ref?.numbers;
  if (hit && values.every((v) => within(v, want, tol) || context?.includes(v))) return null;
  return valuesFailure(r, values, "number", hit, m);
}

/** Same day: equal, or a day without its year whose month and day are the expected ones. */
const sameDay = (d: string, want: string) => d === want || (d.startsWith("--") && want.endsWith(d.slice(1)));

function dateFailure(m: { date: string }, r: Reading): string | null {
  const want = prep(m).day!;
  const all = [...new Set(r.candidates.dates)];
  const full = all.filter((d) => !d.startsWith("--"));
  const days = all.filter((d) => !d.startsWith("--") || !full.some((f) => sameDay(d, f))); // "March 24 (2026-03-24)"
  if (days.length === 0) return `${r.q} states no date`;
  const hit = days.some((d) => sameDay(d, want));
  const context = r.ref?.dates;
  if (hit && days.every((d) => sameDay(d, want) || context?.some((x) => sameDay(d, x) || sameDay(x, d)))) return null;
  return valuesFailure(r, days, "date", hit, m);
}

function valuesFailure(r: Reading, values: (number | string)[], kind: string, hit: boolean, m: Matcher): string {
  if (values.length === 1) return `${r.q} states ${values[0]}, not ${describeMatcher(m)}`;
  const list = `${values.length} ${kind}s (${values.join(", ")})`;
  return hit
    ? `${r.q} states ${list} where one is asked: a hedge`
    : `${r.q} states ${list}, none ${describeMatcher(m)}`;
}

function oneOfFailure(m: { one_of: Matcher[] }, r: Reading): string | null {
  const passing: Matcher[] = [];
  let loose: string | null = null; // why an alternative the plain matcher passes fails strictly
  for (const alt of m.one_of) {
    const fail = strict(alt, r);
    if (fail === null) passing.push(alt);
    else if (loose === null && testMatcher(alt, r.answer)) loose = fail;
  }
  if (passing.length === 0) return loose ?? mismatch(m, r);
  if (passing.length === 1) return null;
  const found = passing.map((alt) => foundText(alt, r)).filter((t): t is string => t !== undefined);
  const longest = found.reduce((a, b) => (b.length > a.length ? b : a), "");
  if (found.every((t) => longest.includes(t))) return null;
  return `${r.q} passes ${passing.length} alternatives that disagree (${
    passing.map(describeMatcher).join(" | ")
  }): a hedge`;
}

/**
 * The text an alternative found in the answer, normalised (two passing alternatives agree when one's text contains
 * the other's); undefined for typed and structural ones, which passed on the answer's single value or none.
 */
function foundText(m: Matcher, r: Reading): string | undefined {
  if (typeof m === "string") return normaliseText(r.answer);
  if (typeof m === "number") return undefined;
  if ("exact" in m || "norm" in m) return normaliseText(r.answer);
  if ("contains" in m) return normaliseText(String(m.contains));
  if ("regex" in m) return normaliseText(prep(m).re!.exec(r.answer)?.[0] ?? "");
  return undefined;
}

/** The texts a matcher expects (for `others`: a candidate the expected text names is no other). */
function expectedTexts(m: Matcher): string[] {
  if (typeof m === "string" || typeof m === "number") return [String(m)];
  if ("exact" in m) return [String(m.exact)];
  if ("norm" in m) return [String(m.norm)];
  if ("contains" in m) return [String(m.contains)];
  if ("number" in m) return [String(m.number)];
  if ("date" in m) return [m.date];
  if ("one_of" in m) return m.one_of.flatMap(expectedTexts);
  return [];
}
