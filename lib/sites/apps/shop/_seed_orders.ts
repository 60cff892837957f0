/** The shop's seeded reviews and the default user's past orders (February-March 2026), with totals computed. */
import type { Row } from "../../db.ts";
import { DEFAULT_USER } from "../../session.ts";
import { orderTotals, type ShippingMethod } from "./_rules.ts";

// id | product id | author | rating | date | text
const REVIEW_TABLE = `
1|1|Priya Natarajan|5|2026-01-08|Detailed, honest sound and I can wear them all afternoon. The coiled cable is a nice touch.
2|1|Tom Becker|4|2026-01-22|Great for mixing. They clamp a bit tight for the first week.
3|1|Hannah Cole|5|2026-02-19|Replaced my old pair after ten years and these are better in every way.
4|2|Marco Rossi|4|2026-01-12|Noise cancelling is strong on the train. Case is small enough for a coin pocket.
5|2|Lena Fischer|3|2026-02-02|Good sound but the left bud disconnects now and then.
6|2|Sam Okafor|4|2026-02-25|Comfortable and the transparency mode sounds natural.
7|2|Julia Park|5|2026-03-03|Best earbuds I have owned, battery easily lasts my commute all week.
8|3|Daniel Weiss|5|2026-01-30|Warm and full sound, far bigger than their size suggests.
9|3|Aisha Rahman|5|2026-03-01|Paired them with the T1 turntable and they sound wonderful.
10|5|Chris Novak|3|2026-02-11|Dialogue mode works, but the subwoofer is boomy out of the box.
11|5|Emma Lindqvist|4|2026-03-08|Easy setup over HDMI eARC and a big upgrade on TV speakers.
12|7|Ben Harper|2|2026-02-14|Sound is fine but the ear hooks started cracking after a month.
13|9|Nora Haddad|5|2026-01-05|Lovely tactile switches and the Bluetooth pairing is instant.
14|9|Oliver Grant|4|2026-02-09|Solid build. I wish it came with spare keycaps.
15|9|Mia Schultz|4|2026-03-10|Typing feels great, battery lasts around three weeks for me.
16|10|Lucas Moreau|4|2026-02-20|Quiet clicks, good shape for big hands.
17|11|Grace Liu|5|2026-01-17|Colours are accurate out of the box and one USB-C cable charges my laptop.
18|11|Ethan Brooks|4|2026-02-27|Sharp picture, the stand only tilts and does not swivel.
19|15|Sofia Alvarez|5|2026-03-05|Fast and tiny. Survived a fall off my desk.
20|17|Kenji Watanabe|5|2026-01-26|Pours slowly and precisely; the temperature hold is the killer feature.
21|17|Ruth Adler|4|2026-03-02|Lovely kettle, but the lid gets hot.
22|18|Victor Mendes|3|2026-02-16|Grind is consistent for filter but it is loud and messy for espresso.
23|19|Isla Murray|5|2026-01-11|Perfect sear every time and it arrived well seasoned.
24|19|Paul Dubois|4|2026-03-09|Heavy, as expected, and it cooks evenly.
25|21|Helen Wright|4|2026-02-06|Excellent espresso once dialled in.
26|21|Jonas Berg|2|2026-03-12|The steam wand leaked after two weeks and needed a repair.
27|25|Leah Kim|5|2026-02-22|Pitched it alone in a storm. Stayed dry all night.
28|25|Martin Olsen|4|2026-03-07|Roomy for two, the poles are a little fiddly.
29|28|Zoe Carter|5|2026-01-19|Ice lasted the whole day in the car.
30|28|Adam Fox|4|2026-02-28|Keeps things cold but does not fit my bike cage.
31|33|Rachel Green|5|2026-02-12|Kept me dry on a full day of rain in the hills.
32|35|Ivan Petrov|5|2026-02-04|Grippy on wet rock, and comfortable straight out of the box.
33|35|Chloe Martin|4|2026-03-04|Runs half a size small, otherwise excellent.
34|34|Noah Fischer|3|2026-02-24|Soft and warm, but it shrank a little in the wash.
`;

