/**
 * The rules tier of answer grading: an answer read to the last word, and passed only when every word of it is
 * accounted for. Pure, no I/O; every regular expression is compiled once, here; what a matcher, an instruction and
 * a reference answer make known is computed once and cached.
 *
 * **Reading.** An answer is read into tokens, in this order, each step blanking what it took so later steps skip it:
 *
 * 1. **Links and e-mail addresses** (`marcus.chen@sandbox.test`, `https://h/x`): codes.
 * 2. **Dates**: the formats of text.ts (`2026-03-20`, an ISO timestamp, `March 20, 2026`, `20 Mar 2026`,
 *    `03/20/2026`), a day without its year (`March 17`, `17 March`, with a capitalised month) as `--MM-DD`, a month
 *    with its year (`March 2026`, no day). An ISO date glued to a code (`INV-2026-03-12`) is part of that code.
 * 3. **Times**: `14:00`, `9:30`, `10:00:00`, `2 pm`, `2:30pm`, `2 p.m.`, `14h00`, as `HH:MM` (24 h); an ISO
 *    timestamp's time too. Impossible ones (`25:70`) are not times.
 * 4. **Codes** (identifiers): letters and digits joined directly or by `-`, `_`, `#`, `/`, `.` that have both
 *    (`SO-10242`, `WEB-8`, `MOB15`, `v2`, `5-star`), or capitals joined by `-` (`BK-KHCFG`). A number followed only
 *    by letters is a number with its unit (`64GB`, `5kg`, `3rd`); a currency code before one is no code
 *    (`USD161.99`).
 * 5. **Numbers**: the grammar of text.ts (`1234.5`, `1,234.50`; `12,5` is none). A number right after a capitalised
 *    word and one space names a thing (`Sprint 14`, `Room 3`, `iPhone 15`): a *label*, unless that word is a
 *    currency code or one of NOT_NAMES (`Total 66`, `About 66`, `In 2024`); `#12` is a label too. Labels stand in for
 *    numbers only when an answer states no number at all (`Room 3` answers `{"number": 3}`).
 * 6. **Words and punctuation**: the rest; number words are numbers (`eight`, `twelve`, `sixty-six`, `one hundred
 *    and five`; `one` after the/this/that/which/each/every/any/another/no is a pronoun). Digit groups joined by
 *    spaces or dashes (`4111-1111-1111-1111`) are one number when their digits are the expected ones (the apps strip
 *    the separators).
 *
 * `answerCandidates` lists the values of steps 2 to 5 (dates, times, numbers, labels).
 *
 * **Accounted for.** A token of the answer is accounted for when it is:
 *
 * - **the expected value**: a number within tolerance (`$161.99`, `161.99 USD`, `USD 161.99`, `eight`); the day
 *   (`March 20` for 2026-03-20: an unstated year is no wrong year); the text a regex matches; a word, number or
 *   code of the expected text (`{"contains": "MOB-15"}`);
 * - **a unit**: UNITS (story points, points, issues, units, seats, people, guests, minutes, days, kg, GB, %, the
 *   currency codes and names, ...), or letters glued after a number (`64GB`, `3rd`);
 * - **framing**: FRAMING (`a an the of in for on at across per with from to by and is are was were be been it its
 *   this that these those they there here then such which has have had answer total result cost costs`: "The answer
 *   is", "It was", "The total is", "There are 8 such issues"), and punctuation (`. , : ; ! ( ) [ ] { } " ' * _ $ € £
 *   ¥ % # & -`; a dash between two values is a range, and `?`, `~`, `<`, `>`, `+`, `/`, `=` are never framing);
 * - **a word of the task**: a word of the instruction (`context.instruction`), of the reference answer, or of the
 *   expected text, compared by stem (`issue`/`issues`, `improve`/`improved`); a negation, alternative or
 *   uncertainty word whose family the expected text or the reference uses (`can't` when the reference says `not`).
 *   For a text matcher (and a regex matching words only) the instruction's *names* (capitalised words not opening a
 *   sentence) other than the expected text's are not accounted when they may be the rivals the answer must not pick:
 *   the task lists no candidates (`others`), or the name is a word of one (`Dana Whitfield booked Harbor` passes
 *   when Harbor is the question's room and the candidates are people);
 * - **another name of the expected thing a screen shows**: words a screen the agent saw shows in parentheses beside
 *   the expected text, or holding it in parentheses (`Mobile App (MOB)`: `MOB`), for a text matcher, when no rival
 *   is named;
 * - **an identifier's record**: a head word before a code (`Order SO-10242`: ID_HEADS); for a number, date or value
 *   regex, a capitalised word in the clause of an accounted code names that record (`(invoice NW-5521 from
 *   Northwind)`, `Marcus Chen's email address is marcus.chen@sandbox.test`); a weekday when the answer states a date;
 * - **a value besides the expected one** (context), when the task or the reference states it: a number, day, time
 *   or code the instruction, the reference or the expected text states (`Sprint 14` when the instruction names
 *   Sprint 14); a time right after the stated day (`17 March 2026 at 14:00`); a code, when neither the instruction
 *   nor the reference names any code and the asked value is no code (`Order SO-10242: $161.99`); a number *labelled
 *   context*: directly followed by a noun the instruction or the reference uses that is not the expected value's
 *   unit (`66 story points across 11 issues`, the instruction mentioning issues). A bare number, or one with the
 *   expected value's unit, is a *second value* (a connector — or, to, and, maybe, `,`, `-`, `/` — passes a unit on:
 *   `66 or 61 points`), accounted only when the task states it; so is a second day, time or code of the asked kind.
 *
 * Anything else is not accounted for: hedges ("I think", "about", "at least", "roughly", "probably"), qualifiers
 * ("the smallest", "still in transit", "the fewest", "fell", "only", "not"), extra claims ("2025:" when the task
 * names no 2025), a second value, another candidate named beside the expected one. A day the task states without
 * its year accounts for an answer's day in a year the task states only (`March 20, 2025` is no `March 20` of 2026).
 *
 * **Another year.** When the expected value holds a day or month and the task states its year (the expected date's,
 * the instruction's or the reference's), an answer naming another year (`2025-03-20`, `20 March (2025)`, `March 20,
 * in 2025`) fails.
 *
 * **Decision** (decideStrictAnswer), in order:
 *
 * | the answer                                                                              | decision        |
 * | --------------------------------------------------------------------------------------- | --------------- |
 * | states no value of the asked type, or does not hold the expected text                   | fail (`absent`) |
 * | names another candidate (`others`) and not the expected one                              | fail            |
 * | states values of the asked type, none the expected one (`61` for 66; `Between 30 and 40`) | fail            |
 * | denies every expected value it states: a negation earlier in its clause ("It was not $161.99.") | fail    |
 * | states the expected value, every token accounted for                                    | pass            |
 * | states the expected value, anything unaccounted (`66 or 61`, `Harbor; Aurora is booked`) | undecided       |
 *
 * So a right value beside a wrong one is undecided (the judge reads it), never a pass; a fail is reserved for an
 * answer that does not state the expected value at all, or denies it. `exact` is exact after trimming outer white
 * space (a card number's groups joined); `present` and `not` are as testMatcher has them; a regex passes when it
 * matches the whole trimmed answer (`^(?:X)$`), or when its match leaves only accounted tokens around it; `norm`,
 * `text` and bare strings pass when equal, else are read as `contains`. `one_of`: two alternatives whose matched
 * texts disagree (`Harbor and Summit`) are undecided; else the first passing alternative passes, an undecided one
 * leaves the answer undecided, and a fail is the fail of an alternative the plain matcher passes.
 */
