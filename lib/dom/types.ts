/**
 * The data a page snapshot carries from the page to the harness. Plain JSON: it crosses page.evaluate.
 * @module
 */

/** What a caller passes to snapshotPage; every field has a default, applied inside the page. */
export interface SnapshotOptions {
  /**
   * How far (px) beyond the viewport, above and below, elements are still indexed. 0 (the default) indexes what
   * intersects the viewport; -1 indexes the whole page.
   */
  viewportExpansion?: number;
  /** Cap on an element's text, in characters (default 100); longer text ends in "...". */
  maxTextLength?: number;
  /** Cap on the snapshot's visibleText, in characters (default 6000). */
  maxVisibleTextLength?: number;
  /** Cap on the option texts kept for one <select> (default 100; `optionCount` keeps the true number). */
  maxOptions?: number;
  /**
   * Cap on a `value` (a field's, a textarea's), in UTF-16 code units (default 1000); a longer value is cut to the
   * part at the field's scroll position (`valueStart`) and `valueLength` keeps its length. A textarea's text in
   * visibleText shows the same part.
   */
  maxValueLength?: number;
}

/** The attributes an element line may show, in the order formatElements prints them. */
export const ATTRIBUTE_ORDER = [
  "id",
  "name",
  "type",
  "role",
  "aria-label",
  "label",
  "placeholder",
  "value",
  "title",
  "alt",
  "href",
  "checked",
  "selected",
  "aria-expanded",
  "aria-selected",
  "disabled",
  "for",
  "contenteditable",
  "draggable",
  "scroll",
] as const;

/** One of the attributes an element line may show (ATTRIBUTE_ORDER). */
export type AttributeName = typeof ATTRIBUTE_ORDER[number];

/** A box in CSS pixels, relative to the viewport's top-left corner at capture time (integers). */
export interface Rect {
  /** Left edge. */
  x: number;
  /** Top edge. */
  y: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
}

/** One indexed interactive element. */
export interface DomElement {
  /** Position in window.__webmixIndex; indexes start at 1. */
  index: number;
  /** Lower-case tag name ("a", "button", "div"). */
  tag: string;
  /**
   * Non-empty attributes among ATTRIBUTE_ORDER, exactly as the page holds them, with live state where it differs
   * from the markup: `value` is the current value (a select's selected option text, a slider's aria-valuenow or
   * aria-valuetext; never a password), `checked` is "true"/"false" for checkboxes and radios, `disabled` is "true"
   * when set, `href` is short (path for same-origin). A slider handle without ARIA (a text-less, absolutely
   * positioned element in a track three times its size) gets `role` "slider" and as `value` the input beside its
   * track, else its position along the track ("40%").
   *
   * Two are derived, not read from the page: `label`, the name of an element that has none of its own (no text,
   * aria-label, title, alt, placeholder or value; see docs/perception.md for where it comes from), and `scroll`,
   * on a scroll box, how far it scrolls each way ("120px above, 480px below"; "…px left, …px right" when it
   * scrolls sideways).
   */
  attributes: Partial<Record<AttributeName, string>>;
  /** The whole value's length when `attributes.value` was cut (SnapshotOptions.maxValueLength). */
  valueLength?: number;
  /**
   * Where the shown part of a cut value starts (a character offset), when not at 0: the field is scrolled there
   * and the value shows the text at its scroll position.
   */
  valueStart?: number;
  /**
   * Visible text, whitespace collapsed, without the text of indexed descendants, capped (see maxTextLength). For
   * input, select and textarea: the text of their <label>s ("" without one).
   */
  text: string;
  /** Not indexed in the previous snapshot of the same document (never on a document's first snapshot). */
  isNew: boolean;
  /** Intersects the viewport (false only for elements indexed thanks to viewportExpansion). */
  inViewport: boolean;
  /** The element's box in the top viewport (an iframe's offset added); a part of it may be covered. */
  rect: Rect;
  /** A <select>'s option texts, in order (capped at maxOptions). */
  options?: string[];
  /** A <select>'s number of options. */
  optionCount?: number;
}

/** What snapshotPage returns. */
export interface PageSnapshot {
  /** The top document's URL (location.href). */
  url: string;
  /** The top document's title. */
  title: string;
  /** Indexed elements in document order; elements[k].index === k + 1. */
  elements: DomElement[];
  /** How far the top window is scrolled down, in CSS pixels (window.scrollY, rounded). */
  scrollY: number;
  /** Document pixels above the viewport (scroll to see them). */
  pixelsAbove: number;
  /** Document pixels below the viewport. */
  pixelsBelow: number;
  /** The top window's viewport size in CSS pixels (innerWidth, innerHeight). */
  viewport: { width: number; height: number };
  /** Total scrollable height of the document. */
  pageHeight: number;
  /** The viewport's visible text in reading order, one line per visual line, capped (see maxVisibleTextLength). */
  visibleText: string;
  /** Time the capture took inside the page, in ms. */
  captureMs: number;
}

/** A point in the top window's viewport, and what a click there hits. */
export type ClickPoint =
  /** The element (or something inside it, or its label) is on top at (x, y). */
  | { x: number; y: number; hit: true }
  /** Every sampled point of the element's visible part is covered; `cover` describes what is on top at (x, y). */
  | { x: number; y: number; hit: false; cover: string };
