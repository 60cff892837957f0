/// <reference lib="dom" />
/**
 * Page-side attributes: what an indexed element shows beside its text (its plain attributes, its live value cut
 * to the part on screen, a slider handle's value, a short href, checked, selected, disabled, how far it scrolls).
 * Plain functions that close over nothing but each other (lib/dom's composer declares them once in the page
 * script).
 */
import type { AttributeName } from "../types.ts";
import type { Capture } from "./capture.ts";
import type { Box } from "./geometry.ts";

/** An anchor's href: path, query and hash on this origin, the whole URL elsewhere, as written when not http(s). */
export function shortHref(a: HTMLAnchorElement): string {
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
export function handleValue(el: Element, r: Box): string | null {
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

/** The value a control shows now (a select's option text, a file input's file name); null for none. */
export function liveValue(el: Element): string | null {
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

/**
 * The part of a value longer than maxValue that is shown: the maxValue characters from where the field is
 * scrolled to (a textarea's first visible line, found as the line at scrollTop's share of its rows, each line's
 * rows estimated from its length and the field's width; an input's scrollLeft share of the text), whole lines
 * from there when the end is reached. Not inside a surrogate pair. The whole value when it fits.
 */
export function valueWindow(c: Capture, el: Element, value: string): { start: number; text: string } {
  const maxValue = c.maxValue;
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

/**
 * The attributes an indexed element shows (`r`: its box); sets c.valueLength and c.valueStart for its value.
 */
export function attributesOf(c: Capture, el: Element, r: Box): Partial<Record<AttributeName, string>> {
  const a: Partial<Record<AttributeName, string>> = {};
  const plain = ["id", "name", "type", "role", "aria-label", "placeholder", "title", "alt", "for"] as const;
  for (const k of plain) {
    const v = el.getAttribute(k);
    if (v !== null && v.trim() !== "") a[k] = v;
  }
  const value = liveValue(el);
  c.valueLength = value?.length ?? 0;
  c.valueStart = 0;
  if (value) {
    const shown = valueWindow(c, el, value);
    [a.value, c.valueStart] = [shown.text, shown.start];
  } else if (el.getAttribute("role") === "slider" && el.getAttribute("aria-valuetext")) {
    a.value = el.getAttribute("aria-valuetext")!;
  } else if (!a.role && !c.NATIVE.has(el.localName)) {
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
  const list = c.listOfItem.get(el);
  const box = list ?? el;
  const scrolls = c.scrollBoxes.get(box);
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

/** The attribute functions, as the composer takes them. */
export const VALUES = [shortHref, handleValue, liveValue, valueWindow, attributesOf];
