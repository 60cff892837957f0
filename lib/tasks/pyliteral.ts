/**
 * A Python literal parser for annotation files written by the seed's tooling, which stores some task.json fields as
 * the `str()` of a Python value (`"macros": "['search', 'open_detail']"`) and reads them back with `ast.literal_eval`.
 * It reads the literals that can hold such a value: strings (single, double or triple quotes, `r`/`u` prefixes,
 * escapes, adjacent strings joined), numbers (optionally signed), True/False/None, lists, tuples (as lists) and dicts
 * with string keys. Nothing is evaluated: any other expression is an error with its offset.
 */

/** A parsed literal, in JSON terms (tuples become lists). */
type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

/** A text that is not a Python literal this parser reads; `offset` is where the problem is (0-based). */
export class PyLiteralError extends Error {
  readonly offset: number;
  constructor(problem: string, offset: number) {
    super(`${problem} at offset ${offset}`);
    this.name = "PyLiteralError";
    this.offset = offset;
  }
}

/** Deeper nesting than this is refused (a literal in a task file is a few levels deep; this bounds the recursion). */
const MAX_DEPTH = 100;

/** True for a text the seed would parse (its `lit`: a string whose first character is `[` or `{`). */
export function looksLikePyLiteral(value: unknown): value is string {
  return typeof value === "string" && (value.startsWith("[") || value.startsWith("{"));
}

/**
 * Parses one Python literal.
 * @throws PyLiteralError naming what is wrong and where.
 */
export function parsePyLiteral(text: string): PyValue {
  const p = new Parser(text);
  const value = p.value(0);
  p.skipSpace();
  if (!p.atEnd()) p.fail(`unexpected ${p.describeHere()} after the value`);
  return value;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

const NAMES: Readonly<Record<string, PyValue>> = { True: true, False: false, None: null };

/** An int (decimal, 0x, 0o, 0b) or a float, with Python's underscores between digits. */
const NUMBER =
  /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?)/;

/** Closing bracket → what it closes (for messages). */
const CLOSER: Readonly<Record<string, string>> = { "]": "list", ")": "tuple", "}": "dict" };

