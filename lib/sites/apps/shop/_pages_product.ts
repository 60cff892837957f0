/** The product page (Details / Specifications / Reviews tabs), adding to the cart, and posting a review. */
import type { Hono } from "hono";
import { html } from "hono/html";
import { DEFAULT_USER } from "../../session.ts";
import type { SandboxEnv } from "../../types.ts";
import { getProduct, options, type Product } from "./_data.ts";
import { productTabs } from "./_product_tabs.ts";
import { productImage, salesChart } from "./_visuals.ts";
import {
  BASE,
  errorSummary,
  fieldError,
  money,
  notFoundPage,
  ratingLabel,
  type ShopContext,
  shopPage,
} from "./_views.ts";

export type Errors = Record<string, string | undefined>;
export type Values = Record<string, string>;

export interface ProductView {
  tab: string;
  cart?: { errors: Errors; values: Values };
  review?: { errors: Errors; values: Values };
}

const idOf = (v: string) => v.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function choiceGroup(kind: "size" | "colour", list: string[], chosen: string, errors: Errors) {
  if (!list.length) return "";
  return html`<fieldset id="${kind}-options" style="border:none;padding:0;margin:0 0 10px">
    <legend><b>${kind === "size" ? "Size" : "Colour"}</b></legend>
    <div class="row">${
    list.map((v) =>
      html`
        <label
          for="${kind}-${idOf(v)}"><input type="radio" name="${kind}" id="${kind}-${idOf(v)}" value="${v}"
                ${v === chosen ? "checked" : ""}> ${v}</label>
      `
    )
  }</div>
    ${fieldError(errors, kind)}
  </fieldset>`;
}

function buyBox(p: Product, view: ProductView) {
  const errors = view.cart?.errors ?? {};
  const values = view.cart?.values ?? {};
  const sizes = options(p.sizes);
  const stock = p.stock > 0
    ? html`<span id="stock-status" class="badge low">In stock: ${p.stock} available</span>`
    : html`<span id="stock-status" class="badge high">Out of stock</span>`;
  return html`<div class="card" id="buy-box">
    <div class="row"><span class="price" style="font-size:24px" id="product-price">${
    money(p.price)
  }</span>${stock}</div>
    ${errorSummary(errors)}
    <form method="post" action="${BASE}/products/${p.id}/cart" id="add-to-cart-form" style="margin-top:12px">
      ${choiceGroup("size", sizes, values.size ?? "", errors)}
      ${
    sizes.length
      ? html`<p><a href="${BASE}/size-guide" target="_blank" rel="noopener" id="size-guide-link">Size guide</a>
          <span class="muted">(opens in a new tab)</span></p>`
      : ""
  }
      ${choiceGroup("colour", options(p.colours), values.colour ?? "", errors)}
      <div class="row">
        <label for="qty">Quantity</label>
        <input type="number" id="qty" name="qty" value="${values.qty ?? "1"}" style="width:90px">
        <button type="submit" id="add-to-cart" ${p.stock > 0 ? "" : "disabled"}>Add to cart</button>
      </div>
      ${fieldError(errors, "qty")}
    </form>
  </div>`;
}

export function productPage(c: ShopContext, p: Product, view: ProductView, status: 200 | 422 = 200) {
  return shopPage(c, {
    title: p.name,
    active: p.category_slug,
    crumbs: [
      { href: `${BASE}/products`, label: "All products" },
      { href: `${BASE}/category/${p.category_slug}`, label: p.category_name },
      { href: "", label: p.name },
    ],
    body: html`<h1 id="product-name">${p.name}</h1>
      <div class="row muted" style="margin-bottom:12px">
        <span>Brand: <b id="product-brand">${p.brand}</b></span><span>SKU: ${p.sku}</span>
        <span id="product-rating">${ratingLabel(p)}</span>
      </div>
      <div style="display:grid;grid-template-columns:240px 1fr;gap:16px;align-items:start">
        <div class="card" style="padding:0;overflow:hidden" id="product-photo">${productImage(p, "page")}</div>
        ${buyBox(p, view)}
      </div>
      ${productTabs(p, view, c.get("db"))}
      ${salesChart(p)}`,
  }, status);
}

