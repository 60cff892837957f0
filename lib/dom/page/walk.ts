/// <reference lib="dom" />
/**
 * Page-side walk: one pass over the document in tree order, into open shadow roots and same-origin iframes, that
 * keeps the candidates to index (c.kept) and builds the visible text (c.text). Plain functions that close over
 * nothing but each other (lib/dom's composer declares them once in the page script).
 */
import type { Capture, Frame } from "./capture.ts";
import { type Box, cut, inside, meets, shift } from "./geometry.ts";
import { onTop } from "./hit.ts";
import { isList, visibleRows } from "./lists.ts";
import { addBlock, addImage, addText } from "./text.ts";

/** Whether a script set an onclick, onmousedown, onpointerdown, onmouseup or onpointerup property on `el`. */
export function hasHandler(el: Element): boolean {
  const h = el as HTMLElement;
  return h.onclick != null || h.onmousedown != null || h.onpointerdown != null || h.onmouseup != null ||
    h.onpointerup != null;
}

/**
 * The frame `el` is clipped by when its box leaves its clip's: the document's own for position: fixed, an outer
 * one for position: absolute when its containing block is outside the clipping element (a transform making a
 * fixed element's containing block is not followed).
 */
export function escaped(el: Element, f: Frame, style: CSSStyleDeclaration): Frame {
  const pos = style.position;
  if (pos === "fixed") return f.base;
  if (pos !== "absolute") return f;
  const cb = (el as HTMLElement).offsetParent;
  if (!cb) return f;
  let g = f;
  while (g.clip && g.clip.el !== cb && !g.clip.el.contains(cb)) g = g.clip.outer;
  return g;
}

/**
 * The frame for the descendants of `el`, whose computed style clips its overflow on one axis or both: its view
 * is el's client box; near and walk reach beyond it only along an axis el scrolls (by the expansion, vertically,
 * or without bound for the whole page), since what overflow: hidden cuts off no scroll brings into view.
 */
export function clipped(c: Capture, el: Element, raw: DOMRect, f: Frame, style: CSSStyleDeclaration): Frame {
  const SCROLLS = c.SCROLLS;
  const x = style.overflowX !== "visible", y = style.overflowY !== "visible";
  const left = raw.left + el.clientLeft + f.dx, top = raw.top + el.clientTop + f.dy;
  const box: Box = {
    left: x ? left : -Infinity,
    top: y ? top : -Infinity,
    right: x ? left + el.clientWidth : Infinity,
    bottom: y ? top + el.clientHeight : Infinity,
  };
  const across = c.whole && SCROLLS.test(style.overflowX) ? Infinity : 0;
  const down = SCROLLS.test(style.overflowY) ? (c.whole ? Infinity : Math.max(0, c.expansion)) : 0;
  const reach = {
    left: box.left - across,
    top: box.top - down,
    right: box.right + across,
    bottom: box.bottom + down,
  };
  return {
    ...f,
    view: cut(f.view, box),
    near: cut(f.near, reach),
    walk: cut(f.walk, c.whole ? box : reach),
    clip: { el, box, outer: f },
  };
}

/**
 * Visits `el` and its subtree. `inView`: no ancestor's box was outside the viewport (so the cursor rule and the
 * text apply); `parentPointer`: the parent shows cursor: pointer; `item`: the parent is a handler-bound list.
 */
