/// <reference lib="dom" />
/**
 * The page-side capture: serialised into the page with page.evaluate(snapshotPage, options), so it closes over
 * nothing (every helper and constant lives inside the function; only types are imported).
 *
 * Cost model: one querySelectorAll of interactive candidates, one getBoundingClientRect per candidate (layout is
 * computed once, on the first read; nothing here writes to the DOM), then visibility checks, elementFromPoint and
 * attribute reads only for the candidates that survive the viewport filter. visibleText walks the text nodes and
 * reads one box per parent element (cached), and exact text boxes only for text inside the viewport. No
 * getComputedStyle anywhere. Not covered: iframes, shadow roots (querySelectorAll does not enter them) and
 * click handlers bound without a role, tabindex or onclick attribute.
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
  const NO_TEXT = new Set(["script", "style", "noscript", "template", "option", "optgroup", "textarea", "title"]);
  const VISIBILITY = { visibilityProperty: true, opacityProperty: true };

  const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
  const cap = (s: string, n: number) => (s.length > n ? s.slice(0, n) + "..." : s);
  const inViewport = (r: DOMRect) => r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw;
  const sx = globalThis.scrollX;
  const sy = globalThis.scrollY;
  // Whole page (-1): anything a scroll can bring into view, i.e. not left of or above the document's origin.
  const nearViewport = (r: DOMRect) =>
    expansion < 0
      ? r.right + sx > 0 && r.bottom + sy > 0
      : r.bottom > -expansion && r.top < vh + expansion && r.right > 0 && r.left < vw;

  /** Whether `el` (or its label) receives a click at the centre of its visible part. */
  function isTopmost(el: Element, r: DOMRect): boolean {
    const x = (Math.max(r.left, 0) + Math.min(r.right, vw)) / 2;
    const y = (Math.max(r.top, 0) + Math.min(r.bottom, vh)) / 2;
    const root = el.getRootNode() as Document | ShadowRoot;
    const hit = (typeof root.elementFromPoint === "function" ? root : doc).elementFromPoint(x, y);
    if (!hit || hit === el || el.contains(hit)) return true;
    return hit instanceof HTMLLabelElement && hit.control === el;
  }

  // 1. Candidates that are rendered, near the viewport, not hidden from people, and on top where visible.
  const kept: { el: Element; r: DOMRect; inView: boolean }[] = [];
  const keptSet = new Set<Element>();
  for (const el of doc.querySelectorAll(ACTIONABLE + ",label")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || !nearViewport(r)) continue;
    if (!el.checkVisibility(VISIBILITY) || el.closest('[aria-hidden="true"],[inert]')) continue;
    const inView = inViewport(r);
    if (inView && !isTopmost(el, r)) continue;
    kept.push({ el, r, inView });
    keptSet.add(el);
  }
  // 2. A label counts only when its control is not indexed itself (a styled checkbox hiding its input).
  const indexed = kept.filter(({ el }) => {
    if (!(el instanceof HTMLLabelElement) || el.matches(ACTIONABLE)) return true;
    const keep = el.control !== null && !keptSet.has(el.control);
    if (!keep) keptSet.delete(el);
    return keep;
  });

  /** Visible text of `el` minus the text of indexed descendants (rare: cards, rows with buttons inside). */
  function textWithoutIndexed(el: Element): string {
    let out = "";
    const walker = doc.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (n) => {
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

  function liveValue(el: Element): string | null {
    if (el instanceof HTMLSelectElement) return el.selectedIndex >= 0 ? el.options[el.selectedIndex].text : null;
    if (el instanceof HTMLInputElement) {
      if (el.type === "password" || el.type === "checkbox" || el.type === "radio") return null;
      return el.type === "file" ? el.value.replace(/^.*[\\/]/, "") : el.value;
    }
    if (el instanceof HTMLTextAreaElement || el instanceof HTMLButtonElement) return el.value;
    return el.getAttribute("role") === "slider" ? el.getAttribute("aria-valuenow") : null;
  }

  function attributesOf(el: Element): Partial<Record<AttributeName, string>> {
    const a: Partial<Record<AttributeName, string>> = {};
    const plain = ["id", "name", "type", "role", "aria-label", "placeholder", "title", "alt", "for"] as const;
    for (const k of plain) {
      const v = el.getAttribute(k);
      if (v !== null && v.trim() !== "") a[k] = v;
    }
    const value = liveValue(el);
    if (value) a.value = value;
    if (el instanceof HTMLAnchorElement && el.hasAttribute("href")) a.href = shortHref(el);
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      a.checked = String(el.checked);
    } else if (el.hasAttribute("aria-checked")) a.checked = el.getAttribute("aria-checked")!;
    if (el instanceof HTMLOptionElement) a.selected = String(el.selected);
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

  // 3. New-element marking against the previous snapshot of this document; document.open() swaps the root.
  type State = { root: Element | null; seen: WeakSet<Element> };
  const w = globalThis as unknown as { __webmixState?: State; __webmixIndex?: (Element | null)[] };
  const previous = w.__webmixState?.root === doc.documentElement ? w.__webmixState.seen : null;
  const seen = new WeakSet<Element>();
  const round = (r: DOMRect): Rect => ({
    x: Math.round(r.left),
    y: Math.round(r.top),
    width: Math.round(r.width),
    height: Math.round(r.height),
  });
  const elements: DomElement[] = indexed.map(({ el, r, inView }, k) => {
    seen.add(el);
    const next = indexed[k + 1]?.el;
    const item: DomElement = {
      index: k + 1,
      tag: el.localName,
      attributes: attributesOf(el),
      text: elementText(el, next !== undefined && el.contains(next)),
      isNew: previous !== null && !previous.has(el),
      inViewport: inView,
      rect: round(r),
    };
    if (el instanceof HTMLSelectElement) {
      item.options = Array.from(el.options).slice(0, maxOptions).map((o) => cap(collapse(o.text), maxText));
      item.optionCount = el.options.length;
    }
    return item;
  });
  w.__webmixState = { root: doc.documentElement, seen };
  w.__webmixIndex = [null, ...indexed.map(({ el }) => el)];

  // 4. The viewport's text: visible text nodes in document order, grouped into visual lines by their boxes.
  const lines: string[] = [];
  let line = "";
  let lineTop = 0;
  let lineBottom = -Infinity;
  let lineRight = 0;
  let endsWithSpace = false;
  let length = 0;
  const parentShown = new Map<Element, boolean>();
  const range = doc.createRange();
  const walker = doc.createTreeWalker(doc.body ?? doc.documentElement, NodeFilter.SHOW_TEXT);
  while (length < maxVisible && walker.nextNode()) {
    const node = walker.currentNode as Text;
    const parent = node.parentElement;
    if (!parent || !/\S/.test(node.data)) continue;
    let shown = parentShown.get(parent);
    if (shown === undefined) {
      const pr = NO_TEXT.has(parent.localName) ? null : parent.getBoundingClientRect();
      shown = pr !== null && pr.width > 0 && pr.height > 0 && inViewport(pr) && parent.checkVisibility(VISIBILITY);
      parentShown.set(parent, shown);
    }
    if (!shown) continue;
    range.selectNodeContents(node);
    const boxes = range.getClientRects();
    if (boxes.length === 0 || !inViewport(range.getBoundingClientRect())) continue;
    const first = boxes[0];
    const last = boxes[boxes.length - 1];
    const text = collapse(node.data);
    const sameLine = first.top < lineBottom - 1 && first.bottom > lineTop + 1;
    if (sameLine) {
      const spaced = endsWithSpace || /^\s/.test(node.data) || first.left - lineRight > 1;
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
  }
  if (line) lines.push(line);

  const scroller = doc.scrollingElement ?? doc.documentElement;
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
