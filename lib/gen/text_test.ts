import assert from "node:assert/strict";
import { period, plural } from "./text.ts";

Deno.test("period: a sentence ends once, whatever its last word", () => {
  assert.equal(period("company Harbor Print Co."), "company Harbor Print Co.");
  assert.equal(period("company Sandbox Ltd"), "company Sandbox Ltd.");
  assert.equal(period('the title "Done?"'), 'the title "Done?"');
  assert.equal(period("leave it empty "), "leave it empty.");
});

Deno.test("plural: one point, many points, irregular forms", () => {
  assert.equal(plural(1, "point"), "1 point");
  assert.equal(plural(0, "point"), "0 points");
  assert.equal(plural(2, "person", "people"), "2 people");
});