export function visit(
  c: Capture,
  el: Element,
  f: Frame,
  inView: boolean,
  parentPointer: boolean,
  inert: boolean,
  item: boolean,
): void {
  const name = el.localName;
  if (c.NO_WALK.has(name) && name !== "select" && name !== "textarea") return;
  let raw: DOMRect | null = null;
  let empty = false;
  let here = inView;
  let style: CSSStyleDeclaration | null = null;
  if (inView) {
    raw = el.getBoundingClientRect();
    empty = raw.width === 0 || raw.height === 0;
    if (empty) {
      // No box: display none (skip), display: contents (walk on), or an empty box content may overflow.
      if (!el.checkVisibility() && getComputedStyle(el).display !== "contents") return;
    } else {
      // Out of its clip's box (a scroll box's hidden lines), unless placed by something outside the clip.
      if (f.clip && !inside(shift(raw, f), f.clip.box)) f = escaped(el, f, style = getComputedStyle(el));
      if (!meets(shift(raw, f), f.walk) && !c.rescue.has(el)) {
        if (!c.whole) return;
        here = false;
      }
    }
  }
  inert ||= el.hasAttribute("inert");
  // The computed style of what is on screen (the cursor rule, clips) and of boxless containers (a 0px-high one
  // that clips what it holds).
  if (here && (!empty || el.firstElementChild !== null)) style ??= getComputedStyle(el);
  const pointer = here && !empty && style?.cursor === "pointer";
  const strong = el.matches(c.ACTIONABLE);
  const handled = (f.listeners?.get(el) ?? 0) > 0 || hasHandler(el);
  const weak = !strong && name !== "label" && (handled || (pointer && !parentPointer) || item);
  // A list bound by a handler (or pointer) is indexed item by item, not as a whole.
  const list = (handled || pointer) && !c.NATIVE.has(name) && !c.ROLES.includes(el.getAttribute("role") ?? "") &&
    isList(c, el);
  // (The overflow shorthand reads "visible" when both axes are: one read for the common case.)
  const clips = here && style !== null && style.overflow !== "visible" && name !== "html" && name !== "body" &&
    style.display !== "inline" && style.display !== "contents";
  let scrolls: { x: boolean; y: boolean; only: boolean } | null = null;
  if (clips && !empty && !c.FIELDS.has(name)) {
    const y = c.SCROLLS.test(style!.overflowY) && el.scrollHeight > el.clientHeight + c.SCROLL_SLACK;
    const x = c.SCROLLS.test(style!.overflowX) && el.scrollWidth > el.clientWidth + c.SCROLL_SLACK;
    if (x || y) scrolls = { x, y, only: !strong && !weak && name !== "label" };
  }
  if (
    (strong || weak || name === "label" || scrolls) && (!list || scrolls) && !inert && name !== "html" &&
    name !== "body"
  ) {
    raw ??= el.getBoundingClientRect();
    const r = shift(raw, f);
    const big = weak && !scrolls && (r.right - r.left) * (r.bottom - r.top) > (c.vw * c.vh) / 2;
    const near = raw.width > 0 && raw.height > 0 && meets(r, f.near);
    if (near && !big && el.checkVisibility(c.VISIBILITY)) {
      const inV = meets(r, f.view);
      if (!inV || onTop(c, el, r, f)) {
        c.kept.push({ el, r, inView: inV });
        c.keptSet.add(el);
        if (scrolls) c.scrollBoxes.set(el, scrolls);
      }
    }
  }
  if (name === "img" && here && !empty && !c.keptSet.has(el)) addImage(c, el, shift(raw!, f), f);
  if (name === "textarea" && here && !empty && meets(shift(raw!, f), f.view) && el.checkVisibility(c.VISIBILITY)) {
    addBlock(c, el as HTMLTextAreaElement);
  }
  if (name === "select" || name === "textarea" || c.depth >= c.MAX_DEPTH) return;
  if (name === "iframe" || name === "frame") return visitFrame(c, el as HTMLIFrameElement, f, here, inert);
  c.depth++;
  // Text: only for elements whose box is in the viewport and visible.
  let shown: boolean | null = null;
  const inner = clips ? clipped(c, el, raw!, f, style!) : f;
  const root = (el as HTMLElement).shadowRoot;
  if (root) visitChildren(c, root, inner, here, pointer, inert, list, () => false);
  visitChildren(c, el, inner, here, pointer, inert, list, () => {
    if (shown === null) {
      shown = here && !c.NO_TEXT.has(name) && raw !== null && !empty && meets(shift(raw, f), f.view) &&
        el.checkVisibility(c.VISIBILITY);
    }
    return shown;
  });
  c.depth--;
}

/** Visits the children of `parent` (an element or a shadow root); in a long table section, only the rows shown. */
export function visitChildren(
  c: Capture,
  parent: Node,
  f: Frame,
  inView: boolean,
  pointer: boolean,
  inert: boolean,
  list: boolean,
  shown: () => boolean,
): void {
  const rows = !c.whole && inView && c.ROW_GROUPS.has((parent as Element).localName)
    ? visibleRows(parent as Element, f)
    : null;
  if (rows) {
    const kids = (parent as Element).children;
    for (let i = 0; i < kids.length; i++) {
      if ((i >= rows[0] && i <= rows[1]) || c.rescue.has(kids[i])) visit(c, kids[i], f, inView, pointer, inert, list);
    }
    return;
  }
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) visit(c, n as Element, f, inView, pointer, inert, list);
    else if (n.nodeType === 3 && inView && shown()) addText(c, n as Text, f);
  }
}

/** A same-origin iframe's document, walked with the frame's offset; a cross-origin one stays a leaf. */
export function visitFrame(c: Capture, frameEl: HTMLIFrameElement, f: Frame, inView: boolean, inert: boolean): void {
  let inner: Document | null = null;
  try {
    inner = frameEl.contentDocument;
  } catch { /* cross-origin */ }
  if (!inner?.documentElement || !inner.defaultView) return;
  const fr = frameEl.getBoundingClientRect();
  const dx = f.dx + fr.left + frameEl.clientLeft;
  const dy = f.dy + fr.top + frameEl.clientTop;
  const box = { left: dx, top: dy, right: dx + frameEl.clientWidth, bottom: dy + frameEl.clientHeight };
  const sub = documentFrame(c, inner.defaultView, dx, dy, cut(f.view, box), cut(f.near, box), cut(f.walk, box));
  visit(c, inner.documentElement, sub, inView, false, inert, false);
}

/** A document's frame, unclipped: its offset, view, near and walk boxes, and its window's listener record. */
export function documentFrame(c: Capture, win: Window, dx: number, dy: number, view: Box, near: Box, walk: Box): Frame {
  const listeners = (win as unknown as Record<string, WeakMap<Element, number> | undefined>)[c.listenersGlobal];
  const frame = { dx, dy, view, near, walk, listeners, clip: null } as unknown as Frame;
  frame.base = frame;
  return frame;
}

/** The walk functions, as the composer takes them. */
export const WALK = [hasHandler, escaped, clipped, visit, visitChildren, visitFrame, documentFrame];
