/// <reference lib="dom" />
/**
 * Functions that run inside the page, serialised with toString(): each closes over nothing. The element-bound
 * ones take the indexed element first (see Tab.onElement); the others stand alone, and those that find indexed
 * elements themselves take lib/dom's indexedElement as their first argument (Tab.call passes its source).
 */
import type { indexedElement } from "../dom/mod.ts";

/** lib/dom's indexedElement, as a page function receives it. */
type Lookup = typeof indexedElement;

/** An answer a page function gives when the element cannot take the action. */
export interface PageRefusal {
  refused: string;
}

/** Where to click an element: its centre, scrolled into view; `hit` says the element is on top there. */
export function planClick(el: Element): { x: number; y: number; hit: boolean; newTab: boolean } | PageRefusal {
  const link = el.closest("a[href], area[href]") as HTMLAnchorElement | null;
  const form = (el.closest("button, input[type=submit], input[type=image]") as HTMLButtonElement | null)?.form;
  const newTab = (link?.target ?? form?.target ?? "") === "_blank";
  const vw = innerWidth;
  const vh = innerHeight;
  let r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return { refused: "it has no size on the page (hidden?)" };
  if (r.top < 0 || r.left < 0 || r.bottom > vh || r.right > vw) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    r = el.getBoundingClientRect();
  }
  const left = Math.max(r.left, 0), right = Math.min(r.right, vw);
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, vh);
  if (left >= right || top >= bottom) return { x: 0, y: 0, hit: false, newTab };
  const x = (left + right) / 2, y = (top + bottom) / 2;
  const root = el.getRootNode() as Document | ShadowRoot;
  const top1 = root.elementFromPoint ? root.elementFromPoint(x, y) : document.elementFromPoint(x, y);
  const hit = !!top1 && (top1 === el || el.contains(top1) || (top1 as HTMLLabelElement).control === el);
  return { x, y, hit, newTab };
}

/** Clicks an element the DOM way (when another element covers it). */
export function domClick(el: Element): void {
  (el as HTMLElement).click();
}

/**
 * Focuses the text field the element is or stands for (a label's control, a wrapper's only field), selects its
 * content when clearing, and sets date-like inputs directly. Returns what the caller still has to type.
 */
export function focusField(
  el: Element,
  clear: boolean,
  text: string,
): { mode: "type"; hadText: boolean } | { mode: "set"; value: string } | PageRefusal {
  const TEXT_TYPES = ["", "text", "search", "url", "tel", "email", "password", "number"];
  const SET_TYPES = ["date", "time", "datetime-local", "month", "week", "color", "range"];
  const editable = (n: Element | null): n is HTMLElement =>
    n instanceof HTMLTextAreaElement ||
    (n instanceof HTMLInputElement && (TEXT_TYPES.includes(n.type) || SET_TYPES.includes(n.type))) ||
    (n instanceof HTMLElement && n.isContentEditable);
  let t: Element | null = el instanceof HTMLLabelElement ? el.control ?? el : el;
  if (!editable(t)) {
    const inner = t?.querySelectorAll("input:not([type=hidden]),textarea,[contenteditable]") ?? [];
    t = inner.length === 1 ? inner[0] : t;
  }
  if (!editable(t)) {
    const type = el instanceof HTMLInputElement ? ` type=${el.type}` : "";
    return { refused: `it is a <${el.tagName.toLowerCase()}${type}>, not a text field` };
  }
  const field = t as HTMLInputElement;
  if (field.disabled) return { refused: "the field is disabled" };
  if (field.readOnly) return { refused: "the field is read-only" };
  const r = field.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) field.scrollIntoView({ block: "center", behavior: "instant" });
  field.focus();
  if (field instanceof HTMLInputElement && SET_TYPES.includes(field.type)) {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    setter.call(field, text);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
    return { mode: "set", value: field.value };
  }
  const sel = getSelection();
  if (field.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(field);
    if (!clear) range.collapse(false);
    sel?.removeAllRanges();
    sel?.addRange(range);
    return { mode: "type", hadText: clear && (field.textContent ?? "") !== "" };
  }
  const hadText = field.value !== "";
  if (clear) {
    field.select();
  } else {
    try {
      field.setSelectionRange(field.value.length, field.value.length);
    } catch { /* number and email inputs have no caret API */ }
  }
  return { mode: "type", hadText: clear && hadText };
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

