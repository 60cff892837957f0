/**
 * Pictures of the shop, drawn here as SVG from the data (nothing downloaded): a product image per product (the
 * category picks the object's shape, the SKU its colours, the id its pattern, so no two products look alike) and a
 * product's monthly sales chart, whose values are only in the bars (no numbers in the picture or the page).
 */
import { html, raw } from "hono/html";
import type { Product } from "./_data.ts";

/** A deterministic 32-bit hash of a string (FNV-1a). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  // Final avalanche (murmur3's), so that SKUs differing in their last digit get unrelated colours.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** The object's outline per category slug, drawn in a 200×150 box. */
const SHAPES: Record<string, (fill: string) => string> = {
  audio: (f) =>
    `<path d="M60 95a40 40 0 0 1 80 0" fill="none" stroke="${f}" stroke-width="10"/>` +
    `<rect x="48" y="88" width="22" height="34" rx="8" fill="${f}"/><rect x="130" y="88" width="22" height="34" rx="8" fill="${f}"/>`,
  computing: (f) =>
    `<rect x="45" y="35" width="110" height="70" rx="6" fill="${f}"/><rect x="53" y="43" width="94" height="54" fill="#fff" opacity=".35"/>` +
    `<rect x="88" y="105" width="24" height="14" fill="${f}"/><rect x="70" y="119" width="60" height="6" rx="3" fill="${f}"/>`,
  "home-kitchen": (f) =>
    `<path d="M62 50h70v52a26 26 0 0 1-26 26h-18a26 26 0 0 1-26-26z" fill="${f}"/>` +
    `<path d="M132 62h10a14 14 0 0 1 0 28h-10" fill="none" stroke="${f}" stroke-width="8"/>`,
  outdoor: (f) => `<path d="M100 30l58 92H42z" fill="${f}"/><path d="M100 70l18 52H82z" fill="#fff" opacity=".4"/>`,
  apparel: (f) =>
    `<path d="M72 34l-32 20 12 24 14-8v56h68V70l14 8 12-24-32-20c-4 10-14 16-28 16s-24-6-28-16z" fill="${f}"/>`,
};

/** The product's picture as an SVG document. */
export function productSvg(p: Pick<Product, "id" | "sku" | "category_slug">): string {
  const h = hash(p.sku);
  const hue = h % 360;
  const bg = `hsl(${(hue + 180) % 360} 45% 92%)`;
  const fill = `hsl(${hue} 62% ${38 + (h >>> 9) % 18}%)`;
  const dots = Array.from({ length: 2 + p.id % 5 }, (_, i) => {
    const x = i % 2 ? 164 + ((h >>> (i * 3)) % 24) : 12 + ((h >>> (i * 3)) % 24);
    const y = 30 + ((h >>> (i * 5 + 2)) % 90);
    return `<circle cx="${x}" cy="${y}" r="${3 + (i + p.id) % 4}" fill="${fill}" opacity=".35"/>`;
  }).join("");
  const shape = (SHAPES[p.category_slug] ?? SHAPES.computing)(fill);
  const stripe = `<rect x="${p.id % 7 * 4}" y="${118 + p.id % 8}" width="${
    200 - p.id % 7 * 8
  }" height="5" fill="${fill}"
    opacity=".3"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 150" width="200" height="150">` +
    `<rect width="200" height="150" fill="${bg}"/>${dots}${stripe}${shape}</svg>`;
}

/** The product's picture as an `<img>` with alt text (a data: URL: no request, so no evidence noise). */
export function productImage(p: Product, size: "card" | "page") {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(productSvg(p))}`;
  const [w, hgt] = size === "card" ? [160, 120] : [240, 180];
  return html`
    <img class="product-image" src="${src}" width="${w}" height="${hgt}"
      alt="Photo of the ${p.name} (${p.category_name}, by ${p.brand})">
  `;
}

/** The six months the sales chart covers (the sandbox's frozen clock is in March 2026). */
export const SALES_MONTHS = ["October", "November", "December", "January", "February", "March"] as const;

/** Units sold per month of SALES_MONTHS: deterministic from the product, one clear best month. */
export function monthlySales(p: Pick<Product, "id">): number[] {
  const base = Array.from({ length: 6 }, (_, m) => 20 + ((p.id * 37 + m * 53 + (p.id * m * 11)) % 61));
  const best = (p.id * 7) % 6;
  const top = Math.max(...base.filter((_, m) => m !== best));
  base[best] = top + 18 + (p.id % 9);
  return base;
}

/** The sales chart: bars with month names on the axis and unlabelled grid lines; values only in the bars. */
export function salesChart(p: Product) {
  const values = monthlySales(p);
  const max = Math.ceil(Math.max(...values) / 20) * 20;
  const [w, hgt, left, bottom, top] = [560, 220, 20, 28, 10];
  const plot = hgt - bottom - top;
  const slot = (w - left) / values.length;
  const grid = Array.from({ length: max / 20 + 1 }, (_, i) => {
    const y = top + plot - (i * 20 / max) * plot;
    return `<line x1="${left}" x2="${w}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`;
  }).join("");
  const bars = values.map((v, i) => {
    const bh = (v / max) * plot;
    const x = left + i * slot + slot * 0.2;
    return `<rect x="${x}" y="${top + plot - bh}" width="${slot * 0.6}" height="${bh}" rx="3" fill="#0f766e"/>` +
      `<text x="${x + slot * 0.3}" y="${hgt - 8}" text-anchor="middle" font-size="12" fill="#475569">${
        SALES_MONTHS[i]
      }</text>`;
  }).join("");
  return html`<figure class="card sales-chart" id="sales-chart" style="margin:16px 0">
    <figcaption><b>Units sold per month</b> <span class="muted">(last six months)</span></figcaption>
    ${
    raw(`<svg viewBox="0 0 ${w} ${hgt}" width="${w}" height="${hgt}" role="img"
      aria-label="Bar chart of units sold per month, October to March">${grid}${bars}</svg>`)
  }
  </figure>`;
}
