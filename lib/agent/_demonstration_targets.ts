/**
 * A reference step's action in the form a model writes it: every element its locators name resolved to its index
 * in the step's element list (the one the request shows), and every point on the model's coordinate grid. A locator
 * the list does not hold (an element outside the viewport, or not indexed) is refused: a model could not have named
 * it.
 */
import { ActionError, type Session } from "../browser/mod.ts";
import { HarnessError } from "../errors/mod.ts";
import type { ReferenceStep } from "../tasks/mod.ts";
import { type Action, type ActionCall, formatAction, parseAction } from "../protocol/mod.ts";
import type { ObservedState } from "./arm.ts";

/** Why a reference cannot be a demonstration: what a model could not have done at which step. */
export class DemonstrationError extends HarnessError {}

/** A locator whose element has no index in the step's list; `scroll` brings it in when the page can. */
class NotListedError extends HarnessError {
  constructor(message: string, readonly scroll?: ActionCall) {
    super(message);
  }
}

type Locator = { selector: string } | { text: string };

const locatorText = (l: Locator) => "selector" in l ? `selector "${l.selector}"` : `text "${l.text}"`;

/**
 * The scroll that centres `selector`'s first match when it lies above or below the viewport (null: in view, or
 * none). `>>>` crosses into a same-origin frame (its top added) or an open shadow root, as the locator's does.
 */
const OFFSCREEN = (selector: string) =>
  `(() => { const parts = ${JSON.stringify(selector.split(">>>").map((p) => p.trim()))}; ` +
  "let root = document, top = 0, e = null; " +
  "for (const [i, part] of parts.entries()) { try { e = root.querySelector(part); } catch { return null; } " +
  "if (!e) return null; if (i === parts.length - 1) break; " +
  "if (e.contentDocument) { top += e.getBoundingClientRect().top + e.clientTop; root = e.contentDocument; } " +
  "else if (e.shadowRoot) root = e.shadowRoot; else return null; } " +
  "const r = e.getBoundingClientRect(); if (r.width === 0 && r.height === 0) return null; " +
  "const y = top + r.top; if (y + r.height > 0 && y < innerHeight) return null; " +
  "const max = document.scrollingElement.scrollHeight - innerHeight; " +
  "return Math.round(Math.max(0, Math.min(max, scrollY + y + r.height / 2 - innerHeight / 2)) - scrollY); })()";

/**
 * The scroll a model would make to bring `selector`'s element into view when it lies above or below the viewport
 * (centring it, as the replay's locator does), measured without touching the page: resolving it with the locator
 * would scroll and re-index the page, and the next request would show what a model's run never saw.
 */
async function offscreenScroll(selector: string, session: Session): Promise<ActionCall | undefined> {
  const delta = await session.evaluate<number | null>(OFFSCREEN(selector));
  if (!delta) return undefined;
  return { scroll: { down: delta > 0, pixels: Math.abs(delta) } };
}

/**
 * The index of the element `locator` designates, in the step's list. Resolving must not re-index the page (which the
 * replay does for an element outside the viewport, scrolling it into view): the request showed the list before.
 */
async function listedIndex(locator: Locator, state: ObservedState, session: Session): Promise<number> {
  const scroll = "selector" in locator ? await offscreenScroll(locator.selector, session) : undefined;
  if (scroll) throw new NotListedError(`${locatorText(locator)} is outside the viewport`, scroll);
  const before = session.indexedElements();
  const index = await session.locate(locator, state.snapshot.elements);
  const reindexed = session.indexedElements() !== before;
  if (reindexed || !state.snapshot.elements.some((e) => e.index === index)) {
    throw new NotListedError(
      `${locatorText(locator)} has no index in the step's element list (outside the viewport, or not ` +
        "interactive): a model could not have named it",
    );
  }
  return index;
}

/** A drag end's box in viewport CSS pixels; and the viewport, its scroll and how far the page scrolls. */
interface EndBoxes {
  boxes: ({ top: number; bottom: number; left: number; right: number } | null)[];
  width: number;
  height: number;
  scrollY: number;
  maxScroll: number;
}

const END_BOXES = (selectors: readonly string[]) =>
  `(() => { const boxes = ${JSON.stringify(selectors)}.map((s) => { const e = document.querySelector(s); ` +
  "if (!e) return null; const r = e.getBoundingClientRect(); " +
  "return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; }); " +
  "const d = document.scrollingElement || document.documentElement; " +
  "return { boxes, width: innerWidth, height: innerHeight, scrollY, " +
  "maxScroll: Math.max(0, d.scrollHeight - innerHeight) }; })()";

