/** The bundled sandbox apps, in the portal's order. */
import type { SiteApp } from "../types.ts";
import { bookingsApp } from "./bookings/mod.ts";
import { mailApp } from "./mail/mod.ts";
import { shopApp } from "./shop/mod.ts";
import { trackerApp } from "./tracker/mod.ts";

export const APPS: SiteApp[] = [shopApp, mailApp, trackerApp, bookingsApp];
