/** The sandbox apps this suite bundles. */
import type { SiteApp } from "../types.ts";
import { bookingsApp } from "./bookings/mod.ts";
import { mailApp } from "./mail/mod.ts";
import { shopApp } from "./shop/mod.ts";
import { trackerApp } from "./tracker/mod.ts";

/** The bundled sandbox apps (shop, mail, tracker, bookings), in the portal's order. */
export const APPS: SiteApp[] = [shopApp, mailApp, trackerApp, bookingsApp];
