/**
 * lib/dom: code that runs in the page (snapshotPage, indexedElement: plain functions for page.evaluate) and the
 * Deno-side rendering of what it returns (formatElements). Imports no browser library; lib/browser calls these.
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
