/**
 * Deno-side rendering of a snapshot for the model, in browser-use's layout: one line per indexed element,
 * `[i]<tag key=value ... />`, `*` before the index of elements new since the previous snapshot, the element's
 * text on the next line indented by a tab, and scroll markers around the list. Attribute values are shown exactly
 * (see `exact`), so what the model reads it can type back.
 */
import { ATTRIBUTE_ORDER, type DomElement, type PageSnapshot } from "./types.ts";

/** What a caller may tune in formatElements. */
export interface FormatOptions {
  /** Option texts shown for a <select> before "... N more options..." (default 4, as browser-use). */
  maxOptions?: number;
  /** Cap on one attribute value (default 100, as browser-use); `value` has its own. */
  maxAttributeLength?: number;
  /**
   * Cap on a `value` (a field's, a textarea's), in UTF-16 code units (default 1000, lib/dom's snapshot cap too). A
   * cut value is JSON-quoted and followed by `(cut: 1000 of 2400 chars)`.
   */
  maxValueLength?: number;
}

/** Scroll distances under this many pixels count as none (sub-pixel layouts leave a few). */
const SCROLL_SLACK = 4;
/** Values these attributes carry are never dropped as duplicates of an earlier attribute. */
const PROTECTED = new Set(["placeholder", "value", "aria-label", "title"]);
/** Dropped when they only repeat the element's text. */
const DROP_IF_TEXT = ["aria-label", "placeholder", "title"] as const;

const cap = (s: string, n: number) => (s.length > n ? s.slice(0, n) + "..." : s);

/**
 * A value as the page holds it: plain, or JSON-quoted when plain text would hide part of it (whitespace at an
 * edge, a line break, a tab, a run of spaces) or when it starts with a quote itself. Retyping what was read then
 * gives the page's exact value.
 */
function exact(value: string): string {
  return /^\s|\s$|[\n\r\t\f\v]| {2}|^"/.test(value) ? JSON.stringify(value) : value;
}

/** The `key=value` pairs of one element line, browser-use's pruning applied. */
function formatAttributes(el: DomElement, opts: FormatOptions = {}): string {
  const maxLength = opts.maxAttributeLength ?? 100;
  const shown = new Map<string, string>();
  const seenValues = new Set<string>();
  for (const key of ATTRIBUTE_ORDER) {
    const raw = el.attributes[key];
    if (raw === undefined) continue;
    const value = raw;
    if (value.length > 5 && seenValues.has(value) && !PROTECTED.has(key)) continue;
    seenValues.add(value);
    shown.set(key, value);
  }
  if (shown.get("role") === el.tag) shown.delete("role");
  if (shown.get("type")?.toLowerCase() === el.tag) shown.delete("type");
  const text = el.text.toLowerCase();
  for (const key of DROP_IF_TEXT) if (text && shown.get(key)?.toLowerCase() === text) shown.delete(key);
  const parts = [...shown].map(([k, v]) => {
    if (v === "") return `${k}=''`;
    if (k === "value") {
      return `value=${valueText(v, el.valueLength ?? v.length, opts.maxValueLength ?? 1000, el.valueStart ?? 0)}`;
    }
    return `${k}=${exact(cap(v, maxLength))}`;
  });
  if (el.options && el.options.length > 0) parts.push(`options=${formatOptions(el, opts.maxOptions ?? 4)}`);
  return parts.join(" ");
}

/**
 * A value up to `max` characters, shown exactly; a cut one JSON-quoted (so where it stops is plain) and followed by
 * how much of it is shown: `"Clause 01: …" (cut: 1000 of 2400 chars)`, or, for the part at a field's scroll
 * position, which characters: `"Clause 31: …" (cut: chars 1201-2200 of 2400, where the field is scrolled)`.
 * `total`: the whole value's length; `start`: where the shown part starts in it.
 */
function valueText(value: string, total: number, max: number, start = 0): string {
  let head = value.length > max ? value.slice(0, max) : value;
  if (head.length < value.length && /[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1); // not half a pair
  if (head.length >= total) return exact(head);
  const part = start > 0
    ? `chars ${start + 1}-${start + head.length} of ${total}, where the field is scrolled`
    : `${head.length} of ${total} chars`;
  return `${JSON.stringify(head)} (cut: ${part})`;
}

function formatOptions(el: DomElement, max: number): string {
  const total = el.optionCount ?? el.options!.length;
  const first = el.options!.slice(0, max).map((o) => cap(o, 30));
  if (total > first.length) first.push(`... ${total - first.length} more options...`);
  return first.join("|");
}

/** One element: `[i]<tag attrs />`, then its text on the next line after a tab (when it has any). */
export function formatElement(el: DomElement, opts: FormatOptions = {}): string {
  const attrs = formatAttributes(el, opts);
  const head = `${el.isNew ? "*" : ""}[${el.index}]<${el.tag}${attrs ? " " + attrs : ""} />`;
  return el.text ? `${head}\n\t${el.text}` : head;
}

/**
 * The element list the model reads: "[Start of page]" or "... N pixels above - scroll to see more ...", the
 * elements ("empty page" when none is indexed), then "[End of page]" or "... N pixels below - scroll to see more
 * ...". Unlike browser-use, an empty list keeps its scroll markers: the model still learns where to scroll.
 */
export function formatElements(snapshot: PageSnapshot, opts: FormatOptions = {}): string {
  const above = snapshot.pixelsAbove > SCROLL_SLACK
    ? `... ${snapshot.pixelsAbove} pixels above - scroll to see more ...`
    : "[Start of page]";
  const below = snapshot.pixelsBelow > SCROLL_SLACK
    ? `... ${snapshot.pixelsBelow} pixels below - scroll to see more ...`
    : "[End of page]";
  const elements = snapshot.elements.map((el) => formatElement(el, opts));
  return [above, ...(elements.length > 0 ? elements : ["empty page"]), below].join("\n");
}
