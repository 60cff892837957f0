/// <reference lib="dom" />
/**
 * The page-side capture: serialised into the page with page.evaluate(snapshotPage, options), so it closes over
 * nothing (every helper and constant lives inside the function; only types are imported).
 *
 * One walk of the document in tree order, into open shadow roots and same-origin iframes (their offsets added, so
 * every rect is in the top viewport's coordinates), collects both the indexed elements and the visible text.
 *
 * What is indexed: native controls, ARIA roles, [onclick], [tabindex], draggable and editable elements; elements a
 * script gave a click, mousedown or pointerdown listener (the record lib/dom/listeners.ts keeps) or an onclick,
 * onmousedown or onpointerdown property; elements with `cursor: pointer` whose parent is not pointer too (what
 * delegated handlers make clickable; checked near the viewport only); labels standing in for a hidden control.
 * Such a script-bound or pointer element larger than half the viewport is taken for a delegation root (an app's
 * root node) and not indexed itself.
 * A handler-bound list (a `<ul>`, a listbox, or a container of three or more alike children) is indexed item by
 * item, not as one blob. aria-hidden does not hide from sight, so it does not exclude; inert does. An element
 * stays when any of up to five points of its visible part is on top (a partly covered element stays).
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
 * there. getComputedStyle is read only for elements in the viewport (the cursor rule), for boxless elements
 * (display: contents or none), for touching texts of different elements, and for slider handles. Not covered:
 * closed shadow roots, cross-origin iframes.
 */
import type { AttributeName, DomElement, PageSnapshot, Rect, SnapshotOptions } from "./types.ts";

/** Captures the page's interactive elements and visible text; stores the index as window.__webmixIndex. */
export function snapshotPage(opts: SnapshotOptions = {}): PageSnapshot {
  const started = performance.now();
  const expansion = opts.viewportExpansion ?? 0;
  const maxText = opts.maxTextLength ?? 100;
  const maxVisible = opts.maxVisibleTextLength ?? 6000;
  const maxOptions = opts.maxOptions ?? 100;
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
  };
  type Kept = { el: Element; r: Box; inView: boolean };
  const shift = (r: DOMRect | Box, f: Frame): Box => ({
    left: r.left + f.dx,
    top: r.top + f.dy,
    right: r.right + f.dx,
    bottom: r.bottom + f.dy,
  });

  /** Whether `el` (or its label) receives a click at one of up to five points of its visible part. */
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
    for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
      const x = v.left + (v.right - v.left) * fx - f.dx;
      const y = v.top + (v.bottom - v.top) * fy - f.dy;
      const hit = from.elementFromPoint(x, y);
      if (!hit || hit === el || el.contains(hit)) return true;
      const label = hit.closest("label");
      if (label !== null && (label as HTMLLabelElement).control === el) return true;
    }
    return false;
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
    const text = collapse(node.data);
    // Same visual line: overlapping vertically and not going back left (side-by-side columns stay apart).
    const sameLine = first.top < lineBottom - 1 && first.bottom > lineTop + 1 && first.left >= lineRight - 1;
    const parent = node.parentElement!;
    if (sameLine) {
      const spaced = endsWithSpace || /^\s/.test(node.data) || first.left - lineRight > 1 ||
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
    endsWithSpace = /\s$/.test(node.data);
    lineParent = parent;
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
    return h.onclick != null || h.onmousedown != null || h.onpointerdown != null;
  };

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
    if (inView) {
      raw = el.getBoundingClientRect();
      empty = raw.width === 0 || raw.height === 0;
      if (empty) {
        // No box: display none (skip), display: contents (walk on), or an empty box content may overflow.
        if (!el.checkVisibility() && getComputedStyle(el).display !== "contents") return;
      } else if (!meets(shift(raw, f), f.walk) && !rescue.has(el)) {
        if (!whole) return;
        here = false;
      }
    }
    inert ||= el.hasAttribute("inert");
    const pointer = here && !empty && getComputedStyle(el).cursor === "pointer";
    const strong = el.matches(ACTIONABLE);
    const handled = (f.listeners?.get(el) ?? 0) > 0 || hasHandler(el);
    const weak = !strong && name !== "label" && (handled || (pointer && !parentPointer) || item);
    // A list bound by a handler (or pointer) is indexed item by item; focusable or native, it stays indexed too.
    const list = (handled || pointer) && !el.hasAttribute("tabindex") && !NATIVE.has(name) &&
      !ROLES.includes(el.getAttribute("role") ?? "") && isList(el);
    if ((strong || weak || name === "label") && !list && !inert && name !== "html" && name !== "body") {
      raw ??= el.getBoundingClientRect();
      const r = shift(raw, f);
      const big = weak && (r.right - r.left) * (r.bottom - r.top) > (vw * vh) / 2;
      const near = raw.width > 0 && raw.height > 0 && meets(r, f.near);
      if (near && !big && el.checkVisibility(VISIBILITY)) {
        const inV = meets(r, f.view);
        if (!inV || onTop(el, r, f)) {
          kept.push({ el, r, inView: inV });
          keptSet.add(el);
        }
      }
    }
    if (name === "select" || name === "textarea" || depth >= MAX_DEPTH) return;
    if (name === "iframe" || name === "frame") return visitFrame(el as HTMLIFrameElement, f, here, inert);
    depth++;
    // Text: only for elements whose box is in the viewport and visible.
    let shown: boolean | null = null;
    const root = (el as HTMLElement).shadowRoot;
    if (root) visitChildren(root, f, here, pointer, inert, list, () => false);
    visitChildren(el, f, here, pointer, inert, list, () => {
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
    const sub: Frame = { dx, dy, view: cut(f.view, box), near: cut(f.near, box), walk: cut(f.walk, box), listeners };
    visit(inner.documentElement, sub, inView, false, inert, false);
  }

  const top: Frame = {
    dx: 0,
    dy: 0,
    view: VIEW,
    near: NEAR,
    walk: whole ? VIEW : NEAR,
    listeners: (globalThis as unknown as Record<string, WeakMap<Element, number> | undefined>)[LISTENERS],
  };
  visit(doc.documentElement, top, true, false, false, false);
  if (line) lines.push(line);

  // 3. A label counts only when its control is not indexed itself (a styled checkbox hiding its input).
  const indexed = kept.filter(({ el }) => {
    if (el.localName !== "label" || el.matches(ACTIONABLE)) return true;
    const control = (el as HTMLLabelElement).control;
    const keep = control !== null && !keptSet.has(control);
    if (!keep) keptSet.delete(el);
    return keep;
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

  function attributesOf(el: Element, r: Box): Partial<Record<AttributeName, string>> {
    const a: Partial<Record<AttributeName, string>> = {};
    const plain = ["id", "name", "type", "role", "aria-label", "placeholder", "title", "alt", "for"] as const;
    for (const k of plain) {
      const v = el.getAttribute(k);
      if (v !== null && v.trim() !== "") a[k] = v;
    }
    const value = liveValue(el);
    if (value) a.value = value;
    else if (el.getAttribute("role") === "slider" && el.getAttribute("aria-valuetext")) {
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
    return a;
  }

  // 4. New-element marking against the previous snapshot of this document; document.open() swaps the root.
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
    const item: DomElement = {
      index: k + 1,
      tag: el.localName,
      attributes: attributesOf(el, r),
      text: elementText(el, next !== undefined && el.contains(next)),
      isNew: previous !== null && !previous.has(el),
      inViewport: inView,
      rect: round(r),
    };
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
