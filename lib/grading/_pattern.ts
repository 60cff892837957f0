/**
 * Matching a pattern against a stream of the evidence (requests, changes, events, recorder entries) and, when
 * nothing matches, naming the closest entries and the field each of them got wrong.
 */
import { describeMatcher, testMatcher } from "./matcher.ts";
import { type Matcher, quote } from "../protocol/mod.ts";

/** One field of a pattern: its label (`after.shipping`), what it wants, and how to read it from an entry. */
export interface FieldTest<E> {
  label: string;
  want: string;
  actual: (entry: E) => unknown;
  pass: (entry: E) => boolean;
}

/** A field tested by a matcher. */
export function matcherTest<E>(label: string, m: Matcher, actual: (entry: E) => unknown): FieldTest<E> {
  return { label, want: describeMatcher(m), actual, pass: (e) => testMatcher(m, actual(e)) };
}

/** A field that must equal a fixed string (site, table, op). */
export function equalTest<E>(label: string, want: string, actual: (entry: E) => unknown): FieldTest<E> {
  return { label, want: `= ${quote(want)}`, actual, pass: (e) => actual(e) === want };
}

/** A field of a row image (`after.shipping`): it must exist in the row, and its value pass the matcher. */
export function rowFieldTest<E>(
  label: string,
  field: string,
  m: Matcher,
  row: (entry: E) => Record<string, unknown> | null | undefined,
): FieldTest<E> {
  const actual = (e: E) => {
    const r = row(e);
    return r && Object.hasOwn(r, field) ? r[field] : undefined;
  };
  return {
    label,
    want: describeMatcher(m),
    actual,
    pass: (e) => {
      const r = row(e);
      return !!r && Object.hasOwn(r, field) && testMatcher(m, r[field]);
    },
  };
}

/**
 * Why the pattern fails on `entries`, or null when it passes: at least one entry passes every test (exactly
 * `times` with `times`).
 */
export function patternFailure<E>(
  noun: string,
  entries: readonly E[],
  tests: readonly FieldTest<E>[],
  times?: number,
): string | null {
  let count = 0;
  for (const e of entries) if (tests.every((t) => t.pass(e))) count++;
  if (times === undefined ? count > 0 : count === times) return null;
  if (count > 0) return `${count} ${plural(noun, count)} matched, expected ${times}`;
  const none = entries.length === 0
    ? `no ${noun} matched (no ${plural(noun, 0)})`
    : `no ${noun} matched ${closest(noun, entries, tests)}`;
  return times === undefined ? none : `${none}; expected ${times}`;
}

function plural(noun: string, n: number): string {
  return n === 1 ? noun : noun.endsWith("s") ? noun : noun + "s";
}

/** `after.shipping = "express" (2 changes: after.shipping "standard", table "carts")`. */
function closest<E>(noun: string, entries: readonly E[], tests: readonly FieldTest<E>[]): string {
  const ranked = entries
    .map((entry, i) => ({ entry, i, fails: tests.filter((t) => !t.pass(entry)) }))
    .sort((a, b) => a.fails.length - b.fails.length || a.i - b.i)
    .slice(0, 3);
  const first = ranked[0].fails[0];
  const shown = ranked.map(({ entry, fails }) => `${fails[0].label} ${quote(fails[0].actual(entry), 30)}`);
  const more = entries.length > shown.length ? ", ..." : "";
  return `${first.label} ${first.want} (${entries.length} ${plural(noun, entries.length)}: ${shown.join(", ")}${more})`;
}
