/** Templates on the shop (lib/sites/apps/shop): its catalogue, product pages, cart, checkout and orders. */
import type { AppDb } from "../../sites/db.ts";
import type { ActionJson, AnyTemplate, NearMiss } from "../template.ts";
import { plural, reviewMood } from "../text.ts";
import { seedDb } from "../data.ts";
import { PAGE_SIZE, SORTS } from "../../sites/apps/shop/_data.ts";
import { orderTotals, SHIPPING, type ShippingMethod } from "../../sites/apps/shop/_rules.ts";
import { DEFAULT_NOW } from "../../sites/clock.ts";
import { DEFAULT_USER } from "../../sites/session.ts";
import { slug } from "./_common.ts";
import {
  authenticateByForm,
  calendarClicks,
  chooseRadio,
  chooseStars,
  confirmDialog,
  downloadFile,
  endsOnSibling,
  filterBoxes,
  formSegment,
  goal,
  layered,
  navigateMenu,
  openDetail,
  openNewTab,
  pageModel,
  paginate,
  pickDate,
  postPath,
  procedure,
  search,
  searchedFor,
  selectOption,
  setSlider,
  signedOutAfter,
  typed,
  visitedWith,
} from "../macros/mod.ts";
import { anotherYear, answeredInstead, answerQuestion, copyToClipboard, switchTab } from "../macros/mod.ts";

interface CategoryRow {
  id: number;
  slug: string;
  name: string;
}

const categories = (db: AppDb) => db.all<CategoryRow>("SELECT id, slug, name FROM categories ORDER BY id");

/** The brands of a category with products in it, by name. */
const brandsIn = (db: AppDb, categoryId: number) =>
  db.all<{ brand: string }>(
    "SELECT DISTINCT brand FROM products WHERE category_id = ? ORDER BY brand",
    categoryId,
  ).map((r) => r.brand);

/** A brand's filter box on a list at `path`, ticked and applied (with `in_stock` too, an unlisted filter). */
const brandFilter = (path: string, brand: string, inStock = false) =>
  filterBoxes(
    [`#brand-${slug(brand)}`, ...(inStock ? ["#in-stock"] : [])],
    "#apply-filters",
    path,
    inStock ? { in_stock: "1", brand } : { brand },
  );

/**
 * A chain of two families (the menu first, Navigation; then a brand filter, Discrete selection, so the oracle
 * switches adapter), parameters read from the catalogue, near misses on a sibling brand and an unlisted filter.
 */
