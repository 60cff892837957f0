import assert from "node:assert/strict";
import { checkoutErrors, deliveryDateError, luhnValid, orderTotals, readCheckout } from "./_rules.ts";

const TODAY = "2026-03-15"; // a Sunday

Deno.test("luhnValid() accepts the test card and rejects a changed digit", () => {
  assert.equal(luhnValid("4242424242424242"), true);
  assert.equal(luhnValid("5454545454545454"), true);
  assert.equal(luhnValid("4242424242424241"), false);
  assert.equal(luhnValid(""), false);
});

Deno.test("deliveryDateError() wants a real date after today that is not a Sunday", () => {
  assert.equal(deliveryDateError("2026-03-16", TODAY), "");
  assert.match(deliveryDateError("2026-03-15", TODAY), /after today/);
  assert.match(deliveryDateError("2026-03-01", TODAY), /after today/);
  assert.match(deliveryDateError("2026-03-22", TODAY), /Sundays/);
  assert.match(deliveryDateError("2026-02-30", TODAY), /YYYY-MM-DD/);
  assert.match(deliveryDateError("16/03/2026", TODAY), /YYYY-MM-DD/);
  assert.match(deliveryDateError("", TODAY), /Choose a delivery date/);
});

Deno.test("orderTotals() takes the promo off items only and rounds to the cent", () => {
  const t = orderTotals([{ unit_price: 179, qty: 1 }, { unit_price: 89.99, qty: 2 }], "express", "spring10");
  assert.deepEqual([t.subtotal, t.discount, t.shipping, t.total], [358.98, 35.9, 12.99, 336.07]);
  const plain = orderTotals([{ unit_price: 27.95, qty: 2 }], "standard", "");
  assert.deepEqual([plain.subtotal, plain.discount, plain.total], [55.9, 0, 60.89]);
  assert.equal(orderTotals([{ unit_price: 10, qty: 1 }], "pickup", "").total, 10);
});

Deno.test("checkoutErrors() names each bad field and passes a good form", () => {
  const good = readCheckout({
    name: " Alex Morgan ",
    email: "alex@sandbox.test",
    street: "1 Main St",
    city: "Leeds",
    postcode: "LS1 4AP",
    country: "United Kingdom",
    shipping: "pickup",
    delivery_date: "2026-03-17",
    promo: "",
    card: "4242 4242 4242 4242",
  });
  assert.equal(good.name, "Alex Morgan");
  assert.deepEqual(checkoutErrors(good, TODAY), {});
  const bad = checkoutErrors({ ...good, email: "alex@", country: "Narnia", promo: "SPRING99", card: "4242" }, TODAY);
  assert.deepEqual(Object.keys(bad).sort(), ["card", "country", "email", "promo"]);
  assert.equal(bad.promo, 'The promo code "SPRING99" is not valid.');
  assert.match(checkoutErrors({ ...good, shipping: "drone" }, TODAY).shipping ?? "", /shipping method/);
});
