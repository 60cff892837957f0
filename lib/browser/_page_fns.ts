/// <reference lib="dom" />
/**
 * Functions that run inside the page, serialised with toString(): each closes over nothing. The element-bound
 * ones take the indexed element first (see Tab.onElement); the others stand alone, and those that find indexed
 * elements themselves take lib/dom's indexedElement as their first argument (Tab.call passes its source).
 */
import type { elementAt, indexedElement, visiblePoint } from "../dom/mod.ts";
import type { dropPoint } from "./_input.ts";

/** lib/dom's indexedElement, as a page function receives it. */
type Lookup = typeof indexedElement;

/** An answer a page function gives when the element cannot take the action. */
export interface PageRefusal {
  refused: string;
}

/** lib/dom's visiblePoint, as a page function receives it. */
type PointOf = typeof visiblePoint;
/** lib/dom's elementAt, as a page function receives it. */
type ElementAt = typeof elementAt;

/**
 * Where a person's click (or the mouse) reaches the element: a point of its visible part where it is on top
 * (lib/dom's visiblePoint, in top-window coordinates), the element scrolled into view first when it is not wholly
 * in its window's viewport. Refused when every such point is covered (an overlay, a suggestion menu): the refusal
 * names what a click there would hit instead.
 */
export async function planClick(
  el: Element,
  pointOf: PointOf,
  at: ElementAt,
  box: typeof hoverBox,
): Promise<{ x: number; y: number; newTab: boolean } | PageRefusal> {
  const link = el.closest("a[href], area[href]") as HTMLAnchorElement | null;
  const form = (el.closest("button, input[type=submit], input[type=image]") as HTMLButtonElement | null)?.form;
  const newTab = (link?.target ?? form?.target ?? "") === "_blank";
  const win = el.ownerDocument.defaultView ?? window;
  await box(el); // the pointer rests on it and its hover image is loading
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return { refused: "it has no size on the page (hidden?)" };
  const scroll = () => el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  if (r.top < 0 || r.left < 0 || r.bottom > win.innerHeight || r.right > win.innerWidth) scroll();
  let p = pointOf(el, at);
  if (!p) {
    scroll(); // an element of a frame that is itself out of view
    p = pointOf(el, at);
  }
  if (!p) return { refused: "no part of it can be brought into the viewport" };
  if (!p.hit) {
    return {
      refused: `it is covered by ${p.cover} at (${Math.round(p.x)}, ${Math.round(p.y)}) ` +
        "(a click there would hit that instead)",
    };
  }
  return { x: p.x, y: p.y, newTab };
}

/**
 * Resolves once an element under the pointer has a box again, or at once when it has one: a `:hover` rule that
 * swaps its image (`content: url()`, an <img> whose size comes from the new image) leaves it without size until
 * the image arrives, and the pointer, which did not move, keeps it hovered. Waits only while the element is
 * connected, matches :hover and has no width or height; 1 s at most.
 */
export async function hoverBox(el: Element): Promise<void> {
  const started = performance.now();
  const empty = () => {
    const r = el.getBoundingClientRect();
    return r.width === 0 || r.height === 0;
  };
  while (el.isConnected && empty() && el.matches(":hover") && performance.now() - started < 1000) {
    await new Promise((r) => setTimeout(r, 16));
  }
}

/** What is under the pointer once the page has answered the mouse moving onto an element (see hoverCheck). */
export type HoverCheck =
  /** The element (or something inside it, or its label) is on top at the point. */
  | { on: true }
  /**
   * Something else is: `now` describes it. `why`: the element left the page (gone: re-rendered), is no longer
   * visible (hidden: a rollover showing its other image) or is elsewhere or covered (moved). `same`: what is at the
   * point now is its equivalent (gone or hidden only), kept for the next hoverCheck(..., true).
   */
  | { on: false; now: string; why: "gone" | "hidden" | "moved"; same: boolean };

/**
 * Resolves a frame and a task later: what the page did when the mouse moved (a mouseover handler, the render it
 * queued for the next frame or task) has run. Alone in a background tab (no frames), after 100 ms.
 */
export function afterHover(): Promise<void> {
  return new Promise<void>((done) => {
    const fallback = setTimeout(done, 100);
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      setTimeout(done, 0);
    });
  });
}