import { describeMatcher, testMatcher } from "./matcher.ts";
import { firstDate, type Matcher, monthOf, MONTHS, ORD, quote } from "../protocol/mod.ts";
import { containsWords, normaliseText, NUMBER_RUN, numberOfRun, phrasePattern } from "./text.ts";

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

// ---------------------------------------------------------------------------------------------------------------
// Tokens: an answer read once into its values, words and punctuation

/** What a token is: a value (`number`, `label`, `code`, `date`, `time`), a `word`, or one `punct` character. */
type Kind = "word" | "punct" | "number" | "label" | "code" | "date" | "time";

interface Token {
  kind: Kind;
  /** Its span in the text read. */
  start: number;
  end: number;
  /**
   * word: lower case, `'` for `’`, a possessive `'s` taken off; punct: the character; code: lower case; date:
   * `YYYY-MM-DD`, `--MM-DD`, `YYYY-MM` (a month), or "" (an impossible day); time: `HH:MM`.
   */
  key: string;
  /** number and label: the value. */
  n?: number;
  /** number: written in words (`sixty-six`). */
  spoken?: boolean;
  /** date: the time of an ISO timestamp. */
  t?: string;
  /** White space (or the start) before it. */
  spaced: boolean;
  /** word: it starts with a capital letter. */
  cap?: boolean;
}

// Links and e-mail addresses: codes, read before dates and numbers (a URL holds both).
const LINK = new RegExp(
  String.raw`\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'()[\]]*[^\s<>"'()[\].,;:!?]|` +
    String.raw`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}`,
  "giu",
);
const LINK_HINT = /@|:\/\//;
const YEAR = /\d{4}/;
// What the values leave: words (letters and digits, joined by an apostrophe, `-` or `_`) and single characters.
const RESIDUAL = new RegExp(
  String.raw`[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+|[-_][\p{L}\p{M}\p{N}]+)*|[^\s${FILL}]`,
  "gu",
);
const CODE_WORD = /^\p{Lu}{2,}(?:-\p{Lu}+)+$/u; // BK-KHCFG: letters only, still an identifier
const CAPITAL = /^\p{Lu}/u;
const SPACE = /\s/;
const TRAILING = /[.,]+$/;
const POSSESSIVE = /'s$|'$/;

const NUMBER_WORDS = new Map<string, number>([
  ..."zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
    .split(" ").map((w, i) => [w, i] as [string, number]),
  ..."twenty thirty forty fifty sixty seventy eighty ninety".split(" ").map((w, i) =>
    [w, 20 + 10 * i] as [string, number]
  ),
  ["hundred", 100],
  ["thousand", 1000],
  ["million", 1e6],
]);
// "the one in Harbor": after these words `one` is a pronoun, no number.
const DETERMINERS = new Set("the this that which each every any another no".split(" "));

function spokenParts(key: string): string[] | undefined {
  const parts = key.split("-");
  return parts.every((p) => NUMBER_WORDS.has(p)) ? parts : undefined;
}

/** The value of number words in order (`sixty six`, `one hundred and five`). */
function spokenValue(parts: string[]): number {
  let total = 0;
  let cur = 0;
  for (const p of parts) {
    const v = NUMBER_WORDS.get(p)!;
    if (v === 100) cur = (cur || 1) * 100;
    else if (v >= 1000) {
      total += (cur || 1) * v;
      cur = 0;
    } else cur += v;
  }
  return total + cur;
}

/** The tokens of `text`, in order (see the module comment): values first, then words and punctuation. */
function readTokens(text: string): Token[] {
  const values: Token[] = [];
  const spacedAt = (i: number) => i === 0 || SPACE.test(text[i - 1]);
  const push = (kind: Kind, start: number, end: number, key: string, extra?: Partial<Token>) => {
    values.push({ kind, start, end, key, spaced: spacedAt(start), ...extra });
  };
  let s = text;
  if (LINK_HINT.test(s)) {
    s = s.replace(LINK, (span: string, at: number) => {
      push("code", at, at + span.length, span.toLowerCase());
      return FILL.repeat(span.length);
    });
  }
  if (DIGIT.test(s) && DATE_HINT.test(s)) {
    s = s.replace(DATE_SPAN, (span: string, ...args: unknown[]) => {
      const g = args[args.length - 1] as Record<string, string | undefined>;
      const at = args[args.length - 3] as number;
      let key = "";
      let t: string | undefined;
      if (g.iso !== undefined) {
        key = firstDate(g.iso) ?? "";
        if (g.th !== undefined) t = clock(Number(g.th), Number(g.tm), undefined);
      } else if (g.full !== undefined || g.full2 !== undefined || g.full3 !== undefined) {
        key = firstDate(span) ?? "";
      } else if (g.ym !== undefined || g.zm !== undefined) {
        const d = g.ym !== undefined ? yearlessDay(g.ym, g.yd!) : yearlessDay(g.zm!, g.zd!);
        if (!d) return span;
        key = d;
      } else key = `${YEAR.exec(span)![0]}-${String(monthOf(span)).padStart(2, "0")}`; // a month: no day
      push("date", at, at + span.length, key, t === undefined ? undefined : { t });
      return FILL.repeat(span.length); // also an impossible day (2026-02-30): date-shaped, no quantity
    });
  }
  if (DIGIT.test(s) && TIME_HINT.test(s)) {
    s = s.replace(TIME_SPAN, (span: string, ...args: unknown[]) => {
      const g = args[args.length - 1] as Record<string, string | undefined>;
      const at = args[args.length - 3] as number;
      const t = g.h !== undefined
        ? clock(Number(g.h), Number(g.mi), g.ap)
        : g.h2 !== undefined
        ? clock(Number(g.h2), 0, g.ap2)
        : clock(Number(g.h3), Number(g.m3), undefined);
      if (!t) return span;
      push("time", at, at + span.length, t);
      return FILL.repeat(span.length);
    });
  }
  const taken: Token[] = []; // numbers, labels and codes, to blank before the words are read
  if (DIGIT.test(s)) {
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
          taken.push({ kind: "code", start: a, end: b, key: tok.toLowerCase(), spaced: spacedAt(a) });
          continue;
        }
      }
      const value = numberOfRun(run);
      if (value === undefined) continue;
      const from = sign === -1 ? start - 1 : start;
      const end = start + run.replace(TRAILING, "").length;
      const label = sign === 1 && (s[start - 1] === "#" || namedAt(s, start));
      taken.push({
        kind: label ? "label" : "number",
        start: from,
        end,
        key: "",
        n: sign * value,
        spaced: spacedAt(from),
      });
    }
  }
  if (taken.length > 0) {
    let blanked = "";
    let at = 0;
    for (const t of taken) {
      blanked += s.slice(at, t.start) + FILL.repeat(t.end - t.start);
      at = t.end;
    }
    s = blanked + s.slice(at);
  }
  const rest: Token[] = [];
  for (const m of s.matchAll(RESIDUAL)) {
    const w = m[0];
    const start = m.index;
    const spaced = spacedAt(start);
    if (w.length === 1 && !ALNUM.test(w)) {
      rest.push({ kind: "punct", start, end: start + 1, key: w, spaced });
    } else if (CODE_WORD.test(w)) {
      rest.push({ kind: "code", start, end: start + w.length, key: w.toLowerCase(), spaced });
    } else {
      const key = w.toLowerCase().replaceAll("’", "'").replace(POSSESSIVE, "");
      rest.push({ kind: "word", start, end: start + w.length, key, spaced, cap: CAPITAL.test(w) });
    }
  }
  const all = values.length + taken.length === 0
    ? rest
    : [...values, ...taken, ...rest].sort((x, y) => x.start - y.start);
  return spokenNumbers(all);
}