/** The seeded reviews (34 rows across 17 products). */
export function seedReviews(): Row[] {
  return REVIEW_TABLE.trim().split("\n").map((line) => {
    const [id, product, author, rating, date, body] = line.split("|");
    return { id: Number(id), product_id: Number(product), author, rating: Number(rating), created_at: date, body };
  });
}

interface PastOrder {
  number: string;
  placed: string;
  status: string;
  shipping: ShippingMethod;
  delivery: string;
  promo: string;
  card: string;
  /** [product id, name, size, colour, unit price, quantity] */
  items: [number, string, string, string, number, number][];
}

const PAST_ORDERS: PastOrder[] = [
  {
    number: "SO-10241",
    placed: "2026-02-03T14:12:00Z",
    status: "Delivered",
    shipping: "standard",
    delivery: "2026-02-07",
    promo: "",
    card: "4242",
    items: [[10, "Keystone Glide Mouse", "", "", 39.90, 1], [40, "Trailcraft Hiking Socks 3-Pack", "M", "", 19.99, 2]],
  },
  {
    number: "SO-10242",
    placed: "2026-02-17T09:40:00Z",
    status: "Delivered",
    shipping: "express",
    delivery: "2026-02-18",
    promo: "",
    card: "4242",
    items: [[1, "Sonora Studio Headphones", "", "Black", 149.00, 1]],
  },
  {
    number: "SO-10243",
    placed: "2026-02-26T18:05:00Z",
    status: "Cancelled",
    shipping: "standard",
    delivery: "2026-03-03",
    promo: "",
    card: "5454",
    items: [[18, "Brewell Burr Grinder", "", "", 134.00, 1]],
  },
  {
    number: "SO-10244",
    placed: "2026-03-04T11:30:00Z",
    status: "Shipped",
    shipping: "pickup",
    delivery: "2026-03-16",
    promo: "SPRING10",
    card: "4242",
    items: [[33, "Northpeak Storm Jacket", "L", "Navy", 179.00, 1], [38, "Urbanloom Wool Beanie", "", "", 22.00, 1]],
  },
  {
    number: "SO-10245",
    placed: "2026-03-11T20:15:00Z",
    status: "Processing",
    shipping: "standard",
    delivery: "2026-03-18",
    promo: "",
    card: "5454",
    items: [
      [19, "Hearthly Cast Iron Skillet", "", "", 42.50, 1],
      [24, "Hearthly Bamboo Cutting Board", "", "", 29.50, 1],
      [28, "Trailcraft Insulated Bottle", "", "", 27.95, 2],
    ],
  },
];

/** The default user's five past orders and their 9 lines, with subtotal, discount and total worked out. */
export function seedOrders(): { orders: Row[]; items: Row[] } {
  const orders: Row[] = [];
  const items: Row[] = [];
  PAST_ORDERS.forEach((o, i) => {
    const lines = o.items.map(([product_id, name, size, colour, unit_price, qty]) => ({
      product_id,
      name,
      size,
      colour,
      unit_price,
      qty,
    }));
    const t = orderTotals(lines, o.shipping, o.promo);
    orders.push({
      id: i + 1,
      number: o.number,
      placed_at: o.placed,
      status: o.status,
      customer_name: DEFAULT_USER.name,
      email: DEFAULT_USER.email,
      street: "27 Harbour Street",
      city: "Portland",
      postcode: "97205",
      country: "United States",
      shipping_method: o.shipping,
      shipping_cost: t.shipping,
      delivery_date: o.delivery,
      promo_code: o.promo,
      subtotal: t.subtotal,
      discount: t.discount,
      total: t.total,
      card_last4: o.card,
    });
    for (const line of lines) {
      items.push({ id: items.length + 1, order_id: i + 1, ...line, line_total: t.lineTotal(line) });
    }
  });
  return { orders, items };
}
