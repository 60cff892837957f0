import assert from "node:assert/strict";
import { scriptJson } from "./viewer_page.ts";

Deno.test("scriptJson() cannot close its script block or open a comment, and parses back", () => {
  const value = { text: "</script><script>alert(1)</script><!-- <b>" };
  const json = scriptJson(value);
  assert.doesNotMatch(json, /</);
  assert.deepEqual(JSON.parse(json), value);
});
