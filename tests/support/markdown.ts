/** Reading a report's Markdown in tests. */
import assert from "node:assert/strict";

/** The Markdown section that starts at `heading` (up to the next heading of its level or above). */
export function section(md: string, heading: string): string {
  const start = md.indexOf(`${heading}\n`);
  assert.ok(start >= 0, `no "${heading}" in:\n${md}`);
  const level = heading.split(" ")[0];
  const next = md.slice(start + heading.length).search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? md.slice(start) : md.slice(start, start + heading.length + next);
}
