/**
 * lib/dom: code that runs in the page (snapshotPage, visiblePoint, elementAt, indexedElement: self-contained
 * functions for page.evaluate) and the Deno-side rendering of what it returns (formatElements). Imports no browser
 * library; lib/browser calls these.
 *
 * The page-side code is modules by concern under lib/dom/page/ (geometry, hit, text, lists, naming, values, walk,
 * and capture: one capture's state), plain functions that close over nothing but each other. page/compose.ts's
 * composePage assembles snapshotPage and visiblePoint at load time from those functions' own source (one
 * declaration of each helper, then the entry), so they serialise with toString() like any page function, with no
 * build step.
 *
 * ```ts
 * const snap = await page.evaluate(snapshotPage, { viewportExpansion: 0 });
 * const text = formatElements(snap);
 * const handle = await page.evaluateHandle(indexedElement, 3); // element [3]
 * ```
 * @module
 */
export { indexedElement, snapshotPage } from "./snapshot.ts";
export { elementAt, visiblePoint } from "./point.ts";
export { LISTENER_WATCH_SCRIPT } from "./listeners.ts";
export { formatElements, type FormatOptions } from "./format.ts";
export {
  ATTRIBUTE_ORDER,
  type AttributeName,
  type ClickPoint,
  type DomElement,
  type PageSnapshot,
  type Rect,
  type SnapshotOptions,
} from "./types.ts";
