/** Mouse and keyboard primitives on one tab's indexed elements (window.__webmixIndex). */
import type { ElementHandle, KeyInput } from "puppeteer-core";
import { indexedElement } from "../dom/mod.ts";
import { ActionError } from "./errors.ts";
import { parseKeyCombo } from "./_keys.ts";
import {
  centreOfEnd,
  chooseOption,
  domClick,
  fileInputAt,
  focusField,
  listOptions,
  type PageRefusal,
  planClick,
  scrollFrom,
  syntheticDrag,
} from "./_page_fns.ts";
import { pageCall, refusalToError, type Tab } from "./_tab.ts";
import type { DragEnd, Point, SelectOption, Viewport } from "./types.ts";

/** Above this many characters, text goes in as one insertion plus a typed last key (typing is ~2 ms a key). */
const TYPE_ALL_UP_TO = 24;
/** Mouse moves between the two ends of a drag. */
const DRAG_STEPS = 8;

/** Clicks an element at its centre with the mouse; a covered element gets a DOM click instead. */
export async function clickElement(tab: Tab, i: number): Promise<"mouse" | "dom"> {
  const plan = await tab.onElement<{ x: number; y: number; hit: boolean; newTab: boolean }>(i, planClick);
  if (plan.newTab) tab.expectNewTab();
  if (!plan.hit) {
    await tab.onElement(i, domClick);
    return "dom";
  }
  await mouseClick(tab, plan);
  return "mouse";
}

/**
 * A left click at a viewport point: move, press, release sent at once (DevTools keeps their order), so the click
 * costs one round trip instead of three.
 */
async function mouseClick(tab: Tab, p: Point): Promise<void> {
  const base = { x: p.x, y: p.y, modifiers: 0 };
  const press = { ...base, button: "left" as const, clickCount: 1 };
  await Promise.all([
    tab.cdp.send("Input.dispatchMouseEvent", { ...base, type: "mouseMoved", button: "none", buttons: 0 }),
    tab.cdp.send("Input.dispatchMouseEvent", { ...press, type: "mousePressed", buttons: 1 }),
    tab.cdp.send("Input.dispatchMouseEvent", { ...press, type: "mouseReleased", buttons: 0 }),
  ]);
}

/** Clicks a viewport point. */
export async function clickPoint(tab: Tab, p: Point, viewport: Viewport): Promise<void> {
  assertInViewport(p, viewport, "click");
  await mouseClick(tab, p);
}

/** Types into a text field (focused and, when `clear`, emptied first); date-like inputs are set directly. */
export async function typeInto(tab: Tab, i: number, text: string, clear: boolean): Promise<void> {
  const r = await tab.onElement<{ mode: "type"; hadText: boolean } | { mode: "set"; value: string }>(
    i,
    focusField,
    clear,
    text,
  );
  if (r.mode === "set") return;
  const kb = tab.page.keyboard;
  if (r.hadText) await kb.press("Backspace");
  if (!text) return;
  if (text.length <= TYPE_ALL_UP_TO) return await kb.type(text);
  await kb.sendCharacter(text.slice(0, -1));
  await kb.type(text.slice(-1));
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

/** Scrolls the page, or the element's scrollable container, by `pages` viewports; returns the pixels moved. */
export async function scroll(tab: Tab, down: boolean, pages: number, i?: number): Promise<number> {
  const r = i === undefined
    ? await tab.call<{ moved: number }>(scrollFrom, null, down, pages)
    : await tab.onElement<{ moved: number }>(i, scrollFrom, down, pages);
  return r.moved;
}

/**
 * An HTML5-compatible drag: mouse down on the source, moves in steps, up on the target. When the two elements
 * cannot share the viewport (scrolling to the target pushes the source out), the page gets the same HTML5 drag
 * events without the mouse.
 */
export async function drag(tab: Tab, from: DragEnd, to: DragEnd, viewport: Viewport): Promise<void> {
  const point = async (end: DragEnd, scroll = true): Promise<Point> =>
    "x" in end
      ? end
      : refusalToError(await tab.call<Point | PageRefusal>(centreOfEnd, indexedElement, end, scroll), "drag");
  let source = await point(from);
  const target = await point(to);
  if (!("x" in from)) {
    // Scrolling to the target may have moved the source.
    const again = await tab.call<Point | PageRefusal>(centreOfEnd, indexedElement, from, false);
    if ("refused" in again) {
      if ("x" in to) throw new ActionError(`drag: ${again.refused} once the target point is in view`);
      refusalToError(await tab.call<true | PageRefusal>(syntheticDrag, indexedElement, from, to), "drag");
      return;
    }
    source = again;
  }
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

/** Presses one key or shortcut (`Enter`, `Control+a`). */
export async function pressKeys(tab: Tab, keys: string): Promise<void> {
  const combo = parseKeyCombo(keys);
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
