/** Templates on the shop (lib/sites/apps/shop): its catalogue, product pages, cart, checkout and orders. */
import type { AppDb } from "../../sites/db.ts";
import { type AnyTemplate, template } from "../template.ts";
import { slug } from "./_common.ts";

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

/**
 * The worked example of docs/generation.md: a chain (the menu first, Navigation; then a brand filter, Discrete
 * selection, so the oracle switches adapter), parameters read from the catalogue, a check that names the final
 * list and the menu click, and near misses on a sibling brand, an unlisted filter and a typed URL.
 */
const menuBrandFilter = template<{ category: string; slug: string; brand: string; sibling: string }>({
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
    (p) => `Use the shop's menu to open the ${p.category} category, then filter its products to the brand ${p.brand}.`,
    (p) => `From the top menu, go to ${p.category} and tick the ${p.brand} brand filter so only its products show.`,
  ],
  build: (p) => ({
    start: { url: "/shop/" },
    check: {
      all: [
        { page: { path: `/shop/category/${p.slug}`, query: { brand: p.brand } } },
        { record: { action: "click", region: { contains: "menu" }, target: { contains: p.category } } },
        { no_writes: true },
      ],
    },
    solution: [
      { click: { selector: `.topbar .menu a[href='/shop/category/${p.slug}']` } },
      { click: { selector: `#brand-${slug(p.brand)}` } },
      { click: { selector: "#apply-filters" } },
    ],
  }),
  nearMisses: (p) => [
    {
      name: "sibling_brand",
      category: "wrong_item",
      steps: [
        { click: { selector: `.topbar .menu a[href='/shop/category/${p.slug}']` } },
        { click: { selector: `#brand-${slug(p.sibling)}` } },
        { click: { selector: "#apply-filters" } },
      ],
      reason: "final_page",
      witness: { page: { path: `/shop/category/${p.slug}`, query: { brand: p.sibling } } },
    },
    {
      name: "also_in_stock",
      category: "unlisted_field",
      steps: [
        { click: { selector: `.topbar .menu a[href='/shop/category/${p.slug}']` } },
        { click: { selector: `#brand-${slug(p.brand)}` } },
        { click: { selector: "#in-stock" } },
        { click: { selector: "#apply-filters" } },
      ],
      reason: "final_page",
      witness: { page: { path: `/shop/category/${p.slug}`, query: { brand: p.brand, in_stock: "1" } } },
    },
    {
      name: "category_by_url",
      category: "wrong_method",
      steps: [
        { navigate: { url: `/shop/category/${p.slug}` } },
        { click: { selector: `#brand-${slug(p.brand)}` } },
        { click: { selector: "#apply-filters" } },
      ],
      reason: "method_missing",
      witness: {
        all: [{ event: { action: "navigate" } }, {
          record: { action: "click", region: { contains: "menu" } },
          times: 0,
        }],
      },
    },
  ],
});

/** The shop's templates. */
export const SHOP_TEMPLATES: readonly AnyTemplate[] = [menuBrandFilter];