/**
 * Waits for the page to answer the hover (afterHover, passed as `settle`), then hit-tests the top-window point:
 * whether the element of index `i` is still what a press there reaches. When the element left the page or is no
 * longer visible, the element at the point (or its nearest ancestor of the same tag) counts as its equivalent when
 * it carries the same text, or the same id, name, alt, title, aria-label, href or value (class overlap for
 * elements with none of these). `retarget`: check that equivalent instead of the element.
 */
export async function hoverCheck(
  lookup: Lookup,
  i: number,
  at: ElementAt,
  settle: typeof afterHover,
  box: typeof hoverBox,
  x: number,
  y: number,
  retarget: boolean,
): Promise<HoverCheck> {
  await settle();
  const KEY = "__webmixRetarget";
  const store = globalThis as unknown as Record<string, Element | undefined>;
  const found = retarget ? store[KEY] : lookup(i, true);
  const el = typeof found === "string" ? undefined : found;
  if (el) await box(el); // a :hover rule swapped its image, still loading
  const hit = at(x, y);
  /** `n` is `target` or inside it (across shadow roots), or a label of it. */
  const reaches = (target: Element, n: Element): boolean => {
    const label = n.closest("label");
    if (label !== null && label.control === target) return true;
    for (let p: Node | null = n; p; p = p.parentNode ?? (p as ShadowRoot).host ?? null) if (p === target) return true;
    return false;
  };
  if (el && el.isConnected && hit && reaches(el, hit)) return { on: true };
  const text = (n: Element) => ((n as HTMLElement).innerText ?? n.textContent ?? "").replace(/\s+/g, " ").trim();
  const describe = (n: Element | null): string => {
    if (!n) return "nothing";
    const id = n.id ? `#${n.id}` : "";
    const cls = typeof n.className === "string" && n.className.trim()
      ? "." + n.className.trim().split(/\s+/).slice(0, 2).join(".")
      : "";
    const t = text(n).slice(0, 40) || n.getAttribute("aria-label") || n.getAttribute("alt") || "";
    return `<${n.localName}${id}${cls}>${t ? ` "${t}"` : ""}`;
  };
  const why = !el || !el.isConnected
    ? "gone"
    : el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    ? "moved"
    : "hidden";
  if (!el || why === "moved" || !hit) return { on: false, now: describe(hit), why, same: false };
  const NAMES = ["id", "name", "alt", "title", "aria-label", "href", "value"];
  const same = (a: Element, b: Element): boolean => {
    const ta = text(a), tb = text(b);
    if (ta || tb) return ta === tb;
    const named = NAMES.filter((k) => a.getAttribute(k) || b.getAttribute(k));
    if (named.length) return named.some((k) => a.getAttribute(k) === b.getAttribute(k));
    const cls = new Set(Array.from(a.classList));
    return Array.from(b.classList).some((c) => cls.has(c));
  };
  let twin: Element | null = hit;
  for (let up = 0; twin && up < 4 && twin.localName !== el.localName; up++) twin = twin.parentElement;
  if (!twin || twin.localName !== el.localName || !same(el, twin)) {
    return { on: false, now: describe(hit), why, same: false };
  }
  store[KEY] = twin;
  return { on: false, now: describe(twin), why, same: true };
}

/** What focusField did, and what the caller still has to do. */
export type Focused = {
  /**
   * type: type the text (after one Backspace when `hadText`); set: the value setter took it; segments: type
   * segmentKeys into the date-like field (its setter refused the text); lost: focusing it moved the focus elsewhere
   * (a focus handler opened a popup), so nothing may be typed.
   */
  mode: "type" | "set" | "segments" | "lost";
  hadText: boolean;
  /** The field's value (a contenteditable's innerText) before. */
  before: string;
  /** The input's type, "textarea" or "contenteditable". */
  kind: string;
};

/**
 * Focuses the text field the element is or stands for (a label's control, a wrapper's only field) and selects its
 * content when clearing. Date, time, color and range inputs take a text their value setter accepts (ISO
 * `2011-10-11`) directly; a text it refuses (`10/11/2011`) is typed into the field's segments by the caller.
 * Works on fields of same-origin frames and shadow trees (no instanceof across windows).
 */
