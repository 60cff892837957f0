/// <reference lib="dom" />
/**
 * Rating a delivered order's delivery: a `<delivery-rating>` custom element whose five star buttons live in an OPEN
 * shadow root (document.querySelector does not reach them); a star's click posts the rating to the app, which keeps
 * one rating per order (the first click inserts it, later clicks change it).
 */
import type { Hono } from "hono";
import { html, raw } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { BASE, type ShopContext } from "./_views.ts";

/** The element's definition; runs in the page (closes over nothing). */
export function defineDeliveryRating(): void {
  if (customElements.get("delivery-rating")) return;
  customElements.define(
    "delivery-rating",
    class extends HTMLElement {
      connectedCallback() {
        if (this.shadowRoot) return;
        const root = this.attachShadow({ mode: "open" });
        const action = this.getAttribute("action") ?? "";
        let value = Number(this.getAttribute("value") ?? "0");
        root.innerHTML = `<style>
          :host{display:inline-block;font:14px system-ui,sans-serif}
          .box{display:flex;align-items:center;gap:12px;padding:10px 14px;border-radius:999px;background:#1c1917;color:#fafaf9}
          .stars{display:flex;gap:2px}
          button{all:unset;cursor:pointer;font-size:26px;line-height:1;color:#facc15;padding:0 3px}
          button:hover{transform:scale(1.15)}button.off{color:#57534e}
          .status{font-size:13px;color:#d6d3d1;min-width:130px}
        </style><div class="box"><span>Rate the delivery</span><div class="stars"></div>
        <span class="status" role="status"></span></div>`;
        const stars = root.querySelector(".stars")!;
        const status = root.querySelector(".status")!;
        // The buttons are made once and restyled on each change, so a reference to a star stays valid.
        const buttons = [1, 2, 3, 4, 5].map((n) => {
          const b = document.createElement("button");
          b.type = "button";
          b.textContent = "★";
          b.title = `${n} star${n > 1 ? "s" : ""}`;
          b.dataset.stars = String(n);
          b.setAttribute("aria-label", b.title);
          b.addEventListener("click", async () => {
            const r = await fetch(action, { method: "POST", body: new URLSearchParams({ stars: String(n) }) });
            if (!r.ok) return void (status.textContent = "Could not save the rating");
            value = n;
            draw();
          });
          return b;
        });
        stars.replaceChildren(...buttons);
        const draw = () => {
          buttons.forEach((b, i) => {
            b.className = i < value ? "on" : "off";
            b.setAttribute("aria-pressed", String(i + 1 === value));
          });
          status.textContent = value ? `Your rating: ${value} of 5` : "Not rated yet";
        };
        draw();
      }
    },
  );
}

/** The widget for one order (delivered orders only), with the element's definition. */
export function deliveryRating(order: { number: string; status: string }, stars: number) {
  if (order.status !== "Delivered") return "";
  return html`
    <div class="row" id="delivery-rating-row" style="margin-bottom:14px">
      <delivery-rating id="delivery-rating" action="${BASE}/orders/${order.number}/rating"
        value="${stars}"></delivery-rating>
    </div>
    <script>(${raw(defineDeliveryRating.toString())})();</script>
  `;
}

/** The order's delivery rating (0: not rated). */
export function ratingOf(c: ShopContext, orderId: number): number {
  return c.get("db").get<{ stars: number }>("SELECT stars FROM delivery_ratings WHERE order_id = ?", orderId)?.stars ??
    0;
}

/** POST stars=1..5 for a delivered order: 204, 422 for another value, 404 for an order that cannot be rated. */
async function rate(c: ShopContext) {
  const db = c.get("db");
  const order = db.get<{ id: number; status: string }>(
    "SELECT id, status FROM orders WHERE number = ?",
    c.req.param("number"),
  );
  if (!order || order.status !== "Delivered") return c.text(`Order ${c.req.param("number")} cannot be rated`, 404);
  const stars = String((await c.req.parseBody()).stars ?? "");
  if (!/^[1-5]$/.test(stars)) return c.text("Give 1 to 5 stars", 422);
  const now = c.get("clock").now().toISOString();
  const have = db.get<{ id: number }>("SELECT id FROM delivery_ratings WHERE order_id = ?", order.id);
  if (have) db.update("delivery_ratings", have.id, { stars: Number(stars), rated_at: now });
  else db.insert("delivery_ratings", { order_id: order.id, stars: Number(stars), rated_at: now });
  return c.body(null, 204);
}

export function ratingRoutes(app: Hono<SandboxEnv>): void {
  app.post("/orders/:number/rating", rate);
}
