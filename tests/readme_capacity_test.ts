/**
 * Capacity as distinct end conditions (issue 31, item 6): records that differ only by their start page count once,
 * and the README's capacity table is what `deno task gen --list --markdown` prints for the templates now (regenerate
 * it with `deno task gen --list --markdown --into README.md`: docs/generation.md, "Coverage and capacity").
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CAPACITY_BEGIN,
  CAPACITY_END,
  capacityMarkdown,
  capacityOf,
  capacityRows,
  endConditionsOf,
  TEMPLATES,
  withCapacityBlock,
} from "../lib/gen/mod.ts";
import { ROOT } from "./support/cli.ts";

const byId = (id: string) => TEMPLATES.find((t) => t.id === id)!;

Deno.test("capacity counts end conditions: a menu entry reached from 36 start pages is one", () => {
  // The case: 108 records, 3 menu entries from many room pages.
  const fromRoom = byId("bookings.navigate_menu.from_room_page");
  assert.equal(capacityOf(fromRoom).length, 108);
  assert.equal(endConditionsOf(fromRoom), 3);
  // A template whose records all differ in their outcome keeps every one.
  const sorted = byId("shop.open_detail.brand_filter_open");
  assert.equal(endConditionsOf(sorted), capacityOf(sorted).length);
});

Deno.test("the README's capacity table is what gen --list --markdown prints for the templates now", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const from = readme.indexOf(CAPACITY_BEGIN), to = readme.indexOf(CAPACITY_END);
  assert.ok(from >= 0 && to > from, "README.md has no capacity table between its markers");
  const rows = capacityRows(TEMPLATES);
  assert.equal(
    readme.slice(from, to + CAPACITY_END.length),
    capacityMarkdown(rows),
    "README.md's capacity table is stale: run `deno task gen --list --markdown --into README.md`",
  );
  assert.equal(rows.length, TEMPLATES.length);
  assert.ok(rows.every((r) => r.ends >= 1 && r.ends <= r.records), "end conditions are at most the records");
});

Deno.test("withCapacityBlock replaces the block between the markers, and names them when they are missing", () => {
  const text = `a\n${CAPACITY_BEGIN}\nold\n${CAPACITY_END}\nb\n`;
  assert.equal(
    withCapacityBlock(text, `${CAPACITY_BEGIN}\nnew\n${CAPACITY_END}`),
    `a\n${CAPACITY_BEGIN}\nnew\n${CAPACITY_END}\nb\n`,
  );
  assert.throws(() => withCapacityBlock("no table here", "x"), /no capacity block/);
});