export function focusField(el: Element, clear: boolean, text: string): Focused | PageRefusal {
  const TEXT_TYPES = ["", "text", "search", "url", "tel", "email", "password", "number"];
  const SET_TYPES = ["date", "time", "datetime-local", "month", "week", "color", "range"];
  const isInput = (n: Element | null): n is HTMLInputElement => n?.localName === "input";
  const editable = (n: Element | null): n is HTMLElement =>
    n?.localName === "textarea" || (isInput(n) && (TEXT_TYPES.includes(n.type) || SET_TYPES.includes(n.type))) ||
    (n as HTMLElement | null)?.isContentEditable === true;
  let t: Element | null = el.localName === "label" ? (el as HTMLLabelElement).control ?? el : el;
  if (!editable(t)) {
    const inner = t?.querySelectorAll("input:not([type=hidden]),textarea,[contenteditable]") ?? [];
    t = inner.length === 1 ? inner[0] : t;
  }
  if (!editable(t)) {
    const type = isInput(el) ? ` type=${el.type}` : "";
    return { refused: `it is a <${el.localName}${type}>, not a text field` };
  }
  const field = t as HTMLInputElement;
  const doc = field.ownerDocument;
  const win = doc.defaultView ?? window;
  if (field.disabled) return { refused: "the field is disabled" };
  if (field.readOnly) return { refused: "the field is read-only" };
  const r = field.getBoundingClientRect();
  if (r.top < 0 || r.bottom > win.innerHeight) field.scrollIntoView({ block: "center", behavior: "instant" });
  const kind = field.localName === "input"
    ? field.type
    : field.localName === "textarea"
    ? "textarea"
    : "contenteditable";
  const before = field.isContentEditable ? field.innerText : field.value;
  const setsValue = field.localName === "input" && SET_TYPES.includes(field.type);
  const setter = Object.getOwnPropertyDescriptor(
    (win as unknown as { HTMLInputElement: typeof HTMLInputElement }).HTMLInputElement.prototype,
    "value",
  )!.set!;
  // A date-like field already focused keeps its segment: blur first, so that focus starts at the first one.
  if (setsValue && (field.getRootNode() as Document | ShadowRoot).activeElement === field) field.blur();
  field.focus();
  if ((field.getRootNode() as Document | ShadowRoot).activeElement !== field) {
    return { mode: "lost", hadText: false, before, kind }; // a focus handler moved it: nothing would reach the field
  }
  const fire = (type: string) => field.dispatchEvent(new (win as typeof window).Event(type, { bubbles: true }));
  if (setsValue) {
    setter.call(field, text);
    if (field.value !== "" || text === "") {
      fire("input");
      fire("change");
      return { mode: "set", hadText: false, before, kind };
    }
    setter.call(field, before); // typing overwrites the segments one by one, as a person does
    return { mode: "segments", hadText: false, before, kind };
  }
  const sel = win.getSelection();
  if (field.isContentEditable) {
    const range = doc.createRange();
    range.selectNodeContents(field);
    if (!clear) range.collapse(false);
    sel?.removeAllRanges();
    sel?.addRange(range);
    return { mode: "type", hadText: clear && (field.textContent ?? "") !== "", before, kind };
  }
  const hadText = field.value !== "";
  if (clear) {
    field.select();
  } else {
    try {
      field.setSelectionRange(field.value.length, field.value.length);
    } catch { /* number and email inputs have no caret API */ }
  }
  return { mode: "type", hadText: clear && hadText, before, kind };
}

/** The element that has the focus (into open shadow roots and same-origin frames), described; "the page" for none. */
export function focusedElement(): string {
  let a: Element | null = document.activeElement;
  for (let guard = 0; a && guard < 16; guard++) {
    const inner: Element | null = a.shadowRoot?.activeElement ??
      (a.localName === "iframe" ? (a as HTMLIFrameElement).contentDocument?.activeElement ?? null : null);
    if (!inner) break;
    a = inner;
  }
  if (!a || a === a.ownerDocument.body) return "the page";
  const id = a.id ? `#${a.id}` : "";
  const cls = typeof a.className === "string" && a.className.trim()
    ? "." + a.className.trim().split(/\s+/).slice(0, 2).join(".")
    : "";
  const label = ((a as HTMLElement).innerText || (a as HTMLInputElement).placeholder || "")
    .replace(/\s+/g, " ").trim().slice(0, 40);
  return `<${a.localName}${id}${cls}>${label ? ` "${label}"` : ""}`;
}

