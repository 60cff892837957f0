/**
 * Page-side: the state of one capture (the options resolved, the page's constants, what the walk has found so far),
 * made once per snapshotPage call and passed to every function of lib/dom/page.
 */
import type { SnapshotOptions } from "../types.ts";
import type { Box } from "./geometry.ts";
import { namingWords } from "./naming.ts";

/** A document being walked: the top one, or a same-origin iframe's (dx, dy: its viewport in top coordinates). */
export type Frame = {
  dx: number;
  dy: number;
  /** The part of the top viewport this frame shows, in top coordinates. */
  view: Box;
  /** The same for the box where an element is still indexed (near). */
  near: Box;
  /** The same for the box outside which a subtree is skipped (viewportExpansion >= 0) or only cheaply checked. */
  walk: Box;
  listeners: WeakMap<Element, number> | undefined;
  /** The innermost ancestor clipping its overflow (a scroll box), or null: view, near and walk are cut to it. */
  clip: { el: Element; box: Box; outer: Frame } | null;
  /** This document's frame before any clip: what a position: fixed element is clipped by. */
  base: Frame;
};

/** An element the walk keeps, with its box (top coordinates) and whether it meets the viewport. */
export type Kept = { el: Element; r: Box; inView: boolean };

/** The visible text as the walk builds it: visual lines, the current one still open. */
export type TextLines = {
  lines: string[];
  line: string;
  top: number;
  bottom: number;
  right: number;
  endsWithSpace: boolean;
  parent: Element | null;
  /** Characters taken so far (against maxVisible). */
  length: number;
  range: Range;
};

/** One capture's state. */
export type Capture = ReturnType<typeof newCapture>;

/** The state of a capture of this document with `opts` (defaults applied), before the walk. */
export function newCapture(opts: SnapshotOptions) {
  const expansion = opts.viewportExpansion ?? 0;
  const doc = document;
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
  const GRID = 80;
  const vw = globalThis.innerWidth;
  return {
    expansion,
    maxText: opts.maxTextLength ?? 100,
    maxVisible: opts.maxVisibleTextLength ?? 6000,
    maxOptions: opts.maxOptions ?? 100,
    maxValue: opts.maxValueLength ?? 1000,
    doc,
    vw,
    vh: globalThis.innerHeight,
    whole: expansion < 0,
    /** lib/dom/listeners.ts's LISTENER_GLOBAL (a test keeps the two equal). */
    listenersGlobal: "__webmixClickListeners",
    ROLES,
    // Everything a person can act on, except labels (kept only when they stand in for a hidden control).
    ACTIONABLE: [
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
    ].join(","),
    FIELDS: new Set(["input", "select", "textarea"]),
    NATIVE: new Set(["a", "button", "input", "select", "textarea", "summary", "label", "audio", "video"]),
    NO_TEXT: new Set(["script", "style", "noscript", "template", "option", "optgroup", "textarea", "title"]),
    /** Never walked into: no control or visible text of theirs is a separate thing to act on. */
    NO_WALK: new Set([
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
    ]),
    /** Containers whose children are items: clicking the container means clicking an item. */
    LISTS: new Set(["ul", "ol", "menu", "tbody"]),
    /** Table sections: their rows stack in document order (see visibleRows). */
    ROW_GROUPS: new Set(["tbody", "thead", "tfoot"]),
    LIST_ROLES: new Set(["listbox", "menu", "menubar", "list", "tree", "grid", "tablist", "radiogroup"]),
    /** Overflow values that scroll. */
    SCROLLS: /^(auto|scroll|overlay)$/,
    /** Overflow under this many px does not make a scroll box (sub-pixel layouts leave a few). */
    SCROLL_SLACK: 4,
    /** Nesting deeper than this is not walked (the walk recurses; no real page nests this deep). */
    MAX_DEPTH: 1000,
    VISIBILITY: { visibilityProperty: true, opacityProperty: true },
    /** The class and file-name words nameOf passes over. */
    words: namingWords(),
    /** The rescue grid's step (px), its columns, its hits in rows, and the ancestors of every hit. */
    GRID,
    cols: Math.ceil((vw - GRID / 2) / GRID),
    grid: [] as (Element | null)[],
    rescue: new Set<Element>(),
    /** Candidates in tree order, and the same as a set (labels dropped from it once their control is indexed). */
    kept: [] as Kept[],
    keptSet: new Set<Element>(),
    /** Scroll boxes kept in the index, the ways each scrolls, and whether scrolling is all it is indexed for. */
    scrollBoxes: new Map<Element, { x: boolean; y: boolean; only: boolean }>(),
    /** The first indexed item of a scrolling list that is not indexed itself → that list. */
    listOfItem: new Map<Element, Element>(),
    /** The walk's nesting depth (it recurses). */
    depth: 0,
    text: {
      lines: [],
      line: "",
      top: 0,
      bottom: -Infinity,
      right: 0,
      endsWithSpace: false,
      parent: null,
      length: 0,
      range: doc.createRange(),
    } as TextLines,
    /** The length of the last value attributesOf read (before its cut), and where its shown part starts. */
    valueLength: 0,
    valueStart: 0,
  };
}
