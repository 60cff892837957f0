/** The cart: its lines, changing a line's quantity, and removing a line (behind a confirm dialog). */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { type CartLine, cartLines } from "./_data.ts";
import { orderTotals } from "./_rules.ts";
import { BASE, errorSummary, money, type ShopContext, shopPage } from "./_views.ts";

interface LineError {
  lineId: number;
  message: string;
  value: string;
}

function variantText(l: Pick<CartLine, "size" | "colour">): string {
  return [l.size && `Size: ${l.size}`, l.colour && `Colour: ${l.colour}`].filter(Boolean).join(", ");
}

function lineRow(l: CartLine, error?: LineError) {
  const lineTotal = orderTotals([l], "pickup", "").subtotal;
  return html`
    <tr id="cart-line-${l.id}" data-product-id="${l.product_id}">
      <td><a href="${BASE}/products/${l.product_id}">${l.name}</a>
          <div class="muted">${variantText(l)}</div></td>
      <td>${money(l.unit_price)}</td>
      <td>
          <form method="post" action="${BASE}/cart/${l.id}/update" class="row" id="update-form-${l.id}">
            <label for="qty-${l.id}" class="muted">Qty</label>
            <input type="number" id="qty-${l.id}" name="qty" value="${error ? error.value : l.qty}"
              style="width:80px">
            <button type="submit" class="secondary" id="update-${l.id}">Update</button>
          </form>
          ${error ? html`<span class="field-error" id="qty-${l.id}-error">${error.message}</span>` : ""}
        </td>
      <td class="price line-total">${money(lineTotal)}</td>
      <td>
        <form method="post" action="${BASE}/cart/${l.id}/remove" class="inline"
          data-confirm="Remove ${l.name} from your cart?" id="remove-form-${l.id}">
          <button type="submit" class="danger" id="remove-${l.id}">Remove</button>
        </form>
      </td>
    </tr>
  `;
}

export function cartPage(c: ShopContext, error?: LineError) {
  const lines = cartLines(c.get("db"));
  const subtotal = orderTotals(lines, "pickup", "").subtotal;
  const body = lines.length
    ? html`
      ${error ? errorSummary({ qty: error.message }) : ""}
            <table id="cart-table">
        <thead>
          <tr>
            <th>Product</th>
            <th>Price</th>
            <th>Quantity</th>
            <th>Total</th>
            <th></th>
          </tr>
        </thead>
        <tbody>${lines.map((l) => lineRow(l, error?.lineId === l.id ? error : undefined))}</tbody>
      </table>
            <div class="card" style="margin-top:14px;max-width:360px;margin-left:auto">
        <div class="row"><span>Subtotal</span><span class="spacer"></span>
                <b id="cart-subtotal">${money(subtotal)}</b></div>
        <p class="muted">Shipping and promo codes are applied at checkout.</p>
        <a href="${BASE}/checkout" class="button" id="checkout-link">Proceed to checkout</a>
      </div>
    `
    : html`<p class="card" id="cart-empty">Your cart is empty. <a href="${BASE}/products">Continue shopping</a></p>`;
  return shopPage(c, {
    title: "Your cart",
    active: "cart",
    crumbs: [{ href: "", label: "Cart" }],
    body: html`<h1>Your cart</h1>${body}`,
  }, error ? 422 : 200);
}

async function updateLine(c: ShopContext) {
  const db = c.get("db");
  const line = cartLines(db).find((l) => l.id === Number(c.req.param("line")));
  if (!line) return c.redirect(`${BASE}/cart`, 303);
  const form = await c.req.parseBody();
  const value = String(form.qty ?? "").trim();
  const qty = Number(value);
  let message = "";
  if (!/^\d+$/.test(value) || qty < 1) message = "Enter a quantity of 1 or more (use Remove to delete the item).";
  else if (qty > line.stock) message = `Only ${line.stock} of ${line.name} in stock.`;
  if (message) return cartPage(c, { lineId: line.id, message, value });
  db.update("cart_items", line.id, { qty });
  return c.redirect(`${BASE}/cart?msg=updated`, 303);
}

function removeLine(c: ShopContext) {
  const removed = c.get("db").remove("cart_items", Number(c.req.param("line")));
  return c.redirect(`${BASE}/cart${removed ? "?msg=removed" : ""}`, 303);
}

export function cartRoutes(app: Hono<SandboxEnv>): void {
  app.get("/cart", (c) => cartPage(c));
  app.post("/cart/:line/update", updateLine);
  app.post("/cart/:line/remove", removeLine);
}
