/// <reference lib="dom" />
/**
 * The page-side capture: snapshotPage, serialised into the page with page.evaluate(snapshotPage, options). Its
 * code is split by concern under lib/dom/page/ (geometry, hit, text, lists, naming, values, walk; capture.ts holds
 * one capture's state and constants); snapshotPage is capturePage composed with them (compose.ts), so its source is
 * self-contained.
 *
 * One walk of the document in tree order, into open shadow roots and same-origin iframes (their offsets added, so
 * every rect is in the top viewport's coordinates), collects both the indexed elements and the visible text.
 *
 * What is indexed: native controls, ARIA roles, [onclick], [tabindex], draggable and editable elements; elements a
 * script gave a click, mousedown, pointerdown, mouseup or pointerup listener (the record lib/dom/listeners.ts
 * keeps) or an onclick, onmousedown, onpointerdown, onmouseup or onpointerup property; elements with `cursor:
 * pointer` whose parent is not pointer too (what delegated handlers make clickable; checked near the viewport
 * only); labels standing in for a hidden control; scroll boxes (overflow auto or scroll with more than 4 px
 * hidden), with how far they scroll each way (`scroll` attribute).
 * Such a script-bound or pointer element larger than half the viewport is taken for a delegation root (an app's
 * root node) and not indexed itself.
 * A handler-bound list (a `<ul>`, a listbox, or a container of three or more alike children) is indexed item by
 * item, not as one blob, and a list (a focusable listbox) followed by indexed items of its own is dropped: a click
 * on it picks an item. A scroll box stays, for its scroll marker. aria-hidden does not hide from sight, so it does
 * not exclude; inert does. An element stays when any of five points of its visible part is on top, else when the
 * centre of the largest piece its covers leave (at least 4×4 px) is (a sliver beside a popup).
 *
 * Clipping: an element whose overflow is not visible (a scroll box, overflow: hidden) cuts its descendants' view,
 * near and walk boxes to its client box, so the lines it hides are neither in visibleText nor in view (near and
 * walk reach past it only along an axis it scrolls). A descendant whose box leaves the clip and that is
 * position: fixed (or absolute, placed by an element outside the clip) escapes it (a transform that contains a
 * fixed element is not followed).
 *
 * Names: an element with no text and no aria-label, title, alt, placeholder or value gets a derived `label`
 * (nameOf: aria-labelledby, an ancestor's aria-label or title, what is inside, an image's file name, a class
 * token). A value is cut at maxValueLength (valueLength keeps the length), and a textarea's value (to the same
 * cap) is part of visibleText.
 *
 * Cost model: one getBoundingClientRect per element visited (layout is computed once, on the first read; nothing
 * here writes to the DOM). A subtree whose (non-empty) box lies outside the viewport is skipped, since flow
 * content stays inside its ancestors' boxes; a long table section's rows that meet the viewport are found by
 * binary search, since rows stack in order (a cell spanning rows from a skipped row is missed). What escapes its
 * ancestors' boxes (fixed or absolute layers placed in off-screen containers) is found by hit-testing an 80 px
 * grid of the viewport first: the ancestors of every element hit are never skipped (an escaped control that
 * covers no grid point is missed). The grid's hits also answer most "is it on top" questions, as hit tests cost
 * up to 1 ms each on long lists. With viewportExpansion -1 nothing is skipped, but elements outside the viewport
 * only get the cheap checks (selector match, listener record, handler properties): no cursor rule and no text
 * there. getComputedStyle is read only for elements in the viewport (the cursor rule and overflow), for boxless
 * elements (display: contents or none, or holding elements), for elements leaving a clip's box, for touching texts
 * of different elements, for slider handles and for nameless elements (a background image). Not covered: closed
 * shadow roots, cross-origin iframes.
 */
import { composePage } from "./page/compose.ts";
import { type Capture, newCapture } from "./page/capture.ts";
import { type Box, GEOMETRY } from "./page/geometry.ts";
import { HIT, hitGrid } from "./page/hit.ts";
import { indexedOf, LISTS } from "./page/lists.ts";
import { nameOf, NAMING } from "./page/naming.ts";
import { cap, collapse, elementText, TEXT } from "./page/text.ts";
import { attributesOf, VALUES } from "./page/values.ts";
import { documentFrame, visit, WALK } from "./page/walk.ts";
import type { DomElement, PageSnapshot, Rect, SnapshotOptions } from "./types.ts";

