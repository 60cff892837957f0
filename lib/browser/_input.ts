/** Mouse and keyboard primitives on one tab's indexed elements (window.__webmixIndex). */
import type { ElementHandle, KeyInput } from "puppeteer-core";
import { elementAt, indexedElement, visiblePoint } from "../dom/mod.ts";
import { ActionError } from "./errors.ts";
import { dateTextMatches, type KeyCombo, planKeys, segmentKeys } from "./_keys.ts";
import {
  afterHover,
  type Box,
  centreOfEnd,
  chooseOption,
  type EndRefusal,
  fileInputAt,
  type Focused,
  focusedElement,
  focusField,
  hoverBox,
  type HoverCheck,
  hoverCheck,
  listOptions,
  type PageRefusal,
  planClick,
  queryDeep,
  readField,
  scrollerAt,
  scrollFrom,
  syntheticDrag,
} from "./_page_fns.ts";
import { contextGone, pageCall, refusalToError, type Tab } from "./_tab.ts";
import type { DragEnd, Point, SelectOption, Viewport } from "./types.ts";

/** Above this many characters, text goes in as one insertion plus a typed last key (typing is ~2 ms a key). */
const TYPE_ALL_UP_TO = 24;
/** Mouse moves between the two ends of a drag. */
const DRAG_STEPS = 8;

/**
 * Clicks an element where a person's click reaches it: a point of its visible part where it is on top (lib/dom's
 * visiblePoint), so a partly covered element is clicked on its visible part. As a person's hand does, the mouse
 * first moves there; once the page has answered the hover (a frame and a task later) a hit test checks that the
 * element is still what a press there reaches, and only then the button goes down and up. When the hover replaced
 * or hid the element (a re-render, a rollover image), its equivalent now at the point (same tag, same text or name)
 * is clicked instead; when the hover moved or covered it, its visible point is planned again, once. `onNote` hears
 * which of these happened (nothing when the first check passed).
 * @throws ActionError naming what covers the element when every point of it is covered (an overlay, a menu), or
 *   what is at the point instead when the hover replaced it by something else or a second check fails.
 */
export async function clickElement(tab: Tab, i: number, onNote?: (note: string) => void): Promise<void> {
  let plan = await tab.onElement<{ x: number; y: number; newTab: boolean }>(
    i,
    planClick,
    visiblePoint,
    elementAt,
    hoverBox,
  );
  let retarget = "", replanned = false; // retarget: the description of the equivalent clicked instead
  for (let attempt = 0;; attempt++) {
    const p = { x: plan.x, y: plan.y };
    await mouseMove(tab, p);
    const check = await tab.call<HoverCheck>(
      hoverCheck,
      indexedElement,
      i,
      elementAt,
      afterHover,
      hoverBox,
      p.x,
      p.y,
      !!retarget,
    );
    const at = `(${Math.round(p.x)}, ${Math.round(p.y)})`;
    if (check.on) {
      if (plan.newTab) tab.expectNewTab();
      await mouseButton(tab, p);
      if (retarget) {
        onNote?.(`element ${i} was swapped under the mouse; clicked the one that took its place, ${retarget}`);
      } else if (replanned) onNote?.(`element ${i} moved or was covered under the mouse; clicked it at ${at}`);
      return;
    }
    if (attempt > 0) {
      throw new ActionError(
        `element ${i}: once the mouse was on it, ${check.now} was at ${at} instead (the page changes it on hover); ` +
          "nothing was clicked",
      );
    }
    if (check.same) {
      retarget = check.now; // the equivalent is under the point: move again (its own hover), check, press
    } else if (check.why !== "moved") {
      throw new ActionError(
        `element ${i} was ${check.why === "gone" ? "replaced" : "hidden"} when the mouse moved onto it: at ${at} ` +
          `there is now ${check.now}, not the same control; nothing was clicked`,
      );
    } else {
      replanned = true;
      plan = await tab.onElement<typeof plan>(i, planClick, visiblePoint, elementAt, hoverBox);
    }
  }
}

