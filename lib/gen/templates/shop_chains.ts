/**
 * Shop chains that leave the select adapter (issue 31, item 5): filter boxes, then a product's page (select → rest,
 * and select → rest → io with its size guide); a search, a filter box, then a product (rest → select → rest). Each
 * reads like a table: the layer does the rest. The order chains (io → rest) are in shop_order_chains.ts.
 */
import type { AppDb } from "../../sites/db.ts";
import { PAGE_SIZE } from "../../sites/apps/shop/_data.ts";
import type { ActionJson, AnyTemplate, NearMiss } from "../template.ts";
import {
  endsOnSibling,
  filterBoxes,
  goal,
  layered,
  openDetail,
  openNewTab,
  procedure,
  search,
  visitedPath,
} from "../macros/mod.ts";
import { slug } from "./_common.ts";

type Product = { id: number; name: string; brand: string; stock: number; sizes: string };
const products = (db: AppDb) => db.all<Product>("SELECT id, name, brand, stock, sizes FROM products ORDER BY id");
export const LIST = "/shop/products";
const open = (id: number) => openDetail(LIST, { click: { selector: `#product-${id} a` } }, `${LIST}/${id}`);
/** The brand's box (and In stock only's, with `stock`), applied. */
const brandBox = (brand: string, stock = false) =>
  stock
    ? filterBoxes(["#in-stock", `#brand-${slug(brand)}`], "#apply-filters", LIST, { in_stock: "1", brand })
    : filterBoxes([`#brand-${slug(brand)}`], "#apply-filters", LIST, { brand });
export const onProduct = (id: number) => [{ page: { path: `${LIST}/${id}`, query: {} } }, { no_writes: true }];
export const otherProduct = (id: number) => ({ page: { path: `${LIST}/${id}` } });
/** The filter left out: the product opened from the list as it was (`before`: the steps that reach that list). */
const filterSkipped = (
  id: number,
  query: Record<string, string | string[]>,
  before: ActionJson[] = [],
  after: ActionJson[] = [],
): NearMiss => ({
  name: "filter_skipped",
  category: "wrong_method",
  steps: [...before, { navigate: { url: `${LIST}/${id}` } }, ...after],
  reason: "request_missing",
  witness: { all: [visitedPath(`${LIST}/${id}`), { not: { request: { method: "GET", path: LIST, query } } }] },
});

/** Each product of a brand whose list fits one page, with another product of the same brand. */
function brandRows(db: AppDb, keep: (p: Product) => boolean = () => true) {
  const all = products(db);
  return all.filter(keep).flatMap((p) => {
    const same = all.filter((q) => q.brand === p.brand);
    const other = same.find((q) => q.id !== p.id);
    return same.length <= PAGE_SIZE && other ? [{ id: p.id, product: p.name, brand: p.brand, other: other.id }] : [];
  });
}

type BrandP = { id: number; product: string; brand: string; other: number };

const brandThenOpen = layered<BrandP>({
  id: "shop.open_detail.brand_filter_open",
  site: "shop",
  macro: "open_detail",
  prefix: ["toggle_checkbox"],
  summary: "tick a brand's filter box on All products, then open one of its products from the filtered list",
  params: (db) => brandRows(db),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) => `On All products, tick the "${p.brand}" brand filter, apply it, then open the ${p.product}.`),
    procedure((p) => `Filter the product list by the brand ${p.brand} with its checkbox and click the ${p.product}.`),
    goal((p) => `Narrow the shop's products to ${p.brand}, then go to the ${p.product}'s page from that list.`),
    goal((p) => `List only ${p.brand}'s products, and from them bring up the ${p.product}.`),
  ],
  start: () => ({ url: LIST }),
  chain: (p) => [brandBox(p.brand), open(p.id)],
  outcome: (p) => onProduct(p.id),
  nearMisses: (p, _db, steps) => [
    endsOnSibling(
      "other_product_of_brand",
      steps,
      { click: { selector: `#product-${p.other} a` } },
      `${LIST}/${p.other}`,
    ),
    {
      name: "filter_only",
      category: "wrong_item",
      steps: steps.slice(0, -1),
      reason: "final_page",
      witness: { page: { path: LIST, query: { brand: p.brand } } },
    },
  ],
});

/** In stock only too (the words, and the product's stock allows it), or the brand alone. */
const stockWords = (p: { stock: boolean }) => p.stock ? ` and "In stock only"` : "";

