/** The bundled sandbox apps, in the portal's order. */
import type { SiteApp } from "../types.ts";

export const APPS: SiteApp[] = [];
