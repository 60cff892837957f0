/** How values are quoted in the suite's messages. */

/** `"x"` for strings, JSON otherwise, cut to `max` characters; `missing` for undefined. */
export function quote(value: unknown, max = 40): string {
  if (value === undefined) return "missing";
  const s = JSON.stringify(value) ?? String(value);
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}
