import assert from "node:assert/strict";
import { openNewTab } from "./open_new_tab.ts";

Deno.test("openNewTab: the query its link carries is in its opened evidence and in both typed routes", () => {
  const s = openNewTab({ click: { selector: "#floor-plan" } }, "Floor plan", "/bookings/floors/2", {
    query: { room: "7" },
  });
  assert.deepEqual(s.method, [{
    record: { action: "click", target: { contains: "Floor plan" } },
    opened: { path: "/bookings/floors/2", query: { room: "7" }, tab: "new" },
  }]);
  assert.deepEqual(s.attacks.map((a) => [a.kind, a.steps[0]]), [
    ["same_tab", { navigate: { url: "/bookings/floors/2?room=7" } }],
    ["typed_url", { open_tab: { url: "/bookings/floors/2?room=7" } }],
  ]);
  // Without a query: the page's path alone, and no query in the evidence.
  const bare = openNewTab({ click: { selector: "#docs-link" } }, "Docs", "/tracker/docs");
  assert.deepEqual(bare.method[0], {
    record: { action: "click", target: { contains: "Docs" } },
    opened: { path: "/tracker/docs", tab: "new" },
  });
  assert.deepEqual(bare.attacks[0].steps[0], { navigate: { url: "/tracker/docs" } });
});
