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
import { seedShop } from "./_seed.ts";

function shopRoutes(): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>({ strict: false });
  catalogRoutes(routes);
  productRoutes(routes);
  cartRoutes(routes);
  checkoutRoutes(routes);
  orderRoutes(routes);
  return routes;
}

export const shopApp: SiteApp = {
  id: "shop",
  title: "Shop",
  description: "An online store: browse and search products, read and write reviews, check out, see your orders.",
  seed: seedShop,
  routes: shopRoutes(),
};
