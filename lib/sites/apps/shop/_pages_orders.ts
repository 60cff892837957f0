/** The default user's orders: the list, one order's detail (copy number, CSV invoice), and the size guide. */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { AppDb } from "../../db.ts";
import type { SandboxEnv } from "../../types.ts";
import { deliveryRating, ratingOf } from "./_delivery_rating.ts";
import { SHIPPING, type ShippingMethod } from "./_rules.ts";
import { BASE, money, notFoundPage, type ShopContext, shopPage } from "./_views.ts";

interface Order {
  id: number;
  number: string;
  placed_at: string;
  status: string;
  customer_name: string;
  email: string;
  street: string;
  city: string;
  postcode: string;
  country: string;
  shipping_method: ShippingMethod;
  shipping_cost: number;
  delivery_date: string;
  promo_code: string;
  subtotal: number;
  discount: number;
  total: number;
  card_last4: string;
}

interface OrderItem {
  id: number;
  product_id: number;
  name: string;
  size: string;
  colour: string;
  unit_price: number;
  qty: number;
  line_total: number;
}

const STATUS_CLASS: Record<string, string> = { Cancelled: "high", Delivered: "low" };

const statusBadge = (s: string) => html`<span class="badge ${STATUS_CLASS[s] ?? ""} order-status">${s}</span>`;

function findOrder(db: AppDb, number: string) {
  const order = db.get<Order>("SELECT * FROM orders WHERE number = ?", number);
  const items = order ? db.all<OrderItem>("SELECT * FROM order_items WHERE order_id = ? ORDER BY id", order.id) : [];
  return { order, items };
}

function ordersPage(c: ShopContext) {
  const rows = c.get("db").all<Order & { items: number }>(
    `SELECT o.*, (SELECT SUM(qty) FROM order_items WHERE order_id = o.id) AS items
     FROM orders o ORDER BY o.placed_at DESC`,
  );
  return shopPage(c, {
    title: "My orders",
    active: "orders",
    crumbs: [{ href: "", label: "My orders" }],
    body: html`
      <h1>My orders</h1>
      <table id="orders-table">
        <thead>
          <tr>
            <th>Order</th>
            <th>Placed</th>
            <th>Items</th>
            <th>Total</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>${rows.map((o) =>
          html`
            <tr id="order-${o.number}">
              <td><a href="${BASE}/orders/${o.number}">${o.number}</a></td>
              <td>${o.placed_at.slice(0, 10)}</td>
              <td>${o.items}</td>
              <td class="price">${money(o.total)}</td>
              <td>${statusBadge(o.status)}</td>
            </tr>
          `
        )}</tbody>
      </table>
    `,
  });
}

function variant(i: OrderItem) {
  return [i.size && `Size ${i.size}`, i.colour].filter(Boolean).join(", ");
}

function totalsTable(o: Order) {
  return html`<table id="order-totals" style="max-width:380px;margin-left:auto">
    <tr><th>Items subtotal</th><td id="order-subtotal">${money(o.subtotal)}</td></tr>
    ${
    o.discount
      ? html`
        <tr>
          <th>Discount (${o.promo_code})</th>
          <td id="order-discount">−${money(o.discount)}</td>
        </tr>
      `
      : ""
  }
    <tr><th>Shipping (${SHIPPING[o.shipping_method].label})</th><td id="order-shipping">${
    money(o.shipping_cost)
  }</td></tr>
    <tr><th>Total</th><td class="price" id="order-total">${money(o.total)}</td></tr>
  </table>`;
}

function orderPage(c: ShopContext) {
  const { order: o, items } = findOrder(c.get("db"), c.req.param("number") ?? "");
  if (!o) return notFoundPage(c, "Order");
  return shopPage(c, {
    title: `Order ${o.number}`,
    active: "orders",
    crumbs: [{ href: `${BASE}/orders`, label: "My orders" }, { href: "", label: o.number }],
    body: html`
      <h1>Order <span id="order-number">${o.number}</span></h1>
      <div class="row" style="margin-bottom:14px">${statusBadge(o.status)}
              <span class="muted">Placed on ${o.placed_at.slice(0, 10)}</span><span class="spacer"></span>
              <button type="button" class="secondary" id="copy-order-number" data-copy="${o
                .number}">Copy order number</button>
              <a class="button secondary" id="download-invoice" href="${BASE}/orders/${o.number}/invoice.csv">
                Download invoice (CSV)</a>
            </div>
      ${deliveryRating(o, ratingOf(c, o.id))}
      <table id="order-items">
        <thead>
          <tr>
            <th>Item</th>
            <th>Options</th>
            <th>Unit price</th>
            <th>Qty</th>
            <th>Line total</th>
          </tr>
        </thead>
        <tbody>${items.map((i) =>
          html`
            <tr>
              <td><a href="${BASE}/products/${i.product_id}">${i.name}</a></td>
              <td>${variant(i)}</td>
              <td>${money(i.unit_price)}</td>
              <td>${i.qty}</td>
              <td>${money(i.line_total)}</td>
            </tr>
          `
        )}</tbody>
      </table>
      <div style="margin-top:14px">${totalsTable(o)}</div>
      <div class="grid" style="margin-top:14px">
        <div class="card" id="delivery-details">
          <h2 style="margin-top:0">Delivery</h2>
          <div>${o.customer_name}</div>
          <div>${o.street}</div>
          <div>${o.postcode} ${o.city}</div>
          <div>${o.country}</div>
          <p>${o.shipping_method === "pickup" ? "Pickup" : "Delivery"} date: <b>${o.delivery_date}</b></p>
        </div>
        <div class="card" id="payment-details">
          <h2 style="margin-top:0">Payment</h2>
          <div>Card ending ${o.card_last4}</div>
          <div class="muted">Receipt sent to ${o.email}</div>
        </div>
      </div>
    `,
  });
}