/** Number words read as numbers: `eight`, `sixty-six`, `one hundred and five` (a run of them is one number). */
function spokenNumbers(toks: Token[]): Token[] {
  let out: Token[] | undefined;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const parts = t.kind === "word" && NUMBER_WORDS.has(t.key.split("-")[0]) ? spokenParts(t.key) : undefined;
    if (!parts) {
      out?.push(t);
      continue;
    }
    const prev = toks[i - 1];
    if (t.key === "one" && prev?.kind === "word" && DETERMINERS.has(prev.key)) {
      out?.push(t);
      continue;
    }
    const all = [...parts];
    let j = i;
    for (;;) {
      const next = toks[j + 1];
      if (next?.kind !== "word" || !next.spaced) break;
      let more = spokenParts(next.key);
      let skip = 1;
      if (!more && next.key === "and" && NUMBER_WORDS.get(all[all.length - 1])! >= 100) {
        const after = toks[j + 2];
        more = after?.kind === "word" && after.spaced ? spokenParts(after.key) : undefined;
        skip = 2;
      }
      if (!more) break;
      all.push(...more);
      j += skip;
    }
    out ??= toks.slice(0, i);
    out.push({
      kind: "number",
      start: t.start,
      end: toks[j].end,
      key: "",
      n: spokenValue(all),
      spoken: true,
      spaced: t.spaced,
    });
    i = j;
  }
  return out ?? toks;
}

// One reading kept: the QA tiers and the alternatives of one_of read the same answer in turn.
let lastText: string | undefined;
let lastTokens: Token[] = [];

function tokensOf(text: string): Token[] {
  if (text !== lastText) {
    lastTokens = readTokens(text);
    lastText = text;
  }
  return lastTokens;
}

/**
 * The numbers, days, times and labels `text` states (see the module comment for the rules):
 * `"Sprint 14 has 66 story points planned."` → numbers [66], labels [14]; `"On March 24 at 10:00 there were 3"` →
 * numbers [3], dates ["--03-24"], times ["10:00"]; `"Order SO-10242: $161.99"` → numbers [161.99]. Numbers written
 * in words are not among them (the strict rules read them).
 */