/** The value (a contenteditable's innerText) of the text field focusField chose for the element. */
export function readField(el: Element): { value: string } | PageRefusal {
  let t: Element | null = el.localName === "label" ? (el as HTMLLabelElement).control ?? el : el;
  const field = (n: Element | null) =>
    n?.localName === "input" || n?.localName === "textarea" || (n as HTMLElement | null)?.isContentEditable === true;
  if (!field(t)) {
    const inner = t?.querySelectorAll("input:not([type=hidden]),textarea,[contenteditable]") ?? [];
    t = inner.length === 1 ? inner[0] : t;
  }
  if (!t || !field(t)) return { refused: "it holds no text field any more" };
  const h = t as HTMLInputElement;
  return { value: h.isContentEditable ? h.innerText : h.value };
}

/** Chooses a native select's option by text (exact, then case- and space-normalised) or value. */
export function chooseOption(el: Element, text: string): { text: string; value: string } | PageRefusal {
  const s = el instanceof HTMLLabelElement ? el.control : el.tagName === "SELECT" ? el : el.querySelector("select");
  if (!(s instanceof HTMLSelectElement)) return { refused: `it is a <${el.tagName.toLowerCase()}>, not a <select>` };
  const norm = (x: string) => x.replace(/\s+/g, " ").trim().toLowerCase();
  const opts = Array.from(s.options);
  const o = opts.find((o) => o.text.trim() === text.trim()) ?? opts.find((o) => norm(o.text) === norm(text)) ??
    opts.find((o) => o.value === text);
  if (!o) {
    const list = opts.slice(0, 30).map((o) => JSON.stringify(o.text.trim())).join(", ");
    return { refused: `it has no option "${text}" (options: ${list}${opts.length > 30 ? ", ..." : ""})` };
  }
  if (o.disabled) return { refused: `option "${o.text.trim()}" is disabled` };
  if (s.disabled) return { refused: "the select is disabled" };
  if (!o.selected) {
    o.selected = true;
    s.dispatchEvent(new Event("input", { bubbles: true }));
    s.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return { text: o.text.trim(), value: o.value };
}

/** A select's (or listbox's) options. */
export function listOptions(
  el: Element,
): { text: string; value: string; selected: boolean; disabled: boolean }[] | PageRefusal {
  const s = el instanceof HTMLLabelElement ? el.control : el.tagName === "SELECT" ? el : el.querySelector("select");
  if (s instanceof HTMLSelectElement) {
    return Array.from(s.options).map((o) => ({
      text: o.text.trim(),
      value: o.value,
      selected: o.selected,
      disabled: o.disabled,
    }));
  }
  const listId = el.getAttribute("aria-controls") ?? el.getAttribute("aria-owns");
  const box = el.getAttribute("role") === "listbox" ? el : listId ? document.getElementById(listId) : null;
  const options = box ? Array.from(box.querySelectorAll("[role=option]")) : [];
  if (!options.length) return { refused: `it is a <${el.tagName.toLowerCase()}> without options` };
  return options.map((o) => ({
    text: (o.textContent ?? "").replace(/\s+/g, " ").trim(),
    value: o.getAttribute("data-value") ?? o.getAttribute("value") ?? "",
    selected: o.getAttribute("aria-selected") === "true",
    disabled: o.getAttribute("aria-disabled") === "true",
  }));
}

/**
 * Scrolls the element's nearest scrollable ancestor-or-self (else the page) by whole viewports of it, or by
 * `pixels` when given (browser-use's scroll amount).
 */
export function scrollFrom(
  el: Element | null,
  down: boolean,
  pages: number,
  pixels?: number | null,
): { target: string; moved: number } {
  const scroller = (n: Element): boolean => {
    const s = getComputedStyle(n);
    return /(auto|scroll|overlay)/.test(s.overflowY) && n.scrollHeight > n.clientHeight + 1;
  };
  let box: Element | null = el;
  while (box && box !== document.body && box !== document.documentElement && !scroller(box)) box = box.parentElement;
  const onPage = !box || box === document.body || box === document.documentElement;
  const target = onPage ? (document.scrollingElement ?? document.documentElement) : box!;
  const height = onPage ? innerHeight : target.clientHeight;
  const before = target.scrollTop;
  const by = pixels ?? Math.round(pages * height);
  target.scrollBy({ top: (down ? 1 : -1) * by, behavior: "instant" });
  return {
    target: onPage ? "page" : `<${target.localName}>`,
    moved: Math.round(target.scrollTop - before),
  };
}

/**
 * What a mouse wheel at a top-window point scrolls: the nearest vertically scrollable ancestor-or-self of the
 * element there (into open shadow roots and same-origin frames), else that document's page; its name, height and
 * scroll offsets (`top`, and the top page's `page`).
 */
export function scrollerAt(
  at: ElementAt,
  x: number,
  y: number,
): { name: string; height: number; top: number; page: number } {
  const hit = at(x, y);
  const page = (document.scrollingElement ?? document.documentElement).scrollTop;
  let box: Element | null = hit;
  while (box) {
    const s = getComputedStyle(box);
    const root = box === box.ownerDocument.documentElement || box === box.ownerDocument.body;
    if (!root && /(auto|scroll|overlay)/.test(s.overflowY) && box.scrollHeight > box.clientHeight + 1) break;
    box = box.parentElement ?? ((box.parentNode as ShadowRoot | null)?.host ?? null);
  }
  if (box) {
    const id = box.id ? `#${box.id}` : "";
    return { name: `<${box.localName}${id}>`, height: box.clientHeight, top: box.scrollTop, page };
  }
  const ownDoc = hit?.ownerDocument ?? document;
  const se = ownDoc.scrollingElement ?? ownDoc.documentElement;
  const framed = ownDoc !== document;
  return {
    name: framed ? "the frame's page" : "the page",
    height: ownDoc.defaultView?.innerHeight ?? innerHeight,
    top: se.scrollTop,
    page,
  };
}

/** queryDeep, as a page function receives it. */
type Query = typeof queryDeep;

/**
 * The elements a locator's CSS selector designates (docs/tasks.md, "Actions"), in order: the matches in the
 * document, then those in each open shadow root and same-origin frame document it hosts, in document order,
 * recursively (a tree's own matches before the trees nested in it). `A >>> B` crosses into hosted trees: the
 * matches of B anywhere below a match of A, inside its shadow root, its frame's document, and the trees nested in
 * those (as puppeteer's `>>>`). Passed to the page functions that take a selector, as lib/dom's indexedElement is.
 * @throws SyntaxError (a DOMException) when a part is not a valid CSS selector.
 */
export function queryDeep(selector: string): Element[] {
  // The parts between `>>>`s outside quotes, brackets and parentheses.
  const parts: string[] = [];
  let depth = 0, quote = "", start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === "\\") i++;
    else if (quote) quote = c === quote ? "" : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    else if (depth === 0 && selector.startsWith(">>>", i)) {
      parts.push(selector.slice(start, i));
      i += 2;
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  /** The trees an element hosts: its open shadow root, a same-origin frame's document. */
  const hosted = (el: Element): (Document | ShadowRoot)[] => {
    const trees: (Document | ShadowRoot)[] = el.shadowRoot ? [el.shadowRoot] : [];
    if (el.localName === "iframe" || el.localName === "frame") {
      try {
        const doc = (el as HTMLIFrameElement).contentDocument;
        if (doc) trees.push(doc);
      } catch { /* cross-origin */ }
    }
    return trees;
  };
  /** The matches in `scope` (a tree, or an element's subtree with the element), then in the trees hosted there. */
  const collect = (scope: Element | Document | ShadowRoot, sel: string, out: Element[]): void => {
    out.push(...Array.from(scope.querySelectorAll(sel)));
    const els = Array.from(scope.querySelectorAll("*"));
    if (scope.nodeType === Node.ELEMENT_NODE) els.unshift(scope as Element);
    for (const el of els) for (const tree of hosted(el)) collect(tree, sel, out);
  };
  let found: Element[] = [];
  collect(document, parts[0].trim(), found);
  for (const part of parts.slice(1)) {
    const below: Element[] = [];
    for (const m of found) collect(m, part.trim(), below);
    found = [...new Set(below)];
  }
  return found;
}

/**
 * The index of the element a locator's selector designates (docs/tasks.md): the first match (queryDeep's order)
 * that carries an index, else the nearest indexed ancestor of the first match, going up through shadow hosts and
 * frame elements; an unindexed match is scrolled into view.
 */
export function locateSelector(
  lookup: Lookup,
  selector: string,
  query: Query,
): { index: number } | { matches: number } | PageRefusal {
  let matches: Element[];
  try {
    matches = query(selector);
  } catch {
    return { refused: `"${selector}" is not a valid CSS selector` };
  }
  if (!matches.length) return { matches: 0 };
  const pos = new Map<Element, number>();
  for (let i = 1, e = lookup(i, true); typeof e !== "string"; e = lookup(++i, true)) pos.set(e, i);
  for (const m of matches) if (pos.has(m)) return { index: pos.get(m)! };
  /** The parent element, a shadow root's host, or a frame document's frame element. */
  const up = (n: Element): Element | null => {
    const p = n.parentNode;
    if (!p || p.nodeType === Node.ELEMENT_NODE) return p as Element | null;
    if (p.nodeType === Node.DOCUMENT_FRAGMENT_NODE) return (p as ShadowRoot).host ?? null;
    try {
      return (p as Document).defaultView?.frameElement ?? null;
    } catch {
      return null; // cross-origin parent
    }
  };
  for (let n = up(matches[0]); n; n = up(n)) if (pos.has(n)) return { index: pos.get(n)! };
  matches[0].scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  return { matches: matches.length };
}

/**
 * Scrolls the first visible element (queryDeep's order: the document's, then those of open shadow roots and
 * same-origin frames) whose own text, normalised, equals `text` into view; false when none.
 */
export function revealText(text: string, query: Query): boolean {
  const norm = (x: string) => x.replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(text);
  for (const el of query("*")) {
    const h = el as HTMLElement;
    if (h.offsetParent === null && getComputedStyle(h).position !== "fixed") continue;
    if (norm(h.innerText ?? "") !== want) continue;
    h.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    return true;
  }
  return false;
}

/** A drag end that names an element: an index of the last snapshot (indexedElement) or a locator's selector. */
type ElementEnd = { index: number } | { selector: string };

/** An element's box in the top window's viewport. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The centre of a drag end's element in the top window's viewport (the offsets of the same-origin frames it lies
 * in added), with its box, scrolled into view unless `scroll` is false (then refused when it is not in the
 * viewport). With `aim` (lib/dom's visiblePoint; a drag's source), a point of its visible part where it is on top
 * instead of the centre, refused naming what covers it when every point is covered. A selector designates
 * queryDeep's first match.
 */
export function centreOfEnd(
  lookup: Lookup,
  end: ElementEnd,
  scroll: boolean,
  query: Query,
  aim: PointOf | null,
  at: ElementAt,
): { x: number; y: number; box: Box } | EndRefusal {
  const name = "index" in end ? `element ${end.index}` : `selector "${end.selector}"`;
  let el: Element | null | undefined;
  try {
    el = "index" in end ? lookup(end.index) : query(end.selector)[0];
  } catch {
    return { refused: `${name} is not a valid CSS selector` };
  }
  if (!el) return { refused: `${name} is not on the page` };
  const win = el.ownerDocument.defaultView ?? window;
  /** Where the element's window starts in the top window's viewport. */
  const origin = () => {
    let dx = 0, dy = 0;
    for (let w: Window = win; w !== w.parent;) {
      let frame: Element | null = null;
      try {
        frame = w.frameElement;
      } catch { /* cross-origin parent */ }
      if (!frame) break;
      const fr = frame.getBoundingClientRect();
      dx += fr.left + frame.clientLeft;
      dy += fr.top + frame.clientTop;
      w = w.parent;
    }
    return { dx, dy };
  };
  let r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return { refused: `${name} has no size on the page (hidden?)` };
  /** The centre in the top window's viewport, and the box. */
  const centre = (q: DOMRect) => {
    const o = origin();
    const box = { left: q.left + o.dx, top: q.top + o.dy, width: q.width, height: q.height };
    return { x: box.left + q.width / 2, y: box.top + q.height / 2, box };
  };
  /** The centre is inside the element's window's viewport and the top one's. */
  const inView = (q: DOMRect) => {
    const ox = q.left + q.width / 2, oy = q.top + q.height / 2, c = centre(q);
    return ox >= 0 && oy >= 0 && ox < win.innerWidth && oy < win.innerHeight &&
      c.x >= 0 && c.y >= 0 && c.x < innerWidth && c.y < innerHeight;
  };
  if (!scroll && !inView(r)) return { refused: `${name} is outside the viewport`, outside: true };
  if (scroll && (r.top < 0 || r.left < 0 || r.bottom > win.innerHeight || r.right > win.innerWidth || !inView(r))) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    r = el.getBoundingClientRect();
  }
  if (!aim) return centre(r);
  const p = aim(el, at);
  if (!p) return { refused: `${name} has no part in the viewport`, outside: true };
  if (!p.hit) {
    return {
      refused: `${name} is covered by ${p.cover} at (${Math.round(p.x)}, ${Math.round(p.y)}) ` +
        "(a drag from there would start on that instead)",
    };
  }
  return { x: p.x, y: p.y, box: centre(r).box };
}

