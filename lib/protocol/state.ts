/** The app rules a site server declares and the final state an episode left: their types and schemas (docs/grading.md, "The end state"). */
import { z } from "zod";
import type { ZodSchema } from "./schema_text.ts";

/** What the grader knows of an app (declared by the app, served by /_admin/health, saved with the evidence). */
export interface AppRules {
  /** Fields the app writes as a side effect; `"*"`: the whole table (an audit log). */
  bookkeeping?: Record<string, readonly string[] | "*">;
  /** Fields of an inserted row the app fills itself: wildcards unless a check lists them. */
  generated?: Record<string, readonly string[]>;
  /** Query keys equal to their default value count as absent. */
  queryDefaults?: Record<string, string>;
  /** Query keys that only carry a notice: ignored whatever their value. */
  ignoredQuery?: readonly string[];
  /** Query keys the app reads ignoring case. */
  caselessQuery?: readonly string[];
  /**
   * Paths the app reads ignoring case, as regular expressions over the path (`^/tracker/issues/[^/]+`: an issue key
   * in any case is the same issue): a path, visit or request condition matches such a path whatever its case.
   */
  caselessPaths?: readonly string[];
  /** Operations that cannot be taken back (send, post, place an order, book, delete forever). */
  irreversible?: readonly IrreversibleOp[];
  /**
   * Text the app adds to a free-text field itself, per `table.field`: the grader strips exactly these before it
   * compares the field with the asked text (docs/grading.md, "Free text").
   */
  textAdditions?: Record<string, readonly TextAddition[]>;
}

/**
 * An operation of an app that cannot be taken back: a change of `table` by `op` whose row image (the after image;
 * a delete's before image) has the `when` values, reached by this change (an update that moves a draft to "sent").
 */
export interface IrreversibleOp {
  /** What the act is called in a grade ("send", "place order"). */
  name: string;
  /** The table the act writes. */
  table: string;
  /** The operation. */
  op: "insert" | "update" | "delete";
  /** Field values the row has after the act (a delete: before it); an update must change one of them to its value. */
  when?: Record<string, string | number>;
}

/**
 * A text the app itself adds to a free-text field: a `suffix` (a signature block, a quoted reply) or a `prefix`,
 * given as a regular expression the app's own output matches at the field's end or start. `{value}` in it stands
 * for the (escaped) current value of another field, `value`: the signature the user has at the time, so that
 * exactly the app's text is stripped, not whatever follows a `-- ` line.
 */
export interface TextAddition {
  /** What the addition is ("signature", "quoted reply"). */
  name: string;
  /** A regular expression the addition matches at the end of the field. */
  suffix?: string;
  /** A regular expression the addition matches at the start of the field. */
  prefix?: string;
  /** The field `{value}` stands for: its latest value written before the row, else `seed`; empty: no addition. */
  value?: { table: string; key: string | number; field: string; seed: string };
}

/** The zod schema of an app's rules (other fields are kept as they are). */
export const appRulesSchema: ZodSchema<AppRules> = z.looseObject({
  bookkeeping: z.record(z.string(), z.union([z.array(z.string()), z.literal("*")])).optional(),
  generated: z.record(z.string(), z.array(z.string())).optional(),
  queryDefaults: z.record(z.string(), z.string()).optional(),
  ignoredQuery: z.array(z.string()).optional(),
  caselessQuery: z.array(z.string()).optional(),
  caselessPaths: z.array(z.string()).optional(),
  irreversible: z.array(z.object({
    name: z.string(),
    table: z.string(),
    op: z.enum(["insert", "update", "delete"]),
    when: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  })).optional(),
  textAdditions: z.record(
    z.string(),
    z.array(z.object({
      name: z.string(),
      suffix: z.string().optional(),
      prefix: z.string().optional(),
      value: z.object({
        table: z.string(),
        key: z.union([z.string(), z.number()]),
        field: z.string(),
        seed: z.string(),
      }).optional(),
    })),
  ).optional(),
});

/** The browser and session at the end of an episode. */
export interface FinalState {
  /** The current tab's URL. */
  url: string;
  /** Every open tab's URL. */
  urls: string[];
  /** Signed in at the end; null when the site server cannot tell. */
  logged_in: boolean | null;
  /** Signed in when the agent began (after any setup); null when the server cannot tell. */
  start_logged_in: boolean | null;
}

/** The zod schema of the final state. */
export const finalStateSchema: ZodSchema<FinalState> = z.object({
  url: z.string(),
  urls: z.array(z.string()),
  logged_in: z.boolean().nullable(),
  start_logged_in: z.boolean().nullable(),
});
