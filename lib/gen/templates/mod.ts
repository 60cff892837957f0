/** Every template the generator knows, by app. */
import type { AnyTemplate } from "../template.ts";
import { BOOKINGS_TEMPLATES } from "./bookings.ts";
import { BOOKINGS_CHAIN_TEMPLATES } from "./bookings_chains.ts";
import { MAIL_TEMPLATES } from "./mail.ts";
import { MAIL_CHAIN_TEMPLATES } from "./mail_chains.ts";
import { SHOP_TEMPLATES } from "./shop.ts";
import { SHOP_CHAIN_TEMPLATES } from "./shop_chains.ts";
import { SHOP_ORDER_CHAIN_TEMPLATES } from "./shop_order_chains.ts";
import { TRACKER_TEMPLATES } from "./tracker.ts";
import { TRACKER_CHAIN_TEMPLATES } from "./tracker_chains.ts";

/** The registry: every template, each app's in its own module. */
export const TEMPLATES: readonly AnyTemplate[] = [
  ...SHOP_TEMPLATES,
  ...MAIL_TEMPLATES,
  ...TRACKER_TEMPLATES,
  ...BOOKINGS_TEMPLATES,
  ...SHOP_CHAIN_TEMPLATES,
  ...SHOP_ORDER_CHAIN_TEMPLATES,
  ...MAIL_CHAIN_TEMPLATES,
  ...TRACKER_CHAIN_TEMPLATES,
  ...BOOKINGS_CHAIN_TEMPLATES,
];
