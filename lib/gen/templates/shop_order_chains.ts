/**
 * Shop chains that leave the io adapter (issue 31, item 5): an order's invoice downloaded, then one of its items
 * opened (io → rest, and rest → io → rest from the order list) or a category from the top menu. Each reads like a
 * table: the layer does the rest.
 */
import type { AppDb } from "../../sites/db.ts";
import type { ActionJson, AnyTemplate, NearMiss } from "../template.ts";
import { downloadFile, endsOnSibling, goal, layered, navigateMenu, openDetail, procedure } from "../macros/mod.ts";
import { LIST, onProduct, otherProduct } from "./shop_chains.ts";

/** Each item of each order, with another item (or product) to open by mistake. */
function orderItems(db: AppDb) {
  const rows = db.all<{ number: string; product_id: number; name: string }>(
    `SELECT o.number, i.product_id, i.name FROM order_items i JOIN orders o ON o.id = i.order_id
     ORDER BY o.placed_at DESC, o.id, i.id`,
  );
  return rows.map((r, n) => ({ ...r, other: rows.find((x, m) => m > n && x.number === r.number) ?? null }))
    .filter((r) => rows.filter((x) => x.number === r.number && x.product_id === r.product_id).length === 1)
    .map((r) => ({ number: r.number, id: r.product_id, product: r.name, other: r.other?.product_id ?? 0 }));
}

type ItemP = { number: string; id: number; product: string; other: number };
const ORDERS = "/shop/orders";
const invoice = (number: string) =>
  downloadFile({
    control: "#download-invoice",
    path: `${ORDERS}/${number}/invoice.csv`,
    kind: "^/shop/orders/[^/]+/invoice\\.csv$",
  });
/** An item's link on the order page, where the invoice's download link was clicked before it. */
const itemOpen = (p: ItemP, id = p.id) =>
  openDetail(
    `${ORDERS}/${p.number}`,
    { click: { selector: `#order-items a[href='${LIST}/${id}']` } },
    `${LIST}/${id}`,
    [],
    true,
  );
const itemMisses = (p: ItemP, steps: ActionJson[]): NearMiss[] => [
  ...(p.other
    ? [{
      name: "other_item_opened",
      category: "wrong_item" as const,
      steps: [...steps.slice(0, -1), ...itemOpen(p, p.other).steps],
      reason: "final_page" as const,
      witness: otherProduct(p.other),
    }]
    : []),
  {
    name: "invoice_only",
    category: "wrong_item",
    steps: steps.slice(0, -1),
    reason: "final_page",
    witness: { page: { path: `${ORDERS}/${p.number}` } },
  },
  {
    name: "item_without_invoice",
    category: "wrong_item",
    steps: steps.filter((s) => JSON.stringify(s) !== JSON.stringify(invoice(p.number).steps[0])),
    reason: "request_missing",
    witness: { not: { request: { method: "GET", path: { exact: `${ORDERS}/${p.number}/invoice.csv` } } } },
  },
];

const invoiceThenItem = layered<ItemP>({
  id: "shop.open_detail.invoice_then_item",
  site: "shop",
  macro: "open_detail",
  prefix: ["download_file"],
  summary: "on an order's page, download its CSV invoice, then open one of its items",
  params: orderItems,
  entity: (p) => `order:${p.number}`,
  phrasings: [
    procedure((p) =>
      `On order ${p.number}, click "Download invoice (CSV)", then open the ${p.product} from its items.`
    ),
    procedure((p) =>
      `Download this order's CSV invoice with its button, then click the ${p.product} in the item list.`
    ),
    goal((p) => `Save the CSV invoice of order ${p.number}, then go to the page of the ${p.product} it contains.`),
    goal((p) => `Get order ${p.number}'s invoice as a CSV file and then look at the ${p.product} you bought in it.`),
  ],
  start: (p) => ({ url: `${ORDERS}/${p.number}` }),
  chain: (p) => [invoice(p.number), itemOpen(p)],
  outcome: (p) => onProduct(p.id),
  nearMisses: (p, _db, steps) => itemMisses(p, steps),
});

const ordersInvoiceItem = layered<ItemP>({
  id: "shop.open_detail.orders_invoice_item",
  site: "shop",
  macro: "open_detail",
  prefix: ["open_detail", "download_file"],
  summary: "open an order from My orders, download its CSV invoice, then open one of its items",
  params: orderItems,
  entity: (p) => `order:${p.number}`,
  phrasings: [
    procedure((p) =>
      `In My orders, open order ${p.number}, download its invoice with "Download invoice (CSV)" and open the ${p.product}.`
    ),
    procedure((p) =>
      `Click order ${p.number} in your order list, download its CSV invoice, then click the ${p.product} among its items.`
    ),
    goal((p) => `From your orders, save order ${p.number}'s CSV invoice, then go to the ${p.product} it included.`),
    goal((p) => `Download the invoice (CSV) of order ${p.number} and end on the page of the ${p.product} from it.`),
  ],
  start: () => ({ url: ORDERS }),
  chain: (p) => [
    openDetail(ORDERS, { click: { selector: `#order-${p.number} a` } }, `${ORDERS}/${p.number}`),
    invoice(p.number),
    itemOpen(p),
  ],
  outcome: (p) => onProduct(p.id),
  nearMisses: (p, _db, steps) => itemMisses(p, steps),
});

type MenuP = { number: string; category: string; slug: string; other: string; other_slug: string };

const invoiceThenMenu = layered<MenuP>({
  id: "shop.navigate_menu.invoice_then_menu",
  site: "shop",
  macro: "navigate_menu",
  prefix: ["download_file"],
  summary: "on an order's page, download its CSV invoice, then open a category from the top menu",
  params: (db) => {
    const cats = db.all<{ name: string; slug: string }>("SELECT name, slug FROM categories ORDER BY id");
    return db.all<{ number: string }>("SELECT number FROM orders ORDER BY placed_at DESC, id").flatMap((o) =>
      cats.map((c, i) => {
        const other = cats[(i + 1) % cats.length];
        return { number: o.number, category: c.name, slug: c.slug, other: other.name, other_slug: other.slug };
      })
    );
  },
  entity: (p) => `order:${p.number}`,
  phrasings: [
    procedure((p) =>
      `On order ${p.number}, click "Download invoice (CSV)", then open ${p.category} from the top menu.`
    ),
    procedure((p) =>
      `Download this order's CSV invoice with its button, then use the shop's menu to go to ${p.category}.`
    ),
    goal((p) => `Save the CSV invoice of order ${p.number}, then browse the shop's ${p.category} category.`),
    goal((p) => `Get order ${p.number}'s invoice as a CSV file, and end on the ${p.category} products.`),
  ],
  start: (p) => ({ url: `${ORDERS}/${p.number}` }),
  chain: (p) => [invoice(p.number), navigateMenu("shop", p.category, `/shop/category/${p.slug}`)],
  outcome: (p) => [{ page: { path: `/shop/category/${p.slug}`, query: {} } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    endsOnSibling("other_category", steps, {
      click: { selector: `.topbar .menu a[href='/shop/category/${p.other_slug}']` },
    }, `/shop/category/${p.other_slug}`),
    {
      name: "menu_without_invoice",
      category: "wrong_item",
      steps: steps.slice(-1),
      reason: "request_missing",
      witness: { not: { request: { method: "GET", path: { exact: `${ORDERS}/${p.number}/invoice.csv` } } } },
    },
  ],
});

export const SHOP_ORDER_CHAIN_TEMPLATES: readonly AnyTemplate[] = [invoiceThenItem, ordersInvoiceItem, invoiceThenMenu];
