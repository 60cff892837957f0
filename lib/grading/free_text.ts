/**
 * Free text accounted for in full (docs/grading.md, "Free text"): a text field passes when it equals the asked
 * text up to white space, case and a final full stop, plus only the additions the app itself makes (a signature, a
 * quoted reply), which each app declares (AppRules.textAdditions) and which are stripped exactly. Pure.
 */
import type { AppRules, ChangeEntry, TextAddition } from "../protocol/mod.ts";
import { normaliseText } from "./text.ts";

const ESCAPE = /[.*+?^${}()|[\]\\]/g;
const FINAL_STOP = /[.!]\s*$/u;

/** A text's comparable form: normalised (case, white space, NFKC), without a final full stop. */
export function freeTextForm(s: string): string {
  return normaliseText(s.replace(FINAL_STOP, ""));
}

/**
 * A text's form when the instruction asks for it "exactly" (docs/grading.md, "Free text"): white space collapsed and
 * trimmed only; case and punctuation, the final full stop included, are compared.
 */
export function verbatimForm(s: string): string {
  return s.normalize("NFC").replace(/\s+/g, " ").trim();
}

/** An instruction that asks for a written value "exactly" (or verbatim): the word itself. */
const EXACTLY = /\b(?:exactly|verbatim)\b/i;

/**
 * Whether `instruction` asks for `text` exactly: it says "exactly" (or "verbatim") and writes `text` itself, case and
 * punctuation as they are. Such a written value is compared with `verbatimForm` (docs/grading.md, "Free text").
 */
export function askedVerbatim(instruction: string | undefined, text: string): boolean {
  if (!instruction || !EXACTLY.test(instruction)) return false;
  const t = verbatimForm(text);
  return t !== "" && verbatimForm(instruction).includes(t);
}

/** Whether `value` is the asked text up to white space, case and a final full stop. */
export function sameFreeText(value: string, asked: string): boolean {
  return freeTextForm(value) === freeTextForm(asked);
}

const compiled = new Map<string, RegExp>();
function compile(source: string, end: boolean): RegExp {
  const key = `${end ? "$" : "^"}${source}`;
  let re = compiled.get(key);
  if (!re) {
    if (compiled.size > 1024) compiled.clear();
    compiled.set(key, re = new RegExp(end ? `(?:${source})$` : `^(?:${source})`));
  }
  return re;
}

/** The latest value of `v`'s field written by `changes` before `seq` (all of them when seq is unknown), else its seed. */
function valueAt(
  v: NonNullable<TextAddition["value"]>,
  changes: readonly ChangeEntry[],
  seq: number | undefined,
): string {
  let value = v.seed;
  for (const c of changes) {
    if (seq !== undefined && typeof c.seq === "number" && c.seq >= seq) break;
    if (c.table !== v.table || String(c.key) !== String(v.key) || !c.after) continue;
    if (Object.hasOwn(c.after, v.field)) value = String(c.after[v.field] ?? "");
  }
  return value.trim();
}

/**
 * `text` with the app's additions stripped, in their declared order, each at most once and only where it is: what
 * the user wrote. `changes` and `seq` give a `{value}` addition its value at the time the row was written.
 */
export function stripAdditions(
  text: string,
  additions: readonly TextAddition[],
  changes: readonly ChangeEntry[] = [],
  seq?: number,
): string {
  let out = text;
  for (const a of additions) {
    let suffix = a.suffix, prefix = a.prefix;
    if (a.value) {
      const v = valueAt(a.value, changes, seq);
      if (v === "") continue; // the app adds nothing when the value is empty
      const escaped = v.replace(ESCAPE, "\\$&");
      suffix = suffix?.replaceAll("{value}", escaped);
      prefix = prefix?.replaceAll("{value}", escaped);
    }
    if (suffix !== undefined) out = out.replace(compile(suffix, true), "");
    if (prefix !== undefined) out = out.replace(compile(prefix, false), "");
  }
  return out;
}

/** The additions an app declares for `table.field`. */
export function additionsOf(
  rules: Readonly<Record<string, AppRules>> | undefined,
  site: string,
  table: string,
  field: string,
) {
  return rules?.[site]?.textAdditions?.[`${table}.${field}`];
}
