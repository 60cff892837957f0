/** Templates on the mail app (lib/sites/apps/mail). */
import type { AnyTemplate } from "../template.ts";

/** The mail app's templates. */
export const MAIL_TEMPLATES: readonly AnyTemplate[] = [];
