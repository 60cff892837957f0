/** Browsing pages: the shop's home, the catalogue (search, filters, sort, pagination) and category pages. */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import {
  brandFacets,
  type CatalogQuery,
  categories,
  type Category,
  listCatalog,
  PAGE_SIZE,
  priceCeiling,
  type Product,
  readCatalogQuery,
  SORTS,
} from "./_data.ts";
import { BASE, notFoundPage, productCard, searchBar, type ShopContext, shopPage } from "./_views.ts";

function homePage(c: ShopContext) {
  const db = c.get("db");
  const counts = new Map(
    db.all<{ category_id: number; n: number }>("SELECT category_id, COUNT(*) AS n FROM products GROUP BY category_id")
      .map((r) => [r.category_id, r.n]),
  );
  const top = listCatalog(db, { ...readCatalogQuery(new URLSearchParams(), null), sort: "rating" }).items.slice(0, 4);
  return shopPage(c, {
    title: "Shop",
    body: html`<h1>Welcome to the Shop</h1>
      ${searchBar()}
      <h2>Shop by category</h2>
      <div class="grid" id="category-list">${
      categories(db).map((cat) =>
        html`
          <div class="card">
            <h3 style="margin:0 0 4px"><a href="${BASE}/category/${cat.slug}">${cat.name}</a></h3>
            <div class="muted">${cat.blurb}</div>
            <div>${counts.get(cat.id) ?? 0} products</div>
          </div>
        `
      )
    }</div>
      <h2>Top rated</h2>
      <div class="grid" id="top-rated">${top.map(productCard)}</div>
      <p><a href="${BASE}/products" class="button secondary" id="browse-all">Browse all products</a></p>`,
  });
}

/** The URL of the catalogue page `page` with the current filters. */
function pageHref(path: string, params: URLSearchParams, page: number): string {
  const p = new URLSearchParams(params);
  p.delete("msg");
  if (page > 1) p.set("page", String(page));
  else p.delete("page");
  const qs = p.toString();
  return qs ? `${path}?${qs}` : path;
}

function pager(path: string, params: URLSearchParams, page: number, pages: number) {
  if (pages <= 1) return "";
  const nums = Array.from({ length: pages }, (_, i) => i + 1);
  return html`<nav class="pager" aria-label="Pages" id="pager">
    ${page > 1 ? html`<a href="${pageHref(path, params, page - 1)}" id="prev-page" rel="prev">‹ Previous</a>` : ""}
    ${
    nums.map((n) =>
      n === page
        ? html`<span class="current" aria-current="page">${n}</span>`
        : html`<a href="${pageHref(path, params, n)}" id="page-${n}">${n}</a>`
    )
  }
    ${page < pages ? html`<a href="${pageHref(path, params, page + 1)}" id="next-page" rel="next">Next ›</a>` : ""}
  </nav>`;
}

const slugOf = (brand: string) => brand.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function filterForm(c: ShopContext, path: string, query: CatalogQuery) {
  const db = c.get("db");
  const ceiling = priceCeiling(db);
  const max = query.maxPrice === null ? ceiling : Math.min(query.maxPrice, ceiling);
  return html`<form method="get" action="${path}" id="filter-form" class="card" aria-label="Filters">
    <h2 style="margin-top:0">Filters</h2>
    ${query.q ? html`<input type="hidden" name="q" value="${query.q}">` : ""}
    <label><input type="checkbox" id="in-stock" name="in_stock" value="1" ${query.inStock ? "checked" : ""}>
      In stock only</label>
    <fieldset style="border:none;padding:0;margin:12px 0"><legend><b>Brand</b></legend>
      ${
    brandFacets(db, query.categoryId).map((b) =>
      html`<label><input type="checkbox" name="brand" value="${b.brand}" id="brand-${slugOf(b.brand)}"
          ${query.brands.includes(b.brand) ? "checked" : ""}> ${b.brand} <span class="muted">(${b.n})</span></label>`
    )
  }
    </fieldset>
    <label for="max-price">Max price: $<output id="max-price-value">${max}</output></label>
    <input type="range" id="max-price" name="max_price" min="0" max="${ceiling}" step="10" value="${max}"
      data-output="max-price-value" style="width:100%">
    <div class="row" style="margin-top:12px">
      <button type="submit" id="apply-filters">Apply filters</button>
      <a href="${path}${query.q ? `?q=${encodeURIComponent(query.q)}` : ""}" id="clear-filters">Clear</a>
    </div>
  </form>`;
}

function sortSelect(query: CatalogQuery) {
  return html`<div class="row"><label for="sort">Sort by</label>
    <select id="sort" name="sort" form="filter-form" style="width:auto">${
    Object.entries(SORTS).map(([key, s]) =>
      html`<option value="${key}" ${key === query.sort ? "selected" : ""}>${s.label}</option>`
    )
  }</select>
    <script>document.getElementById("sort").addEventListener("change", (e) => e.target.form.requestSubmit());</script>
  </div>`;
}

function catalogBody(c: ShopContext, path: string, heading: string, query: CatalogQuery) {
  const params = new URL(c.req.url).searchParams;
  const result = listCatalog(c.get("db"), query);
  const first = result.total ? (result.page - 1) * PAGE_SIZE + 1 : 0;
  const last = Math.min(result.page * PAGE_SIZE, result.total);
  const grid = result.items.length
    ? html`<div class="grid" id="product-grid">${result.items.map((p: Product) => productCard(p))}</div>`
    : html`<p class="card" id="no-results">No products match your search and filters.</p>`;
  return html`
    <h1>${heading}</h1>
        ${searchBar(query.q)}
        <div style="display:grid;grid-template-columns:230px 1fr;gap:18px;align-items:start">
      <aside>${filterForm(c, path, query)}</aside>
      <section>
            <div class="row" style="margin-bottom:10px">
              <span id="result-count">Showing ${first}–${last} of ${result.total} product${result.total === 1
                ? ""
                : "s"}</span>
              <span class="spacer"></span>${sortSelect(query)}
            </div>
            ${grid}
            ${pager(path, params, result.page, result.pages)}
          </section>
    </div>
  `;
}

function catalogPage(c: ShopContext) {
  const query = readCatalogQuery(new URL(c.req.url).searchParams, null);
  const heading = query.q ? `Search results for "${query.q}"` : "All products";
  const crumbs = query.q
    ? [{ href: `${BASE}/products`, label: "All products" }, { href: "", label: `Search: ${query.q}` }]
    : [{ href: "", label: "All products" }];
  return shopPage(c, {
    title: heading,
    crumbs,
    active: "all",
    body: catalogBody(c, `${BASE}/products`, heading, query),
  });
}

function categoryPage(c: ShopContext) {
  const cat = c.get("db").get<Category>("SELECT * FROM categories WHERE slug = ?", c.req.param("slug"));
  if (!cat) return notFoundPage(c, "Category");
  const query = readCatalogQuery(new URL(c.req.url).searchParams, cat.id);
  return shopPage(c, {
    title: cat.name,
    crumbs: [{ href: `${BASE}/products`, label: "All products" }, { href: "", label: cat.name }],
    active: cat.slug,
    body: html`${catalogBody(c, `${BASE}/category/${cat.slug}`, cat.name, query)}`,
  });
}

export function catalogRoutes(app: Hono<SandboxEnv>): void {
  app.get("/", homePage);
  app.get("/products", catalogPage);
  app.get("/category/:slug", categoryPage);
}
