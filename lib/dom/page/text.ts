/// <reference lib="dom" />
/**
 * Page-side text: the viewport's visible text as visual lines (text nodes, image alt words, a textarea's value),
 * and an indexed element's own text. Plain functions that close over nothing but each other (lib/dom's composer
 * declares them once in the page script).
 */
import type { Capture, Frame } from "./capture.ts";
import { type Box, meets, shift } from "./geometry.ts";
import { valueWindow } from "./values.ts";

/** `s` with runs of white space as one space, trimmed. */
export function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** `s` cut to `n` characters, "..." marking the cut. */
export function cap(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + "..." : s;
}

/** One text node of a shown element: appended to the current line, or starting a new one. */
export function addText(c: Capture, node: Text, f: Frame): void {
  const t = c.text;
  if (t.length >= c.maxVisible || !/\S/.test(node.data)) return;
  t.range.selectNodeContents(node);
  const boxes = t.range.getClientRects();
  if (boxes.length === 0 || !meets(shift(t.range.getBoundingClientRect(), f), f.view)) return;
  const first = shift(boxes[0], f);
  const last = shift(boxes[boxes.length - 1], f);
  addWords(c, collapse(node.data), first, last, node.parentElement!, /^\s/.test(node.data), /\s$/.test(node.data));
}

/**
 * Words on screen from `first` (the box of their first line) to `last`: appended to the current line when they
 * continue it, else starting a new one. `spaceBefore`, `spaceAfter`: the source text has white space there.
 */
export function addWords(
  c: Capture,
  text: string,
  first: Box,
  last: Box,
  parent: Element,
  spaceBefore: boolean,
  spaceAfter: boolean,
): void {
  const t = c.text;
  // Same visual line: overlapping vertically and not going back left (side-by-side columns stay apart).
  const sameLine = first.top < t.bottom - 1 && first.bottom > t.top + 1 && first.left >= t.right - 1;
  if (sameLine) {
    const spaced = t.endsWithSpace || spaceBefore || first.left - t.right > 1 ||
      (t.parent !== null && t.parent !== parent && apart(t.parent, parent));
    t.line += (spaced ? " " : "") + text;
  } else {
    if (t.line) t.lines.push(t.line);
    t.line = text;
  }
  t.length += text.length + 1;
  t.top = last.top;
  t.bottom = last.bottom;
  t.right = last.right;
  t.endsWithSpace = spaceAfter;
  t.parent = parent;
}

/**
 * An image that is not a control, shown in the viewport: its alt text (else its title) as words of the line it
 * sits on (a list whose item types are icons, `<img alt=vegan>`). An empty alt marks a decorative image: none.
 */
export function addImage(c: Capture, el: Element, r: Box, f: Frame): void {
  const words = collapse(el.getAttribute("alt") ?? el.getAttribute("title") ?? "");
  if (!words || c.text.length >= c.maxVisible || !meets(r, f.view) || !el.checkVisibility(c.VISIBILITY)) return;
  addWords(c, words, r, r, el, true, true);
}

/** A textarea's value (the window valueWindow shows, "…" where it is cut), as lines of their own. */
export function addBlock(c: Capture, el: HTMLTextAreaElement): void {
  const t = c.text;
  if (t.line) t.lines.push(t.line);
  t.line = "";
  t.bottom = -Infinity;
  t.parent = null;
  const value = el.value;
  const { start, text: shown } = valueWindow(c, el, value);
  const text = (start > 0 ? "…" : "") + shown + (start + shown.length < value.length ? "…" : "");
  for (const l of text.split("\n")) {
    const line = collapse(l);
    if (!line || t.length >= c.maxVisible) continue;
    t.lines.push(line);
    t.length += line.length + 1;
  }
}

/**
 * Whether two touching texts belong to different blocks (flex or grid items side by side): an element that is
 * not inline lies between one of them and their common ancestor. Read only when nothing else separates them.
 */
export function apart(a: Element, b: Element): boolean {
  const up = new Set<Element>();
  for (let n: Element | null = a; n; n = n.parentElement) up.add(n);
  let common: Element | null = b;
  const blockish = (n: Element) => !getComputedStyle(n).display.startsWith("inline");
  for (; common && !up.has(common); common = common.parentElement) if (blockish(common)) return true;
  for (let n: Element | null = a; n && n !== common; n = n.parentElement) if (blockish(n)) return true;
  return false;
}

/** Visible text of `el` minus the text of indexed descendants (cards, rows with buttons inside). */
export function textWithoutIndexed(c: Capture, el: Element): string {
  let out = "";
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (n) => {
    if (n.nodeType === Node.TEXT_NODE) return NodeFilter.FILTER_ACCEPT;
    const e = n as Element;
    if (c.keptSet.has(e) || c.NO_TEXT.has(e.localName) || !e.checkVisibility(c.VISIBILITY)) {
      return NodeFilter.FILTER_REJECT;
    }
    return NodeFilter.FILTER_SKIP;
  });
  while (walker.nextNode() && out.length <= c.maxText * 2) out += " " + (walker.currentNode as Text).data;
  return out;
}

/** A form field's text is its labels' text (a checkbox's "I agree"); other elements show their own text. */
export function elementText(c: Capture, el: Element, hasIndexedChild: boolean): string {
  // A box indexed for scrolling only: its lines are in the visible text (those on screen), its controls listed
  // after it. (One that is a control too, focusable or bound, shows its text as any element does.)
  if (c.scrollBoxes.get(el)?.only) return "";
  if (c.FIELDS.has(el.localName)) {
    const labels = (el as HTMLInputElement).labels;
    if (!labels || labels.length === 0) return "";
    return cap(collapse(Array.from(labels, (l) => textWithoutIndexed(c, l)).join(" ")), c.maxText);
  }
  const raw = hasIndexedChild ? textWithoutIndexed(c, el) : (el as HTMLElement).innerText ?? el.textContent ?? "";
  let text = collapse(raw);
  if (!text && !hasIndexedChild) text = collapse(el.querySelector("img[alt]")?.getAttribute("alt") ?? "");
  return cap(text, c.maxText);
}

/** The text functions, as the composer takes them. */
export const TEXT = [collapse, cap, addText, addWords, addImage, addBlock, apart, textWithoutIndexed, elementText];
