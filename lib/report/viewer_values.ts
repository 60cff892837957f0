/** Reading the viewer's untyped JSON (episode files of any age) leniently: a value of another type reads as empty. */

export type Json = Record<string, unknown>;

/** The value when it is a plain object, else {}. */
export const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {});
/** The value when it is an array, else []. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The value when it is a string, else null. */
export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
/** The value when it is a number, else null. */
export const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
