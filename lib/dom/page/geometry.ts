/**
 * Page-side geometry: boxes in a viewport's coordinates, shared by the capture and the click point (lib/dom's
 * composer declares each function once in the page script; each closes over nothing).
 */

/** A box in viewport coordinates (a DOMRect's four edges). */
export type Box = { left: number; top: number; right: number; bottom: number };

/** Whether `r` and `b` overlap (a shared edge is no overlap). */
export function meets(r: Box, b: Box): boolean {
  return r.bottom > b.top && r.top < b.bottom && r.right > b.left && r.left < b.right;
}

/** The part of `a` inside `b` (left > right or top > bottom when they do not meet). */
export function cut(a: Box, b: Box): Box {
  return {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
}

/** `r` moved by a frame's offset (a same-origin iframe's viewport in top coordinates). */
export function shift(r: DOMRect | Box, f: { dx: number; dy: number }): Box {
  return { left: r.left + f.dx, top: r.top + f.dy, right: r.right + f.dx, bottom: r.bottom + f.dy };
}

/** Whether `a` lies wholly inside `b`. */
export function inside(a: Box, b: Box): boolean {
  return a.left >= b.left && a.top >= b.top && a.right <= b.right && a.bottom <= b.bottom;
}

/** The area of `b`. */
export function area(b: Box): number {
  return (b.right - b.left) * (b.bottom - b.top);
}

/** What of `a` lies outside `b`: up to four boxes (above, below, left and right of b). */
export function minus(a: Box, b: Box): Box[] {
  if (!meets(a, b)) return [a];
  const out: Box[] = [];
  const top = Math.max(a.top, b.top), bottom = Math.min(a.bottom, b.bottom);
  if (b.top > a.top) out.push({ left: a.left, top: a.top, right: a.right, bottom: b.top });
  if (b.bottom < a.bottom) out.push({ left: a.left, top: b.bottom, right: a.right, bottom: a.bottom });
  if (b.left > a.left) out.push({ left: a.left, top, right: b.left, bottom });
  if (b.right < a.right) out.push({ left: b.right, top, right: a.right, bottom });
  return out;
}

/** The geometry functions, as the composer takes them. */
export const GEOMETRY = [meets, cut, shift, inside, area, minus];
