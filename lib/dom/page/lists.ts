/// <reference lib="dom" />
/**
 * Page-side lists: what is a list of items (indexed item by item, not as one blob), the rows of a long table
 * section that meet the viewport, and the index built from the walk's candidates (labels standing in for a hidden
 * control, lists holding indexed items dropped). Plain functions that close over nothing but each other (lib/dom's
 * composer declares them once in the page script).
 */
import type { Capture, Frame, Kept } from "./capture.ts";
import { shift } from "./geometry.ts";

/** An element that is a list of items: ul/ol/menu, a list role, or three or more alike children with text. */
export function isList(c: Capture, el: Element): boolean {
  const kids = el.children;
  if (kids.length < 2) return false;
  if (c.LISTS.has(el.localName) || c.LIST_ROLES.has(el.getAttribute("role") ?? "")) return true;
  if (kids.length < 3) return false;
  const first = kids[0];
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k.localName !== first.localName || k.className !== first.className) return false;
    if (!/\S/.test(k.textContent ?? "")) return false; // icons of one button, not items
  }
  return true;
}

/**
 * A table section's rows stack in document order, so the rows that meet the walk box are a run found by binary
 * search: [first, last] child indexes, or null to visit every row (few rows, or a row without a box where the
 * search probes).
 */
export function visibleRows(section: Element, f: Frame): [number, number] | null {
  const kids = section.children;
  if (kids.length < 64) return null;
  const box = (i: number) => {
    const r = kids[i].getBoundingClientRect();
    return r.height === 0 ? null : shift(r, f);
  };
  let lo = 0, hi = kids.length; // first row whose bottom is below the walk box's top
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const b = box(mid);
    if (!b) return null;
    if (b.bottom > f.walk.top) hi = mid;
    else lo = mid + 1;
  }
  const first = lo;
  hi = kids.length; // first row whose top is at or below the walk box's bottom
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const b = box(mid);
    if (!b) return null;
    if (b.top >= f.walk.bottom) hi = mid;
    else lo = mid + 1;
  }
  return [first, lo - 1];
}

/**
 * The index from the walk's candidates: a label counts only when its control is not indexed itself (a styled
 * checkbox hiding its input). A list (ul, ol, menu, tbody or a list role: a listbox, a focusable <ul>) followed by
 * two indexed elements of its own is not indexed itself: a click on it picks an item.
 */
export function indexedOf(c: Capture): Kept[] {
  const { kept, keptSet } = c;
  return kept.filter(({ el }, k) => {
    const name = el.localName;
    if (name === "label" && !el.matches(c.ACTIONABLE)) {
      const control = (el as HTMLLabelElement).control;
      const keep = control !== null && !keptSet.has(control);
      if (!keep) keptSet.delete(el);
      return keep;
    }
    const holdsItems = (c.LISTS.has(name) || c.LIST_ROLES.has(el.getAttribute("role") ?? "")) &&
      !(el as HTMLElement).isContentEditable && k + 2 < kept.length && el.contains(kept[k + 1].el) &&
      el.contains(kept[k + 2].el);
    if (holdsItems) {
      keptSet.delete(el);
      // A list that scrolls (a suggestion list) says what it hides on its first item instead.
      if (c.scrollBoxes.has(el)) c.listOfItem.set(kept[k + 1].el, el);
    }
    return !holdsItems;
  });
}

/** The list functions, as the composer takes them. */
export const LISTS = [isList, visibleRows, indexedOf];
