/**
 * Where a person's click on an element lands: visiblePoint (lib/dom/page/hit.ts's pointOf composed with the
 * geometry it shares with the capture) and elementAt. Both are self-contained page functions, passed as arguments
 * to other page functions (their source) the way lib/dom's indexedElement is.
 */
import { composePage } from "./page/compose.ts";
import { GEOMETRY } from "./page/geometry.ts";
import { elementAt, pointOf } from "./page/hit.ts";
import type { ClickPoint } from "./types.ts";

export { elementAt };

/**
 * A point of `el` a click would reach, in the top window's viewport, or null when no part of `el` is inside it
 * (see lib/dom/page/hit.ts's pointOf); `at` is elementAt.
 */
export const visiblePoint: (el: Element, at: typeof elementAt) => ClickPoint | null = composePage(pointOf, GEOMETRY);