/** Presses and releases the left button at a point the mouse is on, sent at once (DevTools keeps their order). */
async function mouseButton(tab: Tab, p: Point): Promise<void> {
  const press = { x: p.x, y: p.y, modifiers: 0, button: "left" as const, clickCount: 1 };
  await Promise.all([
    tab.cdp.send("Input.dispatchMouseEvent", { ...press, type: "mousePressed", buttons: 1 }),
    tab.cdp.send("Input.dispatchMouseEvent", { ...press, type: "mouseReleased", buttons: 0 }),
  ]);
}

function mouseMove(tab: Tab, p: Point): Promise<unknown> {
  return tab.cdp.send("Input.dispatchMouseEvent", {
    type: "mouseMoved",
    x: p.x,
    y: p.y,
    modifiers: 0,
    button: "none",
    buttons: 0,
  });
}

/**
 * Clicks a viewport point: the mouse moves there, and once the page has answered the hover (a frame and a task
 * later) the button goes down and up, so both land on what the hover left there.
 */
export async function clickPoint(tab: Tab, p: Point, viewport: Viewport): Promise<void> {
  assertInViewport(p, viewport, "click");
  await mouseMove(tab, p);
  await tab.call(afterHover);
  await mouseButton(tab, p);
}

/**
 * Moves the mouse onto an element where it is on top (as a click would reach it), so that what opens on hover
 * opens; returns the point.
 * @throws ActionError naming what covers the element.
 */
export async function hoverElement(tab: Tab, i: number): Promise<Point> {
  const plan = await tab.onElement<{ x: number; y: number }>(i, planClick, visiblePoint, elementAt, hoverBox);
  const p = { x: Math.round(plan.x), y: Math.round(plan.y) };
  await mouseMove(tab, p);
  return p;
}

/** Moves the mouse to a viewport point. */
export async function hoverPoint(tab: Tab, p: Point, viewport: Viewport): Promise<void> {
  assertInViewport(p, viewport, "hover");
  await mouseMove(tab, p);
}

const DATE_FORMS: Record<string, string> = {
  date: "YYYY-MM-DD",
  time: "HH:MM",
  "datetime-local": "YYYY-MM-DDTHH:MM",
  month: "YYYY-MM",
  week: "YYYY-Www",
};

/** What the field holds after `input`. */
export interface Typed {
  /** The field's value, or null when it could not be read (typing left the page, e.g. a newline submitted it). */
  value: string | null;
  /** The field shows something else than the text, yet holds it (formatting, a date as its ISO value). */
  differs: boolean;
}

/**
 * Types into a text field (focused and, when `clear`, emptied first) with real keystrokes, then reads the field: a
 * date-like input takes ISO text through its value setter and any other text (`10/11/2011`, `9:30 PM`) as keys
 * into its segments.
 * @throws ActionError when focusing moved the focus away (nothing typed), or when the field does not hold the text
 *   afterwards (a number field given letters, a date it cannot read, a length limit), saying what it holds.
 */
export async function typeInto(tab: Tab, i: number, text: string, clear: boolean): Promise<Typed> {
  const r = await tab.onElement<Focused>(i, focusField, clear, text);
  if (r.mode === "lost") {
    const where = await tab.call<string>(focusedElement);
    throw new ActionError(`element ${i}: focusing it moved the focus to ${where} (a focus handler); nothing was typed`);
  }
  const kb = tab.page.keyboard;
  if (r.mode === "segments") {
    for (const k of segmentKeys(text)) await (k === "ArrowRight" ? kb.press(k) : kb.type(k));
  } else if (r.mode === "type") {
    if (r.hadText) await kb.press("Backspace");
    if (text.length > TYPE_ALL_UP_TO) {
      await kb.sendCharacter(text.slice(0, -1));
      await kb.type(text.slice(-1));
    } else if (text) {
      await kb.type(text);
    }
  }
  let value: string;
  try {
    value = (await tab.onElement<{ value: string }>(i, readField)).value;
  } catch (err) {
    // The page went on (Enter in the text submitted it): nothing left to read.
    if (err instanceof ActionError || contextGone(err)) return { value: null, differs: false };
    throw err;
  }
  return { value, differs: checkTyped(i, r, text, clear, value) };
}

/**
 * Whether the field's value shows the text otherwise (true) or exactly (false).
 * @throws ActionError when the value does not hold the text.
 */
