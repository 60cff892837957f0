/** The shop's schema and seed: 5 categories, 40 products, 34 reviews, 5 past orders with 9 lines, an empty cart,
 * no delivery ratings yet. */
import type { AppSeed } from "../../db.ts";
import { CATEGORIES, seedProducts } from "./_seed_catalog.ts";
import { seedOrders, seedReviews } from "./_seed_orders.ts";

const SCHEMA = `
CREATE TABLE categories (id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE, name TEXT NOT NULL, blurb TEXT NOT NULL);
CREATE TABLE products (
  id INTEGER PRIMARY KEY, category_id INTEGER NOT NULL REFERENCES categories(id), sku TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE, brand TEXT NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL,
  sizes TEXT NOT NULL DEFAULT '', colours TEXT NOT NULL DEFAULT '', description TEXT NOT NULL, specs TEXT NOT NULL
);
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products(id), author TEXT NOT NULL,
  rating INTEGER NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE cart_items (
  id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products(id), size TEXT NOT NULL DEFAULT '',
  colour TEXT NOT NULL DEFAULT '', qty INTEGER NOT NULL, added_at TEXT NOT NULL
);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY, number TEXT NOT NULL UNIQUE, placed_at TEXT NOT NULL, status TEXT NOT NULL,
  customer_name TEXT NOT NULL, email TEXT NOT NULL, street TEXT NOT NULL, city TEXT NOT NULL, postcode TEXT NOT NULL,
  country TEXT NOT NULL, shipping_method TEXT NOT NULL, shipping_cost REAL NOT NULL, delivery_date TEXT NOT NULL,
  promo_code TEXT NOT NULL DEFAULT '', subtotal REAL NOT NULL, discount REAL NOT NULL, total REAL NOT NULL,
  card_last4 TEXT NOT NULL
);
CREATE TABLE order_items (
  id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), product_id INTEGER NOT NULL,
  name TEXT NOT NULL, size TEXT NOT NULL DEFAULT '', colour TEXT NOT NULL DEFAULT '', unit_price REAL NOT NULL,
  qty INTEGER NOT NULL, line_total REAL NOT NULL
);
CREATE TABLE delivery_ratings (
  id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL UNIQUE REFERENCES orders(id), stars INTEGER NOT NULL,
  rated_at TEXT NOT NULL
);
`;

export function seedShop(): AppSeed {
  const { orders, items } = seedOrders();
  return {
    schema: SCHEMA,
    rows: {
      categories: CATEGORIES,
      products: seedProducts(),
      reviews: seedReviews(),
      cart_items: [],
      orders,
      order_items: items,
      delivery_ratings: [],
    },
  };
}