/** Scrolls the element's nearest scrollable ancestor-or-self (else the page) by whole viewports. */
export function scrollFrom(el: Element | null, down: boolean, pages: number): { target: string; moved: number } {
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
  target.scrollBy({ top: (down ? 1 : -1) * Math.round(pages * height), behavior: "instant" });
  return {
    target: onPage ? "page" : `<${target.tagName.toLowerCase()}>`,
    moved: Math.round(target.scrollTop - before),
  };
}

/** The index of the element a CSS selector designates (docs/tasks.md); an unindexed match is scrolled into view. */
export function locateSelector(
  lookup: Lookup,
  selector: string,
): { index: number } | { matches: number } | PageRefusal {
  let matches: NodeListOf<Element>;
  try {
    matches = document.querySelectorAll(selector);
  } catch {
    return { refused: `"${selector}" is not a valid CSS selector` };
  }
  if (!matches.length) return { matches: 0 };
  const pos = new Map<Element, number>();
  for (let i = 1, e = lookup(i, true); typeof e !== "string"; e = lookup(++i, true)) pos.set(e, i);
  for (const m of Array.from(matches)) if (pos.has(m)) return { index: pos.get(m)! };
  for (let n = matches[0].parentElement; n; n = n.parentElement) if (pos.has(n)) return { index: pos.get(n)! };
  matches[0].scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  return { matches: matches.length };
}

/** Scrolls the first visible element whose own text, normalised, equals `text` into view; false when none. */
export function revealText(text: string): boolean {
  const norm = (x: string) => x.replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(text);
  const all = document.body ? document.body.querySelectorAll("*") : [];
  for (const el of Array.from(all)) {
    const h = el as HTMLElement;
    if (h.offsetParent === null && getComputedStyle(h).position !== "fixed") continue;
    if (norm(h.innerText ?? "") !== want) continue;
    h.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    return true;
  }
  return false;
}

/** A drag end that names an element: an index of the last snapshot (indexedElement) or a CSS selector. */
type ElementEnd = { index: number } | { selector: string };

/**
 * The centre of a drag end's element, scrolled into view unless `scroll` is false (then refused when it is not
 * in the viewport).
 */
export function centreOfEnd(
  lookup: Lookup,
  end: ElementEnd,
  scroll: boolean,
): { x: number; y: number } | PageRefusal {
  const el = "index" in end ? lookup(end.index) : document.querySelector(end.selector);
  const name = "index" in end ? `element ${end.index}` : `selector "${end.selector}"`;
  if (!el) return { refused: `${name} is not on the page` };
  let r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return { refused: `${name} has no size on the page (hidden?)` };
  const inView = (q: DOMRect) => {
    const cx = q.left + q.width / 2, cy = q.top + q.height / 2;
    return cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight;
  };
  if (!scroll && !inView(r)) return { refused: `${name} is outside the viewport` };
  if (scroll && (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    r = el.getBoundingClientRect();
  }
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/**
 * An HTML5 drag and drop as the page's listeners see it (dragstart, dragenter, dragover, drop, dragend with one
 * DataTransfer), for two elements too far apart to share the viewport, where a mouse cannot reach both.
 */
export function syntheticDrag(lookup: Lookup, from: ElementEnd, to: ElementEnd): true | PageRefusal {
  const find = (end: ElementEnd) => {
    const el = "index" in end ? lookup(end.index, true) : document.querySelector(end.selector);
    return typeof el === "string" ? null : el;
  };
  const source = find(from), target = find(to);
  if (!source || !target) return { refused: "an end of the drag is not on the page" };
  const data = new DataTransfer();
  const at = (el: Element) => {
    const r = el.getBoundingClientRect();
    return { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
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