export function answerCandidates(text: string): AnswerCandidates {
  const out: AnswerCandidates = { numbers: [], dates: [], times: [], labels: [] };
  if (!DIGIT.test(text)) return out;
  for (const t of tokensOf(text)) {
    if (t.kind === "number" && !t.spoken) out.numbers.push(t.n!);
    else if (t.kind === "label") out.labels.push(t.n!);
    else if (t.kind === "time") out.times.push(t.key);
    else if (t.kind === "date") {
      if (t.key.length === 10 || t.key.startsWith("--")) out.dates.push(t.key);
      if (t.t) out.times.push(t.t);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// What a task, a reference answer and a matcher's expected text make known

/** Word families: the negation, alternative and uncertainty words. Bits of a mask. */
const NEGATION = 1;
const ALTERNATIVES = 2;
const UNCERTAINTY = 4;

const FAMILY = new Map<string, number>([
  ...["no", "none", "not", "neither", "nor", "never", "nothing", "nobody", "cannot", "unavailable"].map((
    w,
  ) => [w, NEGATION] as [string, number]),
  ["or", ALTERNATIVES],
  ["either", ALTERNATIVES],
  ...["maybe", "probably", "possibly", "perhaps"].map((w) => [w, UNCERTAINTY] as [string, number]),
]);

function familyOf(key: string): number {
  return FAMILY.get(key) ?? (key.endsWith("n't") ? NEGATION : 0);
}

// A slash between words is an alternative (`Harbor/Summit`); URLs and paths are not, nor a slash between numbers.
const URL_OR_PATH = /[a-z][a-z0-9+.-]*:\/\/\S*|(?<![\p{L}\p{N}])\/[\p{L}\p{N}][^\s]*/giu;
const SLASH = /\p{L}\s?\/\s?[\p{L}\p{N}$€£(]|[\p{N}%)]\s?\/\s?[\p{L}$€£(]/u;

/** Value kinds, bits of a mask: what a matcher asks for, or what its expected text holds. */
const K_NUMBER = 1;
const K_DATE = 2;
const K_TIME = 4;
const K_CODE = 8;
const KIND_BIT: Partial<Record<Kind, number>> = {
  number: K_NUMBER,
  label: K_NUMBER,
  date: K_DATE,
  time: K_TIME,
  code: K_CODE,
};

/** What a text (an instruction, a reference answer, a matcher's expected text) makes known. */
interface Known {
  /** Its words, stemmed (`issues` → `issu`), the parts of its codes among them; `%` when it has a percentage. */
  words: Set<string>;
  /** The stems of its names: capitalised words that do not open a sentence. */
  names: Set<string>;
  numbers: number[];
  /** Days (`YYYY-MM-DD`, `--MM-DD`) and months (`YYYY-MM`). */
  dates: string[];
  times: string[];
  codes: Set<string>;
  /** The word families it uses. */
  mask: number;
  /** The value kinds it holds. */
  kinds: number;
}

const SENTENCE_END = new Set([".", "?", "!", ":", ";"]);
const CODE_PARTS = /[^\p{L}\p{N}]+/u;

function learn(text: string): Known {
  const k: Known = {
    words: new Set(),
    names: new Set(),
    numbers: [],
    dates: [],
    times: [],
    codes: new Set(),
    mask: 0,
    kinds: 0,
  };
  let opening = true;
  for (const t of readTokens(text)) {
    k.kinds |= KIND_BIT[t.kind] ?? 0;
    if (t.kind === "word") {
      const st = stem(t.key);
      k.words.add(st);
      if (t.cap && !opening) k.names.add(st);
      if (st === "percent" || st === "percentag") k.words.add("%");
      k.mask |= familyOf(t.key);
    } else if (t.kind === "punct") {
      if (t.key === "%") k.words.add("%");
    } else if (t.kind === "number" || t.kind === "label") k.numbers.push(t.n!);
    else if (t.kind === "date") {
      if (t.key) k.dates.push(t.key);
      if (t.t) k.times.push(t.t);
    } else if (t.kind === "time") k.times.push(t.key);
    else if (t.kind === "code") {
      k.codes.add(t.key);
      for (const p of t.key.split(CODE_PARTS)) if (p.length > 1) k.words.add(stem(p));
    }
    opening = t.kind === "punct" && SENTENCE_END.has(t.key);
  }
  if (text.includes("/") && SLASH.test(text.replace(URL_OR_PATH, " "))) k.mask |= ALTERNATIVES;
  return k;
}

const learned = new Map<string, Known>();

function knownOf(text: string): Known {
  let k = learned.get(text);
  if (!k) {
    if (learned.size > 512) learned.clear();
    learned.set(text, k = learn(text));
  }
  return k;
}

/** A word's stem for comparing forms: `issues`/`issue` → `issu`, `improved`/`improve` → `improv`, `seats` → `seat`. */
function stem(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  let s = w;
  if (s.length > 5 && s.endsWith("ing")) s = s.slice(0, -3);
  else if (s.length > 4 && (s.endsWith("ed") || s.endsWith("es"))) s = s.slice(0, -2);
  else if (s.length > 3 && s.endsWith("s") && !s.endsWith("ss")) s = s.slice(0, -1);
  if (s.length > 3 && s.endsWith("e")) s = s.slice(0, -1);
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// The closed lists (module comment)

/** Neutral framing: words that may stand anywhere in an answer. */
const FRAMING = new Set(
  ("a an the of in for on at across per with from to by and " +
    "is are was were be been it its it's this that these those they there here then such which " +
    "has have had answer total result cost costs")
    .split(" "),
);

/** Units, stemmed: accounted anywhere. */
const UNITS = new Set(
  ("story percentage point points pts issues tickets tasks items units pieces pcs seats people persons guests " +
    "users customers orders employees members rooms nights days hours hrs minutes mins seconds secs weeks months " +
    "years kg g lb lbs oz km m cm mm mi miles ft l ml gb mb tb kb percent stars votes reviews comments messages " +
    "emails bookings sales products copies times dollars dollar euros euro pounds pound cents cent yen")
    .split(" ").concat(CURRENCY_CODES).map(stem),
);

/** Words that name a record before its identifier (`Order SO-10242`). */
const ID_HEADS = new Set(
  "order invoice ticket issue booking reservation item product sku id ref reference case task account card customer user employee message"
    .split(" "),
);

const WEEKDAYS = new Set(
  "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun".split(" "),
);

/** Hedges and qualifiers: never a name, even with a capital letter (`(Probably NW-5521)`). */
const QUALIFIERS = new Set(
  ("about around roughly approximately approx nearly almost over under above below least most only still just " +
    "also even likely unlikely think believe guess seems apparently maybe perhaps probably possibly not no")
    .split(" "),
);

/** Punctuation that frames (a dash too, but not between two values: `5-7` is a range). */
const PUNCT_OK = new Set([..."., :;!()[]{}\"'`*_$€£¥%#&“”‘’«»-–—"].filter((c) => c !== " "));
const DASHES = new Set(["-", "–", "—"]);
/** Where a clause ends: a negation before a value denies it only within its clause. */
const CLAUSE_END = new Set([".", ",", ";", ":", "!", "?", "(", ")", "[", "]", "—"]);
/** Connectors between two values: a bare number takes the unit of the one it is joined to (`66 or 61 points`). */
const CONNECTOR_WORDS = new Set("or to and either nor maybe perhaps possibly probably vs versus".split(" "));
const CONNECTOR_PUNCT = new Set([",", "-", "–", "—", "/", "&"]);

const isValue = (t: Token | undefined) =>
  t !== undefined && (t.kind === "number" || t.kind === "label" || t.kind === "date" || t.kind === "time");
const isConnector = (t: Token) =>
  (t.kind === "word" && CONNECTOR_WORDS.has(t.key)) || (t.kind === "punct" && CONNECTOR_PUNCT.has(t.key));

/**
 * The unit of the number at `i`: the word right after it (stemmed; `%` for a percentage), "" for none; a bare number
 * joined to another by a connector takes that one's (`66 or 61 points`: both are points).
 */
function unitOf(toks: readonly Token[], i: number): string {
  const next = toks[i + 1];
  if (!next) return "";
  if (next.kind === "punct" && next.key === "%") return "%";
  if (next.kind === "word" && !FRAMING.has(next.key) && !CONNECTOR_WORDS.has(next.key)) return stem(next.key);
  let j = i + 1;
  while (j < toks.length && isConnector(toks[j])) j++;
  return j > i + 1 && toks[j]?.kind === "number" ? unitOf(toks, j) : "";
}

// ---------------------------------------------------------------------------------------------------------------
// Strict matching

/** What the rules tier made of an answer: passed, failed (why), or undecided (why: the judge's turn). */
export type AnswerDecision =
  | { ok: true }
  | {
    ok: false;
    why: string;
    /** The answer states no value of the asked type (a number, a date) or does not contain the expected text. */
    absent?: true;
  }
  | { ok: null; why: string };

/** What decideStrictAnswer reads besides the matcher and the answer. */
export interface AnswerContext {
  /** The other candidates of the same kind (the other rooms): picking one fails, naming one beside is undecided. */
  others?: readonly string[];
  /** The task's instruction: the words and values it uses may be repeated in an answer. */
  instruction?: string;
  /** A reference answer as a person wrote it (the QA tiers' `expected`): its words and values are accounted too. */
  reference?: string;
  /**
   * The texts of the screens the agent saw: a run of words a screen shows in parentheses beside the expected text
   * (`Payments API (API)`), or the expected text in parentheses beside it, names the same thing and is accounted.
   */
  shown?: readonly string[];
}

/** Per-matcher values computed once. */
interface Prepared {
  /** What the expected text makes known. */
  exp: Known;
  /** The expected texts, normalised (a candidate they name is no rival). */
  texts: string[];
  /** contains, norm: the normalised expected text. */
  norm?: string;
  /** regex: the pattern as written, and anchored to the whole answer. */
  re?: RegExp;
  whole?: RegExp;
  /** date: the day. */
  day?: string;
  /** A long digit string expected (a card number): the answer may group its digits. */
  digits?: string;
}

const prepared = new WeakMap<object, Prepared>();
const preparedBare = new Map<string, Prepared>();
const REGEX_ESCAPE = /\\[a-zA-Z]/g; // \b, \d, \s: no text
const REGEX_LITERAL = /\\([^a-zA-Z0-9])/g; // \. \$ \(: the character itself
const LONG_DIGITS = /^\d{8,}$/;

function prep(m: Matcher): Prepared {
  if (typeof m !== "object") {
    const key = `${typeof m}:${m}`;
    let p = preparedBare.get(key);
    if (!p) {
      if (preparedBare.size > 1024) preparedBare.clear();
      preparedBare.set(key, p = makePrepared(m));
    }
    return p;
  }
  let p = prepared.get(m);
  if (!p) prepared.set(m, p = makePrepared(m));
  return p;
}

function makePrepared(m: Matcher): Prepared {
  const texts = expectedTexts(m);
  const source = typeof m === "object" && "regex" in m
    ? m.regex.replace(REGEX_ESCAPE, " ").replace(REGEX_LITERAL, "$1")
    : texts.join("\n");
  const p: Prepared = { exp: knownOf(source), texts: texts.map(normaliseText) };
  if (typeof m === "number") {
    if (Number.isInteger(m) && Math.abs(m) >= 1e7) p.digits = String(Math.abs(m));
  } else if (typeof m === "string") {
    p.norm = normaliseText(m);
    if (LONG_DIGITS.test(m.trim())) p.digits = m.trim();
  } else if ("regex" in m) {
    p.re = new RegExp(m.regex, m.flags);
    p.whole = new RegExp(`^(?:${m.regex})$`, m.flags);
  } else if ("date" in m) p.day = firstDate(m.date);
  else if ("number" in m) {
    if (Number.isInteger(m.number) && Math.abs(m.number) >= 1e7) p.digits = String(Math.abs(m.number));
  } else if ("contains" in m || "norm" in m || "text" in m || "exact" in m) {
    const text = String("contains" in m ? m.contains : "norm" in m ? m.norm : "text" in m ? m.text : m.exact);
    p.norm = normaliseText(text);
    if (LONG_DIGITS.test(text.trim())) p.digits = text.trim();
  }
  return p;
}

// Digit groups joined by single spaces or dashes (`4111-1111-1111-1111`): one card number when its digits are the
// expected ones (the app strips the separators).
const DIGIT_GROUPS = /(?<![\p{L}\p{N}])\d{2,6}(?:[ -]\d{2,6})+(?![\p{L}\p{N}])/gu;
const GROUP_HINT = /\d[ -]\d/;
const GROUP_SEP = /[ -]/g;
const CARD_ONLY = /^\d[\d -]*\d$/;

function cardText(answer: string, digits: string | undefined): string {
  if (digits === undefined || !GROUP_HINT.test(answer)) return answer;
  return answer.replace(DIGIT_GROUPS, (g) => g.replace(GROUP_SEP, "") === digits ? digits : g);
}

/** One answer under test: the text read (a card number's groups joined), its tokens, the answer quoted for reasons. */
class Reading {
  readonly tokens: Token[];
  constructor(readonly answer: string, readonly text: string) {
    this.tokens = tokensOf(text);
  }
  get q(): string {
    return quote(this.answer, 60);
  }
}

/** The context of one decision: what the expected text, the reference and the instruction make known. */
interface Cx {
  p: Prepared;
  ref?: Known;
  ins?: Known;
  others?: readonly string[];
  /** The word stems of the other candidates: an instruction's name among them is never accounted. */
  otherWords?: ReadonlySet<string>;
  /** The screens the agent saw (AnswerContext.shown). */
  shown?: readonly string[];
  /** The matcher's expected texts as written (what a screen shows beside a synonym). */
  expected: readonly string[];
  /**
   * A text matcher (or a regex matching words only): the instruction's names that may be candidates (the task lists
   * none, or they are words of one) are not accounted, and no capitalised word names an identifier's record.
   */
  text: boolean;
}

/**
 * Decides an answer under the rules tier (module comment): `{ok: true}` only when every word is accounted for,
 * `{ok: false}` for a wrong value, a rival picked or a value denied, `{ok: null}` (undecided: the judge decides) when
 * the answer states the expected value with words the rules cannot account for.
 */
export function decideStrictAnswer(m: Matcher, answer: string, context: AnswerContext = {}): AnswerDecision {
  const ref = context.reference === undefined ? undefined : knownOf(context.reference);
  const ins = context.instruction === undefined ? undefined : knownOf(context.instruction);
  return decide(m, answer, ref, ins, context.others, context.shown);
}

/**
 * Null when `answer` passes `m` under the strict rules (decideStrictAnswer), else why it does not: a failure or an
 * undecided answer alike. `others` and `reference` as AnswerContext has them.
 */
export function strictAnswerFailure(
  m: Matcher,
  answer: string,
  others?: readonly string[],
  reference?: string,
): string | null {
  const d = decideStrictAnswer(m, answer, { others, reference });
  return d.ok === true ? null : d.why;
}

function decide(
  m: Matcher,
  answer: string,
  ref: Known | undefined,
  ins: Known | undefined,
  others: readonly string[] | undefined,
  shown?: readonly string[],
): AnswerDecision {
  if (typeof m === "object" && ("present" in m || "not" in m)) {
    return testMatcher(m, answer) ? { ok: true } : { ok: false, why: mismatch(m, quote(answer, 60)) };
  }
  if (typeof m === "object" && "one_of" in m) return oneOf(m, answer, ref, ins, others, shown);
  const p = prep(m);
  if (typeof m === "object" && "exact" in m) {
    const want = String(m.exact).trim();
    const got = answer.trim();
    if (got === want || (p.digits !== undefined && CARD_ONLY.test(got) && got.replace(GROUP_SEP, "") === want)) {
      return { ok: true };
    }
    return { ok: false, why: mismatch(m, quote(answer, 60)) };
  }
  const text = typeof m === "string" || (typeof m === "object" && !("number" in m || "date" in m || "regex" in m));
  const r = new Reading(answer, cardText(answer, p.digits));
  const otherWords = others?.length ? wordsOf(others) : undefined;
  const cx: Cx = { p, ref, ins, others, otherWords, shown, expected: expectedTexts(m), text };
  const year = otherYear(r, cx);
  if (year) return year;
  if (typeof m === "number") return decideNumber(m, m, 1e-9, r, cx);
  if (typeof m === "object" && "number" in m) return decideNumber(m, m.number, m.tol ?? 1e-9, r, cx);
  if (typeof m === "object" && "date" in m) return decideDate(m, r, cx);
  if (typeof m === "object" && "regex" in m) return decideRegex(m, r, cx);
  return decideText(m, r, cx);
}

function mismatch(m: Matcher, q: string): string {
  return `${q} does not match ${describeMatcher(m)}`;
}

const within = (v: number, want: number, tol: number) => Math.abs(v - want) <= tol + 1e-12;

function decideNumber(m: Matcher, want: number, tol: number, r: Reading, cx: Cx): AnswerDecision {
  const toks = r.tokens;
  const values: number[] = [];
  for (let i = 0; i < toks.length; i++) if (toks[i].kind === "number") values.push(i);
  if (values.length === 0) {
    for (let i = 0; i < toks.length; i++) if (toks[i].kind === "label") values.push(i);
  }
  if (values.length === 0) return { ok: false, why: `${r.q} states no number`, absent: true };
  const hits = values.filter((i) => within(toks[i].n!, want, tol));
  if (hits.length === 0) return wrongValues(r, [...new Set(values.map((i) => toks[i].n!))], "number", m);
  const denied = denial(r, hits, cx);
  if (denied) return denied;
  const hit = new Set(hits);
  const units = new Set(hits.map((i) => unitOf(toks, i)));
  // For the reason: the other numbers that are rivals (no unit, or the expected one's), not labelled context.
  const rivalNumbers = values.filter((i) => {
    if (hit.has(i) || toks[i + 1]?.key === ":") return false;
    const u = unitOf(toks, i);
    return u === "" || units.has(u);
  });
  return account(r, cx, hit, K_NUMBER, units, rivalNumbers, "number");
}

/** Same day: equal, or a day without its year whose month and day are the other's. */
const sameDay = (d: string, want: string) => d === want || (d.startsWith("--") && want.endsWith(d.slice(1)));
const isDay = (key: string) => key.length === 10 || key.startsWith("--");

function decideDate(m: { date: string }, r: Reading, cx: Cx): AnswerDecision {
  const want = cx.p.day!;
  const toks = r.tokens;
  const days: number[] = [];
  for (let i = 0; i < toks.length; i++) if (toks[i].kind === "date" && isDay(toks[i].key)) days.push(i);
  if (days.length === 0) return { ok: false, why: `${r.q} states no date`, absent: true };
  const hits = days.filter((i) => sameDay(toks[i].key, want));
  if (hits.length === 0) {
    const keys = [...new Set(days.map((i) => toks[i].key))];
    const full = keys.filter((d) => !d.startsWith("--"));
    return wrongValues(r, keys.filter((d) => !d.startsWith("--") || !full.some((f) => sameDay(d, f))), "date", m);
  }
  const denied = denial(r, hits, cx);
  if (denied) return denied;
  return account(r, cx, new Set(hits), K_DATE, undefined, days.filter((i) => !hits.includes(i)), "date");
}

function wrongValues(r: Reading, values: (number | string)[], kind: string, m: Matcher): AnswerDecision {
  const why = values.length === 1
    ? `${r.q} states ${values[0]}, not ${describeMatcher(m)}`
    : `${r.q} states ${values.length} ${kind}s (${values.join(", ")}), none ${describeMatcher(m)}`;
  return { ok: false, why };
}

/**
 * A failure when every stated expected value is denied: a negation word earlier in its clause (`It was not
 * $161.99.`) that neither the expected text nor the reference uses.
 */
function denial(r: Reading, hits: readonly number[], cx: Cx): AnswerDecision | null {
  const allowed = cx.p.exp.mask | (cx.ref?.mask ?? 0);
  let word: string | undefined;
  for (const h of hits) {
    let found: string | undefined;
    for (let j = h - 1; j >= 0; j--) {
      const t = r.tokens[j];
      if (t.kind === "punct" && CLAUSE_END.has(t.key) && t.key !== ",") break;
      if (t.kind === "word" && (familyOf(t.key) & NEGATION) !== 0 && (allowed & NEGATION) === 0) {
        found = r.text.slice(t.start, t.end);
        break;
      }
    }
    if (found === undefined) return null;
    word ??= found;
  }
  return { ok: false, why: `${r.q} says ${quote(word)}, a negation: the value is denied, not stated` };
}

function decideRegex(m: { regex: string; flags?: string }, r: Reading, cx: Cx): AnswerDecision {
  const p = cx.p;
  if (p.whole!.test(r.answer.trim())) return { ok: true };
  const found = p.re!.exec(r.text);
  if (!found) return notFound(m, r, cx);
  const a = found.index;
  const b = a + found[0].length;
  const hit = new Set<number>();
  let kinds = 0;
  const units = new Set<string>();
  r.tokens.forEach((t, i) => {
    if (t.end > a && t.start < b) {
      hit.add(i);
      kinds |= KIND_BIT[t.kind] ?? 0;
      if (t.kind === "number") units.add(unitOf(r.tokens, i));
    }
  });
  // A match of words only is a name, as a text matcher's: the task's other names are not accounted beside it.
  return account(r, { ...cx, text: kinds === 0 }, hit, kinds, units, [], "value");
}

function decideText(m: Matcher, r: Reading, cx: Cx): AnswerDecision {
  const p = cx.p;
  if (typeof m === "string" || (typeof m === "object" && ("norm" in m || "text" in m))) {
    if (testMatcher(m, r.text)) return { ok: true };
    if (!containsWords(normaliseText(r.text), p.norm!)) return notFound(m, r, cx);
  } else if (!testMatcher(m, r.text)) return notFound(m, r, cx);
  return account(r, cx, new Set(), p.exp.kinds, undefined, [], "value");
}

/** The expected text is not in the answer: it picks a rival candidate, or simply does not match. */
function notFound(m: Matcher, r: Reading, cx: Cx): AnswerDecision {
  const named = rivals(r, cx).names[0];
  if (named !== undefined) {
    return {
      ok: false,
      why: `${r.q} names ${quote(named)}, another candidate, not ${describeMatcher(m)}`,
      absent: true,
    };
  }
  return { ok: false, why: mismatch(m, r.q), absent: true };
}

const rivalPatterns = new Map<string, RegExp | null>();

/** A candidate's name as whole words, caseless, global (text.ts's phrasePattern): compiled once per name. */
function rivalPattern(normalised: string): RegExp | null {
  let re = rivalPatterns.get(normalised);
  if (re === undefined) {
    if (rivalPatterns.size > 1024) rivalPatterns.clear();
    const p = phrasePattern(normalised);
    rivalPatterns.set(normalised, re = p ? new RegExp(p.source, "giu") : null);
  }
  return re;
}

/** The tokens of the answer that name another candidate (one `others` names, not in the expected text). */
function rivals(r: Reading, cx: Cx): { at: Set<number>; names: string[] } {
  const at = new Set<number>();
  const names: string[] = [];
  if (!cx.others?.length) return { at, names };
  for (const other of cx.others) {
    const o = normaliseText(other);
    if (!o || cx.p.texts.some((e) => containsWords(e, o))) continue;
    const re = rivalPattern(o);
    if (!re) continue;
    let named = false;
    for (const f of r.text.matchAll(re)) {
      const a = f.index;
      const b = a + f[0].length;
      r.tokens.forEach((t, i) => {
        if (t.end > a && t.start < b) at.add(i);
      });
      named = true;
    }
    if (named) names.push(other);
  }
  return { at, names };
}

/**
 * The answer states the expected value (`hit`: its tokens): every other token must be accounted for (module
 * comment). `kinds`: the value kinds asked (a second value of one is accounted only when the task or the reference
 * states it); `units`: the units of the expected value (a number with another unit, a noun the task uses, is
 * labelled context); `second`: the values of the asked type that are not the expected one (for the reason).
 */
function account(
  r: Reading,
  cx: Cx,
  hit: ReadonlySet<number>,
  kinds: number,
  units: ReadonlySet<string> | undefined,
  second: readonly number[],
  kindName: string,
): AnswerDecision {
  const toks = r.tokens;
  const ok = new Array<boolean>(toks.length).fill(false);
  const rival = rivals(r, cx);
  const { p, ref, ins } = cx;
  const knownNumber = (n: number) =>
    p.exp.numbers.includes(n) || ref?.numbers.includes(n) === true || ins?.numbers.includes(n) === true;
  // A day the task states without its year accounts for the answer's day only without a year, or in a year the task
  // states: "March 20, 2025" is no restatement of "March 20" in a task of 2026.
  const years = taskYears(cx);
  const knownDate = (d: string) =>
    [p.exp.dates, ref?.dates ?? [], ins?.dates ?? []].some((ds) =>
      ds.some((x) => sameDay(d, x) || (sameDay(x, d) && years.has(d.slice(0, 4))))
    );
  const knownTime = (t: string) =>
    p.exp.times.includes(t) || ref?.times.includes(t) === true || ins?.times.includes(t) === true;
  const knownWord = (st: string) =>
    p.exp.words.has(st) || ref?.words.has(st) === true ||
    (ins !== undefined && ins.words.has(st) && !(cx.text && ins.names.has(st) && candidateName(st, cx)));
  const codesNamed = (ref?.codes.size ?? 0) + (ins?.codes.size ?? 0) > 0;
  const hitDays = [...hit].filter((i) => toks[i].kind === "date").map((i) => toks[i].key);
  let hasDate = false;

  // Values and punctuation first: a time reads the date before it, a name the codes of its clause.
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === "date") hasDate = true;
    if (hit.has(i)) {
      ok[i] = true;
      continue;
    }
    if (rival.at.has(i)) continue;
    switch (t.kind) {
      case "punct":
        ok[i] = PUNCT_OK.has(t.key) && !(DASHES.has(t.key) && isValue(toks[i - 1]) && isValue(toks[i + 1]));
        break;
      case "number": {
        if (knownNumber(t.n!)) ok[i] = true;
        else {
          const u = unitOf(toks, i);
          ok[i] = u !== "" && !(kinds & K_NUMBER && units?.has(u)) && knownWord(u);
        }
        break;
      }
      case "label":
        ok[i] = knownNumber(t.n!);
        break;
      case "date":
        ok[i] = knownDate(t.key) || hitDays.some((d) => sameDay(t.key, d) || sameDay(d, t.key));
        break;
      case "time": {
        if (knownTime(t.key)) ok[i] = true;
        else {
          let j = i - 1;
          while (j >= 0 && (toks[j].key === "at" || toks[j].key === "," || toks[j].key === "on")) j--;
          ok[i] = toks[j]?.kind === "date" && ok[j];
        }
        break;
      }
      case "code":
        ok[i] = p.exp.codes.has(t.key) || ref?.codes.has(t.key) === true || ins?.codes.has(t.key) === true ||
          ((kinds & K_CODE) === 0 && !codesNamed);
        break;
    }
  }
  // The clauses that hold an accounted identifier: a capitalised word beside one names its record.
  const clauseOf = new Array<number>(toks.length);
  const withCode = new Set<number>();
  let clause = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === "punct" && CLAUSE_END.has(t.key)) clause++;
    clauseOf[i] = clause;
    if (t.kind === "code" && ok[i]) withCode.add(clause);
  }
  const allowed = p.exp.mask | (ref?.mask ?? 0);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind !== "word" || ok[i] || rival.at.has(i)) continue;
    const k = t.key;
    const st = stem(k);
    const prev = toks[i - 1];
    const next = toks[i + 1];
    const fam = familyOf(k);
    ok[i] = FRAMING.has(k) || UNITS.has(st) || (fam !== 0 && (fam & allowed) !== 0) || knownWord(st) ||
      (!t.spaced && (prev?.kind === "number" || prev?.kind === "label")) || // 64GB, 3rd
      (ID_HEADS.has(k) && (next?.kind === "code" || next?.key === "#")) ||
      (hasDate && WEEKDAYS.has(k)) ||
      (!cx.text && t.cap === true && fam === 0 && !QUALIFIERS.has(k) && withCode.has(clauseOf[i]));
  }
  const bad: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (ok[i]) continue;
    // A framing word that opens a qualifier is reported with it: "at least", "is only".
    const prev = toks[i - 1];
    if (prev?.kind === "word" && FRAMING.has(prev.key) && QUALIFIERS.has(toks[i].key) && bad.at(-1) !== i - 1) {
      bad.push(i - 1);
    }
    bad.push(i);
  }
  if (bad.length === 0) return { ok: true };
  if (
    rival.names.length === 0 && cx.text &&
    runsOf(toks, bad).every((run) => shownAsSame(r.text.slice(run[0], run[1]), cx))
  ) {
    return { ok: true };
  }
  return { ok: null, why: unaccounted(r, bad, rival.names, hit, second.filter((i) => !ok[i]), kindName) };
}

