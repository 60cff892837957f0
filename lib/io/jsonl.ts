/** JSON Lines: one reader for task files, proposed tasks and results.jsonl. */

/** A parsed line and its 1-based line number. */
export interface JsonLine {
  line: number;
  value: unknown;
}

/**
 * Parses JSON Lines text; blank lines are skipped, a byte order mark is an error (line 1). A line that is not JSON throws what `fail(line, message)`
 * makes (each caller names its file and its error class). With `partialTail`, the text after the last newline is
 * not parsed: it is a line a crash cut short, and its byte length is returned for the caller to cut.
 */
export function parseJsonLines(
  text: string,
  fail: (line: number, message: string, cause: unknown) => Error,
  options: { partialTail?: boolean } = {},
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
    try {
      lines.push({ line: i + 1, value: JSON.parse(src) });
    } catch (e) {
      throw fail(i + 1, `not JSON: ${(e as Error).message}`, e);
    }
  }
  return { lines, partialTail };
}
