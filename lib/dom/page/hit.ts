/// <reference lib="dom" />
/**
 * Page-side hit-testing: what is on top at a point (elementAt), where a person's click on an element lands
 * (pointOf, lib/dom's visiblePoint), and for the capture, the rescue grid of hit tests and whether an element
 * receives a click on its visible part (onTop). Plain functions that close over nothing but each other and
 * geometry.ts's (lib/dom's composer declares them once in the page script).
 */
import type { ClickPoint } from "../types.ts";
import type { Capture, Frame } from "./capture.ts";
import { area, type Box, cut, minus } from "./geometry.ts";

/**
 * A point of `el` a click would reach: the first of up to 13 sample points of its visible part (the centre, then a
 * grid) where the topmost element is `el`, inside it (shadow trees included) or its label, and not inside another
 * indexed element within it (a press there is that control's: an event block over a calendar day; such a point
 * only when el has no other); failing those, the centre
 * of the largest piece (4 px or more each way) that the boxes of what covers them leave (a sliver beside a popup, as
 * the capture's onTop finds it; up to 6 more hit tests). Coordinates are the top
 * window's viewport: the offsets of the same-origin iframes `el` lies in are added, and the visible part is clipped
 * by each frame's viewport. When every sample is covered, the centre with what covers it; null when no part of
 * `el` is inside the viewport. `at` is elementAt (a page function receives its source as an argument).
 */