function checkTyped(i: number, r: Focused, text: string, clear: boolean, value: string): boolean {
  const nl = (x: string) => x.replace(/\r\n?/g, "\n");
  const held = `element ${i}: the field holds ${JSON.stringify(value)} after typing ${JSON.stringify(text)}`;
  const form = DATE_FORMS[r.kind];
  if (form) {
    if (value === text) return false;
    if (dateTextMatches(text, value)) return true;
    throw new ActionError(`${held} (a ${r.kind} field: give the date as it shows, or as ${form})`);
  }
  if (r.kind === "color" && value.toLowerCase() === text.toLowerCase()) return false;
  const editable = r.kind === "contenteditable";
  const squash = (x: string) => editable ? x.replace(/\s+/g, " ").trim() : nl(x);
  const want = squash(clear || r.mode === "set" ? text : r.before + text);
  if (squash(value) === want) return false;
  const letters = (x: string) => x.normalize("NFKC").replace(/[^\p{L}\p{N}]/gu, "").toLowerCase();
  if (value !== "" && letters(value) === letters(want)) return true;
  const why = r.kind === "number" ? " (a number field keeps only a number)" : "";
  throw new ActionError(`${held}${why}`);
}

/** Chooses a native select's option by text or value; returns the chosen option's text. */
export async function selectOption(tab: Tab, i: number, text: string): Promise<string> {
  const r = await tab.onElement<{ text: string; value: string }>(i, chooseOption, text);
  return r.text;
}

/** A select's options. */
export function optionsOf(tab: Tab, i: number): Promise<SelectOption[]> {
  return tab.onElement<SelectOption[]>(i, listOptions);
}

/**
 * Scrolls the page, or the element's scrollable container, by `pages` viewports of it (or `pixels`); returns the
 * pixels moved.
 */
export async function scroll(
  tab: Tab,
  down: boolean,
  pages: number,
  i?: number,
  pixels?: number,
): Promise<number> {
  const r = i === undefined
    ? await tab.call<{ moved: number }>(scrollFrom, null, down, pages, pixels ?? null)
    : await tab.onElement<{ moved: number }>(i, scrollFrom, down, pages, pixels ?? null);
  return r.moved;
}

/** How long a wheel's scroll may take to settle (Chromium animates it). */
const WHEEL_SETTLE_MS = 1500;
/** How long a wheel that moved nothing is watched. */
const WHEEL_QUIET_MS = 300;

/**
 * Turns the mouse wheel at a viewport point, as a person scrolls what is under the pointer: by `pages` heights of
 * the container there (or `pixels`). Returns what scrolled and by how much (0: it was at its end).
 */
export async function wheelAt(
  tab: Tab,
  p: Point,
  down: boolean,
  pages: number,
  viewport: Viewport,
  pixels?: number,
): Promise<{ target: string; moved: number }> {
  assertInViewport(p, viewport, "scroll at");
  const before = await tab.call<{ name: string; height: number; top: number; page: number }>(
    scrollerAt,
    elementAt,
    p.x,
    p.y,
  );
  const delta = (down ? 1 : -1) * (pixels ?? Math.round(pages * before.height));
  await mouseMove(tab, p);
  await tab.cdp.send("Input.dispatchMouseEvent", {
    type: "mouseWheel",
    x: p.x,
    y: p.y,
    deltaX: 0,
    deltaY: delta,
    modifiers: 0,
  });
  // The scroll is animated: wait until the offsets stop changing (or, when nothing moves, a short while).
  const started = performance.now();
  let last = before, stable = 0, changed = false;
  while (performance.now() - started < WHEEL_SETTLE_MS) {
    await new Promise((r) => setTimeout(r, 30));
    const now = await tab.call<typeof before>(scrollerAt, elementAt, p.x, p.y);
    if (now.top === last.top && now.page === last.page) stable++;
    else [stable, changed] = [0, true];
    last = now;
    if (changed ? stable >= 3 : performance.now() - started > WHEEL_QUIET_MS) break;
  }
  const own = Math.round(last.name === before.name ? last.top - before.top : 0);
  if (own !== 0 || before.name === "the page") return { target: before.name, moved: own };
  return { target: "the page", moved: Math.round(last.page - before.page) };
}