/** The capture's entry (composed into snapshotPage): grid, walk, index, then each element's record. */
function capturePage(opts: SnapshotOptions = {}): PageSnapshot {
  const started = performance.now();
  const c: Capture = newCapture(opts);
  const { doc, vw, vh, whole, expansion } = c;
  const sx = globalThis.scrollX;
  const sy = globalThis.scrollY;
  const VIEW: Box = { left: 0, top: 0, right: vw, bottom: vh };
  // Where an element is still indexed: the viewport grown by the expansion above and below, or (whole page, -1)
  // anything a scroll can bring into view, i.e. not left of or above the document's origin.
  const NEAR: Box = whole
    ? { left: -sx, top: -sy, right: Infinity, bottom: Infinity }
    : { left: 0, top: -expansion, right: vw, bottom: vh + expansion };

  // 1. The rescue grid: ancestors of what is on top at GRID px steps are walked even when their box is off-screen.
  const scroller = doc.scrollingElement ?? doc.documentElement;
  hitGrid(c, scroller);

  // 2. The walk: candidates in tree order, and the viewport's text as visual lines.
  const top = documentFrame(c, globalThis as unknown as Window, 0, 0, VIEW, NEAR, whole ? VIEW : NEAR);
  visit(c, doc.documentElement, top, true, false, false, false);
  if (c.text.line) c.text.lines.push(c.text.line);

  // 3. The index: labels standing in for a control, lists holding items of their own dropped.
  const indexed = indexedOf(c);

  // 4. Each element's record, a name for one that has none (an icon-only button); new ones marked against the
  // previous snapshot of this document (document.open() swaps the root).
  const NAMED = ["aria-label", "title", "alt", "placeholder", "value"] as const;
  type State = { root: Element | null; seen: WeakSet<Element> };
  const w = globalThis as unknown as { __webmixState?: State; __webmixIndex?: (Element | null)[] };
  const previous = w.__webmixState?.root === doc.documentElement ? w.__webmixState.seen : null;
  const seen = new WeakSet<Element>();
  const round = (r: Box): Rect => ({
    x: Math.round(r.left),
    y: Math.round(r.top),
    width: Math.round(r.right - r.left),
    height: Math.round(r.bottom - r.top),
  });
  const elements: DomElement[] = indexed.map(({ el, r, inView }, k) => {
    seen.add(el);
    const next = indexed[k + 1]?.el;
    const attributes = attributesOf(c, el, r);
    const text = elementText(c, el, next !== undefined && el.contains(next));
    if (!text && !NAMED.some((n) => attributes[n] !== undefined)) {
      const label = nameOf(c, indexed, el, k);
      if (label) attributes.label = label;
    }
    const item: DomElement = {
      index: k + 1,
      tag: el.localName,
      attributes,
      text,
      isNew: previous !== null && !previous.has(el),
      inViewport: inView,
      rect: round(r),
    };
    if (c.valueLength > c.maxValue) item.valueLength = c.valueLength;
    if (c.valueStart > 0) item.valueStart = c.valueStart;
    if (el.localName === "select") {
      const options = (el as HTMLSelectElement).options;
      item.options = Array.from(options).slice(0, c.maxOptions).map((o) => cap(collapse(o.text), c.maxText));
      item.optionCount = options.length;
    }
    return item;
  });
  w.__webmixState = { root: doc.documentElement, seen };
  w.__webmixIndex = [null, ...indexed.map(({ el }) => el)];

  const scrollY = Math.round(sy);
  const pageHeight = Math.max(scroller.scrollHeight, doc.body?.scrollHeight ?? 0);
  return {
    url: location.href,
    title: doc.title,
    elements,
    scrollY,
    pixelsAbove: scrollY,
    pixelsBelow: Math.max(0, Math.round(pageHeight - sy - vh)),
    viewport: { width: vw, height: vh },
    pageHeight,
    visibleText: c.text.lines.join("\n").slice(0, c.maxVisible),
    captureMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** Captures the page's interactive elements and visible text; stores the index as window.__webmixIndex. */
export const snapshotPage: (opts?: SnapshotOptions) => PageSnapshot = composePage(capturePage, [
  newCapture,
  ...GEOMETRY,
  ...HIT,
  ...TEXT,
  ...LISTS,
  ...NAMING,
  ...VALUES,
  ...WALK,
]);

/**
 * Page-side: the element of index `i` in the last snapshot (for page.evaluateHandle), or null when there is none
 * or it has left the page. Indexes run from 1 without gaps. With `raw`, the index's entry as it is (an element
 * that left the page included) and, instead of null, why there is none: "unindexed" (no snapshot yet) or
 * "absent" (no element of that index). The one lookup of the index: lib/browser passes this function's source
 * to its page functions.
 */
export function indexedElement(i: number, raw: true): Element | "unindexed" | "absent";
/** Page-side: the element of index `i` in the last snapshot, or null when there is none or it has left the page. */
export function indexedElement(i: number, raw?: false): Element | null; // last: what page.evaluate infers
export function indexedElement(i: number, raw = false): Element | null | "unindexed" | "absent" {
  const index = (globalThis as unknown as { __webmixIndex?: (Element | null)[] }).__webmixIndex;
  const el = index?.[i] ?? null;
  if (raw) return !index ? "unindexed" : el ?? "absent";
  return el && el.isConnected ? el : null;
}

/**
 * Page-side: snapshotPage's result as JSON text, for page.evaluate(snapshotPageJson, options) then JSON.parse.
 * A big snapshot crosses CDP much faster as one string than as an object (whole 1,500-row table: about 50 ms
 * against 145 ms). Built from snapshotPage's own source, so it stays self-contained when serialised.
 */
export const snapshotPageJson = new Function(
  "opts",
  `return JSON.stringify((${snapshotPage.toString()})(opts));`,
) as (opts?: SnapshotOptions) => string;
