/**
 * Shop: an online store with a searchable, filterable catalogue, product pages with tabs and reviews, a
 * per-session cart, a validated checkout, and the default user's orders with CSV invoices.
 */
import { Hono } from "hono";
import type { SandboxEnv, SiteApp } from "../../types.ts";
import { catalogRoutes } from "./_pages_catalog.ts";
import { cartRoutes } from "./_pages_cart.ts";
import { checkoutRoutes } from "./_pages_checkout.ts";
import { orderRoutes } from "./_pages_orders.ts";
import { productRoutes } from "./_pages_product.ts";
import { ratingRoutes } from "./_delivery_rating.ts";
import { seedShop } from "./_seed.ts";

function shopRoutes(): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>({ strict: false });
  catalogRoutes(routes);
  productRoutes(routes);
  cartRoutes(routes);
  checkoutRoutes(routes);
  orderRoutes(routes);
  ratingRoutes(routes);
  return routes;
}

export const shopApp: SiteApp = {
  id: "shop",
  title: "Shop",
  description: "An online store: browse and search products, read and write reviews, check out, see your orders.",
  seed: seedShop,
  grading: {
    // Checkout lowers stock; a placed order's cart lines are deleted by it and claimed by the task.
    bookkeeping: { products: ["stock"], delivery_ratings: ["rated_at"] },
    generated: {
      reviews: ["id", "author", "created_at"],
      cart_items: ["id", "added_at"],
      orders: ["id", "number", "placed_at", "status", "shipping_cost", "subtotal", "discount"],
      order_items: ["id", "order_id", "name", "unit_price", "line_total"],
      delivery_ratings: ["id", "rated_at"],
    },
    // The price slider submits the catalogue's price ceiling (450 in the seed) when nobody moved it.
    queryDefaults: { page: "1", tab: "details", sort: "featured", max_price: "450" },
    ignoredQuery: ["msg"],
    caselessQuery: ["q"],
    irreversible: [
      { name: "place order", table: "orders", op: "insert" },
      { name: "post review", table: "reviews", op: "insert" },
      { name: "rate delivery", table: "delivery_ratings", op: "insert" },
    ],
  },
  routes: shopRoutes(),
};