/**
 * Where a drag from `from` onto an element with box `box` drops. Onto an element about the dragged one's size (a
 * sortable list's item): past its midpoint in the direction of travel (a quarter of its size beyond its centre), on
 * each axis along which the drag travels at least half its size; at its centre on the others. Sortable lists
 * (jQuery UI, SortableJS, dragover handlers) place an item by the pointer's side of the midpoint of the item under
 * it, so a drop at the centre moves nothing. Into an element with room for the dragged one (`dragged`, its box,
 * grabbed at `from`): where the dragged box lies wholly inside it, as pages that place what is dropped check ("fit")
 * — centred in it when it is at least twice the dragged box's size along the axis, else past the midpoint only as
 * far as the dragged box stays inside (from 1.5 times its size). Kept inside the viewport. Self-contained: a page
 * function (syntheticDrag) receives its source.
 */
export function dropPoint(from: Point, box: Box, viewport: Viewport, dragged?: Box): Point {
  const PAST = 0.25, ROOMY = 1.5, ZONE = 2;
  const axis = (start: number, lo: number, size: number, limit: number, dLo?: number, dSize?: number) => {
    const centre = lo + size / 2;
    const way = Math.abs(centre - start) >= size / 2 ? Math.sign(centre - start) : 0;
    let p = centre + way * PAST * size;
    if (dLo !== undefined && dSize !== undefined && dSize > 0 && size >= ROOMY * dSize) {
      // The pointer positions that keep the dragged box (held `start - dLo` from its edge) inside the element.
      const first = lo + (start - dLo), last = first + size - dSize;
      p = size >= ZONE * dSize ? (first + last) / 2 : Math.min(Math.max(p, first + 1), last - 1);
    }
    // Inside the part of the box in the viewport (the centre is in it: centreOfEnd scrolled it there).
    return Math.min(Math.max(p, Math.max(lo, 0) + 1), Math.min(lo + size, limit) - 1);
  };
  return {
    x: axis(from.x, box.left, box.width, viewport.width, dragged?.left, dragged?.width),
    y: axis(from.y, box.top, box.height, viewport.height, dragged?.top, dragged?.height),
  };
}

/**
 * An HTML5-compatible drag: mouse down on the source where it is on top (its visible part, as a click's: a slot
 * mostly under a calendar event is grabbed by its sliver; refused, naming what covers it, when no part is on top),
 * moves in steps, up on the target at dropPoint when it is an element, so that a drop onto a sortable list's item
 * moves the dragged one past it and a drop into a zone lands inside it, as a person's drag does. When the two
 * elements cannot share the viewport (scrolling to the target pushes the source out), the page gets the same HTML5
 * drag events without the mouse.
 */
export async function drag(tab: Tab, from: DragEnd, to: DragEnd, viewport: Viewport): Promise<void> {
  type End = Point & { box?: Box };
  const point = async (end: DragEnd, aim: boolean, scroll = true): Promise<End> =>
    "x" in end ? end : refusalToError(
      await tab.call<End | EndRefusal>(
        centreOfEnd,
        indexedElement,
        end,
        scroll,
        queryDeep,
        aim ? visiblePoint : null,
        elementAt,
      ),
      "drag",
    );
  let source: End = await point(from, true);
  const onto = await point(to, false);
  if (!("x" in from)) {
    // Scrolling to the target may have moved the source.
    const again = await tab.call<End | EndRefusal>(
      centreOfEnd,
      indexedElement,
      from,
      false,
      queryDeep,
      visiblePoint,
      elementAt,
    );
    if ("refused" in again) {
      if ("x" in to || !again.outside) throw new ActionError(`drag: ${again.refused} once the target is in view`);
      await tab.call<true | PageRefusal>(syntheticDrag, indexedElement, from, to, queryDeep, dropPoint)
        .then((r) => refusalToError(r, "drag"));
      return;
    }
    source = again;
  }
  const target = onto.box ? dropPoint(source, onto.box, viewport, source.box) : onto;
  assertInViewport(source, viewport, "drag from");
  assertInViewport(target, viewport, "drag to");
  const mouse = tab.page.mouse;
  await mouse.move(source.x, source.y);
  await mouse.down();
  try {
    // A first small move passes drag thresholds of pointer-based libraries before the long way.
    await mouse.move(source.x + 4, source.y + 4);
    for (let s = 1; s <= DRAG_STEPS; s++) {
      const f = s / DRAG_STEPS;
      await mouse.move(source.x + (target.x - source.x) * f, source.y + (target.y - source.y) * f);
    }
    await mouse.move(target.x, target.y);
  } finally {
    await mouse.up();
  }
}

