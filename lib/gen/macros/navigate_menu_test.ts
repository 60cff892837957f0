import assert from "node:assert/strict";
import { navigateMenu } from "./navigate_menu.ts";

Deno.test("navigateMenu: another control to the page is an equivalent-control method attack, only when given", () => {
  assert.deepEqual(navigateMenu("bookings", "Rooms", "/bookings/rooms").attacks.map((a) => a.kind), ["typed_url"]);
  const home = [{ click: { selector: "nav.crumbs a[href='/bookings/']" } }, { click: { selector: "#home-rooms" } }];
  const s = navigateMenu("bookings", "Rooms", "/bookings/rooms", "/bookings/rooms", undefined, home);
  const eq = s.attacks.find((a) => a.kind === "equivalent_control")!;
  assert.deepEqual(eq.steps, home);
  assert.equal(eq.reason, "method_missing");
  assert.equal(eq.method, true);
  // Its witness: no menu click opened the page, and the page was visited (no typed URL needed).
  assert.deepEqual(eq.witness, {
    all: [
      {
        not: {
          record: { action: "click", region: { contains: "menu" }, target: { contains: "Rooms" } },
          opened: { path: "/bookings/rooms" },
        },
      },
      { visited: { regex: "^/bookings/rooms(\\?|$)" } },
    ],
  });
});