/** How far inside its box a drag end's point stays (or its centre, for a smaller box). */
const END_INSET = 24;
/** How far from the viewport's top and bottom edges a scroll for a drag puts its ends, where it can. */
const END_MARGIN = 48;

/** The span of a box where a drag end may point, along one axis: its centre, or its middle part for a big box. */
function span(lo: number, hi: number): [number, number] {
  const inset = Math.min((hi - lo) / 2, END_INSET);
  return [lo + inset, hi - inset];
}

/**
 * The scroll (signed pixels, down positive) that brings every end's span on screen at once, at least `margin` from
 * the viewport's top and bottom where the page allows, as near as it can to centring the ends together; null when
 * no scroll of the page does.
 */
function jointScroll(spans: readonly [number, number][], v: EndBoxes, margin: number): number | null {
  // A scroll by s shows the span [a, b] when a - s <= height - margin and b - s >= margin.
  const lo = Math.max(-v.scrollY, ...spans.map(([a]) => a - (v.height - margin)));
  const hi = Math.min(v.maxScroll - v.scrollY, ...spans.map(([, b]) => b - margin));
  if (lo > hi) return null;
  const top = Math.min(...spans.map(([a]) => a)), bottom = Math.max(...spans.map(([, b]) => b));
  const centred = (top + bottom) / 2 - v.height / 2;
  return Math.round(Math.max(Math.ceil(lo), Math.min(Math.floor(hi), centred)));
}

/**
 * The points of a drag's selector ends as the model gives them, in viewport CSS pixels: each end's centre, or for a
 * box larger than the screen shows (a board column) the middle of its part on screen (a drop zone is rarely
 * indexed, and the nearest indexed ancestor of a card is not the card). A model points only at what is on screen:
 * while an end is not, the step is refused with the one page scroll that brings all of them on screen together
 * (scrolling to one end and then to the other would lose the first), or, when no scroll can, with why.
 */
async function dragPoints(selectors: readonly string[], session: Session): Promise<{ x: number; y: number }[]> {
  const v = await session.evaluate<EndBoxes>(END_BOXES(selectors));
  const missing = selectors.find((_, i) => !v.boxes[i]);
  if (missing !== undefined) throw new ActionError(`drag end "${missing}" matches nothing on the page`);
  const boxes = v.boxes.map((b) => b!);
  const xs = boxes.map((b) => span(b.left, b.right)), ys = boxes.map((b) => span(b.top, b.bottom));
  const onScreen = (s: [number, number], size: number) => s[0] <= size && s[1] >= 0;
  const aside = selectors.find((_, i) => !onScreen(xs[i], v.width));
  if (aside !== undefined) {
    throw new NotListedError(
      `drag end "${aside}" is beside the viewport (the page is not scrolled sideways): a model could not have ` +
        "pointed at it",
    );
  }
  const off = selectors.filter((_, i) => !onScreen(ys[i], v.height));
  if (off.length > 0) {
    const delta = jointScroll(ys, v, END_MARGIN) ?? jointScroll(ys, v, 0);
    const ends = off.map((s) => `"${s}"`).join(" and ");
    const what = `drag end${off.length > 1 ? "s" : ""} ${ends} ${off.length > 1 ? "are" : "is"} outside the viewport`;
    if (delta === null || delta === 0) {
      // How far the nearest points of the two ends' spans are apart.
      const apart = Math.max(...ys.map(([a]) => a)) - Math.min(...ys.map(([, b]) => b));
      throw new NotListedError(
        selectors.length > 1 && apart > v.height
          ? `${what}, and the drag's ends cannot both be on screen at once (${Math.round(apart)} px apart in a ` +
            `${v.height} px viewport): a model could not have pointed at both`
          : `${what}, and no scroll of the page brings ${off.length > 1 ? "them" : "it"} in: a model could not ` +
            "have pointed at it",
      );
    }
    throw new NotListedError(what, { scroll: { down: delta > 0, pixels: Math.abs(delta) } });
  }
  const mid = ([a, b]: [number, number], size: number, whole: [number, number]) => {
    const c = (whole[0] + whole[1]) / 2;
    return c >= 0 && c <= size ? c : (Math.max(a, 0) + Math.min(b, size)) / 2;
  };
  return boxes.map((b, i) => ({
    x: Math.round(mid(xs[i], v.width, [b.left, b.right])),
    y: Math.round(mid(ys[i], v.height, [b.top, b.bottom])),
  }));
}