/** Mouse moves per this many pixels of a drag path's segment. */
const PATH_STEP_PX = 25;

/** Drags along a path of viewport points: mouse down at the first, moves through each, up at the last. */
export async function dragPath(tab: Tab, path: readonly Point[], viewport: Viewport): Promise<void> {
  path.forEach((p, k) => assertInViewport(p, viewport, `drag through point ${k + 1}`));
  const mouse = tab.page.mouse;
  await mouse.move(path[0].x, path[0].y);
  await mouse.down();
  try {
    for (let k = 1; k < path.length; k++) {
      const [a, b] = [path[k - 1], path[k]];
      const steps = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / PATH_STEP_PX));
      await mouse.move(b.x, b.y, { steps });
    }
  } finally {
    await mouse.up();
  }
}

/**
 * send_keys: presses a key or shortcut (`Enter`, `Control+a`), or types any other string character by character
 * (`ls`); `asText` types the string whatever it is. Returns which it did.
 */
export async function sendKeys(tab: Tab, keys: string, asText = false): Promise<"keys" | "text"> {
  const plan = asText ? { text: keys } : planKeys(keys);
  if ("text" in plan) {
    await tab.page.keyboard.type(plan.text);
    return "text";
  }
  await pressCombo(tab, plan.combo, keys);
  return "keys";
}

/** Presses one key or shortcut, its modifiers held. */
async function pressCombo(tab: Tab, combo: KeyCombo, keys: string): Promise<void> {
  const kb = tab.page.keyboard;
  const held: KeyInput[] = [];
  try {
    for (const m of combo.modifiers) {
      await kb.down(m);
      held.push(m);
    }
    await kb.press(combo.key as KeyInput); // Linux key bindings handle Control+a/c/v/x/z natively
  } catch (err) {
    if (/Unknown key/i.test(String(err))) {
      throw new ActionError(`"${combo.key}" in "${keys}" is not a key name (Enter, Escape, Tab, ArrowDown, a...)`);
    }
    throw err;
  } finally {
    for (const m of held.reverse()) await kb.up(m).catch(() => undefined);
  }
}

/** Sets the file input the element is or stands for, or accepts the file chooser the element opens on click. */
export async function uploadTo(tab: Tab, i: number, path: string): Promise<void> {
  const input = await fileInputOf(tab, i);
  if (input) return await input.uploadFile(path).finally(() => input.dispose());
  const [chooser] = await Promise.all([
    tab.page.waitForFileChooser({ timeout: 2000 }).catch(() => {
      throw new ActionError(`element ${i} is not a file input and opens no file chooser`);
    }),
    clickElement(tab, i),
  ]);
  await chooser.accept([path]);
}

/**
 * The file input an element is or stands for: itself, a label's control, a wrapper's only file input; null when
 * none (then the caller clicks it and takes the file chooser).
 */
async function fileInputOf(tab: Tab, i: number): Promise<ElementHandle<HTMLInputElement> | null> {
  tab.assertUsable();
  const handle = await tab.page.evaluateHandle(pageCall(fileInputAt, [indexedElement, i]));
  const el = handle.asElement() as ElementHandle<HTMLInputElement> | null;
  if (!el) await handle.dispose();
  return el;
}

function assertInViewport(p: Point, v: Viewport, what: string): void {
  if (!(p.x >= 0 && p.y >= 0 && p.x < v.width && p.y < v.height)) {
    throw new ActionError(
      `cannot ${what} (${Math.round(p.x)}, ${Math.round(p.y)}): outside the ${v.width}x${v.height} viewport`,
    );
  }
}