/** centreOfEnd's refusal; `outside`: the element is out of the viewport (not covered, not missing). */
export type EndRefusal = PageRefusal & { outside?: true };

/**
 * An HTML5 drag and drop as the page's listeners see it (dragstart, dragenter, dragover, drop, dragend with one
 * DataTransfer), for two elements too far apart to share the viewport, where a mouse cannot reach both. The drop
 * lands where the mouse drag's would (`drop` is _input.ts's dropPoint). A selector designates queryDeep's first
 * match.
 */
export function syntheticDrag(
  lookup: Lookup,
  from: ElementEnd,
  to: ElementEnd,
  query: Query,
  drop: typeof dropPoint,
): true | PageRefusal {
  const find = (end: ElementEnd) => {
    let el: Element | "unindexed" | "absent" | undefined;
    try {
      el = "index" in end ? lookup(end.index, true) : query(end.selector)[0];
    } catch {
      return null;
    }
    return typeof el === "string" || !el ? null : el;
  };
  const source = find(from), target = find(to);
  if (!source || !target) return { refused: "an end of the drag is not on the page" };
  const data = new DataTransfer();
  const s0 = source.getBoundingClientRect(), t0 = target.getBoundingClientRect();
  // Where on the target the drop lands, as shares of its size (dropPoint's rule; the viewport bound left out).
  const p = drop({ x: s0.left + s0.width / 2, y: s0.top + s0.height / 2 }, t0, { width: 1e9, height: 1e9 }, s0);
  const [tx, ty] = [(p.x - t0.left) / (t0.width || 1), (p.y - t0.top) / (t0.height || 1)];
  const at = (el: Element) => {
    const r = el.getBoundingClientRect();
    const [fx, fy] = el === target ? [tx, ty] : [0.5, 0.5];
    return { clientX: r.left + r.width * fx, clientY: r.top + r.height * fy };
  };
  const fire = (el: Element, type: string) =>
    el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data, ...at(el) }));
  fire(source, "dragstart");
  target.scrollIntoView({ block: "center", behavior: "instant" });
  fire(target, "dragenter");
  fire(target, "dragover");
  fire(target, "drop");
  fire(source, "dragend");
  return true;
}

/**
 * The file input the element of index `i` is or stands for: itself, a label's control, a wrapper's only file
 * input; null when none.
 */
export function fileInputAt(lookup: Lookup, i: number): Element | null {
  const el = lookup(i, true);
  if (typeof el === "string") return null;
  const isFile = (n: Element | null | undefined) => n instanceof HTMLInputElement && n.type === "file";
  if (isFile(el)) return el;
  if (el instanceof HTMLLabelElement && isFile(el.control)) return el.control;
  const inner = el.querySelectorAll("input[type=file]");
  return inner.length === 1 ? inner[0] : null;
}