function csvCell(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The order as a CSV invoice: a header block, the item lines, then the totals. */
export function invoiceCsv(o: Order, items: OrderItem[]): string {
  const rows: (string | number)[][] = [
    ["Invoice", o.number],
    ["Order date", o.placed_at.slice(0, 10)],
    ["Customer", o.customer_name],
    [],
    ["Item", "Size", "Colour", "Unit price", "Quantity", "Line total"],
    ...items.map((i) => [i.name, i.size, i.colour, i.unit_price.toFixed(2), i.qty, i.line_total.toFixed(2)]),
    ["Subtotal", "", "", "", "", o.subtotal.toFixed(2)],
    ["Discount" + (o.promo_code ? ` (${o.promo_code})` : ""), "", "", "", "", (-o.discount).toFixed(2)],
    ["Shipping", "", "", "", "", o.shipping_cost.toFixed(2)],
    ["Total", "", "", "", "", o.total.toFixed(2)],
  ];
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

function invoice(c: ShopContext) {
  const { order, items } = findOrder(c.get("db"), c.req.param("number") ?? "");
  if (!order) return notFoundPage(c, "Order");
  return c.body(invoiceCsv(order, items), 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="invoice-${order.number}.csv"`,
  });
}

const SIZE_ROWS = [
  ["XS", "82-87", "66-71"],
  ["S", "88-95", "72-79"],
  ["M", "96-103", "80-87"],
  ["L", "104-111", "88-95"],
  ["XL", "112-119", "96-103"],
];

// EU | UK | US (men) | foot length (cm)
const SHOE_ROWS = [
  ["40", "6.5", "7", "25.0"],
  ["41", "7", "8", "25.7"],
  ["42", "8", "8.5", "26.3"],
  ["43", "9", "9.5", "27.0"],
  ["44", "9.5", "10", "27.7"],
  ["45", "10.5", "11", "28.3"],
];

function sizeGuide(c: ShopContext) {
  return shopPage(c, {
    title: "Size guide",
    crumbs: [{ href: "", label: "Size guide" }],
    body: html`
      <h1>Size guide</h1>
      <h2>Jackets, tees, pullovers and socks</h2>
      <table id="size-table-tops" style="max-width:520px">
        <thead>
          <tr>
            <th>Size</th>
            <th>Chest (cm)</th>
            <th>Waist (cm)</th>
          </tr>
        </thead>
        <tbody>${SIZE_ROWS.map((r) =>
          html`
            <tr>
              <td>${r[0]}</td>
              <td>${r[1]}</td>
              <td>${r[2]}</td>
            </tr>
          `
        )}
            </tbody>
      </table>
      <h2>Trousers</h2>
      <p>Trouser sizes are the waist in inches: 28, 30, 32, 34 and 36 (71, 76, 81, 86 and 91 cm).</p>
      <h2>Shoes</h2>
      <table id="size-table-shoes" style="max-width:520px">
        <thead>
          <tr>
            <th>EU</th>
            <th>UK</th>
            <th>US (men)</th>
            <th>Foot length (cm)</th>
          </tr>
        </thead>
        <tbody>${SHOE_ROWS.map((r) => html`<tr>${r.map((v) => html`<td>${v}</td>`)}</tr>`)}</tbody>
      </table>
    `,
  });
}

export function orderRoutes(app: Hono<SandboxEnv>): void {
  app.get("/orders", ordersPage);
  app.get("/orders/:number", orderPage);
  app.get("/orders/:number/invoice.csv", invoice);
  app.get("/size-guide", sizeGuide);
}
