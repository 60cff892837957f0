/** The shop's page frame (menu, cart count, flash messages) and small view helpers shared by its pages. */
import type { Context } from "hono";
import { html } from "hono/html";
import { type Html, type NavLink, renderPage } from "../../layout.ts";
import { DEFAULT_USER } from "../../session.ts";
import type { SandboxEnv } from "../../types.ts";
import { cartCount, categories, type Product } from "./_data.ts";
import { productImage } from "./_visuals.ts";

export type ShopContext = Context<SandboxEnv>;

export const BASE = "/shop";

/** Messages a redirect can ask for with `?msg=KEY` (fixed texts, so a URL cannot inject one). */
const FLASH: Record<string, string> = {
  added: "Added to your cart.",
  updated: "Your cart has been updated.",
  removed: "The item was removed from your cart.",
  review: "Thank you! Your review has been posted.",
  placed: "Thank you! Your order has been placed.",
};

export interface ShopPageOptions {
  title: string;
  /** Breadcrumbs after "Shop". */
  crumbs?: NavLink[];
  /** The menu entry to mark as current: "all", a category slug, "cart" or "orders". */
  active?: string;
  body: Html;
}

/** A full shop page (status 200 unless given). */
export function shopPage(
  c: ShopContext,
  o: ShopPageOptions,
  status: 200 | 404 | 422 = 200,
): Response | Promise<Response> {
  const db = c.get("db");
  const nav: NavLink[] = [
    { href: `${BASE}/products`, label: "All products", active: o.active === "all" },
    ...categories(db).map((cat) => ({
      href: `${BASE}/category/${cat.slug}`,
      label: cat.name,
      active: o.active === cat.slug,
    })),
    { href: `${BASE}/cart`, label: `Cart (${cartCount(db)})`, active: o.active === "cart" },
    { href: `${BASE}/orders`, label: "My orders", active: o.active === "orders" },
  ];
  return c.html(
    renderPage({
      title: o.title,
      app: "Shop",
      appHref: `${BASE}/`,
      nav,
      crumbs: o.crumbs ? [{ href: `${BASE}/`, label: "Shop" }, ...o.crumbs] : undefined,
      user: c.get("session").flags.loggedIn ? DEFAULT_USER.name : null,
      now: c.get("clock").now().toISOString(),
      flash: FLASH[c.req.query("msg") ?? ""],
      body: o.body,
    }),
    status,
  );
}

/** A 404 page inside the shop frame. */
export function notFoundPage(c: ShopContext, what: string) {
  return shopPage(c, {
    title: "Not found",
    crumbs: [{ href: "", label: "Not found" }],
    body: html`
      <h1>${what} not found</h1>
      <p><a href="${BASE}/products">Browse all products</a></p>
    `,
  }, 404);
}

export const money = (n: number) => `$${n.toFixed(2)}`;

/** "4.3 ★ (3 reviews)" or "No reviews yet". */
export function ratingLabel(p: Pick<Product, "rating" | "review_count">): string {
  if (!p.review_count || p.rating === null) return "No reviews yet";
  return `${p.rating.toFixed(1)} ★ (${p.review_count} review${p.review_count === 1 ? "" : "s"})`;
}

/** The stock badge of a product card. */
export function stockBadge(stock: number) {
  if (stock <= 0) return html`<span class="badge high">Out of stock</span>`;
  if (stock <= 5) return html`<span class="badge">Only ${stock} left</span>`;
  return html`<span class="badge low">In stock</span>`;
}

/** The search box shown at the top of the shop's browsing pages. */
export function searchBar(q = "") {
  return html`
    <form method="get" action="${BASE}/products" role="search" class="row" id="search-form"
      style="margin-bottom:14px">
      <label for="search" class="muted">Search products</label>
      <input type="search" id="search" name="q" value="${q}" placeholder="Search by name or brand"
        style="max-width:360px">
      <button type="submit" id="search-button">Search</button>
    </form>
  `;
}

/** One product tile of a grid. */
export function productCard(p: Product) {
  return html`
    <div class="card product-card" id="product-${p.id}" data-product-id="${p.id}">
      ${productImage(p, "card")}
      <h3 style="margin:0 0 4px"><a href="${BASE}/products/${p.id}">${p.name}</a></h3>
      <div class="muted">${p.brand} · ${p.category_name}</div>
      <div class="row" style="margin-top:8px"><span class="price">${money(p.price)}</span>${stockBadge(p.stock)}</div>
      <div class="muted rating">${ratingLabel(p)}</div>
    </div>
  `;
}

/** Error summary and per-field messages of a re-rendered form. */
export function errorSummary(errors: Record<string, string | undefined>) {
  const list = Object.values(errors).filter(Boolean);
  if (!list.length) return "";
  return html`<div class="errors" role="alert" id="form-errors"><strong>Please correct the following:</strong>
    <ul>${list.map((m) => html`<li>${m}</li>`)}</ul></div>`;
}

export function fieldError(errors: Record<string, string | undefined>, field: string) {
  const msg = errors[field];
  return msg ? html`<span class="field-error" id="${field.replace(/_/g, "-")}-error">${msg}</span>` : "";
}
