/** The product page's tabs: Details, Specifications and Reviews (with the review form), as `?tab=` links. */
import { html } from "hono/html";
import type { AppDb } from "../../db.ts";
import type { Product } from "./_data.ts";
import type { ProductView } from "./_pages_product.ts";
import { BASE, errorSummary, fieldError, money } from "./_views.ts";

interface Review {
  id: number;
  author: string;
  rating: number;
  body: string;
  created_at: string;
}

const stars = (n: number) => "★".repeat(n) + "☆".repeat(5 - n);

function detailsTab(p: Product) {
  return html`
    <p id="product-description">${p.description}</p>
    <table id="product-facts" style="max-width:520px">
          <tr><th>Brand</th><td>${p.brand}</td></tr>
          <tr><th>Category</th><td>${p.category_name}</td></tr>
          <tr><th>SKU</th><td>${p.sku}</td></tr>
          <tr><th>Price</th><td>${money(p.price)}</td></tr>
          <tr><th>In stock</th><td>${p.stock}</td></tr>
          ${p.sizes
            ? html`
              <tr>
                <th>Sizes</th>
                <td>${p.sizes.split(",").join(", ")}</td>
              </tr>
            `
            : ""}
          ${p.colours
            ? html`
              <tr>
                <th>Colours</th>
                <td>${p.colours.split(",").join(", ")}</td>
              </tr>
            `
            : ""}
        </table>
  `;
}

function specsTab(p: Product) {
  const rows = p.specs.split("; ").map((s) => {
    const at = s.indexOf(": ");
    return [s.slice(0, at), s.slice(at + 2)];
  });
  return html`
    <table id="spec-table" style="max-width:620px">
      <tbody>${rows.map(([k, v]) =>
        html`
          <tr>
            <th scope="row">${k}</th>
            <td>${v}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function reviewForm(p: Product, view: ProductView) {
  const errors = view.review?.errors ?? {};
  const values = view.review?.values ?? {};
  return html`<div class="card" id="write-review">
    <h2 style="margin-top:0">Write a review</h2>
    ${errorSummary(errors)}
    <form method="post" action="${BASE}/products/${p.id}/reviews" id="review-form" class="stack">
      <fieldset style="border:none;padding:0;margin:0"><legend><b>Your rating</b></legend>
        <div class="row">${
    [1, 2, 3, 4, 5].map((n) =>
      html`<label for="rating-${n}"><input type="radio" name="rating" id="rating-${n}" value="${n}"
            ${values.rating === String(n) ? "checked" : ""}> ${n} star${n === 1 ? "" : "s"}</label>`
    )
  }</div>
        ${fieldError(errors, "rating")}
      </fieldset>
      <label for="review-body">Your review</label>
      <textarea id="review-body" name="body">${values.body ?? ""}</textarea>
      ${fieldError(errors, "body")}
      <div><button type="submit" id="submit-review">Post review</button></div>
    </form>
  </div>`;
}

function reviewsTab(p: Product, view: ProductView, db: AppDb) {
  const reviews = db.all<Review>(
    "SELECT * FROM reviews WHERE product_id = ? ORDER BY created_at DESC, id DESC",
    p.id,
  );
  const summary = reviews.length
    ? html`<p id="review-summary">Average rating <b>${p.rating?.toFixed(1)}</b> out of 5 from
      <b>${reviews.length}</b> review${reviews.length === 1 ? "" : "s"}.</p>`
    : html`<p id="review-summary">No reviews yet. Be the first to review this product.</p>`;
  return html`${summary}
    <div id="review-list">${
    reviews.map((r) =>
      html`
        <article class="card review" id="review-${r.id}">
          <div class="row"><b class="review-author">${r.author}</b>
                  <span class="review-stars" aria-label="${r.rating} out of 5 stars">${stars(r.rating)}</span>
                  <span class="muted">${r.created_at}</span></div>
          <p style="margin:6px 0 0">${r.body}</p>
        </article>
      `
    )
  }</div>
    ${reviewForm(p, view)}`;
}

/** The tab strip and the current tab's panel. */
export function productTabs(p: Product, view: ProductView, db: AppDb) {
  const tabs = [
    ["details", "Details"],
    ["specs", "Specifications"],
    ["reviews", `Reviews (${p.review_count})`],
  ];
  const panel = view.tab === "specs" ? specsTab(p) : view.tab === "reviews" ? reviewsTab(p, view, db) : detailsTab(p);
  return html`
    <nav class="tabs" role="tablist" aria-label="Product information">${tabs.map(([key, label]) =>
      html`
        <a href="${BASE}/products/${p.id}?tab=${key}" id="tab-${key}" role="tab"
          class="${key === view.tab ? "active" : ""}" aria-selected="${key === view.tab}">${label}</a>
      `
    )}</nav>
    <section id="tab-panel" role="tabpanel" aria-labelledby="tab-${view.tab}">${panel}</section>
  `;
}