/** Moves a params record's locator (`selector` or `text`) to `index`. */
async function withIndex<P extends { index?: number; selector?: string; text?: string }>(
  p: P,
  state: ObservedState,
  session: Session,
  keepText = false,
): Promise<P> {
  if (p.selector !== undefined) {
    const { selector, ...rest } = p;
    return { ...rest, index: await listedIndex({ selector }, state, session) } as P;
  }
  if (p.text !== undefined && !keepText) {
    const { text, ...rest } = p;
    return { ...rest, index: await listedIndex({ text }, state, session) } as P;
  }
  return p;
}

/** The action with its locators as indexes and its CSS-pixel points on the model's grid. */
async function modelForm(
  a: Action,
  state: ObservedState,
  session: Session,
  normalized: boolean,
): Promise<Action> {
  const v = state.snapshot.viewport;
  const gx = (x: number) => normalized ? Math.round((x / v.width) * 1000) : x;
  const gy = (y: number) => normalized ? Math.round((y / v.height) * 1000) : y;
  const point = <P extends { coordinate_x?: number; coordinate_y?: number }>(p: P): P =>
    p.coordinate_x === undefined || p.coordinate_y === undefined
      ? p
      : { ...p, coordinate_x: gx(p.coordinate_x), coordinate_y: gy(p.coordinate_y) };
  switch (a.name) {
    case "click":
    case "hover":
    case "scroll":
      return { ...a, params: point(await withIndex(a.params, state, session)) } as Action;
    case "dropdown_options":
    case "upload_file":
      return { ...a, params: await withIndex(a.params, state, session) } as Action;
    case "input":
    case "select_dropdown":
      return { ...a, params: await withIndex(a.params, state, session, true) } as Action;
    case "drag": {
      const p = { ...a.params };
      if (p.path) return { name: "drag", params: { path: p.path.map((q) => ({ x: gx(q.x), y: gy(q.y) })) } };
      const ends = (["source", "target"] as const).filter((end) => p[end] !== undefined);
      const pointed = ends.filter((end) => "selector" in p[end]!);
      const points = pointed.length === 0
        ? []
        : await dragPoints(pointed.map((end) => (p[end] as { selector: string }).selector), session);
      for (const [i, end] of pointed.entries()) [p[`${end}_x`], p[`${end}_y`]] = [points[i].x, points[i].y];
      for (const end of ends) {
        const locator = p[end]!;
        if ("text" in locator) p[`${end}_index`] = await listedIndex(locator, state, session);
      }
      for (const k of ["source_x", "target_x"] as const) if (p[k] !== undefined) p[k] = gx(p[k]!);
      for (const k of ["source_y", "target_y"] as const) if (p[k] !== undefined) p[k] = gy(p[k]!);
      delete p.source;
      delete p.target;
      return { name: "drag", params: p };
    }
    default:
      return a;
  }
}

/**
 * The action a model would answer for reference step `step` at `state`: its first candidate whose locators all
 * resolve to indexes of the step's list (`consumed`), or the scroll that brings its element into the list first (not
 * consumed: the step comes again); null for a step with no candidate, or an optional one none of whose candidates
 * does.
 * @throws DemonstrationError naming the step when no candidate can be named by index.
 */
export async function indexedAction(
  step: ReferenceStep,
  state: ObservedState,
  session: Session,
  normalized: boolean,
  where: string,
): Promise<{ action: ActionCall; consumed: boolean } | null> {
  const candidates = step.candidates(state.snapshot.elements);
  const problems: string[] = [];
  for (const candidate of candidates) {
    let action: Action;
    try {
      action = parseAction(candidate);
    } catch (err) {
      problems.push((err as Error).message);
      continue;
    }
    try {
      return {
        action: formatAction(await modelForm(action, state, session, normalized)) as ActionCall,
        consumed: true,
      };
    } catch (err) {
      if (err instanceof NotListedError && err.scroll) return { action: err.scroll, consumed: false };
      if (!(err instanceof ActionError) && !(err instanceof NotListedError)) throw err;
      problems.push(err.message);
    }
  }
  if (candidates.length === 0 || step.optional) return null;
  throw new DemonstrationError(`${where}: ${problems.join("; or ")}`);
}
