/**
 * How the report writes numbers, p-values and long lists.
 * @module
 */

/** The most keys a list of the report names before it says how many more there are. */
const LIST_CAP = 50;

/** A proportion as a percentage with one decimal; "–" for none. */
export const pct = (x: number | undefined): string =>
  x === undefined || Number.isNaN(x) ? "–" : `${(100 * x).toFixed(1)} %`;
/** A count with thousands separators. */
export const int = (x: number): string => x.toLocaleString("en-US");
/** Milliseconds, rounded; "–" for none. */
export const ms = (x: number): string => Number.isNaN(x) ? "–" : `${int(Math.round(x))} ms`;
/** A p-value to three significant digits, or "< 0.0001" below that (a table's cell). */
export const pNumber = (p: number): string => p < 1e-4 ? "< 0.0001" : String(Number(p.toPrecision(3)));
/** "p = <value>" to three significant digits, or "p < 0.0001" below that. */
export const pValue = (p: number): string => p < 1e-4 ? "p < 0.0001" : `p = ${pNumber(p)}`;

/** A difference of proportions in percentage points, with its sign. */
export const signed = (x: number): string => `${x > 0 ? "+" : ""}${(100 * x).toFixed(1)}`;

/** The first LIST_CAP items, and a last one saying how many more there are. */
export function capped(items: string[]): string[] {
  if (items.length <= LIST_CAP) return items;
  return [...items.slice(0, LIST_CAP), `… and ${items.length - LIST_CAP} more`];
}