class Parser {
  pos = 0;
  constructor(readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  fail(problem: string, at: number = this.pos): never {
    throw new PyLiteralError(problem, at);
  }

  /** The character at the cursor, for a message. */
  describeHere(): string {
    return this.atEnd() ? "end of text" : JSON.stringify(this.text[this.pos]);
  }

  /** Skips blanks, newlines, backslash continuations and `#` comments (ast.parse allows them between tokens). */
  skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f") this.pos++;
      else if (c === "\\" && (t[this.pos + 1] === "\n" || t[this.pos + 1] === "\r")) this.pos += 2;
      else if (c === "#") { while (this.pos < t.length && t[this.pos] !== "\n") this.pos++; }
      else return;
    }
  }

  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    this.skipSpace();
    if (this.atEnd()) this.fail("expected a value, got end of text");
    const c = this.text[this.pos];
    if (c === "[") return this.sequence(depth);
    if (c === "(") return this.parenthesized(depth);
    if (c === "{") return this.dict(depth);
    if (c === "+" || c === "-" || c === "." || isDigit(c)) return this.number();
    if (isNameStart(c)) return this.nameOrString();
    if (c === "'" || c === '"') return this.strings("");
    return this.fail(`unexpected ${this.describeHere()}`);
  }

  /**
   * Comma-separated items up to `close` (a trailing comma allowed), each read by `item` (given its index and the
   * opening bracket's offset); the cursor is on the opening bracket. Whether a comma was read.
   */
  items(close: string, item: (index: number, open: number) => void): boolean {
    const open = this.pos++;
    let comma = false;
    for (let index = 0;; index++) {
      this.skipSpace();
      if (this.text[this.pos] === close) break;
      if (this.atEnd()) this.fail(`unclosed ${CLOSER[close]} (opened at offset ${open})`);
      item(index, open);
      this.skipSpace();
      if (this.text[this.pos] === ",") {
        this.pos++;
        comma = true;
        continue;
      }
      if (this.text[this.pos] !== close) {
        if (this.atEnd()) this.fail(`unclosed ${CLOSER[close]} (opened at offset ${open})`);
        this.fail(`expected "," or "${close}", got ${this.describeHere()}`);
      }
    }
    this.pos++;
    return comma;
  }

  sequence(depth: number): PyValue[] {
    const values: PyValue[] = [];
    this.items("]", () => values.push(this.value(depth + 1)));
    return values;
  }

  /** `(a, b)` and `(a,)` are tuples (lists here), `()` an empty one, `(a)` is just `a`. */
  parenthesized(depth: number): PyValue {
    const values: PyValue[] = [];
    const comma = this.items(")", () => values.push(this.value(depth + 1)));
    return values.length === 1 && !comma ? values[0] : values;
  }

  dict(depth: number): PyValue {
    const out: { [key: string]: PyValue } = {};
    this.items("}", (index, open) => {
      const keyAt = this.pos;
      const key = this.value(depth + 1);
      this.skipSpace();
      if (this.text[this.pos] !== ":") {
        if (index === 0 && (this.text[this.pos] === "," || this.text[this.pos] === "}")) {
          this.fail("sets are not supported (expected a dict)", open);
        }
        this.fail(`expected ":" after a dict key, got ${this.describeHere()}`);
      }
      if (typeof key !== "string") this.fail("a dict key must be a string", keyAt);
      this.pos++;
      // defineProperty: a "__proto__" key is an ordinary field, as JSON.parse makes it.
      Object.defineProperty(out, key, {
        value: this.value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return out;
  }

  /** True, False, None, or a prefixed string (`r'...'`, `u"..."`). */
  nameOrString(): PyValue {
    const start = this.pos;
    while (this.pos < this.text.length && isNamePart(this.text[this.pos])) this.pos++;
    const name = this.text.slice(start, this.pos);
    const q = this.text[this.pos];
    if ((q === "'" || q === '"') && /^[rRuU]$/.test(name)) return this.strings(name.toLowerCase());
    if ((q === "'" || q === '"') && /^(?:[bBfF][rR]?|[rR][bBfF])$/.test(name)) {
      this.fail(`${/[bB]/.test(name) ? "bytes" : "f-strings"} are not supported`, start);
    }
    if (Object.hasOwn(NAMES, name)) return NAMES[name];
    return this.fail(`${JSON.stringify(name)} is not a literal (only True, False and None are names)`, start);
  }

  /** One string literal and any adjacent ones (`'a' 'b'` is `'ab'`); the cursor is on the first quote. */
  strings(prefix: string): string {
    let out = this.string(prefix === "r");
    for (;;) {
      const save = this.pos;
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === "'" || c === '"') out += this.string(false);
      else if ((c === "r" || c === "R" || c === "u" || c === "U") && /['"]/.test(this.text[this.pos + 1] ?? "")) {
        this.pos++;
        out += this.string(c === "r" || c === "R");
      } else {
        this.pos = save;
        return out;
      }
    }
  }

  string(raw: boolean): string {
    const t = this.text;
    const start = this.pos;
    const q = t[this.pos];
    const triple = t.startsWith(q.repeat(3), this.pos);
    const delim = triple ? q.repeat(3) : q;
    this.pos += delim.length;
    let out = "";
    for (;;) {
      if (this.atEnd()) this.fail("unterminated string", start);
      if (t.startsWith(delim, this.pos)) {
        this.pos += delim.length;
        return out;
      }
      const c = t[this.pos];
      if ((c === "\n" || c === "\r") && !triple) {
        this.fail("unterminated string (a newline in a one-line string)", start);
      }
      if (c !== "\\") {
        out += c;
        this.pos++;
      } else if (raw) {
        // A raw string keeps the backslash; it still protects the next character from ending the string.
        out += t.slice(this.pos, this.pos + 2);
        this.pos += 2;
      } else {
        out += this.escape();
      }
    }
  }

  /** One backslash escape; the cursor is on the backslash. */
  escape(): string {
    const t = this.text;
    const at = this.pos;
    const c = t[at + 1];
    if (c === undefined) this.fail("unterminated string", at);
    this.pos += 2;
    if (Object.hasOwn(SIMPLE_ESCAPES, c)) return SIMPLE_ESCAPES[c];
    if (c === "\n") return "";
    if (c === "\r") {
      if (t[this.pos] === "\n") this.pos++;
      return "";
    }
    if (c >= "0" && c <= "7") {
      let digits = c;
      while (digits.length < 3 && t[this.pos] >= "0" && t[this.pos] <= "7") digits += t[this.pos++];
      return String.fromCodePoint(parseInt(digits, 8));
    }
    const width = c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
    if (width) {
      const hex = t.slice(this.pos, this.pos + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) this.fail(`truncated \\${c} escape`, at);
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) this.fail(`\\${c}${hex} is not a Unicode character`, at);
      this.pos += width;
      return String.fromCodePoint(code);
    }
    if (c === "N") this.fail("\\N{...} escapes are not supported", at);
    // Python keeps an unknown escape as written (with a warning).
    return `\\${c}`;
  }

  /** An int or float, optionally signed (`-1`, `0x1F`, `1_000`, `2.5e-3`). */
  number(): number {
    const start = this.pos;
    const t = this.text;
    const sign = t[this.pos] === "-" ? -1 : 1;
    if (t[this.pos] === "-" || t[this.pos] === "+") {
      this.pos++;
      this.skipSpace();
    }
    const rest = t.slice(this.pos);
    const lexeme = NUMBER.exec(rest)?.[0] ?? "";
    if (!lexeme) this.fail(`expected a number, got ${this.describeHere()}`, start);
    const after = rest[lexeme.length] ?? "";
    if (after === "j" || after === "J") this.fail("complex numbers are not supported", start);
    if (isNamePart(after)) this.fail(`${JSON.stringify(lexeme + after)} is not a number`, start);
    const digits = lexeme.replaceAll("_", "");
    const radix = /^0[xX]/.test(digits) ? 16 : /^0[oO]/.test(digits) ? 8 : /^0[bB]/.test(digits) ? 2 : 10;
    if (radix === 10 && /^0\d*[1-9]/.test(digits) && !/[.eE]/.test(digits)) {
      this.fail(`${JSON.stringify(lexeme)}: leading zeros are not allowed in an integer`, start);
    }
    this.pos += lexeme.length;
    const n = radix === 10 ? Number(digits) : parseInt(digits.slice(2), radix);
    return sign * n;
  }
}

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

function isNameStart(c: string): boolean {
  return /[A-Za-z_]/.test(c);
}

function isNamePart(c: string): boolean {
  return /[A-Za-z0-9_]/.test(c);
}