function showProduct(c: ShopContext) {
  const p = getProduct(c.get("db"), Number(c.req.param("id")));
  if (!p) return notFoundPage(c, "Product");
  const tab = c.req.query("tab") ?? "details";
  return productPage(c, p, { tab: ["details", "specs", "reviews"].includes(tab) ? tab : "details" });
}

/** Problems with an add-to-cart form, given what the cart already holds of that product. */
function cartErrors(p: Product, v: Values, inCart: number): Errors {
  const e: Errors = {};
  if (p.stock <= 0) e.qty = "This product is out of stock.";
  const sizes = options(p.sizes);
  const colours = options(p.colours);
  if (sizes.length && !sizes.includes(v.size)) e.size = "Choose a size.";
  if (colours.length && !colours.includes(v.colour)) e.colour = "Choose a colour.";
  const qty = Number(v.qty);
  if (!e.qty && (!/^\d+$/.test(v.qty) || qty < 1)) e.qty = "Enter a quantity of 1 or more.";
  else if (!e.qty && qty + inCart > p.stock) {
    e.qty = `Only ${p.stock} in stock${inCart ? ` (you already have ${inCart} in your cart)` : ""}.`;
  }
  return e;
}

async function addToCart(c: ShopContext) {
  const db = c.get("db");
  const p = getProduct(db, Number(c.req.param("id")));
  if (!p) return notFoundPage(c, "Product");
  const form = await c.req.parseBody();
  const v: Values = {
    size: p.sizes ? String(form.size ?? "") : "",
    colour: p.colours ? String(form.colour ?? "") : "",
    qty: String(form.qty ?? "").trim(),
  };
  const line = db.get<{ id: number; qty: number }>(
    "SELECT id, qty FROM cart_items WHERE product_id = ? AND size = ? AND colour = ?",
    p.id,
    v.size,
    v.colour,
  );
  const errors = cartErrors(p, v, line?.qty ?? 0);
  if (Object.keys(errors).length) return productPage(c, p, { tab: "details", cart: { errors, values: v } }, 422);
  if (line) db.update("cart_items", line.id, { qty: line.qty + Number(v.qty) });
  else {
    db.insert("cart_items", {
      product_id: p.id,
      size: v.size,
      colour: v.colour,
      qty: Number(v.qty),
      added_at: c.get("clock").now().toISOString(),
    });
  }
  return c.redirect(`${BASE}/cart?msg=added`, 303);
}

async function postReview(c: ShopContext) {
  const db = c.get("db");
  const p = getProduct(db, Number(c.req.param("id")));
  if (!p) return notFoundPage(c, "Product");
  const form = await c.req.parseBody();
  const v: Values = { rating: String(form.rating ?? ""), body: String(form.body ?? "").trim() };
  const errors: Errors = {};
  if (!/^[1-5]$/.test(v.rating)) errors.rating = "Choose a rating from 1 to 5 stars.";
  if (v.body.length < 10) errors.body = "Write at least 10 characters about the product.";
  else if (v.body.length > 2000) errors.body = "Keep your review under 2000 characters.";
  if (Object.keys(errors).length) return productPage(c, p, { tab: "reviews", review: { errors, values: v } }, 422);
  db.insert("reviews", {
    product_id: p.id,
    author: c.get("session").flags.loggedIn ? DEFAULT_USER.name : "Guest",
    rating: Number(v.rating),
    body: v.body,
    created_at: c.get("clock").today(),
  });
  return c.redirect(`${BASE}/products/${p.id}?tab=reviews&msg=review`, 303);
}

export function productRoutes(app: Hono<SandboxEnv>): void {
  app.get("/products/:id", showProduct);
  app.post("/products/:id/cart", addToCart);
  app.post("/products/:id/reviews", postReview);
}