/** `"I think 66" has words the rules cannot account for: "I think"` (up to three runs), and what they are. */
function unaccounted(
  r: Reading,
  bad: readonly number[],
  rivalNames: readonly string[],
  hit: ReadonlySet<number>,
  second: readonly number[],
  kindName: string,
): string {
  const runs = runsOf(r.tokens, bad).slice(0, 4).map(([a, b]) => quote(r.text.slice(a, b), 40));
  const list = runs.length > 3 ? `${runs.slice(0, 3).join(", ")}, …` : runs.join(", ");
  let why = `${r.q} has words the rules cannot account for: ${list}`;
  if (second.length > 0) {
    const shown = (i: number) => r.tokens[i].kind === "date" ? r.tokens[i].key : String(r.tokens[i].n);
    const values = [...new Set([...hit].filter((i) => isValue(r.tokens[i])).concat(second).map(shown))];
    why += `; it states ${values.length} ${kindName}s (${values.join(", ")}) where one is asked`;
  }
  if (rivalNames.length > 0) why += `; it names ${quote(rivalNames[0])}, another candidate`;
  return why;
}

function oneOf(
  m: { one_of: Matcher[] },
  answer: string,
  ref: Known | undefined,
  ins: Known | undefined,
  others: readonly string[] | undefined,
  shown: readonly string[] | undefined,
): AnswerDecision {
  // Two alternatives whose texts the answer holds and that disagree: it names two answers where one is asked.
  const found: string[] = [];
  const passing: Matcher[] = [];
  for (const alt of m.one_of) {
    if (!testMatcher(alt, answer)) continue;
    const f = foundText(alt, answer);
    if (f !== undefined) {
      found.push(f);
      passing.push(alt);
    }
  }
  if (found.length > 1) {
    const longest = found.reduce((a, b) => (b.length > a.length ? b : a), "");
    if (!found.every((t) => longest.includes(t))) {
      return {
        ok: null,
        why: `${quote(answer, 60)} passes ${passing.length} alternatives that disagree (${
          passing.map(describeMatcher).join(" | ")
        }): a hedge`,
      };
    }
  }
  let undecided: AnswerDecision | undefined;
  let loose: AnswerDecision | undefined; // why an alternative the plain matcher passes fails strictly
  for (const alt of m.one_of) {
    const d = decide(alt, answer, ref, ins, others, shown);
    if (d.ok === true) return d;
    if (d.ok === null) undecided ??= d;
    else if (loose === undefined && testMatcher(alt, answer)) loose = d;
  }
  return undecided ?? loose ?? { ok: false, why: mismatch(m, quote(answer, 60)), absent: true };
}

