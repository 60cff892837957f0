import assert from "node:assert/strict";
import { chooseStars } from "./radio.ts";

const recorded = 'delivery-rating#delivery-rating "Rate the delivery ★★★★★ Not rated yet"';

Deno.test("a star widget: a click on the widget and its own request carrying the stars; Tab from a neighbour", () => {
  const s = chooseStars("shop", "delivery", "SO-10242", 4);
  assert.equal(s.macro, "choose_radio");
  assert.deepEqual(s.steps, [{ click: { selector: "delivery-rating >>> button[data-stars='4']" } }]);
  const [click, request] = s.method as { record?: { target: { regex: string } }; request?: unknown }[];
  // The recorder names the widget for a click on any of its shadow buttons; another element is not it.
  assert.ok(new RegExp(click.record!.target.regex).test(recorded));
  assert.ok(!new RegExp(click.record!.target.regex).test('div#delivery-rating-row ""'));
  // The value is the request's, not the click's: a typed URL cannot POST it.
  assert.deepEqual(request.request, { method: "POST", path: "/shop/orders/SO-10242/rating", body: { stars: "4" } });
  assert.deepEqual(s.attacks, []);
  assert.deepEqual(s.alternatives.map((a) => a.steps), [[
    { click: { selector: "delivery-rating >>> button[data-stars='3']" } },
    { send_keys: { keys: "Tab" } },
    { send_keys: { keys: "Enter" } },
  ]]);
  // One star has no lower neighbour: back from the second.
  assert.deepEqual(chooseStars("shop", "delivery", "SO-10242", 1).alternatives[0].steps.slice(0, 2), [
    { click: { selector: "delivery-rating >>> button[data-stars='2']" } },
    { send_keys: { keys: "Shift+Tab" } },
  ]);
});

Deno.test("a star widget refuses a value off its scale and an app without one", () => {
  assert.throws(() => chooseStars("shop", "delivery", "SO-10242", 6), /a rating of 6 stars is not 1 to 5/);
  assert.throws(() => chooseStars("shop", "delivery", "SO-10242", 2.5), /not 1 to 5/);
  assert.throws(() => chooseStars("mail", "delivery", "x", 3), /app "mail" has no rating widget delivery/);
});
