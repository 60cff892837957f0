/** JSON Lines: one reader for task files, proposed tasks and results.jsonl. */

/** A parsed line and its 1-based line number. */
export interface JsonLine {
  /** The line's 1-based number in the text. */
  line: number;
  /** The line's JSON value. */
  value: unknown;
}

/** UTF-8 bytes of a string, counted without encoding it. */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4; // a surrogate pair: one 4-byte sequence
      i++;
    } else n += 3;
  }
  return n;
}

/** How a JSON Lines text is read. */
export interface JsonLinesOptions {
  /** The text after the last newline is a line a crash cut short: not parsed, its byte length returned. */
  partialTail?: boolean;
  /** The most UTF-8 bytes a line may hold: a longer one is an error naming its line and the limit. */
  maxLineBytes?: number;
}

/**
 * Parses JSON Lines text; blank lines are skipped, a byte order mark is an error (line 1). A line that is not JSON
 * (or is longer than `maxLineBytes`) throws what `fail(line, message)` makes (each caller names its file and its
 * error class). With `partialTail`, the text after the last newline is not parsed: it is a line a crash cut short,
 * and its byte length is returned for the caller to cut.
 */
export function parseJsonLines(
  text: string,
  fail: (line: number, message: string, cause: unknown) => Error,
  options: JsonLinesOptions = {},
): { lines: JsonLine[]; partialTail: number } {
  // A byte order mark would be read as part of the first line's JSON: reported, not skipped.
  if (text.startsWith("\uFEFF")) throw fail(1, "starts with a UTF-8 byte order mark; save it without one", undefined);
  const raw = text.split("\n");
  let partialTail = 0;
  if (options.partialTail) partialTail = new TextEncoder().encode(raw.pop() ?? "").length;
  const lines: JsonLine[] = [];
  for (let i = 0; i < raw.length; i++) {
    const src = raw[i].trim();
    if (!src) continue;
    const max = options.maxLineBytes;
    // A UTF-8 character is at most 3 bytes per UTF-16 unit: only a line that may be too long is counted.
    if (max !== undefined && src.length * 3 > max && utf8Length(src) > max) {
      throw fail(i + 1, `is ${utf8Length(src)} bytes long, more than the ${max} a line may hold`, undefined);
    }
    try {
      lines.push({ line: i + 1, value: JSON.parse(src) });
    } catch (e) {
      throw fail(i + 1, `not JSON: ${(e as Error).message}`, e);
    }
  }
  return { lines, partialTail };
}
