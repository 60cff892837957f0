/**
 * The shop's business rules, free of HTTP and storage: shipping prices, promo codes, order totals, and the
 * checkout form's validation (Luhn card check, delivery date after today and not a Sunday).
 */

/** The delivery methods: their label and price in dollars. */
export const SHIPPING = {
  standard: { label: "Standard delivery (3-5 working days)", price: 4.99 },
  express: { label: "Express delivery (next working day)", price: 12.99 },
  pickup: { label: "Pick up in store", price: 0 },
} as const;
/** A delivery method's key (`standard`, `express`, ...). */
export type ShippingMethod = keyof typeof SHIPPING;

/** Promo codes and the share of the item subtotal they take off. */
export const PROMOS: Record<string, number> = { SPRING10: 0.10 };

export const COUNTRIES = [
  "Australia",
  "Canada",
  "France",
  "Germany",
  "Ireland",
  "Netherlands",
  "New Zealand",
  "Spain",
  "United Kingdom",
  "United States",
];

export interface PricedLine {
  unit_price: number;
  qty: number;
}

const cents = (dollars: number) => Math.round(dollars * 100);

/** An order's amounts in dollars, and the total of one of its lines. */
export interface OrderTotals {
  /** The items' sum. */
  subtotal: number;
  /** The promo code's discount on the items. */
  discount: number;
  /** The delivery method's price. */
  shipping: number;
  /** Subtotal less discount plus shipping. */
  total: number;
  /** One line's unit price times its quantity. */
  lineTotal: (l: PricedLine) => number;
}

/** Subtotal, discount (promo on items only), shipping and total, in dollars rounded to the cent. */
export function orderTotals(lines: PricedLine[], shipping: ShippingMethod, promo: string): OrderTotals {
  const subtotal = lines.reduce((sum, l) => sum + cents(l.unit_price) * l.qty, 0);
  const discount = Math.round(subtotal * (PROMOS[promo.toUpperCase()] ?? 0));
  const ship = cents(SHIPPING[shipping].price);
  return {
    subtotal: subtotal / 100,
    discount: discount / 100,
    shipping: ship / 100,
    total: (subtotal - discount + ship) / 100,
    lineTotal: (l: PricedLine) => cents(l.unit_price) * l.qty / 100,
  };
}

/** True when `digits` (only digits) passes the Luhn check. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** An error message for a delivery date (YYYY-MM-DD) relative to `today`, or "" when it is acceptable. */
export function deliveryDateError(value: string, today: string): string {
  if (!value) return "Choose a delivery date.";
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!day || day.toISOString().slice(0, 10) !== value) return "Enter the delivery date as YYYY-MM-DD.";
  if (value <= today) return "The delivery date must be after today.";
  if (day.getUTCDay() === 0) return "We do not deliver on Sundays. Choose another day.";
  return "";
}

export interface CheckoutValues {
  name: string;
  email: string;
  street: string;
  city: string;
  postcode: string;
  country: string;
  shipping: string;
  delivery_date: string;
  promo: string;
  card: string;
}

export const CHECKOUT_FIELDS: (keyof CheckoutValues)[] = [
  "name",
  "email",
  "street",
  "city",
  "postcode",
  "country",
  "shipping",
  "delivery_date",
  "promo",
  "card",
];

/** The submitted checkout form, trimmed; missing fields are "". */
export function readCheckout(form: Record<string, unknown>): CheckoutValues {
  const out = {} as CheckoutValues;
  for (const f of CHECKOUT_FIELDS) out[f] = typeof form[f] === "string" ? (form[f] as string).trim() : "";
  return out;
}

/** Field name → message for every invalid field of the checkout form (empty when the form is valid). */
export function checkoutErrors(v: CheckoutValues, today: string): Partial<Record<keyof CheckoutValues, string>> {
  const e: Partial<Record<keyof CheckoutValues, string>> = {};
  if (v.name.length < 2) e.name = "Enter your full name.";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email)) e.email = "Enter a valid email address, like name@example.com.";
  if (!v.street) e.street = "Enter the street address.";
  if (!v.city) e.city = "Enter the city.";
  if (!/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(v.postcode)) e.postcode = "Enter a valid postcode.";
  if (!COUNTRIES.includes(v.country)) e.country = "Choose a country.";
  if (!(v.shipping in SHIPPING)) e.shipping = "Choose a shipping method.";
  const dateError = deliveryDateError(v.delivery_date, today);
  if (dateError) e.delivery_date = dateError;
  if (v.promo && !(v.promo.toUpperCase() in PROMOS)) e.promo = `The promo code "${v.promo}" is not valid.`;
  const digits = v.card.replace(/[\s-]/g, "");
  if (!/^\d{16}$/.test(digits)) e.card = "Enter the 16-digit card number.";
  else if (!luhnValid(digits)) e.card = "This card number is not valid. Check the digits.";
  return e;
}
