/// <reference lib="dom" />
/**
 * Page-side: where a person's click on an element lands. Serialised with toString() (it closes over nothing), and
 * passed as an argument to other page functions the way lib/dom's indexedElement is.
 */

/** A point in the top window's viewport, and what a click there hits. */
export type ClickPoint =
  /** The element (or something inside it, or its label) is on top at (x, y). */
  | { x: number; y: number; hit: true }
  /** Every sampled point of the element's visible part is covered; `cover` describes what is on top at (x, y). */
  | { x: number; y: number; hit: false; cover: string };

/**
 * A point of `el` a click would reach: the first of up to 13 sample points of its visible part (the centre, then a
 * grid) where the topmost element is `el`, inside it (shadow trees included) or its label, and not inside another
 * indexed element within it (a press there is that control's: an event block over a calendar day; such a point
 * only when el has no other); failing those, the centre
 * of the largest piece (4 px or more each way) that the boxes of what covers them leave (a sliver beside a popup, as
 * the capture's onTop finds it; up to 6 more hit tests). Coordinates are the top
 * window's viewport: the offsets of the same-origin iframes `el` lies in are added, and the visible part is clipped
 * by each frame's viewport. When every sample is covered, the centre with what covers it; null when no part of
 * `el` is inside the viewport. `at` is lib/dom's elementAt (a page function receives its source as an argument).
 */
export function visiblePoint(el: Element, at: typeof elementAt): ClickPoint | null {
  type Box = { left: number; top: number; right: number; bottom: number };
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
  const minus = (a: Box, b: Box): Box[] => {
    if (!(b.bottom > a.top && b.top < a.bottom && b.right > a.left && b.left < a.right)) return [a];
    const out: Box[] = [];
    const top = Math.max(a.top, b.top), bottom = Math.min(a.bottom, b.bottom);
    if (b.top > a.top) out.push({ left: a.left, top: a.top, right: a.right, bottom: b.top });
    if (b.bottom < a.bottom) out.push({ left: a.left, top: b.bottom, right: a.right, bottom: a.bottom });
    if (b.left > a.left) out.push({ left: a.left, top, right: b.left, bottom });
    if (b.right < a.right) out.push({ left: b.right, top, right: a.right, bottom });
    return out;
  };
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