/**
 * The text an alternative found in the answer, normalised (two passing alternatives agree when one's text contains
 * the other's); undefined for typed and structural ones.
 */
function foundText(m: Matcher, answer: string): string | undefined {
  if (typeof m === "number") return undefined;
  if (typeof m === "string") return normaliseText(answer);
  if ("exact" in m || "norm" in m || "text" in m) return normaliseText(answer);
  if ("contains" in m) return normaliseText(String(m.contains));
  if ("regex" in m) return normaliseText(prep(m).re!.exec(answer)?.[0] ?? "");
  return undefined;
}

/** The texts a matcher expects (their words are accounted; a candidate they name is no rival). */
function expectedTexts(m: Matcher): string[] {
  if (typeof m === "string" || typeof m === "number") return [String(m)];
  if ("exact" in m) return [String(m.exact)];
  if ("norm" in m) return [String(m.norm)];
  if ("text" in m) return [String(m.text)];
  if ("contains" in m) return [String(m.contains)];
  if ("number" in m) return [String(m.number)];
  if ("date" in m) return [m.date];
  if ("one_of" in m) return m.one_of.flatMap(expectedTexts);
  return [];
}

/**
 * The runs of unaccounted tokens `bad` as text spans: a run goes on over punctuation and framing words ("still in
 * transit").
 */
