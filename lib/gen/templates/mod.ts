/** Every template the generator knows, by app. */
import type { AnyTemplate } from "../template.ts";
import { BOOKINGS_TEMPLATES } from "./bookings.ts";
import { MAIL_TEMPLATES } from "./mail.ts";
import { SHOP_TEMPLATES } from "./shop.ts";
import { TRACKER_TEMPLATES } from "./tracker.ts";

/** The registry: every template, each app's in its own module. */
export const TEMPLATES: readonly AnyTemplate[] = [
  ...SHOP_TEMPLATES,
  ...MAIL_TEMPLATES,
  ...TRACKER_TEMPLATES,
  ...BOOKINGS_TEMPLATES,
];
