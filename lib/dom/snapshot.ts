/// <reference lib="dom" />
/**
 * The page-side capture: serialised into the page with page.evaluate(snapshotPage, options), so it closes over
 * nothing (every helper and constant lives inside the function; only types are imported).
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
import type { AttributeName, DomElement, PageSnapshot, Rect, SnapshotOptions } from "./types.ts";

/** Captures the page's interactive elements and visible text; stores the index as window.__webmixIndex. */
export function snapshotPage(opts: SnapshotOptions = {}): PageSnapshot {
  const started = performance.now();
  const expansion = opts.viewportExpansion ?? 0;
  const maxText = opts.maxTextLength ?? 100;
  const maxVisible = opts.maxVisibleTextLength ?? 6000;
  const maxOptions = opts.maxOptions ?? 100;
  const maxValue = opts.maxValueLength ?? 1000;
  const doc = document;
  const vw = globalThis.innerWidth;
  const vh = globalThis.innerHeight;
  const whole = expansion < 0;
  /** lib/dom/listeners.ts's LISTENER_GLOBAL (a test keeps the two equal). */
  const LISTENERS = "__webmixClickListeners";
  const ROLES = [
    "button",
    "link",
    "checkbox",
    "radio",
    "option",
    "combobox",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "switch",
    "slider",
    "spinbutton",
    "textbox",
    "searchbox",
    "treeitem",
  ];
  // Everything a person can act on, except labels (kept only when they stand in for a hidden control).
  const ACTIONABLE = [
    "a[href]",
    "button",
    "input:not([type=hidden])",
    "select",
    "textarea",
    "summary",
    "audio[controls]",
    "video[controls]",
    "[onclick]",
    "[draggable=true]",
    "[contenteditable]:not([contenteditable=false])",
    '[tabindex]:not([tabindex="-1"])',
    ...ROLES.map((r) => `[role=${r}]`),
  ].join(",");
  const FIELDS = new Set(["input", "select", "textarea"]);
  const NATIVE = new Set(["a", "button", "input", "select", "textarea", "summary", "label", "audio", "video"]);
  const NO_TEXT = new Set(["script", "style", "noscript", "template", "option", "optgroup", "textarea", "title"]);
  /** Never walked into: no control or visible text of theirs is a separate thing to act on. */
  const NO_WALK = new Set([
    "head",
    "script",
    "style",
    "noscript",
    "template",
    "select",
    "datalist",
    "textarea",
    "option",
    "optgroup",
  ]);
  /** Containers whose children are items: clicking the container means clicking an item. */
  const LISTS = new Set(["ul", "ol", "menu", "tbody"]);
  /** Table sections: their rows stack in document order (see visibleRows). */
  const ROW_GROUPS = new Set(["tbody", "thead", "tfoot"]);
  const LIST_ROLES = new Set(["listbox", "menu", "menubar", "list", "tree", "grid", "tablist", "radiogroup"]);
  const VISIBILITY = { visibilityProperty: true, opacityProperty: true };

  const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
  const cap = (s: string, n: number) => (s.length > n ? s.slice(0, n) + "..." : s);
  type Box = { left: number; top: number; right: number; bottom: number };
  const sx = globalThis.scrollX;
  const sy = globalThis.scrollY;
  const VIEW: Box = { left: 0, top: 0, right: vw, bottom: vh };
  // Where an element is still indexed: the viewport grown by the expansion above and below, or (whole page, -1)
  // anything a scroll can bring into view, i.e. not left of or above the document's origin.
  const NEAR: Box = whole
    ? { left: -sx, top: -sy, right: Infinity, bottom: Infinity }
    : { left: 0, top: -expansion, right: vw, bottom: vh + expansion };
  const meets = (r: Box, b: Box) => r.bottom > b.top && r.top < b.bottom && r.right > b.left && r.left < b.right;
  const cut = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });

  /** A document being walked: the top one, or a same-origin iframe's (dx, dy: its viewport in top coordinates). */
  type Frame = {
    dx: number;
    dy: number;
    /** The part of the top viewport this frame shows, in top coordinates. */
    view: Box;
    /** The same for NEAR. */
    near: Box;
    /** The same for the box outside which a subtree is skipped (viewportExpansion >= 0) or only cheaply checked. */
    walk: Box;
    listeners: WeakMap<Element, number> | undefined;
    /** The innermost ancestor clipping its overflow (a scroll box), or null: view, near and walk are cut to it. */
    clip: { el: Element; box: Box; outer: Frame } | null;
    /** This document's frame before any clip: what a position: fixed element is clipped by. */
    base: Frame;
  };
  type Kept = { el: Element; r: Box; inView: boolean };
  const shift = (r: DOMRect | Box, f: Frame): Box => ({
    left: r.left + f.dx,
    top: r.top + f.dy,
    right: r.right + f.dx,
    bottom: r.bottom + f.dy,
  });

  /**
   * Whether `el` (or its label) receives a click somewhere on its visible part: at one of five points (the grid's
   * hits first), else, for a partly covered element, at the centre of the largest piece of its visible part the
   * boxes of what covers those points leave (at least MIN_PART px each way; a few more hit tests at most).
   */
  function onTop(el: Element, r: Box, f: Frame): boolean {
    const v = cut(r, f.view);
    const root = el.getRootNode() as Document | ShadowRoot;
    if (root === doc && grid.length > 0) { // a grid point inside the box that hit el: no new hit test
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
      const c = coverOf(hit!, x, y, el);
      parts = parts.flatMap((p) => minus(p, c));
      return false;
    };
    for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
      if (test(local.left + (local.right - local.left) * fx, local.top + (local.bottom - local.top) * fy)) return true;
    }
    for (let budget = 6; budget > 0; budget--) {
      parts = parts.filter((p) => p.right - p.left >= MIN_PART && p.bottom - p.top >= MIN_PART);
      if (parts.length === 0) return false;
      const p = parts.reduce((a, b) => (area(b) > area(a) ? b : a));
      if (test((p.left + p.right) / 2, (p.top + p.bottom) / 2)) return true;
    }
    return false;
  }

  /** The smallest visible piece of a partly covered element that still lists it, in px each way. */
  const MIN_PART = 4;
  const area = (b: Box) => (b.right - b.left) * (b.bottom - b.top);
  /** What of `a` lies outside `b`: up to four boxes (above, below, left and right of b). */
  function minus(a: Box, b: Box): Box[] {
    if (!(b.bottom > a.top && b.top < a.bottom && b.right > a.left && b.left < a.right)) return [a];
    const out: Box[] = [];
    const top = Math.max(a.top, b.top), bottom = Math.min(a.bottom, b.bottom);
    if (b.top > a.top) out.push({ left: a.left, top: a.top, right: a.right, bottom: b.top });
    if (b.bottom < a.bottom) out.push({ left: a.left, top: b.bottom, right: a.right, bottom: a.bottom });
    if (b.left > a.left) out.push({ left: a.left, top, right: b.left, bottom });
    if (b.right < a.right) out.push({ left: b.right, top, right: a.right, bottom });
    return out;
  }
  /**
   * The box of what covers `el` at (x, y): the hit's highest ancestor that still holds the point and is not one of
   * el's ancestors (a popup, not only the text in it); a 2px square when the hit is an ancestor of el (a hole).
   */
  function coverOf(hit: Element, x: number, y: number, el: Element): Box {
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

  // 1. The rescue grid: ancestors of what is on top at GRID px steps are walked even when their box is off-screen.
  // Hit tests can cost a lot (linear in a container's children on long lists), so onTop reuses these ones.
  const GRID = 80;
  const cols = Math.ceil((vw - GRID / 2) / GRID);
  const grid: (Element | null)[] = [];
  const rescue = new Set<Element>();
  // A page that fits the viewport has no off-screen container to rescue from: onTop then tests its own points.
  const scroller = doc.scrollingElement ?? doc.documentElement;
  const fits = scroller.scrollHeight <= vh && scroller.scrollWidth <= vw;
  for (let y = GRID / 2; y < vh && !fits; y += GRID) {
    for (let x = GRID / 2; x < vw; x += GRID) {
      const hit = doc.elementFromPoint(x, y);
      grid.push(hit);
      for (let n: Element | null = hit; n && !rescue.has(n); n = n.parentElement) rescue.add(n);
    }
  }

  // 2. The walk: candidates in tree order, and the viewport's text as visual lines.
  const kept: Kept[] = [];
  const keptSet = new Set<Element>();
  const lines: string[] = [];
  let line = "";
  let lineTop = 0;
  let lineBottom = -Infinity;
  let lineRight = 0;
  let endsWithSpace = false;
  let lineParent: Element | null = null;
  let length = 0;
  const range = doc.createRange();

  /** One text node of a shown element: appended to the current line, or starting a new one. */
  function addText(node: Text, f: Frame): void {
    if (length >= maxVisible || !/\S/.test(node.data)) return;
    range.selectNodeContents(node);
    const boxes = range.getClientRects();
    if (boxes.length === 0 || !meets(shift(range.getBoundingClientRect(), f), f.view)) return;
    const first = shift(boxes[0], f);
    const last = shift(boxes[boxes.length - 1], f);
    addWords(collapse(node.data), first, last, node.parentElement!, /^\s/.test(node.data), /\s$/.test(node.data));
  }

  /**
   * Words on screen from `first` (the box of their first line) to `last`: appended to the current line when they
   * continue it, else starting a new one. `spaceBefore`, `spaceAfter`: the source text has white space there.
   */
  function addWords(text: string, first: Box, last: Box, parent: Element, spaceBefore: boolean, spaceAfter: boolean) {
    // Same visual line: overlapping vertically and not going back left (side-by-side columns stay apart).
    const sameLine = first.top < lineBottom - 1 && first.bottom > lineTop + 1 && first.left >= lineRight - 1;
    if (sameLine) {
      const spaced = endsWithSpace || spaceBefore || first.left - lineRight > 1 ||
        (lineParent !== null && lineParent !== parent && apart(lineParent, parent));
      line += (spaced ? " " : "") + text;
    } else {
      if (line) lines.push(line);
      line = text;
    }
    length += text.length + 1;
    lineTop = last.top;
    lineBottom = last.bottom;
    lineRight = last.right;
    endsWithSpace = spaceAfter;
    lineParent = parent;
  }

  /**
   * An image that is not a control, shown in the viewport: its alt text (else its title) as words of the line it
   * sits on (a list whose item types are icons, `<img alt=vegan>`). An empty alt marks a decorative image: none.
   */
  function addImage(el: Element, r: Box, f: Frame): void {
    const words = collapse(el.getAttribute("alt") ?? el.getAttribute("title") ?? "");
    if (!words || length >= maxVisible || !meets(r, f.view) || !el.checkVisibility(VISIBILITY)) return;
    addWords(words, r, r, el, true, true);
  }

  /** A textarea's value (the window valueWindow shows, "…" where it is cut), as lines of their own. */
  function addBlock(el: HTMLTextAreaElement): void {
    if (line) lines.push(line);
    line = "";
    lineBottom = -Infinity;
    lineParent = null;
    const value = el.value;
    const { start, text: shown } = valueWindow(el, value);
    const text = (start > 0 ? "…" : "") + shown + (start + shown.length < value.length ? "…" : "");
    for (const l of text.split("\n")) {
      const c = collapse(l);
      if (!c || length >= maxVisible) continue;
      lines.push(c);
      length += c.length + 1;
    }
  }

  /**
   * Whether two touching texts belong to different blocks (flex or grid items side by side): an element that is
   * not inline lies between one of them and their common ancestor. Read only when nothing else separates them.
   */
  function apart(a: Element, b: Element): boolean {
    const up = new Set<Element>();
    for (let n: Element | null = a; n; n = n.parentElement) up.add(n);
    let common: Element | null = b;
    const blockish = (n: Element) => !getComputedStyle(n).display.startsWith("inline");
    for (; common && !up.has(common); common = common.parentElement) if (blockish(common)) return true;
    for (let n: Element | null = a; n && n !== common; n = n.parentElement) if (blockish(n)) return true;
    return false;
  }

  /** An element that is a list of items: ul/ol/menu, a list role, or three or more alike children with text. */
  function isList(el: Element): boolean {
    const kids = el.children;
    if (kids.length < 2) return false;
    if (LISTS.has(el.localName) || LIST_ROLES.has(el.getAttribute("role") ?? "")) return true;
    if (kids.length < 3) return false;
    const first = kids[0];
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k.localName !== first.localName || k.className !== first.className) return false;
      if (!/\S/.test(k.textContent ?? "")) return false; // icons of one button, not items
    }
    return true;
  }

  /** Nesting deeper than this is not walked (the walk recurses; no real page nests this deep). */
  const MAX_DEPTH = 1000;
  let depth = 0;

  const hasHandler = (el: Element) => {
    const h = el as HTMLElement;
    return h.onclick != null || h.onmousedown != null || h.onpointerdown != null || h.onmouseup != null ||
      h.onpointerup != null;
  };

  /** Scroll boxes kept in the index, the ways each scrolls, and whether scrolling is all it is indexed for. */
  const scrollBoxes = new Map<Element, { x: boolean; y: boolean; only: boolean }>();
  /** The first indexed item of a scrolling list that is not indexed itself → that list. */
  const listOfItem = new Map<Element, Element>();
  const SCROLLS = /^(auto|scroll|overlay)$/;
  /** Overflow under this many px does not make a scroll box (sub-pixel layouts leave a few). */
  const SCROLL_SLACK = 4;
  const inside = (a: Box, b: Box) => a.left >= b.left && a.top >= b.top && a.right <= b.right && a.bottom <= b.bottom;

  /**
   * The frame `el` is clipped by when its box leaves its clip's: the document's own for position: fixed, an outer
   * one for position: absolute when its containing block is outside the clipping element (a transform making a
   * fixed element's containing block is not followed).
   */
  function escaped(el: Element, f: Frame, style: CSSStyleDeclaration): Frame {
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
  function clipped(el: Element, raw: DOMRect, f: Frame, style: CSSStyleDeclaration): Frame {
    const x = style.overflowX !== "visible", y = style.overflowY !== "visible";
    const left = raw.left + el.clientLeft + f.dx, top = raw.top + el.clientTop + f.dy;
    const box: Box = {
      left: x ? left : -Infinity,
      top: y ? top : -Infinity,
      right: x ? left + el.clientWidth : Infinity,
      bottom: y ? top + el.clientHeight : Infinity,
    };
    const across = whole && SCROLLS.test(style.overflowX) ? Infinity : 0;
    const down = SCROLLS.test(style.overflowY) ? (whole ? Infinity : Math.max(0, expansion)) : 0;
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
      walk: cut(f.walk, whole ? box : reach),
      clip: { el, box, outer: f },
    };
  }

  /**
   * Visits `el` and its subtree. `inView`: no ancestor's box was outside the viewport (so the cursor rule and the
   * text apply); `parentPointer`: the parent shows cursor: pointer; `item`: the parent is a handler-bound list.
   */
  function visit(el: Element, f: Frame, inView: boolean, parentPointer: boolean, inert: boolean, item: boolean): void {
    const name = el.localName;
    if (NO_WALK.has(name) && name !== "select" && name !== "textarea") return;
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
        if (!meets(shift(raw, f), f.walk) && !rescue.has(el)) {
          if (!whole) return;
          here = false;
        }
      }
    }
    inert ||= el.hasAttribute("inert");
    // The computed style of what is on screen (the cursor rule, clips) and of boxless containers (a 0px-high one
    // that clips what it holds).
    if (here && (!empty || el.firstElementChild !== null)) style ??= getComputedStyle(el);
    const pointer = here && !empty && style?.cursor === "pointer";
    const strong = el.matches(ACTIONABLE);
    const handled = (f.listeners?.get(el) ?? 0) > 0 || hasHandler(el);
    const weak = !strong && name !== "label" && (handled || (pointer && !parentPointer) || item);
    // A list bound by a handler (or pointer) is indexed item by item, not as a whole.
    const list = (handled || pointer) && !NATIVE.has(name) && !ROLES.includes(el.getAttribute("role") ?? "") &&
      isList(el);
    // (The overflow shorthand reads "visible" when both axes are: one read for the common case.)
    const clips = here && style !== null && style.overflow !== "visible" && name !== "html" && name !== "body" &&
      style.display !== "inline" && style.display !== "contents";
    let scrolls: { x: boolean; y: boolean; only: boolean } | null = null;
    if (clips && !empty && !FIELDS.has(name)) {
      const y = SCROLLS.test(style!.overflowY) && el.scrollHeight > el.clientHeight + SCROLL_SLACK;
      const x = SCROLLS.test(style!.overflowX) && el.scrollWidth > el.clientWidth + SCROLL_SLACK;
      if (x || y) scrolls = { x, y, only: !strong && !weak && name !== "label" };
    }
    if (
      (strong || weak || name === "label" || scrolls) && (!list || scrolls) && !inert && name !== "html" &&
      name !== "body"
    ) {
      raw ??= el.getBoundingClientRect();
      const r = shift(raw, f);
      const big = weak && !scrolls && (r.right - r.left) * (r.bottom - r.top) > (vw * vh) / 2;
      const near = raw.width > 0 && raw.height > 0 && meets(r, f.near);
      if (near && !big && el.checkVisibility(VISIBILITY)) {
        const inV = meets(r, f.view);
        if (!inV || onTop(el, r, f)) {
          kept.push({ el, r, inView: inV });
          keptSet.add(el);
          if (scrolls) scrollBoxes.set(el, scrolls);
        }
      }
    }
    if (name === "img" && here && !empty && !keptSet.has(el)) addImage(el, shift(raw!, f), f);
    if (name === "textarea" && here && !empty && meets(shift(raw!, f), f.view) && el.checkVisibility(VISIBILITY)) {
      addBlock(el as HTMLTextAreaElement);
    }
    if (name === "select" || name === "textarea" || depth >= MAX_DEPTH) return;
    if (name === "iframe" || name === "frame") return visitFrame(el as HTMLIFrameElement, f, here, inert);
    depth++;
    // Text: only for elements whose box is in the viewport and visible.
    let shown: boolean | null = null;
    const inner = clips ? clipped(el, raw!, f, style!) : f;
    const root = (el as HTMLElement).shadowRoot;
    if (root) visitChildren(root, inner, here, pointer, inert, list, () => false);
    visitChildren(el, inner, here, pointer, inert, list, () => {
      if (shown === null) {
        shown = here && !NO_TEXT.has(name) && raw !== null && !empty && meets(shift(raw, f), f.view) &&
          el.checkVisibility(VISIBILITY);
      }
      return shown;
    });
    depth--;
  }

  function visitChildren(
    parent: Node,
    f: Frame,
    inView: boolean,
    pointer: boolean,
    inert: boolean,
    list: boolean,
    shown: () => boolean,
  ): void {
    const rows = !whole && inView && ROW_GROUPS.has((parent as Element).localName)
      ? visibleRows(parent as Element, f)
      : null;
    if (rows) {
      const kids = (parent as Element).children;
      for (let i = 0; i < kids.length; i++) {
        if ((i >= rows[0] && i <= rows[1]) || rescue.has(kids[i])) visit(kids[i], f, inView, pointer, inert, list);
      }
      return;
    }
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) visit(c as Element, f, inView, pointer, inert, list);
      else if (c.nodeType === 3 && inView && shown()) addText(c as Text, f);
    }
  }

  /**
   * A table section's rows stack in document order, so the rows that meet the walk box are a run found by binary
   * search: [first, last] child indexes, or null to visit every row (few rows, or a row without a box where the
   * search probes).
   */
  function visibleRows(section: Element, f: Frame): [number, number] | null {
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

  /** A same-origin iframe's document, walked with the frame's offset; a cross-origin one stays a leaf. */
  function visitFrame(frameEl: HTMLIFrameElement, f: Frame, inView: boolean, inert: boolean): void {
    let inner: Document | null = null;
    try {
      inner = frameEl.contentDocument;
    } catch { /* cross-origin */ }
    if (!inner?.documentElement || !inner.defaultView) return;
    const fr = frameEl.getBoundingClientRect();
    const dx = f.dx + fr.left + frameEl.clientLeft;
    const dy = f.dy + fr.top + frameEl.clientTop;
    const box = { left: dx, top: dy, right: dx + frameEl.clientWidth, bottom: dy + frameEl.clientHeight };
    const listeners = (inner.defaultView as unknown as Record<string, WeakMap<Element, number> | undefined>)[
      LISTENERS
    ];
    const sub = {
      dx,
      dy,
      view: cut(f.view, box),
      near: cut(f.near, box),
      walk: cut(f.walk, box),
      listeners,
      clip: null,
    } as unknown as Frame;
    sub.base = sub;
    visit(inner.documentElement, sub, inView, false, inert, false);
  }

  const top = {
    dx: 0,
    dy: 0,
    view: VIEW,
    near: NEAR,
    walk: whole ? VIEW : NEAR,
    listeners: (globalThis as unknown as Record<string, WeakMap<Element, number> | undefined>)[LISTENERS],
    clip: null,
  } as unknown as Frame;
  top.base = top;
  visit(doc.documentElement, top, true, false, false, false);
  if (line) lines.push(line);

  // 3. A label counts only when its control is not indexed itself (a styled checkbox hiding its input). A list
  // (ul, ol, menu, tbody or a list role: a listbox, a focusable <ul>) followed by two indexed elements of its own
  // is not indexed itself: a click on it picks an item.
  const indexed = kept.filter(({ el }, k) => {
    const name = el.localName;
    if (name === "label" && !el.matches(ACTIONABLE)) {
      const control = (el as HTMLLabelElement).control;
      const keep = control !== null && !keptSet.has(control);
      if (!keep) keptSet.delete(el);
      return keep;
    }
    const holdsItems = (LISTS.has(name) || LIST_ROLES.has(el.getAttribute("role") ?? "")) &&
      !(el as HTMLElement).isContentEditable && k + 2 < kept.length && el.contains(kept[k + 1].el) &&
      el.contains(kept[k + 2].el);
    if (holdsItems) {
      keptSet.delete(el);
      // A list that scrolls (a suggestion list) says what it hides on its first item instead.
      if (scrollBoxes.has(el)) listOfItem.set(kept[k + 1].el, el);
    }
    return !holdsItems;
  });

  /** Visible text of `el` minus the text of indexed descendants (cards, rows with buttons inside). */
  function textWithoutIndexed(el: Element): string {
    let out = "";
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (n) => {
      if (n.nodeType === Node.TEXT_NODE) return NodeFilter.FILTER_ACCEPT;
      const e = n as Element;
      if (keptSet.has(e) || NO_TEXT.has(e.localName) || !e.checkVisibility(VISIBILITY)) {
        return NodeFilter.FILTER_REJECT;
      }
      return NodeFilter.FILTER_SKIP;
    });
    while (walker.nextNode() && out.length <= maxText * 2) out += " " + (walker.currentNode as Text).data;
    return out;
  }

  /** A form field's text is its labels' text (a checkbox's "I agree"); other elements show their own text. */
  function elementText(el: Element, hasIndexedChild: boolean): string {
    // A box indexed for scrolling only: its lines are in the visible text (those on screen), its controls listed
    // after it. (One that is a control too, focusable or bound, shows its text as any element does.)
    if (scrollBoxes.get(el)?.only) return "";
    if (FIELDS.has(el.localName)) {
      const labels = (el as HTMLInputElement).labels;
      if (!labels || labels.length === 0) return "";
      return cap(collapse(Array.from(labels, (l) => textWithoutIndexed(l)).join(" ")), maxText);
    }
    const raw = hasIndexedChild ? textWithoutIndexed(el) : (el as HTMLElement).innerText ?? el.textContent ?? "";
    let text = collapse(raw);
    if (!text && !hasIndexedChild) text = collapse(el.querySelector("img[alt]")?.getAttribute("alt") ?? "");
    return cap(text, maxText);
  }

  function shortHref(a: HTMLAnchorElement): string {
    const raw = a.getAttribute("href") ?? "";
    if (!/^https?:/i.test(a.href)) return raw;
    const u = new URL(a.href);
    return u.origin === location.origin ? u.pathname + u.search + u.hash : u.href;
  }

  /**
   * A slider handle without ARIA (jQuery UI's `<span class="ui-slider-handle" tabindex="0">`): a text-less element
   * with no role, absolutely positioned inside a track (its parent) at least three times its size along one axis.
   * Its value: the first input inside the track or right beside it, else its position along the track ("40%").
   */
  function handleValue(el: Element, r: Box): string | null {
    const track = el.parentElement;
    if (!track || el.hasAttribute("role") || el.children.length > 0 || /\S/.test(el.textContent ?? "")) return null;
    const t = track.getBoundingClientRect();
    const w = r.right - r.left, h = r.bottom - r.top;
    const across = t.width >= 3 * w && t.width >= t.height;
    if (!(across || t.height >= 3 * h) || getComputedStyle(el).position !== "absolute") return null;
    const beside = [track.nextElementSibling, track.previousElementSibling].find((e) => e?.localName === "input");
    const input = track.querySelector("input") ?? beside;
    if (input) return (input as HTMLInputElement).value;
    const dx = el.getBoundingClientRect();
    const pct = across ? (dx.left + dx.width / 2 - t.left) / t.width : 1 - (dx.top + dx.height / 2 - t.top) / t.height;
    return `${Math.round(Math.min(1, Math.max(0, pct)) * 100)}%`;
  }

  function liveValue(el: Element): string | null {
    const name = el.localName;
    if (name === "select") {
      const s = el as HTMLSelectElement;
      return s.selectedIndex >= 0 ? s.options[s.selectedIndex].text : null;
    }
    if (name === "input") {
      const i = el as HTMLInputElement;
      if (i.type === "password" || i.type === "checkbox" || i.type === "radio") return null;
      return i.type === "file" ? i.value.replace(/^.*[\\/]/, "") : i.value;
    }
    if (name === "textarea" || name === "button") return (el as HTMLTextAreaElement).value;
    return el.getAttribute("role") === "slider" ? el.getAttribute("aria-valuenow") : null;
  }

  /** The length of the last value attributesOf read (before its cut), and where its shown part starts. */
  let valueLength = 0;
  let valueStart = 0;

  /**
   * The part of a value longer than maxValue that is shown: the maxValue characters from where the field is
   * scrolled to (a textarea's first visible line, found as the line at scrollTop's share of its rows, each line's
   * rows estimated from its length and the field's width; an input's scrollLeft share of the text), whole lines
   * from there when the end is reached. Not inside a surrogate pair. The whole value when it fits.
   */
  function valueWindow(el: Element, value: string): { start: number; text: string } {
    if (value.length <= maxValue) return { start: 0, text: value };
    const f = el as HTMLTextAreaElement;
    let start = 0;
    if (el.localName === "textarea" && f.scrollTop > 0 && f.scrollHeight > f.clientHeight) {
      const em = parseFloat(getComputedStyle(el).fontSize) || 13;
      const perRow = Math.max(1, Math.floor(f.clientWidth / (em * 0.6)));
      const rows = value.split("\n").map((l) => Math.max(1, Math.ceil(l.length / perRow)));
      const total = rows.reduce((s, r) => s + r, 0);
      const want = (f.scrollTop / f.scrollHeight) * total;
      // Past the lines whose rows lie wholly above the scroll position.
      for (let k = 0, row = 0; k < rows.length && row + rows[k] <= want + 0.5; k++) {
        row += rows[k];
        start = value.indexOf("\n", start) + 1;
      }
    } else if (el.localName === "input" && f.scrollLeft > 0 && f.scrollWidth > f.clientWidth) {
      start = Math.round((f.scrollLeft / f.scrollWidth) * value.length);
    }
    if (start + maxValue > value.length) {
      start = value.length - maxValue;
      const next = value.indexOf("\n", start - 1);
      if (el.localName === "textarea" && next >= 0 && value[start - 1] !== "\n") start = next + 1;
    }
    if (/[\uDC00-\uDFFF]/.test(value[start] ?? "")) start++;
    return { start, text: value.slice(start, start + maxValue).replace(/[\uD800-\uDBFF]$/, "") };
  }

  function attributesOf(el: Element, r: Box): Partial<Record<AttributeName, string>> {
    const a: Partial<Record<AttributeName, string>> = {};
    const plain = ["id", "name", "type", "role", "aria-label", "placeholder", "title", "alt", "for"] as const;
    for (const k of plain) {
      const v = el.getAttribute(k);
      if (v !== null && v.trim() !== "") a[k] = v;
    }
    const value = liveValue(el);
    valueLength = value?.length ?? 0;
    valueStart = 0;
    if (value) {
      const shown = valueWindow(el, value);
      [a.value, valueStart] = [shown.text, shown.start];
    } else if (el.getAttribute("role") === "slider" && el.getAttribute("aria-valuetext")) {
      a.value = el.getAttribute("aria-valuetext")!;
    } else if (!a.role && !NATIVE.has(el.localName)) {
      const handle = handleValue(el, r);
      if (handle !== null) {
        a.role = "slider";
        if (handle) a.value = handle;
      }
    }
    if (el.localName === "a" && el.hasAttribute("href")) a.href = shortHref(el as HTMLAnchorElement);
    const type = (el as HTMLInputElement).type;
    if (el.localName === "input" && (type === "checkbox" || type === "radio")) {
      a.checked = String((el as HTMLInputElement).checked);
    } else if (el.hasAttribute("aria-checked")) a.checked = el.getAttribute("aria-checked")!;
    if (el.localName === "option") a.selected = String((el as HTMLOptionElement).selected);
    for (const k of ["aria-expanded", "aria-selected"] as const) {
      const v = el.getAttribute(k);
      if (v) a[k] = v;
    }
    const disabled = (el as HTMLInputElement).disabled === true || el.getAttribute("aria-disabled") === "true";
    if (disabled) a.disabled = "true";
    if ((el as HTMLElement).isContentEditable && el.hasAttribute("contenteditable")) a.contenteditable = "true";
    if (el.getAttribute("draggable") === "true") a.draggable = "true";
    const list = listOfItem.get(el);
    const box = list ?? el;
    const scrolls = scrollBoxes.get(box);
    if (scrolls) {
      const px = (n: number) => `${Math.max(0, Math.round(n))}px`;
      const ways: string[] = [];
      if (scrolls.y) {
        ways.push(`${px(box.scrollTop)} above`, `${px(box.scrollHeight - box.clientHeight - box.scrollTop)} below`);
      }
      if (scrolls.x) {
        ways.push(`${px(box.scrollLeft)} left`, `${px(box.scrollWidth - box.clientWidth - box.scrollLeft)} right`);
      }
      a.scroll = (list ? "list: " : "") + ways.join(", ");
    }
    return a;
  }

  // 4. A name for an element that has none: no text and none of these attributes (an icon-only button).
  const NAMED = ["aria-label", "title", "alt", "placeholder", "value"] as const;
  /** Words that name no control on their own: icon-set, layout and state class words, image-name fillers. */
  const GENERIC = new Set(
    ("btn button buttons icon icons ico ic fa fas far fal fab fad fw solid regular light duotone brands glyphicon " +
      "glyphicons bi mdi material symbols outlined round rounded sharp tone ion ionicon ionicons ti tabler la las " +
      "lab octicon feather lucide heroicon svg img image images sprite sprites ui state default widget component " +
      "wrapper wrap container inner outer content item items el elem element box block inline action actions " +
      "control controls ctrl tool tools toolbar link links clickable pointer cursor active selected hidden visible " +
      "show shown open opened closed disabled enabled focus focused hover on off primary secondary tertiary " +
      "success danger warning info outline ghost flat plain small large sm md lg xl xs xxl mini tiny big circle " +
      "square pill trigger toggler handle main root holder group panel ng js").split(" "),
  );
  /** First words of utility and generated class names (col-6, p-2, text-center, js-hook, css-1x2y3z, sc-AbCd). */
  const UTILITY = new Set(
    ("col row flex grid d p px py pt pb pl pr ps pe m mx my mt mb ml mr ms me w h min max text bg border rounded " +
      "shadow gap justify align items self order float pull push offset overflow position font fw fs lh opacity " +
      "z js ng is has sr visually u space divide ring cursor select transition duration ease animate translate " +
      "scale rotate inset object leading tracking whitespace break truncate sticky fixed absolute relative static " +
      "block inline hidden visible invisible container clearfix css sc jsx emotion styled svelte astro tw chakra " +
      "mui ant el v q ember").split(" "),
  );

  /** The words of a class token or file name, lower case (camelCase, -, _, ., @ split). */
  const wordsOf = (s: string) =>
    s.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s\-_.@+~]+/).filter((w) => w !== "");

  /** A file name's words that name something: `icons/star-filled.svg` → "star filled"; "" for a hash. */
  function fileName(url: string): string {
    if (/^data:/i.test(url)) return "";
    const hash = url.indexOf("#");
    const part = hash >= 0 ? url.slice(hash + 1) : url.replace(/[?#].*$/, "").replace(/\/+$/, "").replace(/^.*\//, "");
    let base = part;
    try {
      base = decodeURIComponent(part);
    } catch { /* keep it as it is */ }
    if (hash < 0) base = base.replace(/\.[a-z0-9]{2,5}$/i, "");
    const words = wordsOf(base).filter((w) => w.length > 1 && !/\d/.test(w) && !GENERIC.has(w));
    return words.slice(0, 4).join(" ");
  }

  /** A class token's words when it names something (`fa-trash` → "trash", `swatch-red` → "swatch red"). */
  function classWords(token: string): string[] {
    if (token.length > 40 || /[:[\]/()!#%]/.test(token) || /\d/.test(token)) return [];
    // Generated names: short camelCase pieces (styled-components' "bdVaJa").
    if (/[A-Z]/.test(token.slice(1)) && !/[-_]/.test(token) && wordsOf(token).some((w) => w.length < 3)) return [];
    const words = wordsOf(token);
    if (words.length === 0 || UTILITY.has(words[0])) return [];
    return [...new Set(words.filter((w) => w.length > 1 && !GENERIC.has(w)))];
  }

  /**
   * The derived name of a nameless element (docs/perception.md): aria-labelledby's text; an ancestor's aria-label
   * or title (three levels up at most, not past one that holds another indexed element); for elements other than
   * fields, what is inside (an svg's or img's aria-label or title, an svg <title>), an image's file name (an img's
   * src, a CSS background-image, an SVG <use> href), a distinctive class token. "" when none.
   */
  function nameOf(el: Element, k: number): string {
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const root = el.getRootNode() as Document | ShadowRoot;
      const text = collapse(by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? "").join(" "));
      if (text) return cap(text, maxText);
    }
    const before = indexed[k - 1]?.el;
    let j = k + 1;
    while (j < indexed.length && el.contains(indexed[j].el)) j++;
    const after = indexed[j]?.el;
    let n: Element | null = el;
    for (let level = 0; level < 3; level++) {
      n = n.parentElement ?? ((n.parentNode as ShadowRoot | null)?.host ?? null);
      if (!n || n.localName === "body" || n.localName === "html") break;
      if ((before && n.contains(before)) || (after && n.contains(after))) break;
      const own = n.getAttribute("aria-label") ?? n.getAttribute("title");
      if (own && own.trim()) return cap(collapse(own), maxText);
    }
    if (FIELDS.has(el.localName)) return "";
    // The element and a few elements inside it (an icon button holds one icon, not a page); only the element
    // when it holds indexed elements (a card) or is a scroll box: what is inside them is their content's.
    const near: Element[] = [el];
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    const holds = j > k + 1 || scrollBoxes.has(el);
    while (!holds && near.length < 8 && walker.nextNode()) near.push(walker.currentNode as Element);
    for (const e of near.slice(1)) {
      const own = e.getAttribute("aria-label") ?? e.getAttribute("title") ??
        (e.localName === "title" && e.parentElement?.localName === "svg" ? e.textContent : null);
      if (own && own.trim()) return cap(collapse(own), maxText);
    }
    for (const e of near) {
      let url = "";
      if (e.localName === "img") url = (e as HTMLImageElement).currentSrc || e.getAttribute("src") || "";
      else if (e.localName === "use") url = e.getAttribute("href") ?? e.getAttribute("xlink:href") ?? "";
      if (!url && e.namespaceURI === "http://www.w3.org/1999/xhtml") {
        const bg = getComputedStyle(e).backgroundImage;
        url = /url\(/.test(bg) ? bg.replace(/^.*?url\(\s*["']?/, "").replace(/["']?\s*\).*$/, "") : "";
      }
      const words = url ? fileName(url) : "";
      if (words) return words;
    }
    const colour = swatchColour(el);
    if (colour) return colour;
    // The class token of most distinctive words, the element's own first.
    let best: string[] = [];
    for (const e of near) {
      for (const token of Array.from(e.classList)) {
        const words = classWords(token);
        if (words.length > best.length) best = words;
      }
      if (best.length > 0) break;
    }
    return best.slice(0, 4).join(" ");
  }

  /**
   * A colour swatch's colour, named (`yellow (#ffff00)`): a colour in its data-value, data-color or data-colour
   * (a hex or rgb()), else, for an empty element (no children, no text) in a palette, its own opaque background
   * colour (a palette: a sibling of the same tag has another opaque background; a row of grey icon boxes is none).
   * "" when it is no swatch.
   */
  function swatchColour(el: Element): string {
    let rgb: number[] | null = null;
    for (const k of ["data-value", "data-color", "data-colour"]) rgb ??= parseColour(el.getAttribute(k) ?? "");
    if (!rgb && el.childElementCount === 0 && !/\S/.test(el.textContent ?? "")) {
      const own = getComputedStyle(el).backgroundColor;
      const bg = parseColour(own);
      const kin = Array.from(el.parentElement?.children ?? []).filter((k) => k !== el && k.localName === el.localName);
      const palette = kin.slice(0, 12).some((k) => {
        const c = getComputedStyle(k).backgroundColor;
        return c !== own && (parseColour(c)?.[3] ?? 0) > 0.5;
      });
      if (bg && bg[3] > 0.5 && palette) rgb = bg;
    }
    if (!rgb) return "";
    const hex = "#" + rgb.slice(0, 3).map((n) => Math.round(n).toString(16).padStart(2, "0")).join("");
    return `${colourName(rgb[0], rgb[1], rgb[2])} (${hex})`;
  }

  /** [r, g, b, alpha] of `#rgb`, `#rrggbb`, `rgb()` or `rgba()` text; null for anything else. */
  function parseColour(text: string): number[] | null {
    const t = text.trim().toLowerCase();
    const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(t)?.[1];
    if (hex) {
      const full = hex.length === 3 ? hex.replace(/./g, "$&$&") : hex;
      return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)).concat(1);
    }
    const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(t);
    if (!m) return null;
    const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [+m[1], +m[2], +m[3], alpha];
  }

  /**
   * The common name of a colour, by hue, saturation and lightness: black, white, gray, or one of twelve hues
   * (brown for dark orange and red, pink for light red and magenta, purple for dark magenta), "light" or "dark"
   * before it at either end.
   */
  function colourName(r: number, g: number, b: number): string {
    const [R, G, B] = [r / 255, g / 255, b / 255];
    const max = Math.max(R, G, B), min = Math.min(R, G, B), l = (max + min) / 2, d = max - min;
    if (l < 0.1) return "black";
    if (l > 0.95) return "white";
    const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
    const tone = l > 0.75 ? "light " : l < 0.3 ? "dark " : "";
    if (s < 0.15) return tone + "gray";
    let h = max === R ? ((G - B) / d) % 6 : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
    h = (h * 60 + 360) % 360;
    const HUES: [number, string][] = [
      [15, "red"],
      [45, "orange"],
      [70, "yellow"],
      [165, "green"],
      [195, "cyan"],
      [255, "blue"],
      [290, "purple"],
      [335, "magenta"],
      [360, "red"],
    ];
    const hue = HUES.find(([end]) => h < end)![1];
    if ((hue === "red" || hue === "magenta") && l > 0.75) return "pink";
    if (hue === "magenta" && l < 0.4) return "purple";
    if ((hue === "orange" || hue === "red") && l < 0.35 && s < 0.9) return "brown";
    return tone + hue;
  }

  // 5. New-element marking against the previous snapshot of this document; document.open() swaps the root.
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
    const attributes = attributesOf(el, r);
    const text = elementText(el, next !== undefined && el.contains(next));
    if (!text && !NAMED.some((n) => attributes[n] !== undefined)) {
      const label = nameOf(el, k);
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
    if (valueLength > maxValue) item.valueLength = valueLength;
    if (valueStart > 0) item.valueStart = valueStart;
    if (el.localName === "select") {
      const options = (el as HTMLSelectElement).options;
      item.options = Array.from(options).slice(0, maxOptions).map((o) => cap(collapse(o.text), maxText));
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
    visibleText: lines.join("\n").slice(0, maxVisible),
    captureMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

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
