/**
 * docs/seed-differences.md: every row says why, and every flag its last column names ("the seed's behaviour") is a
 * flag of eval.ts (so a user who follows the table finds it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EVAL_OPTIONS } from "../lib/run/mod.ts";
import { ROOT } from "./support/cli.ts";

const DOC = await Deno.readTextFile(join(ROOT, "docs/seed-differences.md"));

/** The rows of the doc's tables: cells of each line starting "| <number>". */
const rows = DOC.split("\n").filter((l) => /^\|\s*\d+\s*\|/.test(l)).map((l) =>
  l.split("|").slice(1, -1).map((c) => c.trim())
);

Deno.test("every difference from the seed says what, the seed's, ours and why", () => {
  assert.ok(rows.length >= 20, `${rows.length} rows`);
  const numbers = rows.map((r) => Number(r[0]));
  assert.deepEqual(numbers, numbers.map((_, i) => i + 1), "rows numbered 1..N in order");
  for (const r of rows) {
    assert.equal(r.length, 6, `row ${r[0]}: ${r.length} cells`);
    for (const [i, what] of ["what", "the seed", "this suite", "why", "the seed's behaviour"].entries()) {
      assert.ok(r[i + 1].length > 3, `row ${r[0]}: no ${what}`);
    }
  }
});

Deno.test("every flag the table names is one of eval.ts's flags", () => {
  const flags = rows.flatMap((r) => [...r[5].matchAll(/`--([a-z-]+)/g)].map((m) => m[1]));
  assert.ok(flags.length >= 8, flags.join(", "));
  for (const f of flags) assert.ok(Object.hasOwn(EVAL_OPTIONS, f), `--${f} is not a flag of eval.ts`);
});
