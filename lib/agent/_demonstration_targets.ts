/**
 * A reference step's action in the form a model writes it: every element its locators name resolved to its index
 * in the step's element list (the one the request shows), and every point on the model's coordinate grid. A locator
 * the list does not hold (an element outside the viewport, or not indexed) is refused: a model could not have named
 * it.
 */
import { ActionError, type Session } from "../browser/mod.ts";
import { HarnessError } from "../errors/mod.ts";
import { type Action, type ActionCall, formatAction, parseAction, type ReferenceStep } from "../tasks/mod.ts";
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

/**
 * A drag end as the model gives it: the centre of the element its selector designates, in viewport CSS pixels (a
 * drop zone is rarely indexed, and the nearest indexed ancestor of a card is not the card). One outside the viewport
 * is refused, with the scroll that brings it in when the page can.
 */
async function centreOf(selector: string, session: Session): Promise<{ x: number; y: number }> {
  const box = await session.evaluate<{ x: number; y: number; w: number; h: number } | null>(
    `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null; ` +
      "const r = e.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, " +
      "w: innerWidth, h: innerHeight }; })()",
  );
  if (!box) throw new ActionError(`drag end "${selector}" matches nothing on the page`);
  if (box.x < 0 || box.y < 0 || box.x > box.w || box.y > box.h) {
    throw new NotListedError(
      `drag end "${selector}" is outside the viewport: a model could not have pointed at it`,
      await offscreenScroll(selector, session),
    );
  }
  return { x: Math.round(box.x), y: Math.round(box.y) };
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
      for (const end of ["source", "target"] as const) {
        const locator = p[end];
        if (!locator) continue;
        if ("text" in locator) p[`${end}_index`] = await listedIndex(locator, state, session);
        else [p[`${end}_x`], p[`${end}_y`]] = Object.values(await centreOf(locator.selector, session));
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
