/** Checkout: the form, its server-side validation, and placing the order (orders + order_items, cart cleared). */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { AppDb } from "../../db.ts";
import type { SandboxEnv } from "../../types.ts";
import { type CartLine, cartLines } from "./_data.ts";
import {
  checkoutErrors,
  type CheckoutValues,
  COUNTRIES,
  orderTotals,
  readCheckout,
  SHIPPING,
  type ShippingMethod,
} from "./_rules.ts";
import { BASE, errorSummary, fieldError, money, type ShopContext, shopPage } from "./_views.ts";

type Errors = Record<string, string | undefined>;

const EMPTY: CheckoutValues = {
  name: "",
  email: "",
  street: "",
  city: "",
  postcode: "",
  country: "",
  shipping: "standard",
  delivery_date: "",
  promo: "",
  card: "",
};

function textField(field: keyof CheckoutValues, label: string, v: CheckoutValues, e: Errors) {
  const id = field.replace(/_/g, "-");
  return html`<div><label for="${id}">${label}</label>
    <input type="text" id="${id}" name="${field}" value="${v[field]}">${fieldError(e, field)}</div>`;
}

function summary(lines: CartLine[]) {
  const t = orderTotals(lines, "pickup", "");
  return html`
    <aside class="card" id="order-summary">
      <h2 style="margin-top:0">Order summary</h2>
      <table>
        <tbody>${lines.map((l) =>
          html`
            <tr>
              <td>${l.name}${l.size ? ` (${l.size})` : ""}${l.colour ? `, ${l.colour}` : ""} × ${l.qty}</td>
              <td>${money(t.lineTotal(l))}</td>
            </tr>
          `
        )}</tbody>
      </table>
      <p class="row"><span>Items subtotal</span><span class="spacer"></span><b id="summary-subtotal">${money(
        t.subtotal,
      )}</b></p>
      <p class="muted">Shipping is added and promo codes are applied when you place the order.</p>
    </aside>
  `;
}

function checkoutForm(v: CheckoutValues, e: Errors) {
  return html`<form method="post" action="${BASE}/checkout" id="checkout-form" class="stack">
    <h2>Contact</h2>
    ${textField("name", "Full name", v, e)}${textField("email", "Email", v, e)}
    <h2>Address</h2>
    ${textField("street", "Street address", v, e)}${textField("city", "City", v, e)}
    ${textField("postcode", "Postcode", v, e)}
    <div><label for="country">Country</label>
      <select id="country" name="country"><option value="">Choose a country…</option>${
    COUNTRIES.map((c) => html`<option value="${c}" ${c === v.country ? "selected" : ""}>${c}</option>`)
  }</select>${fieldError(e, "country")}</div>
    <h2>Shipping</h2>
    <fieldset id="shipping-options" style="border:none;padding:0;margin:0"><legend class="muted">Shipping method</legend>
      ${
    (Object.entries(SHIPPING) as [ShippingMethod, (typeof SHIPPING)[ShippingMethod]][]).map(([key, s]) =>
      html`<label for="ship-${key}"><input type="radio" name="shipping" id="ship-${key}" value="${key}"
          ${key === v.shipping ? "checked" : ""}> ${s.label} — ${s.price ? money(s.price) : "Free"}</label>`
    )
  }${fieldError(e, "shipping")}
    </fieldset>
    <div style="position:relative"><label for="delivery-date">Delivery date</label>
      <input type="text" id="delivery-date" name="delivery_date" value="${v.delivery_date}" data-datepicker
        placeholder="YYYY-MM-DD">
      <div class="muted">Any day after today except Sunday.</div>${fieldError(e, "delivery_date")}</div>
    <h2>Payment</h2>
    ${textField("promo", "Promo code (optional)", v, e)}
    <div><label for="card">Card number</label>
      <input type="text" id="card" name="card" inputmode="numeric" autocomplete="cc-number" value="${v.card}"
        placeholder="16 digits">${fieldError(e, "card")}</div>
    ${fieldError(e, "cart")}
    <div><button type="submit" id="place-order">Place order</button></div>
  </form>`;
}

function checkoutPage(c: ShopContext, v: CheckoutValues = EMPTY, e: Errors = {}) {
  const lines = cartLines(c.get("db"));
  const body = lines.length
    ? html`${errorSummary(e)}<div style="display:grid;grid-template-columns:1fr 340px;gap:24px;align-items:start">
        ${checkoutForm(v, e)}${summary(lines)}</div>`
    : html`<p class="card" id="cart-empty">Your cart is empty, so there is nothing to check out.
        <a href="${BASE}/products">Continue shopping</a></p>`;
  return shopPage(c, {
    title: "Checkout",
    active: "cart",
    crumbs: [{ href: `${BASE}/cart`, label: "Cart" }, { href: "", label: "Checkout" }],
    body: html`<h1>Checkout</h1>${body}`,
  }, Object.keys(e).length ? 422 : 200);
}

/** The next order number after the highest one stored (SO-10245 → SO-10246). */
function nextOrderNumber(db: AppDb): string {
  const row = db.get<{ n: number }>("SELECT MAX(CAST(SUBSTR(number, 4) AS INTEGER)) AS n FROM orders");
  return `SO-${(row?.n ?? 10000) + 1}`;
}

function placeOrder(c: ShopContext, v: CheckoutValues, lines: CartLine[]): string {
  const db = c.get("db");
  const method = v.shipping as ShippingMethod;
  const promo = v.promo.toUpperCase();
  const t = orderTotals(lines, method, promo);
  const number = nextOrderNumber(db);
  const orderId = db.insert("orders", {
    number,
    placed_at: c.get("clock").now().toISOString(),
    status: "Processing",
    customer_name: v.name,
    email: v.email,
    street: v.street,
    city: v.city,
    postcode: v.postcode,
    country: v.country,
    shipping_method: method,
    shipping_cost: t.shipping,
    delivery_date: v.delivery_date,
    promo_code: promo,
    subtotal: t.subtotal,
    discount: t.discount,
    total: t.total,
    card_last4: v.card.replace(/[\s-]/g, "").slice(-4),
  });
  for (const l of lines) {
    const { product_id, name, size, colour, unit_price, qty } = l;
    db.insert("order_items", {
      order_id: orderId,
      product_id,
      name,
      size,
      colour,
      unit_price,
      qty,
      line_total: t.lineTotal(l),
    });
    const stock = db.byId<{ stock: number }>("products", product_id)?.stock ?? 0;
    db.update("products", product_id, { stock: stock - qty });
    db.remove("cart_items", l.id);
  }
  return number;
}

async function submitCheckout(c: ShopContext) {
  const v = readCheckout(await c.req.parseBody());
  const lines = cartLines(c.get("db"));
  if (!lines.length) return c.redirect(`${BASE}/cart`, 303);
  const e: Errors = checkoutErrors(v, c.get("clock").today());
  const short = lines.find((l) => lines.reduce((n, o) => n + (o.product_id === l.product_id ? o.qty : 0), 0) > l.stock);
  if (short) e.cart = `Only ${short.stock} of ${short.name} left in stock; update your cart.`;
  if (Object.keys(e).length) return checkoutPage(c, v, e);
  const number = placeOrder(c, v, lines);
  return c.redirect(`${BASE}/orders/${number}?msg=placed`, 303);
}

export function checkoutRoutes(app: Hono<SandboxEnv>): void {
  app.get("/checkout", (c) => checkoutPage(c));
  app.post("/checkout", submitCheckout);
}
