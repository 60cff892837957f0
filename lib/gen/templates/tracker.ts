/** Templates on the tracker app (lib/sites/apps/tracker). */
import type { AnyTemplate } from "../template.ts";

/** The tracker app's templates. */
export const TRACKER_TEMPLATES: readonly AnyTemplate[] = [];