function runsOf(toks: readonly Token[], bad: readonly number[]): [number, number][] {
  const bridge = (a: number, b: number) => {
    if (b - a > 3) return false;
    for (let j = a + 1; j < b; j++) {
      if (toks[j].kind !== "punct" && !(toks[j].kind === "word" && FRAMING.has(toks[j].key))) return false;
    }
    return true;
  };
  const runs: [number, number][] = [];
  for (let k = 0; k < bad.length; k++) {
    let e = k;
    while (e + 1 < bad.length && bridge(bad[e], bad[e + 1])) e++;
    runs.push([toks[bad[k]].start, toks[bad[e]].end]);
    k = e;
  }
  return runs;
}

/** The word stems of the other candidates. */
const wordsOf = (others: readonly string[]): ReadonlySet<string> => knownOf(others.join("\n")).words;

/** Whether an instruction's name may be a candidate: the task lists none, or it is a word of one. */
const candidateName = (st: string, cx: Cx) => cx.otherWords === undefined || cx.otherWords.has(st);

const YEAR_FIRST = /^\d{4}/;
const isYear = (n: number | undefined) => n !== undefined && Number.isInteger(n) && n >= 1900 && n <= 2099;

/** The years the task states: of the expected value's dates, the reference's and the instruction's (and its years). */
function taskYears(cx: Cx): Set<string> {
  const years = new Set<string>();
  for (const ds of [cx.p.exp.dates, cx.ref?.dates ?? [], cx.ins?.dates ?? []]) {
    for (const d of ds) if (YEAR_FIRST.test(d)) years.add(d.slice(0, 4));
  }
  for (const n of [...cx.ins?.numbers ?? [], ...cx.ref?.numbers ?? []]) if (isYear(n)) years.add(String(n));
  return years;
}

