import assert from "node:assert/strict";
import { tabId } from "./_tabs.ts";

Deno.test("tabId() gives distinct four-character ids, the same on every run", () => {
  const ids = Array.from({ length: 200 }, (_, n) => tabId(n));
  assert.ok(ids.every((id) => /^[a-z2-9]{4}$/.test(id)));
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(tabId(0), tabId(0));
  assert.notEqual(tabId(0), tabId(1));
});
