/** Templates on the bookings app (lib/sites/apps/bookings). */
import type { AnyTemplate } from "../template.ts";

/** The bookings app's templates. */
export const BOOKINGS_TEMPLATES: readonly AnyTemplate[] = [];
