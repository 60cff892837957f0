/** Read queries of the shop: products with their ratings, the filtered catalogue, brand facets and the cart. */
import type { AppDb } from "../../db.ts";

export interface Category {
  id: number;
  slug: string;
  name: string;
  blurb: string;
}

export interface Product {
  id: number;
  category_id: number;
  sku: string;
  name: string;
  brand: string;
  price: number;
  stock: number;
  sizes: string;
  colours: string;
  description: string;
  specs: string;
  category_name: string;
  category_slug: string;
  /** Mean review rating, or null without reviews. */
  rating: number | null;
  review_count: number;
}

const PRODUCT_SELECT = `
SELECT p.*, c.name AS category_name, c.slug AS category_slug, r.rating AS rating, COALESCE(r.n, 0) AS review_count
FROM products p JOIN categories c ON c.id = p.category_id
LEFT JOIN (SELECT product_id, AVG(rating) AS rating, COUNT(*) AS n FROM reviews GROUP BY product_id) r
  ON r.product_id = p.id`;

/** Products per page of a category or search listing. */
export const PAGE_SIZE = 12;

/** The listing's sort orders: the `sort` query value, its label and its SQL order. */
export const SORTS = {
  featured: { label: "Featured", sql: "p.id" },
  price_asc: { label: "Price: low to high", sql: "p.price ASC, p.name" },
  price_desc: { label: "Price: high to low", sql: "p.price DESC, p.name" },
  name: { label: "Name: A to Z", sql: "p.name COLLATE NOCASE ASC" },
  rating: { label: "Customer rating", sql: "r.rating DESC NULLS LAST, review_count DESC, p.name" },
} as const;
export type SortKey = keyof typeof SORTS;

export interface CatalogQuery {
  q: string;
  categoryId: number | null;
  inStock: boolean;
  brands: string[];
  /** Highest price shown, or null for no limit. */
  maxPrice: number | null;
  sort: SortKey;
  page: number;
}

/** The catalogue query of a URL's search parameters (unknown values fall back to defaults). */
export function readCatalogQuery(params: URLSearchParams, categoryId: number | null): CatalogQuery {
  const sort = params.get("sort") ?? "";
  const max = Number(params.get("max_price") ?? "");
  const page = Number(params.get("page") ?? "1");
  return {
    q: (params.get("q") ?? "").trim(),
    categoryId,
    inStock: params.get("in_stock") === "1",
    brands: params.getAll("brand").filter(Boolean),
    maxPrice: params.get("max_price") && Number.isFinite(max) && max >= 0 ? max : null,
    sort: sort in SORTS ? sort as SortKey : "featured",
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** One page of the catalogue for `query`, with the total match count. */
export function listCatalog(db: AppDb, query: CatalogQuery) {
  const where: string[] = [];
  const args: unknown[] = [];
  if (query.categoryId !== null) {
    where.push("p.category_id = ?");
    args.push(query.categoryId);
  }
  if (query.q) {
    where.push("(p.name LIKE ? OR p.brand LIKE ?)");
    args.push(`%${query.q}%`, `%${query.q}%`);
  }
  if (query.inStock) where.push("p.stock > 0");
  if (query.brands.length) {
    where.push(`p.brand IN (${query.brands.map(() => "?").join(",")})`);
    args.push(...query.brands);
  }
  if (query.maxPrice !== null) {
    where.push("p.price <= ?");
    args.push(query.maxPrice);
  }
  const sql = `${PRODUCT_SELECT}${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  const all = db.all<Product>(`${sql} ORDER BY ${SORTS[query.sort].sql}`, ...args);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const page = Math.min(query.page, pages);
  return { items: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), total: all.length, page, pages };
}

/** The brands of a category (or of the whole shop), with product counts. */
export function brandFacets(db: AppDb, categoryId: number | null): { brand: string; n: number }[] {
  const where = categoryId === null ? "" : "WHERE category_id = ?";
  const args = categoryId === null ? [] : [categoryId];
  return db.all(`SELECT brand, COUNT(*) AS n FROM products ${where} GROUP BY brand ORDER BY brand`, ...args);
}

/** The highest product price, rounded up to the next 10 (the price slider's maximum). */
export function priceCeiling(db: AppDb): number {
  const row = db.get<{ max: number }>("SELECT MAX(price) AS max FROM products");
  return Math.ceil((row?.max ?? 0) / 10) * 10;
}

export function getProduct(db: AppDb, id: number): Product | undefined {
  return db.get<Product>(`${PRODUCT_SELECT} WHERE p.id = ?`, id);
}

export function categories(db: AppDb): Category[] {
  return db.all<Category>("SELECT * FROM categories ORDER BY id");
}

export interface CartLine {
  id: number;
  product_id: number;
  name: string;
  size: string;
  colour: string;
  qty: number;
  unit_price: number;
  stock: number;
}

/** The session's cart, oldest line first, priced at the products' current prices. */
export function cartLines(db: AppDb): CartLine[] {
  return db.all<CartLine>(
    `SELECT ci.id, ci.product_id, p.name, ci.size, ci.colour, ci.qty, p.price AS unit_price, p.stock
     FROM cart_items ci JOIN products p ON p.id = ci.product_id ORDER BY ci.id`,
  );
}

/** How many items (quantities summed) the cart holds. */
export function cartCount(db: AppDb): number {
  return db.get<{ n: number }>("SELECT COALESCE(SUM(qty), 0) AS n FROM cart_items")?.n ?? 0;
}

/** Split a comma list ("S,M,L") into its values. */
export function options(list: string): string[] {
  return list ? list.split(",") : [];
}