/**
 * A failure when a date answer names a year the task does not (`20 March (2025)` where the task's day is in 2026): a
 * date's own year, or a year written after a day (`March 20, in 2025`). Only when the expected value is a day or month
 * and the task states its year.
 */
function otherYear(r: Reading, cx: Cx): AnswerDecision | null {
  if ((cx.p.exp.kinds & K_DATE) === 0) return null;
  const years = taskYears(cx);
  if (years.size === 0) return null;
  const toks = r.tokens;
  const afterDate = (i: number) => {
    for (let j = i - 1; j >= 0 && j >= i - 4; j--) {
      if (toks[j].kind === "date") return true;
      if (toks[j].kind !== "punct" && toks[j].key !== "of" && toks[j].key !== "in") return false;
    }
    return false;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const y = t.kind === "date" && YEAR_FIRST.test(t.key)
      ? t.key.slice(0, 4)
      : t.kind === "number" && !t.spoken && isYear(t.n) && afterDate(i)
      ? String(t.n)
      : undefined;
    if (y !== undefined && !years.has(y)) {
      return { ok: false, why: `${r.q} names the year ${y}; the task's is ${[...years].join(" or ")}` };
    }
  }
  return null;
}

const SPACES = /\s+/g;
const EDGE_PUNCT = /^[\p{P}\s]+|[\p{P}\s]+$/gu;
const screenForm = (s: string) => s.toLowerCase().replace(SPACES, " ");

/**
 * Whether a screen shows `run` (an answer's unaccounted words) as the expected text's other name: in parentheses
 * after it (`Payments API (API)`), or holding it in parentheses (`API (Payments API)`).
 */
function shownAsSame(run: string, cx: Cx): boolean {
  const w = screenForm(run.replace(EDGE_PUNCT, ""));
  if (!w || !cx.shown?.length) return false;
  return cx.expected.some((e) => {
    const x = screenForm(e.trim());
    return x !== "" && x !== w &&
      cx.shown!.some((s) => {
        const f = screenForm(s);
        return f.includes(`${x} (${w})`) || f.includes(`${w} (${x})`);
      });
  });
}