const menuBrandFilter = layered<{ category: string; slug: string; brand: string; sibling: string }>({
  id: "shop.toggle_checkbox.menu_brand",
  site: "shop",
  macro: "toggle_checkbox",
  prefix: ["navigate_menu"],
  summary: "menu to a category, then tick one brand's filter",
  params: (db) =>
    categories(db).flatMap((c) => {
      const brands = brandsIn(db, c.id);
      if (brands.length < 2) return [];
      return brands.map((brand, i) => ({
        category: c.name,
        slug: c.slug,
        brand,
        sibling: brands[(i + 1) % brands.length],
      }));
    }),
  entity: (p) => `brand:${p.brand}`,
  phrasings: [
    procedure((p) =>
      `Use the shop's menu to open the ${p.category} category, then filter its products to the brand ${p.brand}.`
    ),
    procedure((p) =>
      `From the top menu, go to ${p.category} and tick the ${p.brand} brand filter so only its products show.`
    ),
    goal((p) => `Show the products of the shop's ${p.category} category made by ${p.brand}, and no other brand.`),
    goal((p) => `I only want to see ${p.brand} products in the ${p.category} category: bring up that list.`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [
    navigateMenu("shop", p.category, `/shop/category/${p.slug}`),
    brandFilter(`/shop/category/${p.slug}`, p.brand),
  ],
  outcome: (p) => [{ page: { path: `/shop/category/${p.slug}`, query: { brand: p.brand } } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    {
      name: "sibling_brand",
      category: "wrong_item",
      steps: [steps[0], ...brandFilter(`/shop/category/${p.slug}`, p.sibling).steps],
      reason: "final_page",
      witness: { page: { path: `/shop/category/${p.slug}`, query: { brand: p.sibling } } },
    },
    {
      name: "also_in_stock",
      category: "unlisted_field",
      steps: [steps[0], ...brandFilter(`/shop/category/${p.slug}`, p.brand, true).steps],
      reason: "final_page",
      witness: { page: { path: `/shop/category/${p.slug}`, query: { brand: p.brand, in_stock: "1" } } },
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Shared readers and builders of the templates below.
// ---------------------------------------------------------------------------------------------------------------

interface ProductRow {
  id: number;
  category_id: number;
  name: string;
  brand: string;
  price: number;
  stock: number;
  sizes: string;
  colours: string;
  specs: string;
  cat_slug: string;
  cat_name: string;
}

const products = (db: AppDb) =>
  db.all<ProductRow>(
    `SELECT p.id, p.category_id, p.name, p.brand, p.price, p.stock, p.sizes, p.colours, p.specs,
       c.slug AS cat_slug, c.name AS cat_name
     FROM products p JOIN categories c ON c.id = p.category_id ORDER BY p.id`,
  );

const productById = (db: AppDb, id: number): ProductRow => {
  const p = products(db).find((r) => r.id === id);
  if (!p) throw new Error(`shop templates: no product ${id}`);
  return p;
};

/** Products that can go into the cart with one click: in stock, no size or colour to choose. */
const plainInStock = (db: AppDb) => products(db).filter((p) => p.stock > 0 && !p.sizes && !p.colours);

/** The id suffix the shop gives a size or colour radio (`XS` → `xs`). */
const optionId = (v: string) => v.toLowerCase().replace(/[^a-z0-9]+/g, "-");

const money = (n: number) => `$${n.toFixed(2)}`;

/** A click on the top menu's link to `href` (the page model's menu). */
const menuLink = (href: string) => ({ click: { selector: pageModel("shop").menu!.link(href) } });

const searchSteps = (q: string) => [
  { input: { selector: "#search", text: q } },
  { click: { selector: "#search-button" } },
];

const openProduct = (id: number) => ({ click: { selector: `#product-${id} a` } });

/** open_detail on the shop's results or list: the product's card link opens its page. */
const resultOpen = (id: number) => openDetail("/shop/products", openProduct(id), `/shop/products/${id}`);

/** Witness: the product's cart line went from 1 to 2 (added again, or its quantity changed). */
const cartQtyOneToTwo = (productId: number) => ({
  change: {
    site: "shop",
    table: "cart_items",
    op: "update",
    before: { product_id: productId, qty: 1 },
    after: { qty: 2 },
  },
  ever: true,
});

const addToCartWitness = (productId: number) => ({
  change: { site: "shop", table: "cart_items", op: "insert", after: { product_id: productId } },
  ever: true,
});

/** The menu entries of the top bar: label, path, and the page's first content link (an overshoot's target). */
function menuEntries(db: AppDb) {
  return [
    { label: "All products", path: "/shop/products", first: "#product-grid .product-card h3 a" },
    ...categories(db).map((c) => ({
      label: c.name,
      path: `/shop/category/${c.slug}`,
      first: "#product-grid .product-card h3 a",
    })),
    { label: "Cart", path: "/shop/cart", first: "#cart-empty a" },
    { label: "My orders", path: "/shop/orders", first: "#orders-table tbody a" },
  ];
}

/** The catalogue's sort orders, by key (Featured is the default). */
function sortOrders(): { key: string; label: string; sql: string }[] {
  return Object.entries(SORTS).map(([key, s]) => ({ key, label: s.label, sql: s.sql }));
}

/**
 * The search words of the catalogue: every word of a product name (four letters or more, not a brand), lower
 * case, with the products a search for it lists (by the shop's own match: name or brand, any case), when that is
 * one page (12) or fewer.
 */
function searchWords(db: AppDb): { word: string; ids: number[] }[] {
  const brands = new Set(
    db.all<{ brand: string }>("SELECT DISTINCT brand FROM products").map((r) => r.brand.toLowerCase()),
  );
  const words: string[] = [];
  for (const p of products(db)) {
    for (const w of p.name.split(/\s+/)) {
      const lw = w.toLowerCase();
      if (/^[a-z]{4,}$/.test(lw) && !brands.has(lw) && !words.includes(lw)) words.push(lw);
    }
  }
  return words.map((word) => ({
    word,
    ids: db.all<{ id: number }>(
      "SELECT id FROM products WHERE name LIKE ? OR brand LIKE ? ORDER BY id",
      `%${word}%`,
      `%${word}%`,
    ).map((r) => r.id),
  })).filter((w) => w.ids.length >= 1 && w.ids.length <= 12);
}

/** The slider's price ceiling, as the shop computes it (the highest price rounded up to the next 10). */
const priceCeilingOf = (db: AppDb) =>
  Math.ceil((db.get<{ max: number }>("SELECT MAX(price) AS max FROM products")?.max ?? 0) / 10) * 10;

interface OrderRow {
  id: number;
  number: string;
  placed_at: string;
  status: string;
  shipping_method: string;
  shipping_cost: number;
  delivery_date: string;
  subtotal: number;
  total: number;
}

const orders = (db: AppDb) =>
  db.all<OrderRow>(
    `SELECT id, number, placed_at, status, shipping_method, shipping_cost, delivery_date, subtotal, total
     FROM orders ORDER BY placed_at DESC, id`,
  );

/**
 * Ways to name one of the user's orders without its number, each naming exactly one order: an item only it
 * holds, the day it was placed, a status only it has, its total.
 */
function orderDescriptions(db: AppDb): { number: string; how: string; desc: string }[] {
  const out: { number: string; how: string; desc: string }[] = [];
  for (const o of orders(db)) out.push({ number: o.number, how: "number", desc: `order ${o.number}` });
  for (
    const r of db.all<{ number: string; name: string }>(
      `SELECT o.number, i.name FROM order_items i JOIN orders o ON o.id = i.order_id
       WHERE i.product_id IN (SELECT product_id FROM order_items GROUP BY product_id HAVING COUNT(DISTINCT order_id) = 1)
       ORDER BY o.placed_at DESC, i.id`,
    )
  ) out.push({ number: r.number, how: `item ${r.name}`, desc: `the order that included the ${r.name}` });
  for (const o of orders(db)) {
    out.push({
      number: o.number,
      how: `placed ${o.placed_at.slice(0, 10)}`,
      desc: `the order you placed on ${o.placed_at.slice(0, 10)}`,
    });
  }
  for (
    const r of db.all<{ number: string; status: string }>(
      `SELECT number, status FROM orders WHERE status IN (SELECT status FROM orders GROUP BY status HAVING COUNT(*) = 1)
       ORDER BY placed_at DESC`,
    )
  ) out.push({ number: r.number, how: `status ${r.status}`, desc: `your ${r.status.toLowerCase()} order` });
  for (const o of orders(db)) {
    out.push({ number: o.number, how: `total ${o.total}`, desc: `the order whose total was ${money(o.total)}` });
  }
  return out;
}

/** Another order than `number`: the next one in the list (by placed date), wrapping round. */
function neighbourOrder(db: AppDb, number: string): OrderRow {
  const all = orders(db);
  const i = all.findIndex((o) => o.number === number);
  return all[(i + 1) % all.length];
}

/** The checkout details the user's past orders were placed with (name, email, address). */
function customer(db: AppDb) {
  const c = db.get<
    { customer_name: string; email: string; street: string; city: string; postcode: string; country: string }
  >(
    "SELECT customer_name, email, street, city, postcode, country FROM orders ORDER BY id LIMIT 1",
  );
  if (!c) throw new Error("shop templates: no past order to take the customer's details from");
  return c;
}

/** The cards of past orders, as full test numbers (the last four digits repeated: each passes the Luhn check). */
const cards = (db: AppDb) =>
  db.all<{ l4: string }>("SELECT DISTINCT card_last4 AS l4 FROM orders ORDER BY card_last4").map((r) =>
    [r.l4, r.l4, r.l4, r.l4].join(" ")
  );

/** The promo codes the user used before. */
const promoCodes = (db: AppDb) =>
  db.all<{ c: string }>("SELECT DISTINCT promo_code AS c FROM orders WHERE promo_code != '' ORDER BY promo_code").map((
    r,
  ) => r.c);

/** Delivery days the checkout takes: after the sandbox's today, no Sunday, within `months` calendar months. */
function deliveryDays(months: number): string[] {
  const today = DEFAULT_NOW.slice(0, 10);
  const start = new Date(`${today}T00:00:00Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1));
  const out: string[] = [];
  for (let d = new Date(start.getTime() + 86400000); d < end; d = new Date(d.getTime() + 86400000)) {
    if (d.getUTCDay() !== 0) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

const SHIP_WORDS: Record<ShippingMethod, string> = {
  standard: "standard shipping",
  express: "express shipping",
  pickup: "pick-up in store",
};

interface CheckoutOrder {
  product: number;
  shipping: ShippingMethod;
  date: string;
  promo: string;
  card: string;
}

/** The checkout form's fields up to the shipping method. */
function addressSteps(db: AppDb, shipping: string, postcode?: string) {
  const c = customer(db);
  return [
    { input: { selector: "#name", text: c.customer_name } },
    { input: { selector: "#email", text: c.email } },
    { input: { selector: "#street", text: c.street } },
    { input: { selector: "#city", text: c.city } },
    { input: { selector: "#postcode", text: postcode ?? c.postcode } },
    { select_dropdown: { selector: "#country", text: c.country } },
    { click: { selector: `#ship-${shipping}` } },
  ];
}

/** The three writes of placing `o` (the order, its one line, the emptied cart line). */
function orderChanges(db: AppDb, o: CheckoutOrder) {
  const c = customer(db);
  const p = productById(db, o.product);
  const t = orderTotals([{ unit_price: p.price, qty: 1 }], o.shipping, o.promo);
  return [
    {
      change: {
        site: "shop",
        table: "orders",
        op: "insert",
        after: {
          customer_name: { exact: c.customer_name },
          email: { exact: c.email },
          street: { exact: c.street },
          city: { exact: c.city },
          postcode: { exact: c.postcode },
          country: { exact: c.country },
          shipping_method: { exact: o.shipping },
          delivery_date: { date: o.date },
          promo_code: { exact: o.promo },
          total: { number: t.total, tol: 0.005 },
          card_last4: { exact: o.card.replace(/\D/g, "").slice(-4) },
        },
      },
    },
    {
      change: {
        site: "shop",
        table: "order_items",
        op: "insert",
        after: { product_id: o.product, size: { exact: "" }, colour: { exact: "" }, qty: 1 },
      },
    },
    { change: { site: "shop", table: "cart_items", op: "delete", before: { product_id: o.product } } },
  ];
}

const orderWitness = (after: Record<string, unknown>) => ({
  change: { site: "shop", table: "orders", op: "insert", after },
  ever: true,
});

/** A review text for a product and a rating, made from the product's own specifications. */
function reviewText(p: ProductRow, rating: number): string {
  const specs = p.specs.split("; ").map((s) => s.split(": "));
  const [key, value] = specs[(rating + p.id) % specs.length];
  return `${reviewMood(rating)} ${key}: ${value}, as described.`;
}

const reviewSteps = (rating: number, text: string) => [
  { click: { selector: `#rating-${rating}` } },
  { input: { selector: "#review-body", text } },
  { click: { selector: "#submit-review" } },
];

const reviewWitness = (after: Record<string, unknown>, times?: number) => ({
  change: { site: "shop", table: "reviews", op: "insert", after },
  ever: true,
  ...(times ? { times } : {}),
});

/** Another product of the same category (the next one by id, wrapping round), or undefined. */
function sameCategorySibling(db: AppDb, p: ProductRow, ok: (q: ProductRow) => boolean = () => true) {
  const list = products(db).filter((q) => q.category_id === p.category_id && ok(q));
  const i = list.findIndex((q) => q.id === p.id);
  const next = list.filter((q) => q.id !== p.id);
  if (!next.length) return undefined;
  return i < 0 ? next[0] : list[(i + 1) % list.length].id === p.id ? next[0] : list[(i + 1) % list.length];
}

// ---------------------------------------------------------------------------------------------------------------
// Navigation.
// ---------------------------------------------------------------------------------------------------------------

/** navigate_menu: from a product page, open one of the top menu's entries with the menu. */
const menuEntry = layered<
  {
    label: string;
    path: string;
    first: string;
    sibling: string;
    sibling_path: string;
    start: number;
    start_name: string;
  }
>({
  id: "shop.navigate_menu.menu_entry",
  site: "shop",
  macro: "navigate_menu",
  summary: "from a product page, open a top-menu entry with the menu",
  params: (db) => {
    const entries = menuEntries(db);
    return entries.flatMap((e, i) =>
      products(db).map((p) => ({
        label: e.label,
        path: e.path,
        first: e.first,
        sibling: entries[(i + 1) % entries.length].label,
        sibling_path: entries[(i + 1) % entries.length].path,
        start: p.id,
        start_name: p.name,
      }))
    );
  },
  entity: (p) => `menu:${p.label}`,
  phrasings: [
    procedure((p) => `You are on the ${p.start_name}'s page. Use the shop's top menu to open "${p.label}".`),
    procedure((p) => `From the ${p.start_name} page, go to ${p.label} by clicking it in the top menu.`),
    goal((p) => `Leave the ${p.start_name} page and show the shop's "${p.label}" page instead.`),
    goal((p) => `Take me from the ${p.start_name} to the page the shop calls "${p.label}".`),
  ],
  start: (p) => ({ url: `/shop/products/${p.start}` }),
  chain: (p) => [navigateMenu("shop", p.label, p.path)],
  outcome: (p) => [{ page: { path: p.path, query: {} } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    endsOnSibling("neighbouring_entry", steps, menuLink(p.sibling_path), p.sibling_path),
    {
      name: "entry_then_first_link",
      category: "overshoot",
      after_reference: [{ click: { selector: p.first } }],
      reason: "final_page",
      witness: { all: [{ visited: { exact: p.path } }, { not: { page: { path: p.path } } }] },
    },
  ],
});

/** paginate: in the product list under a given sort and filter, go to the page that lists a given product. */
const pageOfProduct = layered<
  {
    sort: string;
    sort_label: string;
    filter: string;
    filter_words: string;
    product: string;
    id: number;
    page: number;
    pages: number;
  }
>({
  id: "shop.paginate.page_of_product",
  site: "shop",
  macro: "paginate",
  summary: "page through the sorted (and filtered) product list to the page listing a product",
  params: (db) => {
    const ceiling = priceCeilingOf(db);
    const cheapest = db.get<{ lo: number }>("SELECT MIN(price) AS lo FROM products")?.lo ?? 0;
    // The list's filters: none, in stock only, or a price ceiling (every 30 dollars) that leaves two pages or more.
    const filters: { filter: string; words: string; where: string; args: unknown[] }[] = [
      { filter: "", words: "", where: "1 = 1", args: [] },
      { filter: "in_stock=1", words: "in-stock products only", where: "p.stock > 0", args: [] },
    ];
    for (let v = Math.ceil(cheapest / 30) * 30; v < ceiling; v += 30) {
      filters.push({ filter: `max_price=${v}`, words: `products up to $${v}`, where: "p.price <= ?", args: [v] });
    }
    return sortOrders().flatMap((s) =>
      filters.flatMap((f) => {
        const rows = db.all<{ id: number; name: string }>(
          `SELECT p.id, p.name FROM products p
           LEFT JOIN (SELECT product_id, AVG(rating) AS rating, COUNT(*) AS review_count FROM reviews
             GROUP BY product_id) r ON r.product_id = p.id
           WHERE ${f.where}
           ORDER BY ${s.sql.replace("review_count", "COALESCE(r.review_count, 0)")}`,
          ...f.args,
        );
        const pages = Math.ceil(rows.length / PAGE_SIZE);
        // One product per page after the first, taken at a place that moves with the page and the sort.
        return Array.from({ length: Math.max(0, pages - 1) }, (_, k) => {
          const page = k + 2;
          const onPage = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
          const pick = onPage[(page * 5 + s.key.length + f.filter.length) % onPage.length];
          return {
            sort: s.key,
            sort_label: s.label,
            filter: f.filter,
            filter_words: f.words,
            product: pick.name,
            id: pick.id,
            page,
            pages,
          };
        });
      })
    );
  },
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `The product list shows ${
        p.filter_words || "all products"
      }, sorted by "${p.sort_label}". Page through it to the page that lists the ${p.product}.`
    ),
    procedure((p) =>
      `Using the page links under this list (${
        p.filter_words ? `${p.filter_words}, ` : ""
      }sorted by ${p.sort_label}), go to the page where the ${p.product} appears.`
    ),
    goal((p) =>
      `Show the page of this product list (${p.filter_words || "all products"}, sorted by "${p.sort_label}") ` +
      `that lists the ${p.product}.`
    ),
    goal((p) =>
      `In the list of ${p.filter_words || "all products"} sorted by ${p.sort_label}, which page has the ` +
      `${p.product}? Leave that page of the list on screen.`
    ),
  ],
  start: (p) => ({ url: listUrl(p, 1) }),
  chain: (p) => [paginate("shop", "/shop/products", (n) => listQuery(p, n), 1, p.page)],
  outcome: (p) => [{ page: { path: "/shop/products", query: listQuery(p, p.page) } }, { no_writes: true }],
  nearMisses: (p) => {
    const next = p.page < p.pages ? p.page + 1 : p.page - 1;
    const misses: NearMiss[] = [
      {
        name: "one_page_on",
        category: "overshoot",
        after_reference: [{ click: { selector: next > p.page ? "#next-page" : "#prev-page" } }],
        reason: "final_page",
        witness: { page: { path: "/shop/products", query: listQuery(p, next) } },
      },
      {
        name: "opens_the_product",
        category: "overshoot",
        after_reference: [openProduct(p.id)],
        reason: "final_page",
        witness: { page: { path: `/shop/products/${p.id}` } },
      },
    ];
    if (!p.filter && p.page <= 3) {
      misses.push({
        name: "in_stock_too",
        category: "unlisted_field",
        steps: [{ click: { selector: "#in-stock" } }, { click: { selector: "#apply-filters" } }, {
          click: { selector: `#page-${p.page}` },
        }],
        reason: "final_page",
        witness: visitedWith("/shop/products", [["in_stock", "1"], ["page", String(p.page)]]),
      });
    }
    return misses;
  },
});

/** The query of page `page` of a paginate instance's list (the defaults left out, as the page rule reads them). */
function listQuery(p: { sort: string; filter: string }, page: number): Record<string, string> {
  const q: Record<string, string> = {};
  if (p.sort !== "featured") q.sort = p.sort;
  if (p.filter) {
    const [k, v] = p.filter.split("=");
    q[k] = v;
  }
  if (page > 1) q.page = String(page);
  return q;
}

const listUrl = (p: { sort: string; filter: string }, page: number) => {
  const qs = new URLSearchParams(listQuery(p, page)).toString();
  return qs ? `/shop/products?${qs}` : "/shop/products";
};

/** open_detail after search: search a word, then open one of the results. */
const searchThenOpen = layered<{ word: string; id: number; product: string; sibling: number; sibling_name: string }>({
  id: "shop.open_detail.search_then_open",
  site: "shop",
  macro: "open_detail",
  prefix: ["search"],
  summary: "search the shop for a word, then open one result's page",
  params: (db) =>
    searchWords(db).flatMap((w) =>
      w.ids.map((id, i) => {
        const sib = w.ids.length > 1 ? w.ids[(i + 1) % w.ids.length] : 0;
        return {
          word: w.word,
          id,
          product: productById(db, id).name,
          sibling: sib,
          sibling_name: sib ? productById(db, sib).name : "",
        };
      })
    ),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) => `Search the shop for "${p.word}", then open the ${p.product} from the results.`),
    procedure((p) =>
      `Use the search box to look for "${p.word}" and go to the product page of the ${p.product} in the results.`
    ),
    goal((p) => `Look up "${p.word}" in the shop and show the product page of the ${p.product}.`),
    goal((p) => `The shop has a ${p.product} among its matches for "${p.word}": find them and open its page.`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [search("shop", p.word), resultOpen(p.id)],
  outcome: (p) => [{ page: { path: `/shop/products/${p.id}`, query: {} } }, { no_writes: true }],
  nearMisses: (p, db, steps) => {
    const misses: NearMiss[] = [{
      name: "open_then_reviews_tab",
      category: "overshoot",
      after_reference: [{ click: { selector: "#tab-reviews" } }],
      reason: "final_page",
      witness: { page: { path: `/shop/products/${p.id}`, query: { tab: "reviews" } } },
    }];
    if (plainInStock(db).some((q) => q.id === p.id)) {
      misses.push({
        name: "open_then_add_to_cart",
        category: "collateral",
        after_reference: [{ click: { selector: "#add-to-cart" } }, { navigate: { url: `/shop/products/${p.id}` } }],
        reason: "unclaimed_write",
        witness: addToCartWitness(p.id),
      });
    }
    if (p.sibling) {
      misses.push(endsOnSibling("other_result", steps, openProduct(p.sibling), `/shop/products/${p.sibling}`));
    }
    misses.push({
      name: "product_skipping_search",
      category: "wrong_method",
      steps: [{ navigate: { url: `/shop/products/${p.id}` } }],
      reason: "request_missing",
      witness: { all: [typed, { visited: { regex: "^/shop/products\\?" }, times: 0 }] },
    });
    return misses;
  },
});

/** switch_tab after search and open: a brand's product, then its Specifications or Reviews tab. */
const searchOpenTab = layered<
  { brand: string; id: number; product: string; tab: string; tab_label: string; other_tab: string; sibling: number }
>({
  id: "shop.switch_tab.search_open_tab",
  site: "shop",
  macro: "switch_tab",
  prefix: ["search", "open_detail"],
  summary: "search a brand, open one of its products, then its Specifications or Reviews tab",
  params: (db) =>
    products(db).flatMap((p) => {
      const same = products(db).filter((q) => q.brand === p.brand && q.id !== p.id);
      return [["specs", "Specifications", "reviews"], ["reviews", "Reviews", "specs"]].map(([tab, label, other]) => ({
        brand: p.brand,
        id: p.id,
        product: p.name,
        tab,
        tab_label: label,
        other_tab: other,
        sibling: same.length ? same[0].id : 0,
      }));
    }),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Search the shop for "${p.brand}", open the ${p.product} from the results, and show its ${p.tab_label} tab.`
    ),
    procedure((p) =>
      `Find the ${p.product} by searching for its brand ${p.brand}, open it, then switch to the ${p.tab_label} tab.`
    ),
    goal((p) => `Look up ${p.brand} in the shop and bring up the ${p.tab_label.toLowerCase()} of the ${p.product}.`),
    goal((p) =>
      `I want to read the ${p.tab_label.toLowerCase()} of the ${p.product}, one of the ${p.brand} products: find it through the shop's search and show them.`
    ),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [
    search("shop", p.brand),
    resultOpen(p.id),
    switchTab("shop", p.tab, { path: `/shop/products/${p.id}`, query: { tab: p.tab } }),
  ],
  outcome: (p) => [{ page: { path: `/shop/products/${p.id}`, query: { tab: p.tab } } }, { no_writes: true }],
  nearMisses: (p, db) => {
    const addable = plainInStock(db).some((q) => q.id === p.id);
    const misses: NearMiss[] = [
      {
        name: "other_tab",
        category: "wrong_item",
        steps: [...searchSteps(p.brand), openProduct(p.id), { click: { selector: `#tab-${p.other_tab}` } }],
        reason: "final_page",
        witness: { page: { path: `/shop/products/${p.id}`, query: { tab: p.other_tab } } },
      },
    ];
    if (addable) {
      misses.push({
        name: "tab_and_add_to_cart",
        category: "collateral",
        steps: [...searchSteps(p.brand), openProduct(p.id), { click: { selector: "#add-to-cart" } }, {
          navigate: { url: `/shop/products/${p.id}` },
        }, { click: { selector: `#tab-${p.tab}` } }],
        reason: "unclaimed_write",
        witness: addToCartWitness(p.id),
      });
    }
    if (p.sibling) {
      misses.push({
        name: "sibling_product_tab",
        category: "wrong_item",
        steps: [...searchSteps(p.brand), openProduct(p.sibling), { click: { selector: `#tab-${p.tab}` } }],
        reason: "final_page",
        witness: { page: { path: `/shop/products/${p.sibling}`, query: { tab: p.tab } } },
      });
    }
    return misses;
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Text entry.
// ---------------------------------------------------------------------------------------------------------------

/** search after the menu: open a category with the menu, then search the shop for a word. */
const menuThenSearch = layered<{ category: string; slug: string; word: string; sibling: string }>({
  id: "shop.search.menu_then_search",
  site: "shop",
  macro: "search",
  prefix: ["navigate_menu"],
  summary: "menu to a category, then search the shop for a word",
  params: (db) => {
    const words = searchWords(db);
    return words.flatMap((w, i) =>
      categories(db).map((c) => ({
        category: c.name,
        slug: c.slug,
        word: w.word,
        sibling: words[(i + 1) % words.length].word,
      }))
    );
  },
  entity: (p) => `query:${p.word}`,
  phrasings: [
    procedure((p) => `Use the shop's menu to open the ${p.category} category, then search the shop for "${p.word}".`),
    procedure((p) =>
      `Go to ${p.category} from the top menu, and from there use the search box to search for "${p.word}".`
    ),
    goal((p) => `Go to the shop's ${p.category} category, then show the shop's search results for "${p.word}".`),
    goal((p) => `Open ${p.category} in the shop, and from there list every product the shop finds for "${p.word}".`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [navigateMenu("shop", p.category, `/shop/category/${p.slug}`), search("shop", p.word)],
  outcome: (p) => [{ page: { path: "/shop/products", query: { q: p.word } } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    searchedFor("other_word", "shop", p.sibling, [steps[0]]),
    {
      name: "search_plus_in_stock",
      category: "unlisted_field",
      after_reference: [{ click: { selector: "#in-stock" } }, { click: { selector: "#apply-filters" } }],
      reason: "final_page",
      witness: visitedWith("/shop/products", [["q", p.word], ["in_stock", "1"]]),
    },
  ],
});

/** The review form of product `id` (its Reviews tab shown): the rating's radio, the text, Post review. */
const reviewForm = (id: number, rating: number, text: string, open: ActionJson[] = []) =>
  formSegment({
    macro: "compose_text",
    open,
    set: [{ click: { selector: `#rating-${rating}` } }],
    fields: [{ selector: "#review-body", text }],
    submit: "#submit-review",
    posts: postPath(`/shop/products/${id}/reviews`),
  });

const reviewed = (p: { id: number; rating: number; text: string }, author?: string) => ({
  change: {
    site: "shop",
    table: "reviews",
    op: "insert",
    after: {
      product_id: p.id,
      rating: p.rating,
      ...(author ? { author: { exact: author } } : {}),
      body: { text: p.text },
    },
  },
});

/** compose_text after open_detail: from a category, open a product and post a review of it. */
const categoryReview = layered<
  { category: string; slug: string; id: number; product: string; rating: number; text: string; sibling: number }
>({
  id: "shop.compose_text.category_review",
  site: "shop",
  macro: "compose_text",
  prefix: ["open_detail"],
  summary: "from a category, open a product and post a star review with a given text",
  params: (db) =>
    products(db).flatMap((p) =>
      [1, 2, 3, 4, 5].map((rating) => ({
        category: p.cat_name,
        slug: p.cat_slug,
        id: p.id,
        product: p.name,
        rating,
        text: reviewText(p, rating),
        sibling: sameCategorySibling(db, p)?.id ?? 0,
      }))
    ),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `In the ${p.category} category, click the ${p.product} in the list, then fill in its review form: ${
        plural(p.rating, "star")
      } and the text: ${p.text}`
    ),
    procedure((p) =>
      `Open the ${p.product} from this ${p.category} list, go to its Reviews tab and post a review with ${
        plural(p.rating, "star")
      } and the text "${p.text}"`
    ),
    goal((p) => `Leave a ${p.rating}-star review on the ${p.product} (${p.category}) that reads: ${p.text}`),
    goal((p) => `The ${p.product} deserves ${plural(p.rating, "star")} from you. Review it with the text "${p.text}"`),
  ],
  start: (p) => ({ url: `/shop/category/${p.slug}` }),
  chain: (p) => [
    openDetail(`/shop/category/${p.slug}`, openProduct(p.id), `/shop/products/${p.id}`),
    reviewForm(p.id, p.rating, p.text, [{ click: { selector: "#tab-reviews" } }]),
  ],
  outcome: (p) => [reviewed(p)],
  nearMisses: (p, _db, steps) => {
    const other = p.rating === 5 ? 4 : p.rating + 1;
    const open = [openProduct(p.id), { click: { selector: "#tab-reviews" } }];
    const misses: NearMiss[] = [
      {
        name: "other_rating",
        category: "wrong_item",
        steps: [...open, ...reviewSteps(other, p.text)],
        reason: "field_mismatch",
        witness: reviewWitness({ product_id: p.id, rating: other }),
      },
      {
        name: "posted_twice",
        category: "collateral",
        steps: [...steps, ...reviewSteps(p.rating, p.text)],
        reason: "irreversible_extra",
        witness: reviewWitness({ product_id: p.id, rating: p.rating }, 2),
      },
    ];
    if (p.sibling) {
      misses.push({
        name: "review_on_sibling",
        category: "wrong_item",
        steps: [openProduct(p.sibling), { click: { selector: "#tab-reviews" } }, ...reviewSteps(p.rating, p.text)],
        reason: "field_mismatch",
        witness: reviewWitness({ product_id: p.sibling, rating: p.rating }),
      });
    }
    return misses;
  },
});

/** compose_text after signing in: sign in, then post a review under your own name. */
const signedInReview = layered<
  { id: number; product: string; rating: number; text: string; name: string; sibling: number }
>({
  id: "shop.compose_text.signed_in_review",
  site: "shop",
  macro: "compose_text",
  prefix: ["authenticate_by_form"],
  summary: "sign in, then post a star review under your own name",
  params: (db) =>
    products(db).flatMap((p) =>
      [1, 2, 3, 4, 5].map((rating) => ({
        id: p.id,
        product: p.name,
        rating,
        text: reviewText(p, rating),
        name: DEFAULT_USER.name,
        sibling: sameCategorySibling(db, p)?.id ?? 0,
      }))
    ),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `You are signed out. Use the Sign in link (username ${DEFAULT_USER.username}, password ${DEFAULT_USER.password}) so the review shows your name, then come back to the ${p.product} and post a ${p.rating}-star review with its form, text: ${p.text}`
    ),
    procedure((p) =>
      `Sign in to the sandbox with its form as ${DEFAULT_USER.username} (password ${DEFAULT_USER.password}), then open the Reviews tab of the ${p.product} and submit ${
        plural(p.rating, "star")
      } with the text "${p.text}"`
    ),
    goal((p) =>
      `Post a review of the ${p.product} under your own name (${DEFAULT_USER.username}, password ${DEFAULT_USER.password}): ${
        plural(p.rating, "star")
      }, text "${p.text}"`
    ),
    goal((p) =>
      `As ${DEFAULT_USER.name} (sign-in ${DEFAULT_USER.username} / ${DEFAULT_USER.password}), give the ${p.product} a ${p.rating}-star review that says: ${p.text}`
    ),
  ],
  start: (p) => ({ url: `/shop/products/${p.id}`, logged_out: true }),
  chain: (p) => [
    authenticateByForm({ link: true, back: `/shop/products/${p.id}?tab=reviews`, unsent: "field_mismatch" }),
    reviewForm(p.id, p.rating, p.text),
  ],
  outcome: (p) => [reviewed(p, p.name)],
  nearMisses: (p) => {
    const signIn = authenticateByForm({ link: true }).steps;
    const misses: NearMiss[] = [
      {
        name: "review_as_guest",
        category: "wrong_method",
        steps: [{ click: { selector: "#tab-reviews" } }, ...reviewSteps(p.rating, p.text)],
        reason: "field_mismatch",
        witness: reviewWitness({ product_id: p.id, author: { exact: "Guest" } }),
      },
      signedOutAfter({ endsOnPage: false }),
    ];
    if (p.sibling) {
      misses.push({
        name: "review_on_sibling",
        category: "wrong_item",
        steps: [
          ...signIn,
          { navigate: { url: `/shop/products/${p.sibling}?tab=reviews` } },
          ...reviewSteps(p.rating, p.text),
        ],
        reason: "field_mismatch",
        witness: reviewWitness({ product_id: p.sibling, author: { exact: p.name } }),
      });
    }
    return misses;
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Discrete selection.
// ---------------------------------------------------------------------------------------------------------------

/** authenticate_by_form alone: signed out on a product page, sign in with the top bar's link, then back to it. */
const signInBackToProduct = layered<{ id: number; product: string; sibling: number }>({
  id: "shop.authenticate_by_form.sign_in_back_to_product",
  site: "shop",
  macro: "authenticate_by_form",
  summary: "signed out on a product page: sign in with the form, then be back on that product's page",
  params: (db) =>
    products(db).map((p) => ({ id: p.id, product: p.name, sibling: sameCategorySibling(db, p)?.id ?? 0 })),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `You are looking at the ${p.product} while signed out. Use the Sign in link at the top to sign in with the username ${DEFAULT_USER.username} and the password ${DEFAULT_USER.password}, then come back to the ${p.product}'s page. Do not add anything to the cart.`
    ),
    procedure((p) =>
      `Fill in the sandbox's sign-in form (${DEFAULT_USER.username} / ${DEFAULT_USER.password}), submit it, and finish on the product page of the ${p.product}, where you started.`
    ),
    goal((p) =>
      `Get signed in as ${DEFAULT_USER.username} (password ${DEFAULT_USER.password}) and end up back on the ${p.product}'s product page.`
    ),
    goal((p) =>
      `When you are done, you should be signed in (${DEFAULT_USER.username}, password ${DEFAULT_USER.password}) and looking at the ${p.product} again.`
    ),
  ],
  start: (p) => ({ url: `/shop/products/${p.id}`, logged_out: true }),
  chain: (p) => [authenticateByForm({ link: true, back: `/shop/products/${p.id}` })],
  outcome: (p) => [{ page: { path: `/shop/products/${p.id}`, query: {} } }, { no_writes: true }],
  nearMisses: (p, db, steps) => {
    const signedIn = steps.slice(0, -1);
    const misses: NearMiss[] = [
      {
        name: "stays_on_home",
        category: "wrong_method",
        steps: signedIn,
        reason: "final_page",
        witness: { all: [{ logged_in: true }, { page: { path: "/" } }] },
      },
      signedOutAfter({ back: `/shop/products/${p.id}`, endsOnPage: true }),
    ];
    if (plainInStock(db).some((q) => q.id === p.id)) {
      misses.push({
        name: "then_add_to_cart",
        category: "collateral",
        after_reference: [{ click: { selector: "#add-to-cart" } }, { navigate: { url: `/shop/products/${p.id}` } }],
        reason: "unclaimed_write",
        witness: addToCartWitness(p.id),
      });
    }
    if (p.sibling) {
      misses.push({
        name: "back_to_sibling",
        category: "wrong_item",
        steps: [...signedIn, { navigate: { url: `/shop/products/${p.sibling}` } }],
        reason: "final_page",
        witness: { page: { path: `/shop/products/${p.sibling}` } },
      });
    }
    return misses;
  },
});

/** select_option after the menu: open a list with the menu, then sort it with the Sort by select. */
const menuSort = layered<
  { label: string; path: string; sort: string; sort_label: string; other: string; other_label: string }
>({
  id: "shop.select_option.menu_sort",
  site: "shop",
  macro: "select_option",
  prefix: ["navigate_menu"],
  summary: "menu to a list, then sort it with the Sort by select",
  params: (db) => {
    const sorts = sortOrders().filter((s) => s.key !== "featured");
    return menuEntries(db).filter((e) => e.first.startsWith("#product-grid")).flatMap((e) =>
      sorts.map((s, i) => ({
        label: e.label,
        path: e.path,
        sort: s.key,
        sort_label: s.label,
        other: sorts[(i + 1) % sorts.length].key,
        other_label: sorts[(i + 1) % sorts.length].label,
      }))
    );
  },
  entity: (p) => `list:${p.label}`,
  phrasings: [
    procedure((p) => `Open "${p.label}" from the shop's top menu, then sort the list by "${p.sort_label}".`),
    procedure((p) => `Using the menu, go to ${p.label} and choose "${p.sort_label}" in the Sort by dropdown.`),
    goal((p) => `Show the shop's ${p.label} list in the order "${p.sort_label}".`),
    goal((p) => `I want to browse ${p.label} in the shop sorted as "${p.sort_label}": put that list on screen.`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [
    navigateMenu("shop", p.label, p.path),
    selectOption("#sort", p.sort_label, { list: { path: p.path, query: { sort: p.sort } } }, {
      options: sortOrders().map((s) => s.label),
      from: SORTS.featured.label,
    }),
  ],
  outcome: (p) => [{ page: { path: p.path, query: { sort: p.sort } } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_sort",
      category: "wrong_item",
      steps: [steps[0], { select_dropdown: { selector: "#sort", text: p.other_label } }],
      reason: "final_page",
      witness: { page: { path: p.path, query: { sort: p.other } } },
    },
    {
      name: "sort_plus_in_stock",
      category: "unlisted_field",
      steps: [steps[0], { click: { selector: "#in-stock" } }, {
        select_dropdown: { selector: "#sort", text: p.sort_label },
      }],
      reason: "final_page",
      witness: visitedWith(p.path, [["in_stock", "1"], ["sort", p.sort]]),
    },
  ],
});

/** toggle_checkbox after search: search a word, then show only the results in stock. */
const searchInStock = layered<{ word: string; brand: string; sibling: string }>({
  id: "shop.toggle_checkbox.search_in_stock",
  site: "shop",
  macro: "toggle_checkbox",
  prefix: ["search"],
  summary: "search the shop for a word, then tick In stock only",
  params: (db) => {
    const words = searchWords(db);
    return words.map((w, i) => ({
      word: w.word,
      brand: productById(db, w.ids[0]).brand,
      sibling: words[(i + 1) % words.length].word,
    }));
  },
  entity: (p) => `query:${p.word}`,
  phrasings: [
    procedure((p) =>
      `Search the shop for "${p.word}", then tick the "In stock only" filter and apply it to the results.`
    ),
    procedure((p) =>
      `Look up "${p.word}" with the search box and tick "In stock only" so only available results show.`
    ),
    goal((p) => `Show the shop's products matching "${p.word}" that are in stock, and no others.`),
    goal((p) => `List what the shop finds for "${p.word}", narrowed to products in stock.`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [
    search("shop", p.word),
    filterBoxes(["#in-stock"], "#apply-filters", "/shop/products", { q: p.word, in_stock: "1" }),
  ],
  outcome: (p) => [{ page: { path: "/shop/products", query: { q: p.word, in_stock: "1" } } }, { no_writes: true }],
  nearMisses: (p) => [
    {
      name: "brand_ticked_too",
      category: "unlisted_field",
      steps: [...searchSteps(p.word), { click: { selector: "#in-stock" } }, {
        click: { selector: `#brand-${slug(p.brand)}` },
      }, {
        click: { selector: "#apply-filters" },
      }],
      reason: "final_page",
      witness: visitedWith("/shop/products", [["q", p.word], ["in_stock", "1"], ["brand", p.brand]]),
    },
    {
      name: "filter_then_clear",
      category: "overshoot",
      after_reference: [{ click: { selector: "#clear-filters" } }],
      reason: "final_page",
      witness: {
        all: [visitedWith("/shop/products", [["q", p.word], ["in_stock", "1"]]), {
          page: { path: "/shop/products", query: { q: p.word } },
        }],
      },
    },
    {
      name: "other_word_in_stock",
      category: "wrong_item",
      steps: [...searchSteps(p.sibling), { click: { selector: "#in-stock" } }, {
        click: { selector: "#apply-filters" },
      }],
      reason: "final_page",
      witness: { page: { path: "/shop/products", query: { q: p.sibling, in_stock: "1" } } },
    },
  ],
});

/** set_slider after the menu: open a list with the menu, then set the Max price slider and apply it. */
const menuSlider = layered<{ label: string; path: string; price: number; ceiling: number }>({
  id: "shop.set_slider.menu_max_price",
  site: "shop",
  macro: "set_slider",
  prefix: ["navigate_menu"],
  summary: "menu to a list, then set the Max price slider to a value and apply it",
  params: (db) => {
    const ceiling = priceCeilingOf(db);
    return menuEntries(db).filter((e) => e.first.startsWith("#product-grid")).flatMap((e) => {
      const slugPart = e.path.startsWith("/shop/category/") ? e.path.slice("/shop/category/".length) : "";
      const r = db.get<{ lo: number; hi: number }>(
        `SELECT MIN(p.price) AS lo, MAX(p.price) AS hi FROM products p JOIN categories c ON c.id = p.category_id
         WHERE ? = '' OR c.slug = ?`,
        slugPart,
        slugPart,
      );
      if (!r) return [];
      const out: { label: string; path: string; price: number; ceiling: number }[] = [];
      // Every value between the list's cheapest and dearest product: the filter keeps some and drops some.
      for (let v = Math.ceil(r.lo / 10) * 10; v < r.hi && v < ceiling; v += 10) {
        out.push({ label: e.label, path: e.path, price: v, ceiling });
      }
      return out;
    });
  },
  entity: (p) => `list:${p.label}`,
  phrasings: [
    procedure((p) =>
      `Open "${p.label}" from the shop's top menu, then set the maximum price slider to $${p.price} and apply the filter.`
    ),
    procedure((p) =>
      `Go to ${p.label} with the menu and move the Max price slider to $${p.price}, then apply the filters.`
    ),
    goal((p) => `In the shop's ${p.label} list, show only the products costing at most $${p.price}.`),
    goal((p) => `My budget is $${p.price}: list the ${p.label} products of the shop that fit it, and only those.`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [navigateMenu("shop", p.label, p.path), priceSlider(p.path, p.price, p.ceiling)],
  outcome: (p) => [{ page: { path: p.path, query: { max_price: String(p.price) } } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => {
    const over = p.price + 10;
    return [
      {
        name: "one_step_over",
        category: "overshoot",
        steps: [steps[0], ...priceSlider(p.path, over, p.ceiling).steps],
        reason: "final_page",
        witness: visitedWith(p.path, [["max_price", String(over)]]),
      },
      {
        name: "slider_plus_in_stock",
        category: "unlisted_field",
        steps: [steps[0], { click: { selector: "#in-stock" } }, ...priceSlider(p.path, p.price, p.ceiling).steps],
        reason: "final_page",
        witness: visitedWith(p.path, [["in_stock", "1"], ["max_price", String(p.price)]]),
      },
    ];
  },
});

/** The Max price slider of the list at `path` set to `price` and applied. */
const priceSlider = (path: string, price: number, ceiling: number) =>
  setSlider("#max-price", price, { min: 0, max: ceiling, step: 10 }, {
    list: { path, query: { max_price: String(price) }, submit: "#apply-filters" },
  });

/** choose_radio after open_detail: from a category, open a product and add it in a size and/or colour. */
const variantToCart = layered<
  {
    category: string;
    slug: string;
    id: number;
    product: string;
    size: string;
    colour: string;
    alt_size: string;
    alt_colour: string;
    extra: number;
  }
>({
  id: "shop.choose_radio.variant_to_cart",
  site: "shop",
  macro: "choose_radio",
  prefix: ["open_detail"],
  summary: "from a category, open a product and add it to the cart in a size and colour",
  params: (db) =>
    products(db).filter((p) => p.stock > 0 && (p.sizes || p.colours)).flatMap((p) => {
      const sizes = p.sizes ? p.sizes.split(",") : [""];
      const colours = p.colours ? p.colours.split(",") : [""];
      const extra = plainInStock(db).find((q) => q.category_id === p.category_id)?.id ?? plainInStock(db)[0].id;
      return sizes.flatMap((size, si) =>
        colours.map((colour, ci) => ({
          category: p.cat_name,
          slug: p.cat_slug,
          id: p.id,
          product: p.name,
          size,
          colour,
          alt_size: sizes.length > 1 ? sizes[(si + 1) % sizes.length] : size,
          alt_colour: colours.length > 1 && sizes.length === 1 ? colours[(ci + 1) % colours.length] : colour,
          extra,
        }))
      );
    }),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `From the ${p.category} category, open the ${p.product}, tick ${
        describeVariant(p.size, p.colour)
      } among its options and add one to your cart.`
    ),
    procedure((p) =>
      `Open the ${p.product} (it is in ${p.category}), choose ${
        describeVariant(p.size, p.colour)
      } with the option buttons, and put one in the cart.`
    ),
    goal((p) => `I'd like one ${p.product} in ${describeVariant(p.size, p.colour)} in my shopping cart.`),
    goal((p) => `Get a single ${p.product}, ${describeVariant(p.size, p.colour)}, into the cart.`),
  ],
  start: (p) => ({ url: `/shop/category/${p.slug}` }),
  chain: (p, db) => [
    openDetail(`/shop/category/${p.slug}`, openProduct(p.id), `/shop/products/${p.id}`),
    ...variantRadios(productById(db, p.id), p.size, p.colour),
  ],
  outcome: (p) => [{
    change: {
      site: "shop",
      table: "cart_items",
      op: "insert",
      after: { product_id: p.id, size: { exact: p.size }, colour: { exact: p.colour }, qty: 1 },
    },
  }],
  nearMisses: (p, db, steps) => {
    const misses: NearMiss[] = [
      {
        name: "added_twice",
        category: "collateral",
        after_reference: [{ navigate: { url: `/shop/products/${p.id}` } }, ...steps.slice(1)],
        reason: "field_mismatch",
        witness: cartQtyOneToTwo(p.id),
      },
      {
        name: "another_product_too",
        category: "collateral",
        after_reference: [{ navigate: { url: `/shop/products/${p.extra}` } }, { click: { selector: "#add-to-cart" } }],
        reason: "unclaimed_write",
        witness: addToCartWitness(p.extra),
      },
    ];
    if (p.alt_size !== p.size || p.alt_colour !== p.colour) {
      misses.unshift({
        name: "other_variant",
        category: "wrong_item",
        steps: [steps[0], ...variantRadios(productById(db, p.id), p.alt_size, p.alt_colour).flatMap((s) => s.steps)],
        reason: "field_mismatch",
        witness: {
          change: {
            site: "shop",
            table: "cart_items",
            op: "insert",
            after: { product_id: p.id, size: { exact: p.alt_size }, colour: { exact: p.alt_colour } },
          },
          ever: true,
        },
      });
    }
    return misses;
  },
});

function describeVariant(size: string, colour: string): string {
  return [size && `size ${size}`, colour && `colour ${colour}`].filter(Boolean).join(" and ");
}

/**
 * The product page's option radios (size, colour: a group each, in the page's order) set to `size` and `colour` (""
 * for a product without that option), the add-to-cart button pressed after the last.
 */
function variantRadios(p: { id: number; sizes: string; colours: string }, size: string, colour: string) {
  const groups = [
    { kind: "size", all: p.sizes, value: size },
    { kind: "colour", all: p.colours, value: colour },
  ].filter((g) => g.value);
  return groups.map((g, i) => {
    const ids = g.all.split(",").map((v) => `#${g.kind}-${optionId(v)}`);
    const last = i === groups.length - 1;
    return chooseRadio(ids, `#${g.kind}-${optionId(g.value)}`, g.value, last ? addToCart(p.id) : {});
  });
}

/** The add-to-cart button pressed after a product's options, and the POST it sends. */
const addToCart = (id: number) => ({
  after: [{ click: { selector: "#add-to-cart" } }],
  saves: { method: "POST", path: `/shop/products/${id}/cart` },
});

/** choose_radio after open_detail: from My orders, open a delivered order and rate its delivery. */
const rateDelivery = layered<{ number: string; order_id: number; stars: number; other: string; other_id: number }>({
  id: "shop.choose_radio.rate_delivery",
  site: "shop",
  macro: "choose_radio",
  prefix: ["open_detail"],
  summary: "from My orders, open a delivered order and give its delivery a star rating",
  params: (db) => {
    const delivered = db.all<{ id: number; number: string }>(
      "SELECT id, number FROM orders WHERE status = 'Delivered' ORDER BY placed_at DESC",
    );
    return delivered.flatMap((o, i) =>
      [1, 2, 3, 4, 5].map((stars) => ({
        number: o.number,
        order_id: o.id,
        stars,
        other: delivered[(i + 1) % delivered.length].number,
        other_id: delivered[(i + 1) % delivered.length].id,
      }))
    );
  },
  entity: (p) => `order:${p.number}`,
  phrasings: [
    procedure((p) =>
      `From your orders, open order ${p.number} and rate its delivery ${plural(p.stars, "star")} with the star rating.`
    ),
    procedure((p) =>
      `Open ${p.number} in My orders and click the stars to give the delivery a ${p.stars}-star rating.`
    ),
    goal((p) => `Rate the delivery of your order ${p.number}: it deserves ${plural(p.stars, "star")} out of 5.`),
    goal((p) => `Leave a ${p.stars}-star delivery rating on order ${p.number}.`),
  ],
  start: () => ({ url: "/shop/orders" }),
  chain: (p) => [orderOpen(p.number), chooseStars("shop", "delivery", p.number, p.stars)],
  outcome: (p) => [
    {
      change: {
        site: "shop",
        table: "delivery_ratings",
        op: "insert",
        after: { order_id: p.order_id, stars: p.stars },
      },
    },
    { only_writes: [{ site: "shop", table: "delivery_ratings" }] },
  ],
  nearMisses: (p, _db, steps) => {
    const wrong = p.stars === 5 ? 4 : p.stars + 1;
    return [
      {
        name: "neighbouring_star",
        category: "wrong_item",
        steps: [steps[0], ...chooseStars("shop", "delivery", p.number, wrong).steps],
        reason: "field_mismatch",
        witness: ratingWitness(p.order_id, wrong),
      },
      {
        name: "other_delivered_order",
        category: "wrong_item",
        steps: [orderOpen(p.other).steps[0], ...chooseStars("shop", "delivery", p.other, p.stars).steps],
        reason: "field_mismatch",
        witness: ratingWitness(p.other_id, p.stars),
      },
      {
        name: "both_orders_rated",
        category: "collateral",
        after_reference: [
          { navigate: { url: `/shop/orders/${p.other}` } },
          ...chooseStars("shop", "delivery", p.other, p.stars).steps,
        ],
        reason: "irreversible_extra",
        witness: { all: [ratingWitness(p.order_id, p.stars), ratingWitness(p.other_id, p.stars)] },
      },
    ];
  },
});

/** open_detail on My orders: the order's link opens its page. */
const orderOpen = (number: string) =>
  openDetail("/shop/orders", { click: { selector: `#order-${number} a` } }, `/shop/orders/${number}`);

const ratingWitness = (orderId: number, stars: number) => ({
  change: { site: "shop", table: "delivery_ratings", op: "insert", after: { order_id: orderId, stars } },
  ever: true,
});

/** pick_date: the checkout form is filled in; pick the delivery day in the calendar and place the order. */
const checkoutDeliveryDay = layered<
  { id: number; product: string; date: string; neighbour: string; shipping: string }
>({
  id: "shop.pick_date.checkout_delivery_day",
  site: "shop",
  macro: "pick_date",
  summary: "on a filled-in checkout form, pick the delivery day in the calendar and place the order",
  params: (db) => {
    const days = deliveryDays(2);
    const plain = plainInStock(db);
    const ships = Object.keys(SHIPPING) as ShippingMethod[];
    return days.flatMap((date, di) =>
      ships.map((shipping, si) => {
        const p = plain[(di * ships.length + si) % plain.length];
        return { id: p.id, product: p.name, date, neighbour: days[(di + 1) % days.length], shipping };
      })
    );
  },
  entity: (p) => `date:${p.date}`,
  phrasings: [
    procedure((p) =>
      `Your checkout form for the ${p.product} is filled in except the delivery date. Pick ${p.date} in the date field's calendar, then place the order.`
    ),
    procedure((p) =>
      `Finish this checkout of the ${p.product}: choose the delivery day ${p.date} with the calendar pop-up and place the order.`
    ),
    goal((p) => `Place this order for the ${p.product} so that it is delivered on ${p.date}.`),
    goal((p) =>
      `The checkout only lacks a delivery day: have the ${p.product} arrive on ${p.date} and complete the purchase.`
    ),
  ],
  start: (p, db) => ({
    url: `/shop/products/${p.id}`,
    setup: [
      { click: { selector: "#add-to-cart" } },
      { navigate: { url: "/shop/checkout" } },
      ...addressSteps(db, p.shipping),
      { input: { selector: "#card", text: checkoutOrderOf(db, p).card } },
    ],
  }),
  chain: (p) => [deliveryDay(p.date)],
  outcome: (p, db) => orderChanges(db, checkoutOrderOf(db, p)),
  nearMisses: (p) => [
    {
      name: "next_day_picked",
      category: "wrong_item",
      steps: deliveryDay(p.neighbour).steps,
      reason: "field_mismatch",
      witness: orderWitness({ delivery_date: { exact: p.neighbour } }),
    },
  ],
});

/** The checkout's delivery date set to `day` with its calendar (it opens on today's month), the order placed after. */
const deliveryDay = (day: string) =>
  pickDate("#delivery-date", day, {
    blur: "#postcode",
    after: [{ click: { selector: "#place-order" } }],
    saves: { method: "POST", path: "/shop/checkout" },
  });

/** The order a pick_date instance places: its product, shipping and day, no promo, the user's first card. */
function checkoutOrderOf(db: AppDb, p: { id: number; date: string; shipping: string }): CheckoutOrder {
  return { product: p.id, shipping: p.shipping as ShippingMethod, date: p.date, promo: "", card: cards(db)[0] };
}

// ---------------------------------------------------------------------------------------------------------------
// Form transaction.
// ---------------------------------------------------------------------------------------------------------------

/** submit_form after the menu: open the cart from the menu and check out with given shipping, day and promo. */
const menuCheckout = layered<
  {
    id: number;
    product: string;
    shipping: string;
    date: string;
    promo: string;
    card: string;
    other_shipping: string;
    other_promo: string;
  }
>({
  id: "shop.submit_form.menu_checkout",
  site: "shop",
  macro: "submit_form",
  prefix: ["navigate_menu"],
  summary: "open the cart from the menu and check out with given details, shipping, day, promo and card",
  params: (db) => {
    const ships = Object.keys(SHIPPING) as ShippingMethod[];
    const days = deliveryDays(1);
    const promos = ["", ...promoCodes(db)];
    const cardList = cards(db);
    let n = 0;
    return plainInStock(db).flatMap((p) =>
      ships.flatMap((shipping, si) =>
        promos.map((promo, pi) => {
          const i = n++;
          return {
            id: p.id,
            product: p.name,
            shipping,
            date: days[i % days.length],
            promo,
            card: cardList[i % cardList.length],
            other_shipping: ships[(si + 1) % ships.length],
            other_promo: promos[(pi + 1) % promos.length],
          };
        })
      )
    );
  },
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Open your cart from the shop's top menu and check out the ${p.product}: ${CUSTOMER_TEXT(p)}; ${
        SHIP_WORDS[p.shipping as ShippingMethod]
      }, delivery on ${p.date}${p.promo ? `, promo code ${p.promo}` : ", no promo code"}, card ${p.card}.`
    ),
    procedure((p) =>
      `Use the menu to go to the cart, then place the order for the ${p.product} with ${
        SHIP_WORDS[p.shipping as ShippingMethod]
      } and delivery date ${p.date}. Details: ${CUSTOMER_TEXT(p)}. Pay with card ${p.card}${
        p.promo ? ` and apply the promo code ${p.promo}` : " without a promo code"
      }.`
    ),
    goal((p) =>
      `Buy the ${p.product} that is in your cart, for ${CUSTOMER_TEXT(p)}, with ${
        SHIP_WORDS[p.shipping as ShippingMethod]
      } on ${p.date}, paid by card ${p.card}${p.promo ? `, using promo code ${p.promo}` : " and no promo code"}.`
    ),
    goal((p) =>
      `I want my ${p.product} delivered on ${p.date} by ${SHIP_WORDS[p.shipping as ShippingMethod]}. Order it: ${
        CUSTOMER_TEXT(p)
      }; card ${p.card}${p.promo ? `; promo ${p.promo}` : "; no promo"}.`
    ),
  ],
  start: (p) => ({
    url: `/shop/products/${p.id}`,
    setup: [{ click: { selector: "#add-to-cart" } }, { navigate: { url: `/shop/products/${p.id}` } }],
  }),
  chain: (p, db) => [navigateMenu("shop", "Cart", "/shop/cart"), checkoutForm(db, checkoutOf(p))],
  outcome: (p, db) => orderChanges(db, checkoutOf(p)),
  nearMisses: (p, db, steps) => {
    const postcode = customer(db).postcode;
    const typo = postcode.slice(0, -2) + postcode.slice(-1) + postcode.slice(-2, -1);
    const changed = (name: string, change: CheckoutChange, after: Record<string, unknown>): NearMiss => ({
      name,
      category: change.shipping ? "wrong_item" : "unlisted_field",
      steps: [steps[0], ...checkoutForm(db, checkoutOf(p), change).steps],
      reason: "field_mismatch",
      witness: orderWitness(after),
    });
    return [
      changed("other_shipping", { shipping: p.other_shipping }, { shipping_method: { exact: p.other_shipping } }),
      changed("promo_mixed_up", { promo: p.other_promo }, { promo_code: { exact: p.other_promo } }),
      ...(typo === postcode ? [] : [changed("mistyped_postcode", { postcode: typo }, { postcode: { exact: typo } })]),
    ];
  },
});

/** The order a checkout instance places. */
const checkoutOf = (p: { id: number; shipping: string; date: string; promo: string; card: string }): CheckoutOrder => ({
  product: p.id,
  shipping: p.shipping as ShippingMethod,
  date: p.date,
  promo: p.promo,
  card: p.card,
});

/** Another value than the order's in one field of the checkout form (a near miss's mistake). */
type CheckoutChange = { postcode?: string; shipping?: string; promo?: string };

/**
 * The checkout form, opened from the cart, filled in for `o` and placed: a submit_form segment whose set controls are
 * the country, the shipping radio and the delivery day's calendar, its typed fields the customer's details, the promo
 * code (when there is one) and the card.
 */
function checkoutForm(db: AppDb, o: CheckoutOrder, change: CheckoutChange = {}) {
  const c = customer(db);
  const promo = change.promo ?? o.promo;
  return formSegment({
    macro: "submit_form",
    open: [{ click: { selector: "#checkout-link" } }],
    set: [
      { select_dropdown: { selector: "#country", text: c.country } },
      { click: { selector: `#ship-${change.shipping ?? o.shipping}` } },
      ...calendarClicks("#delivery-date", o.date),
    ],
    fields: [
      { selector: "#name", text: c.customer_name },
      { selector: "#email", text: c.email },
      { selector: "#street", text: c.street },
      { selector: "#city", text: c.city },
      { selector: "#postcode", text: change.postcode ?? c.postcode },
      ...(promo ? [{ selector: "#promo", text: promo }] : []),
      { selector: "#card", text: o.card },
    ],
    submit: "#place-order",
    posts: postPath("/shop/checkout"),
    enter: "#card",
  });
}

/** The customer's details as an instruction states them. */
const CUSTOMER_TEXT = (_p: unknown) => {
  const c = customer(seedDb("shop"));
  return `${c.customer_name}, ${c.email}, ${c.street}, ${c.city}, ${c.postcode}, ${c.country}`;
};

// ---------------------------------------------------------------------------------------------------------------
// Out-of-page I/O.
// ---------------------------------------------------------------------------------------------------------------

/** The id the cart's next line gets: the seed's cart is empty, so the setup's first add makes line 1. */
const nextCartLine = (db: AppDb) =>
  (db.get<{ n: number }>("SELECT COALESCE(MAX(id), 0) AS n FROM cart_items")?.n ?? 0) + 1;

const cartLineDeleted = (productId: number) => ({
  change: { site: "shop", table: "cart_items", op: "delete", before: { product_id: productId } },
});

/** confirm_dialog after the menu: open the cart with the menu and remove one of two items, confirming. */
const menuRemoveFromCart = layered<{ id: number; product: string; keep: number; keep_name: string }>({
  id: "shop.confirm_dialog.menu_remove_from_cart",
  site: "shop",
  macro: "confirm_dialog",
  prefix: ["navigate_menu"],
  summary: "open the cart with the menu and remove one of two items (confirming the dialog)",
  params: (db) => {
    const plain = plainInStock(db);
    return plain.flatMap((a) =>
      plain.filter((b) => b.category_id === a.category_id && b.id !== a.id).map((b) => ({
        id: a.id,
        product: a.name,
        keep: b.id,
        keep_name: b.name,
      }))
    );
  },
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Your cart holds the ${p.product} and the ${p.keep_name}. Open the cart from the top menu and remove the ${p.product} (confirm when asked); keep the ${p.keep_name}.`
    ),
    procedure((p) =>
      `Using the shop's menu, go to your cart and take out the ${p.product}, confirming the dialog. The ${p.keep_name} stays.`
    ),
    goal((p) => `Your cart holds the ${p.product} and the ${p.keep_name}. Make it hold only the ${p.keep_name}.`),
    goal((p) => `I no longer want the ${p.product}: get it out of my shopping cart, but leave the ${p.keep_name} in.`),
  ],
  start: (p) => ({
    url: `/shop/products/${p.id}`,
    setup: [
      { click: { selector: "#add-to-cart" } },
      { navigate: { url: `/shop/products/${p.keep}` } },
      { click: { selector: "#add-to-cart" } },
      { navigate: { url: `/shop/products/${p.id}` } },
    ],
  }),
  chain: (_p, db) => {
    const line = nextCartLine(db);
    return [
      navigateMenu("shop", "Cart", "/shop/cart"),
      confirmDialog({ control: `#remove-${line}`, posts: `/shop/cart/${line}/remove` }),
    ];
  },
  outcome: (p) => [cartLineDeleted(p.id), { ...cartLineDeleted(p.keep), times: 0 }],
  nearMisses: (p, db, steps) => {
    const keepLine = nextCartLine(db) + 1;
    return [
      {
        name: "removes_the_other",
        category: "wrong_item",
        steps: [...steps.slice(0, -1), { click: { selector: `#remove-${keepLine}` } }],
        reason: "field_mismatch",
        witness: { ...cartLineDeleted(p.keep), ever: true },
      },
      {
        name: "remove_and_change_other_qty",
        category: "collateral",
        after_reference: [
          { input: { selector: `#qty-${keepLine}`, text: "2", clear: true } },
          { click: { selector: `#update-${keepLine}` } },
        ],
        reason: "unclaimed_write",
        witness: cartQtyOneToTwo(p.keep),
      },
    ];
  },
});

/**
 * One record per order and start page (a product page): the order named one of its ways (number, item, day,
 * status, total), taken in turn, so that each record asks something else.
 */
function orderFromProductPage(db: AppDb, withNumber: boolean) {
  const descs = orderDescriptions(db).filter((d) => withNumber || d.how !== "number");
  return orders(db).flatMap((o) => {
    const mine = descs.filter((d) => d.number === o.number);
    return products(db).map((p, i) => ({
      number: o.number,
      desc: mine[i % mine.length].desc,
      start: p.id,
      start_name: p.name,
      other: neighbourOrder(db, o.number).number,
    }));
  });
}

/** copy_to_clipboard after the menu and open_detail: My orders from the menu, open an order, copy its number. */
const copyOrderNumber = layered<{ number: string; desc: string; start: number; start_name: string; other: string }>({
  id: "shop.copy_to_clipboard.order_number",
  site: "shop",
  macro: "copy_to_clipboard",
  prefix: ["navigate_menu", "open_detail"],
  summary:
    "from a product page, My orders by the menu, open an order named by its item, day, status or total, copy its number",
  params: (db) => orderFromProductPage(db, false),
  entity: (p) => `order:${p.number}`,
  phrasings: [
    procedure((p) =>
      `You are on the ${p.start_name} page. Open "My orders" from the top menu, open ${p.desc} and copy its order number to the clipboard with the page's copy button.`
    ),
    procedure((p) =>
      `From this ${p.start_name} page, use the shop's menu to reach your orders, open ${p.desc}, and use "Copy order number" to put its number on the clipboard.`
    ),
    goal((p) => `You are on the ${p.start_name} page. Get the order number of ${p.desc} onto the clipboard.`),
    goal((p) =>
      `From the ${p.start_name} page, look through your orders for ${p.desc} and copy its order number from the order's page.`
    ),
  ],
  start: (p) => ({ url: `/shop/products/${p.start}` }),
  chain: (p) => [
    navigateMenu("shop", "My orders", "/shop/orders"),
    openDetail("/shop/orders", { click: { selector: `#order-${p.number} a` } }, `/shop/orders/${p.number}`),
    copyToClipboard({
      control: "#copy-order-number",
      text: p.number,
      another: {
        steps: [{ navigate: { url: `/shop/orders/${p.other}` } }, { click: { selector: "#copy-order-number" } }],
        matcher: { exact: p.other },
      },
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    {
      name: "copies_other_order",
      category: "wrong_item",
      steps: [menuLink("/shop/orders"), { click: { selector: `#order-${p.other} a` } }, {
        click: { selector: "#copy-order-number" },
      }],
      reason: "clipboard_mismatch",
      witness: {
        all: [{ record: { action: "click", target: { contains: "#copy-order-number" } } }, {
          clipboard: { exact: p.other },
        }],
      },
    },
  ],
});

/** download_file after the menu: from a product page, My orders by the menu, then an order's CSV invoice. */
const menuInvoice = layered<
  { number: string; desc: string; start: number; start_name: string; other: string; reorder: number }
>({
  id: "shop.download_file.menu_invoice",
  site: "shop",
  macro: "download_file",
  prefix: ["navigate_menu", "open_detail"],
  summary: "from a product page, open My orders with the menu and download an order's CSV invoice",
  params: (db) => {
    const plain = new Set(plainInStock(db).map((q) => q.id));
    return orderFromProductPage(db, true).map((d) => {
      const item = db.all<{ product_id: number }>(
        "SELECT i.product_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.number = ? ORDER BY i.id",
        d.number,
      ).find((r) => plain.has(r.product_id));
      return { ...d, reorder: item?.product_id ?? 0 };
    });
  },
  entity: (p) => `order:${p.number}`,
  phrasings: [
    procedure((p) =>
      `You are on the ${p.start_name} page. Open "My orders" from the shop's top menu and download the CSV invoice of ${p.desc}.`
    ),
    procedure((p) =>
      `From the ${p.start_name} page, use the top menu to go to your orders, open ${p.desc} and download its invoice (CSV).`
    ),
    goal((p) => `You are on the ${p.start_name} page. Save the CSV invoice of ${p.desc} from your orders.`),
    goal((p) => `From the ${p.start_name} page, get the invoice (CSV) of ${p.desc} out of your orders.`),
  ],
  start: (p) => ({ url: `/shop/products/${p.start}` }),
  chain: (p) => [
    navigateMenu("shop", "My orders", "/shop/orders"),
    openDetail("/shop/orders", { click: { selector: `#order-${p.number} a` } }, `/shop/orders/${p.number}`),
    downloadFile({
      control: "#download-invoice",
      path: `/shop/orders/${p.number}/invoice.csv`,
      kind: "^/shop/orders/[^/]+/invoice\\.csv$",
      another: {
        steps: [{ navigate: { url: `/shop/orders/${p.other}` } }, { click: { selector: "#download-invoice" } }],
        path: `/shop/orders/${p.other}/invoice.csv`,
      },
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => {
    const misses: NearMiss[] = [
      {
        name: "other_invoice",
        category: "wrong_item",
        steps: [menuLink("/shop/orders"), { click: { selector: `#order-${p.other} a` } }, {
          click: { selector: "#download-invoice" },
        }],
        reason: "request_missing",
        witness: { request: { method: "GET", path: { exact: `/shop/orders/${p.other}/invoice.csv` } } },
      },
    ];
    if (p.reorder) {
      misses.push({
        name: "download_then_reorder",
        category: "collateral",
        after_reference: [{ click: { selector: `#order-items a[href='/shop/products/${p.reorder}']` } }, {
          click: { selector: "#add-to-cart" },
        }],
        reason: "unclaimed_write",
        witness: addToCartWitness(p.reorder),
      });
    }
    return misses;
  },
});

/** open_new_tab after search and open: a sized product's size guide, which opens in a new tab. */
const sizeGuideTab = layered<
  { word: string; id: number; product: string; sibling: number; addable: boolean; size: string }
>({
  id: "shop.open_new_tab.size_guide",
  site: "shop",
  macro: "open_new_tab",
  prefix: ["search", "open_detail"],
  summary: "search, open a sized product, and open its size guide (a new tab)",
  params: (db) => {
    const sized = products(db).filter((p) => p.sizes);
    return sized.flatMap((p, i) => {
      const nameWord = searchWords(db).find((w) => w.ids.includes(p.id))?.word;
      const sibling = sized[(i + 1) % sized.length].id;
      return [p.brand.toLowerCase(), ...(nameWord ? [nameWord] : [])].map((word) => ({
        word,
        id: p.id,
        product: p.name,
        sibling,
        addable: p.stock > 0 && !p.colours,
        size: p.sizes.split(",")[0],
      }));
    });
  },
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Search the shop for "${p.word}", open the ${p.product}, and open its size guide (it opens in a new tab).`
    ),
    procedure((p) =>
      `Find the ${p.product} by searching for "${p.word}", go to its page and open the Size guide link in a new tab.`
    ),
    goal((p) => `Look up "${p.word}" in the shop, go to the ${p.product}'s page and bring up its size guide.`),
    goal((p) =>
      `Among the shop's matches for "${p.word}" is the ${p.product}: get to its page, then to its size guide.`
    ),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [
    search("shop", p.word),
    resultOpen(p.id),
    openNewTab({ click: { selector: "#size-guide-link" } }, "Size guide", "/shop/size-guide"),
  ],
  outcome: () => [{ page: { path: "/shop/size-guide", query: {}, tab: "any" } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => {
    const misses: NearMiss[] = [
      {
        name: "other_product_guide",
        category: "wrong_item",
        steps: [...searchSteps(p.word), { navigate: { url: `/shop/products/${p.sibling}` } }, {
          click: { selector: "#size-guide-link" },
        }, {
          wait: { seconds: 1 },
        }],
        reason: "not_visited",
        witness: {
          all: [{ visited: { regex: `^/shop/products/${p.sibling}$` } }, {
            page: { path: "/shop/size-guide", tab: "any" },
          }],
        },
      },
      {
        name: "guide_without_search",
        category: "wrong_method",
        steps: [{ navigate: { url: `/shop/products/${p.id}` } }, { click: { selector: "#size-guide-link" } }, {
          wait: { seconds: 1 },
        }],
        reason: "request_missing",
        witness: {
          all: [{ visited: { regex: "^/shop/products\\?" }, times: 0 }, {
            page: { path: "/shop/size-guide", tab: "any" },
          }],
        },
      },
    ];
    if (p.addable) {
      misses.push({
        name: "guide_and_add_to_cart",
        category: "collateral",
        steps: [
          ...steps.slice(0, 3), // search, open
          { click: { selector: `#size-${optionId(p.size)}` } },
          { click: { selector: "#add-to-cart" } },
          { navigate: { url: `/shop/products/${p.id}` } },
          { click: { selector: "#size-guide-link" } },
          { wait: { seconds: 1 } },
        ],
        reason: "unclaimed_write",
        witness: addToCartWitness(p.id),
      });
    }
    return misses;
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Reasoning.
// ---------------------------------------------------------------------------------------------------------------

/** answer_question after the menu: the cheapest or dearest product of a category (of a brand, or in stock). */
const menuPriceExtreme = layered<
  {
    category: string;
    slug: string;
    scope: string;
    brand: string;
    in_stock: boolean;
    kind: string;
    answer: string;
    runner_up: string;
    opposite: string;
    others: string;
  }
>({
  id: "shop.answer_question.menu_price_extreme",
  site: "shop",
  macro: "answer_question",
  prefix: ["navigate_menu"],
  summary: "menu to a category, then name its cheapest or most expensive product (of a brand, or in stock)",
  params: (db) =>
    categories(db).flatMap((c) => {
      const inCat = products(db).filter((p) => p.category_id === c.id);
      const scopes: { scope: string; brand: string; in_stock: boolean; list: ProductRow[] }[] = [
        { scope: "all", brand: "", in_stock: false, list: inCat },
        { scope: "in_stock", brand: "", in_stock: true, list: inCat.filter((p) => p.stock > 0) },
        ...brandsIn(db, c.id).map((b) => ({
          scope: `brand`,
          brand: b,
          in_stock: false,
          list: inCat.filter((p) => p.brand === b),
        })),
      ];
      return scopes.filter((s) => s.list.length >= 2).flatMap((s) => {
        const byPrice = [...s.list].sort((a, b) => a.price - b.price);
        return (["cheapest", "most expensive"] as const).map((kind) => {
          const order = kind === "cheapest" ? byPrice : [...byPrice].reverse();
          return {
            category: c.name,
            slug: c.slug,
            scope: s.scope,
            brand: s.brand,
            in_stock: s.in_stock,
            kind,
            answer: order[0].name,
            runner_up: order[1].name,
            opposite: order[order.length - 1].name,
            others: order.slice(1).map((p) => p.name).join("|"),
          };
        });
      });
    }),
  entity: (p) => `category:${p.slug}`,
  phrasings: [
    procedure((p) =>
      `Use the shop's menu to open the ${p.category} category. Which is the ${p.kind} ${
        scopeWords(p)
      }? Answer with the product's name.`
    ),
    procedure((p) =>
      `From the top menu, go to ${p.category} and find the ${p.kind} ${scopeWords(p)}. Reply with its name only.`
    ),
    goal((p) => `The shop's ${p.category} category: which is the ${p.kind} ${scopeWords(p)}? Give its name.`),
    goal((p) => `Look at the shop's ${p.category} category and tell me the name of the ${p.kind} ${scopeWords(p)}.`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [
    navigateMenu("shop", p.category, `/shop/category/${p.slug}`),
    answerQuestion({
      answer: p.answer,
      matcher: { contains: p.answer },
      others: p.others.split("|"),
      page: { path: `/shop/category/${p.slug}` },
      read: extremeSteps(p),
      rival: p.runner_up,
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    answeredInstead("opposite_end", p.opposite),
  ],
});

/** The steps that show a category's cheapest or dearest product first: its brand or stock filter, then the sort. */
function extremeSteps(p: { brand: string; in_stock: boolean; kind: string }) {
  return [
    ...(p.brand ? [{ click: { selector: `#brand-${slug(p.brand)}` } }] : []),
    ...(p.in_stock ? [{ click: { selector: "#in-stock" } }] : []),
    {
      select_dropdown: {
        selector: "#sort",
        text: p.kind === "cheapest" ? "Price: low to high" : "Price: high to low",
      },
    },
  ];
}

function scopeWords(p: { brand: string; in_stock: boolean }): string {
  if (p.brand) return `${p.brand} product in it`;
  if (p.in_stock) return "product in it that is in stock";
  return "product in it";
}

/** answer_question after open_detail: from My orders, open an order and read a figure or day off it. */
const orderFact = layered<
  { number: string; fact: string; question: string; answer: string; kind: string; rival: string }
>({
  id: "shop.answer_question.order_fact",
  site: "shop",
  macro: "answer_question",
  prefix: ["open_detail"],
  summary: "from My orders, open an order and give its total, subtotal, shipping cost, delivery day or order day",
  params: (db) => {
    const all = orders(db);
    const facts: { fact: string; kind: string; value: (o: OrderRow) => string; question: (o: OrderRow) => string }[] = [
      {
        fact: "total",
        kind: "money",
        value: (o) => money(o.total),
        question: (o) => `What was the total of order ${o.number}?`,
      },
      {
        fact: "subtotal",
        kind: "money",
        value: (o) => money(o.subtotal),
        question: (o) => `What was the items subtotal of order ${o.number}, before shipping and discounts?`,
      },
      {
        fact: "shipping",
        kind: "money",
        value: (o) => money(o.shipping_cost),
        question: (o) => `How much did the shipping cost on order ${o.number}?`,
      },
      {
        fact: "delivery",
        kind: "date",
        value: (o) => o.delivery_date,
        question: (o) =>
          `On which date ${
            o.shipping_method === "pickup"
              ? "is order " + o.number + " due for pickup"
              : "was order " + o.number + " to be delivered"
          }?`,
      },
      {
        fact: "placed",
        kind: "date",
        value: (o) => o.placed_at.slice(0, 10),
        question: (o) => `On which date did you place order ${o.number}?`,
      },
    ];
    return all.flatMap((o, i) =>
      facts.flatMap((f) => {
        const mine = f.value(o);
        const rival = [...all.slice(i + 1), ...all.slice(0, i)].map(f.value).find((v) => v !== mine);
        if (!rival) return [];
        return [{ number: o.number, fact: f.fact, question: f.question(o), answer: mine, kind: f.kind, rival }];
      })
    );
  },
  entity: (p) => `order:${p.number}`,
  phrasings: [
    procedure((p) =>
      `${p.question} Open the order from My orders and answer with the ${p.kind === "money" ? "amount" : "date"}.`
    ),
    procedure((p) => `From your orders list, open ${p.number} and tell me: ${lowerFirst(p.question)}`),
    goal((p) => `${p.question} Answer with the ${p.kind === "money" ? "amount" : "date"} only.`),
    goal((p) => `Check your order ${p.number} and answer: ${lowerFirst(p.question)}`),
  ],
  start: () => ({ url: "/shop/orders" }),
  chain: (p) => [
    openDetail("/shop/orders", { click: { selector: `#order-${p.number} a` } }, `/shop/orders/${p.number}`),
    answerQuestion({
      answer: p.answer,
      matcher: p.kind === "money" ? { number: Number(p.answer.slice(1)), tol: 0.005 } : { date: p.answer },
      page: { path: `/shop/orders/${p.number}` },
      rival: p.rival,
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    answeredInstead("another_orders_value", p.rival),
    ...(p.kind === "date" ? [anotherYear(p.answer)] : []),
  ],
});

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The shop's templates. */
export const SHOP_TEMPLATES: readonly AnyTemplate[] = [
  menuBrandFilter,
  menuEntry,
  pageOfProduct,
  signInBackToProduct,
  searchThenOpen,
  searchOpenTab,
  menuThenSearch,
  categoryReview,
  signedInReview,
  menuSort,
  searchInStock,
  menuSlider,
  variantToCart,
  rateDelivery,
  checkoutDeliveryDay,
  menuCheckout,
  menuRemoveFromCart,
  copyOrderNumber,
  menuInvoice,
  sizeGuideTab,
  menuPriceExtreme,
  orderFact,
];