const brandOpenGuide = layered<BrandP & { stock: boolean }>({
  id: "shop.open_new_tab.brand_open_guide",
  site: "shop",
  macro: "open_new_tab",
  prefix: ["toggle_checkbox", "open_detail"],
  summary: "tick a brand's filter box, open one of its sized products, then its size guide (a new tab)",
  params: (db) =>
    brandRows(db, (p) => p.sizes !== "").flatMap((r) => [
      { ...r, stock: false },
      ...(products(db).find((q) => q.id === r.id)!.stock > 0 ? [{ ...r, stock: true }] : []),
    ]),
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Tick the "${p.brand}" brand filter${
        stockWords(p)
      } on All products, open the ${p.product}, then its size guide in a new tab.`
    ),
    procedure((p) =>
      `Filter All products to ${p.brand}${stockWords(p)} with the checkbox${
        p.stock ? "es" : ""
      }, click the ${p.product} and open its Size guide link.`
    ),
    goal((p) =>
      `Show only ${p.brand}'s products${
        p.stock ? " in stock" : ""
      }, go to the ${p.product} from there and bring up its size guide.`
    ),
    goal((p) =>
      `From the list of ${p.brand} products${
        p.stock ? " in stock" : ""
      }, reach the ${p.product}'s page and then its size guide.`
    ),
  ],
  start: () => ({ url: LIST }),
  chain: (p) => [
    brandBox(p.brand, p.stock),
    open(p.id),
    openNewTab({ click: { selector: "#size-guide-link" } }, "Size guide", "/shop/size-guide"),
  ],
  outcome: () => [{ page: { path: "/shop/size-guide", query: {}, tab: "any" } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [filterSkipped(p.id, { brand: p.brand }, [], steps.slice(-2)), {
    name: "product_without_guide",
    category: "wrong_item",
    steps: steps.slice(0, -2),
    reason: "final_page",
    witness: otherProduct(p.id),
  }],
});

/** Each in-stock product a search for its brand's name finds, when the in-stock matches fit one page. */
function stockRows(db: AppDb) {
  const all = products(db);
  return [...new Set(all.map((p) => p.brand))].flatMap((brand) => {
    const word = brand.split(" ")[0].toLowerCase();
    const found = all.filter((p) => `${p.name} ${p.brand}`.toLowerCase().includes(word) && p.stock > 0);
    if (found.length < 2 || found.length > PAGE_SIZE) return [];
    return found.map((p, i) => ({ word, id: p.id, product: p.name, other: found[(i + 1) % found.length].id }));
  });
}

const searchStockOpen = layered<{ word: string; id: number; product: string; other: number }>({
  id: "shop.open_detail.search_stock_open",
  site: "shop",
  macro: "open_detail",
  prefix: ["search", "toggle_checkbox"],
  summary: "search the shop, tick In stock only, then open a product from the narrowed results",
  params: stockRows,
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) => `Search the shop for "${p.word}", tick "In stock only", apply, then open the ${p.product}.`),
    procedure((p) =>
      `Type "${p.word}" into the search box, narrow the results with the In stock only filter and click the ${p.product}.`
    ),
    goal((p) => `Among the products in stock that match "${p.word}", find the ${p.product} and open its page.`),
    goal((p) => `List the shop's in-stock matches for "${p.word}", then go to the ${p.product} from that list.`),
  ],
  start: () => ({ url: "/shop/" }),
  chain: (p) => [
    search("shop", p.word),
    filterBoxes(["#in-stock"], "#apply-filters", LIST, { q: p.word, in_stock: "1" }),
    open(p.id),
  ],
  outcome: (p) => onProduct(p.id),
  nearMisses: (
    p,
    _db,
    steps,
  ) => [
    endsOnSibling("other_match_opened", steps, { click: { selector: `#product-${p.other} a` } }, `${LIST}/${p.other}`),
    filterSkipped(p.id, { q: p.word, in_stock: "1" }, steps.slice(0, 2)),
  ],
});

/** Each pair of brands whose products fit one page together, with a product of each to open. */
function pairRows(db: AppDb) {
  const all = products(db);
  const brands = [...new Set(all.map((p) => p.brand))].sort();
  return brands.flatMap((a, i) =>
    brands.slice(i + 1).flatMap((b) => {
      const found = all.filter((p) => p.brand === a || p.brand === b);
      if (found.length > PAGE_SIZE) return [];
      return found.map((p, n) => ({ a, b, id: p.id, product: p.name, other: found[(n + 1) % found.length].id }));
    })
  );
}

const brandPairOpen = layered<{ a: string; b: string; id: number; product: string; other: number }>({
  id: "shop.open_detail.brand_pair_open",
  site: "shop",
  macro: "open_detail",
  prefix: ["toggle_checkbox"],
  summary: "tick two brands' filter boxes on All products, then open one product from the filtered list",
  params: pairRows,
  entity: (p) => `product:${p.id}`,
  phrasings: [
    procedure((p) =>
      `On All products, tick the ${p.a} and ${p.b} brand filters, apply them and open the ${p.product}.`
    ),
    procedure((p) =>
      `Filter the products to ${p.a} and ${p.b} with their brand checkboxes, then click the ${p.product}.`
    ),
    goal((p) => `Show only the products by ${p.a} or ${p.b}, and from that list go to the ${p.product}.`),
    goal((p) => `Compare ${p.a} with ${p.b} on one list of their products, then open the ${p.product}'s page.`),
  ],
  start: () => ({ url: LIST }),
  chain: (p) => [
    filterBoxes([`#brand-${slug(p.a)}`, `#brand-${slug(p.b)}`], "#apply-filters", LIST, { brand: [p.a, p.b] }),
    open(p.id),
  ],
  outcome: (p) => onProduct(p.id),
  nearMisses: (p, _db, steps) => [
    endsOnSibling(
      "other_product_of_pair",
      steps,
      { click: { selector: `#product-${p.other} a` } },
      `${LIST}/${p.other}`,
    ),
    filterSkipped(p.id, { brand: [p.a, p.b] }),
  ],
});

export const SHOP_CHAIN_TEMPLATES: readonly AnyTemplate[] = [
  brandPairOpen,
  brandThenOpen,
  brandOpenGuide,
  searchStockOpen,
];