export function pointOf(el: Element, at: typeof elementAt): ClickPoint | null {
  // The windows from el's up to the top (or the first cross-origin parent), and where each frame element sits in
  // its parent's viewport; a window's viewport then starts at the sum of the offsets of the frames above it.
  const wins: Window[] = [];
  const offsets: { x: number; y: number }[] = [];
  for (let win: Window | null = el.ownerDocument.defaultView; win;) {
    wins.push(win);
    let frameEl: Element | null = null;
    try {
      frameEl = win === win.parent ? null : win.frameElement;
    } catch { /* cross-origin parent: stop here */ }
    if (!frameEl) break;
    const fr = frameEl.getBoundingClientRect();
    offsets.push({ x: fr.left + frameEl.clientLeft, y: fr.top + frameEl.clientTop });
    win = win.parent;
  }
  const frames = wins.map((win, i) => ({
    doc: win.document,
    dx: offsets.slice(i).reduce((s, o) => s + o.x, 0),
    dy: offsets.slice(i).reduce((s, o) => s + o.y, 0),
    w: win.innerWidth,
    h: win.innerHeight,
  }));
  const dx = frames[0].dx, dy = frames[0].dy;
  // el's boxes (several for an inline element over lines), in top coordinates, clipped by every frame's viewport.
  const clip = (b: Box): Box | null => {
    let { left, top, right, bottom } = b;
    for (const f of frames) {
      left = Math.max(left, f.dx), top = Math.max(top, f.dy);
      right = Math.min(right, f.dx + f.w), bottom = Math.min(bottom, f.dy + f.h);
    }
    return left < right && top < bottom ? { left, top, right, bottom } : null;
  };
  const rects = Array.from(el.getClientRects());
  if (rects.length === 0) rects.push(el.getBoundingClientRect());
  const boxes = rects.map((r) =>
    clip({ left: r.left + dx, top: r.top + dy, right: r.right + dx, bottom: r.bottom + dy })
  ).filter((b): b is Box => b !== null && b.right - b.left >= 1 && b.bottom - b.top >= 1);
  if (boxes.length === 0) return null;

  /** `n` is `el` or inside it, crossing shadow roots upwards. */
  const within = (n: Node | null): boolean => {
    // A shadow root's host, by node type (a shadow root inside a frame is of that frame's realm).
    for (; n; n = n.parentNode ?? (n.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? (n as ShadowRoot).host : null)) {
      if (n === el) return true;
    }
    return false;
  };
  const reaches = (hit: Element): boolean => {
    if (within(hit)) return true;
    const label = hit.closest("label");
    return label !== null && label.control === el;
  };

  const samples: { x: number; y: number }[] = [];
  for (const b of boxes) {
    const w = b.right - b.left, h = b.bottom - b.top;
    samples.push({ x: b.left + w / 2, y: b.top + h / 2 });
  }
  const fractions = [0.25, 0.75, 0.5, 0.1, 0.9];
  for (const b of boxes) {
    const w = b.right - b.left, h = b.bottom - b.top;
    for (const fy of fractions) {
      for (const fx of fractions) {
        if (fx === 0.5 && fy === 0.5) continue;
        samples.push({ x: b.left + w * fx, y: b.top + h * fy });
      }
    }
  }
  // What of the visible part is left once the boxes of what covers the failed samples are taken away.
  let parts: Box[] = boxes;
  /** The box (top coordinates) of what covers el at (x, y): the hit's highest ancestor holding the point, not el's. */
  const coverBox = (hit: Element, x: number, y: number): Box => {
    if (hit.contains(el)) return { left: x - 1, top: y - 1, right: x + 1, bottom: y + 1 }; // a hole in el
    let c = hit;
    for (let p = c.parentElement; p && !p.contains(el); p = p.parentElement) {
      const b = p.getBoundingClientRect();
      const ox = x - frameOf(hit).dx, oy = y - frameOf(hit).dy;
      if (!(ox >= b.left && ox <= b.right && oy >= b.top && oy <= b.bottom)) break;
      c = p;
    }
    const b = c.getBoundingClientRect();
    const f = frameOf(c);
    return { left: b.left + f.dx, top: b.top + f.dy, right: b.right + f.dx, bottom: b.bottom + f.dy };
  };
  /** The frame (offsets into top coordinates) of the document `n` is in. */
  const frameOf = (n: Element) => frames.find((f) => f.doc === n.ownerDocument) ?? frames[frames.length - 1];
  // Indexed elements inside el (an event block on a calendar day, a button on a card): a press on one of them is
  // that control's, so a point on them is taken only when el shows no point of its own (`inner` below).
  const index = (globalThis as unknown as { __webmixIndex?: (Element | null)[] }).__webmixIndex ?? [];
  const nested = index.filter((d): d is Element => d !== null && d !== el && el.contains(d));
  const inner = (hit: Element) => nested.find((d) => d.contains(hit)) ?? null;
  let first: { x: number; y: number; hit: Element | null } | null = null;
  let onInner: { x: number; y: number } | null = null;
  /** Whether (x, y) is el's own point; else takes what covers it off the parts left. */
  const own = (x: number, y: number, hit: Element | null): boolean => {
    if (hit && reaches(hit)) {
      const d = inner(hit);
      if (!d) return true;
      onInner ??= { x, y };
      parts = parts.flatMap((b) => minus(b, coverBox(d, x, y)));
      return false;
    }
    if (hit) parts = parts.flatMap((b) => minus(b, coverBox(hit, x, y)));
    return false;
  };
  for (const p of samples.slice(0, 13)) {
    const hit = at(p.x, p.y);
    if (own(p.x, p.y, hit)) return { x: p.x, y: p.y, hit: true };
    if (!hit || !reaches(hit)) first ??= { ...p, hit };
  }
  // A sliver beside a popup: the centre of the largest piece left (at least 4 px each way, as the capture lists it).
  for (let budget = 6; budget > 0; budget--) {
    parts = parts.filter((b) => b.right - b.left >= 4 && b.bottom - b.top >= 4);
    if (parts.length === 0) break;
    const b = parts.reduce((a, c) =>
      (c.right - c.left) * (c.bottom - c.top) > (a.right - a.left) * (a.bottom - a.top) ? c : a
    );
    const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
    const hit = at(x, y);
    if (own(x, y, hit)) return { x, y, hit: true };
    if (!hit) parts = parts.filter((p) => p !== b);
  }
  if (onInner) return { ...(onInner as { x: number; y: number }), hit: true }; // all of it is its inner controls'
  first ??= { ...samples[0], hit: at(samples[0].x, samples[0].y) };
  const h = first!.hit;
  let cover = "nothing";
  if (h) {
    const id = h.id ? `#${h.id}` : "";
    const cls = typeof h.className === "string" && h.className.trim()
      ? "." + h.className.trim().split(/\s+/).slice(0, 2).join(".")
      : "";
    const text = ((h as HTMLElement).innerText ?? h.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
    cover = `<${h.localName}${id}${cls}>${text ? ` "${text}"` : ""}`;
  }
  return { x: first!.x, y: first!.y, hit: false, cover };
}

/**
 * The deepest element at a point of the top window's viewport, through open shadow roots and same-origin iframes
 * (what a person's click there reaches); null outside the page.
 */
export function elementAt(x: number, y: number): Element | null {
  let doc: Document | ShadowRoot = document;
  let ox = 0, oy = 0;
  let hit: Element | null = null;
  for (let guard = 0; guard < 32; guard++) {
    const h: Element | null = doc.elementFromPoint(x - ox, y - oy);
    if (!h || h === hit) break;
    hit = h;
    if (h.shadowRoot) {
      doc = h.shadowRoot;
      continue;
    }
    // By name, not instanceof: a frame inside a frame belongs to that frame's realm.
    if (h.localName !== "iframe" && h.localName !== "frame") break;
    let inner: Document | null = null;
    try {
      inner = (h as HTMLIFrameElement).contentDocument;
    } catch { /* cross-origin */ }
    if (!inner) break;
    const fr = h.getBoundingClientRect();
    ox += fr.left + h.clientLeft;
    oy += fr.top + h.clientTop;
    doc = inner;
  }
  return hit;
}

/**
 * The rescue grid: what is on top at `c.GRID` px steps of the viewport, and the ancestors of every hit (walked even
 * when their box is off-screen). Hit tests can cost a lot (linear in a container's children on long lists), so
 * onTop reuses these ones. A page that fits the viewport has no off-screen container to rescue from: onTop then
 * tests its own points.
 */
export function hitGrid(c: Capture, scroller: Element): void {
  const { doc, vw, vh, GRID, grid, rescue } = c;
  const fits = scroller.scrollHeight <= vh && scroller.scrollWidth <= vw;
  for (let y = GRID / 2; y < vh && !fits; y += GRID) {
    for (let x = GRID / 2; x < vw; x += GRID) {
      const hit = doc.elementFromPoint(x, y);
      grid.push(hit);
      for (let n: Element | null = hit; n && !rescue.has(n); n = n.parentElement) rescue.add(n);
    }
  }
}

/**
 * Whether `el` (or its label) receives a click somewhere on its visible part: at one of five points (the grid's
 * hits first), else, for a partly covered element, at the centre of the largest piece of its visible part the
 * boxes of what covers those points leave (at least 4 px each way, the smallest piece that still lists it; a few
 * more hit tests at most).
 */
export function onTop(c: Capture, el: Element, r: Box, f: Frame): boolean {
  const { GRID, grid, cols } = c;
  const v = cut(r, f.view);
  const root = el.getRootNode() as Document | ShadowRoot;
  if (root === c.doc && grid.length > 0) { // a grid point inside the box that hit el: no new hit test
    const c0 = Math.max(0, Math.ceil((v.left - GRID / 2) / GRID));
    for (let row = Math.max(0, Math.ceil((v.top - GRID / 2) / GRID)); row * GRID + GRID / 2 < v.bottom; row++) {
      for (let col = c0; col < cols && col * GRID + GRID / 2 < v.right; col++) {
        const hit = grid[row * cols + col];
        if (hit && (hit === el || el.contains(hit))) return true;
      }
    }
  }
  const from = typeof root.elementFromPoint === "function" ? root : el.ownerDocument;
  const reaches = (hit: Element | null) => {
    if (!hit || hit === el || el.contains(hit)) return true;
    const label = hit.closest("label");
    return label !== null && (label as HTMLLabelElement).control === el;
  };
  // In el's document's coordinates from here on.
  const local: Box = { left: v.left - f.dx, top: v.top - f.dy, right: v.right - f.dx, bottom: v.bottom - f.dy };
  let parts: Box[] = [local];
  const test = (x: number, y: number): boolean => {
    const hit = from.elementFromPoint(x, y);
    if (reaches(hit)) return true;
    const cover = coverOf(hit!, x, y, el);
    parts = parts.flatMap((p) => minus(p, cover));
    return false;
  };
  for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
    if (test(local.left + (local.right - local.left) * fx, local.top + (local.bottom - local.top) * fy)) return true;
  }
  for (let budget = 6; budget > 0; budget--) {
    parts = parts.filter((p) => p.right - p.left >= 4 && p.bottom - p.top >= 4);
    if (parts.length === 0) return false;
    const p = parts.reduce((a, b) => (area(b) > area(a) ? b : a));
    if (test((p.left + p.right) / 2, (p.top + p.bottom) / 2)) return true;
  }
  return false;
}

/**
 * The box of what covers `el` at (x, y): the hit's highest ancestor that still holds the point and is not one of
 * el's ancestors (a popup, not only the text in it); a 2px square when the hit is an ancestor of el (a hole).
 */
export function coverOf(hit: Element, x: number, y: number, el: Element): Box {
  if (hit.contains(el)) return { left: x - 1, top: y - 1, right: x + 1, bottom: y + 1 };
  let c = hit;
  for (let p = c.parentElement; p && !p.contains(el); p = p.parentElement) {
    const b = p.getBoundingClientRect();
    if (!(x >= b.left && x <= b.right && y >= b.top && y <= b.bottom)) break;
    c = p;
  }
  const b = c.getBoundingClientRect();
  if (!(x >= b.left && x <= b.right && y >= b.top && y <= b.bottom)) {
    return { left: x - 1, top: y - 1, right: x + 1, bottom: y + 1 }; // a box elsewhere (transformed, inline)
  }
  return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
}

/** The hit-testing functions the capture uses, as the composer takes them. */
export const HIT = [hitGrid, onTop, coverOf];
