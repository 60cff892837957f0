/** How values are quoted in the suite's messages. */

/** `"x"` for strings, JSON otherwise, cut to `max` characters; `missing` for undefined. */
export function quote(value: unknown, max = 40): string {
  if (value === undefined) return "missing";
  const s = JSON.stringify(value) ?? String(value);
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** Levenshtein distance between two names, for "did you mean". */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
