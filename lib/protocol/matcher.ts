/** Matchers as written in a check (docs/grading.md, "Matchers"): the type and its schema; lib/grading tests them. */
import { z } from "zod";
import { firstDate } from "./dates.ts";
import { keyedUnion, type ZodSchema } from "./schema_text.ts";
import { quote } from "./text.ts";

/** A matcher as written in a check; a bare string means `{norm}`, a bare number `{number}`. */
export type Matcher =
  | string
  | number
  | { exact: string }
  | { norm: string }
  | { text: string; verbatim?: boolean }
  | { contains: string }
  | { regex: string; flags?: string }
  | { number: number; tol?: number }
  | { date: string }
  | { one_of: Matcher[] }
  | { present: boolean }
  | { not: Matcher };

const text = z.union([z.string(), z.number().transform(String)]);
const lazyMatcher = z.lazy(() => matcherSchema);

const regexVariant = z.strictObject({ regex: z.string(), flags: z.string().optional() }).superRefine((m, ctx) => {
  if (m.flags !== undefined && !/^[imsu]*$/.test(m.flags)) {
    ctx.addIssue({ code: "custom", path: ["flags"], message: `only i, m, s, u are allowed, got ${quote(m.flags)}` });
    return;
  }
  try {
    new RegExp(m.regex, m.flags);
  } catch (e) {
    ctx.addIssue({ code: "custom", path: ["regex"], message: `is not a valid regular expression: ${e}` });
  }
});

const dateVariant = z.strictObject({ date: z.string() }).superRefine((m, ctx) => {
  if (!firstDate(m.date)) ctx.addIssue({ code: "custom", path: ["date"], message: `is not a date: ${quote(m.date)}` });
});

/** The zod schema of a matcher (field paths in errors: `after.shipping.regex: is not a valid ...`). */
export const matcherSchema: ZodSchema<Matcher> = keyedUnion<Matcher>("a matcher", {
  exact: z.strictObject({ exact: text }),
  norm: z.strictObject({ norm: text }),
  text: z.strictObject({ text: text, verbatim: z.boolean().optional() }),
  contains: z.strictObject({ contains: text }),
  regex: regexVariant,
  number: z.strictObject({ number: z.number(), tol: z.number().min(0).optional() }),
  date: dateVariant,
  one_of: z.strictObject({ one_of: z.array(lazyMatcher).min(1) }),
  present: z.strictObject({ present: z.boolean() }),
  not: z.strictObject({ not: lazyMatcher }),
}, (value) => {
  if (typeof value === "string") return { value };
  if (typeof value === "number" && Number.isFinite(value)) return { value };
  return undefined;
});
