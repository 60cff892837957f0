/**
 * The action executor: one action of the action language (docs/tasks.md) parsed with lib/tasks, its locator
 * resolved to an element index, and run on the episode's browser session. An agent's mistake (a bad action, no
 * such index, a blocked URL) is a result with `ok: false`; a harness failure (the browser died, a page hung)
 * throws.
 */
import { ActionError, type BrowserState, type DragEnd, type Point, type Session } from "../browser/mod.ts";
import { type Action, type ActionParams, type ElementLocator, type ElementRef, parseAction } from "../protocol/mod.ts";

/** What an action runs against. */
export interface ActionContext {
  /** The site base that paths in `navigate` resolve against. */
  base: string;
  /** The state the action was chosen on: its element list resolves `text` locators and names elements. */
  state: BrowserState;
  /** Coordinates are on the 0-1000 grid of the viewport instead of CSS pixels. */
  normalizedCoords?: boolean;
}

/** What an action did. */
export interface ActionResult {
  /** The action did what it asked (false: an agent mistake, `error` says which). */
  ok: boolean;
  /** Why the action failed (ok false). */
  error?: string;
  /** Text for the agent's memory: what happened, or what was read (options, clipboard). */
  extracted?: string;
  /** `extracted` is something read (a select's options, the clipboard): the next step shows it as <read_state>. */
  read?: boolean;
  /** Set by `done`: the episode ends with this answer. */
  done?: { text: string; success: boolean };
  /** Set by `macro_done`: the current macro is finished. */
  macroDone?: boolean;
}

type Handler<N extends Action["name"]> = (
  s: Session,
  p: ActionParams[N],
  ctx: ActionContext,
) => Promise<ActionResult>;

const ok = (extracted: string): ActionResult => ({ ok: true, extracted });
const read = (extracted: string): ActionResult => ({ ok: true, extracted, read: true });

/**
 * Runs one action (`{"click": {"index": 3}}`) on the session.
 * @throws HarnessError (not ActionError) when the harness fails: the browser died, a page did not load in time.
 */
export async function executeAction(session: Session, raw: unknown, ctx: ActionContext): Promise<ActionResult> {
  let action: Action;
  try {
    action = parseAction(raw);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  try {
    const run = HANDLERS[action.name] as Handler<typeof action.name>;
    return await run(session, action.params, ctx);
  } catch (err) {
    if (err instanceof ActionError) return { ok: false, error: `${action.name}: ${err.message}` };
    throw err;
  }
}

/** The element index an action designates: its `index`, or the one its `selector` / `text` locator resolves to. */
async function resolveIndex(session: Session, ref: ElementRef, ctx: ActionContext): Promise<number> {
  if (ref.index !== undefined) return ref.index;
  const locator = ref.selector !== undefined ? { selector: ref.selector } : { text: ref.text! };
  return await session.locate(locator, ctx.state.snapshot.elements);
}

/** A point of the action in viewport CSS pixels (scaled from the 0-1000 grid when the run uses it). */
export function toViewport(x: number, y: number, ctx: ActionContext, session: Session): Point {
  if (!ctx.normalizedCoords) return { x, y };
  const v = ctx.state.snapshot.viewport ?? session.viewport;
  return { x: Math.round((x / 1000) * v.width), y: Math.round((y / 1000) * v.height) };
}

/** A path resolves against the site base; an absolute URL stays. */
export function resolveUrl(url: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
  try {
    return new URL(url, base).href;
  } catch {
    throw new ActionError(`cannot read "${url}" as a URL or a path`);
  }
}

/** `<button> "Add to cart"` for element `i` of the state, or `element i` when the state does not have it. */
function describe(i: number, ctx: ActionContext, s: Session): string {
  // The page's index now: a locator that re-indexed the page makes the state's list stale.
  const el = (s.indexedElements() ?? ctx.state.snapshot.elements).find((e) => e.index === i);
  if (!el) return `element ${i}`;
  const text = el.text || el.attributes["aria-label"] || el.attributes.placeholder || el.attributes.name || "";
  return `element ${i} <${el.tag}>${text ? ` "${text.slice(0, 60)}"` : ""}`;
}

/** What changed around an action: a new current tab, another URL. */
async function aftermath(s: Session, before: { tab: string; url: string }): Promise<string> {
  if (s.tabId !== before.tab) {
    const tab = (await s.tabs()).find((t) => t.id === s.tabId);
    return `; tab ${s.tabId} opened and is now current (${tab?.url ?? s.currentUrl()})`;
  }
  return s.currentUrl() !== before.url ? `; the page is now ${s.currentUrl()}` : "";
}

/** Runs `fn` and says what it did (`what`, or what it makes of fn's result) and what changed around it. */
async function withAftermath<T>(
  s: Session,
  what: string | ((out: T) => string),
  fn: () => Promise<T>,
): Promise<ActionResult> {
  const before = { tab: s.tabId, url: s.currentUrl() };
  const out = await fn();
  return ok((typeof what === "string" ? what : what(out)) + await aftermath(s, before));
}

async function dragEnd(
  s: Session,
  ctx: ActionContext,
  index: number | undefined,
  locator: ElementLocator | undefined,
  x: number | undefined,
  y: number | undefined,
): Promise<DragEnd> {
  if (index !== undefined) return { index };
  // A selector end stays a selector: a drop zone (a board column) is rarely indexed, and resolving one end to an
  // index can re-index the page under the other end's index.
  if (locator && "selector" in locator) return { selector: locator.selector };
  if (locator) return { index: await s.locate(locator, ctx.state.snapshot.elements) };
  return toViewport(x!, y!, ctx, s);
}

const HANDLERS: { [N in Action["name"]]: Handler<N> } = {
  navigate: (s, p, ctx) => {
    const url = resolveUrl(p.url, ctx.base);
    return withAftermath(
      s,
      `Opened ${url}${p.new_tab ? " in a new tab" : ""}`,
      () => s.goto(url, { newTab: p.new_tab }),
    );
  },
  click: async (s, p, ctx) => {
    if (p.coordinate_x !== undefined && p.coordinate_y !== undefined) {
      const at = toViewport(p.coordinate_x, p.coordinate_y, ctx, s);
      return await withAftermath(s, `Clicked at (${at.x}, ${at.y})`, () => s.clickAt(at));
    }
    const i = await resolveIndex(s, p, ctx);
    const clicked = `Clicked ${describe(i, ctx, s)}`;
    return await withAftermath(s, (note: string) => note ? `${clicked} (${note})` : clicked, () => s.click(i));
  },
  hover: async (s, p, ctx) => {
    if (p.coordinate_x !== undefined && p.coordinate_y !== undefined) {
      const at = toViewport(p.coordinate_x, p.coordinate_y, ctx, s);
      return await withAftermath(s, `Moved the mouse to (${at.x}, ${at.y})`, () => s.hoverAt(at));
    }
    const i = await resolveIndex(s, p, ctx);
    return await withAftermath(s, `Moved the mouse over ${describe(i, ctx, s)}`, () => s.hover(i));
  },
  input: async (s, p, ctx) => {
    const i = await resolveIndex(s, p, ctx);
    const typed = `Typed ${JSON.stringify(p.text)} into ${describe(i, ctx, s)}`;
    return await withAftermath(
      s,
      (r) => r.differs ? `${typed}; the field shows ${JSON.stringify(r.value)}` : typed,
      () => s.input(i, p.text, p.clear),
    );
  },
  send_keys: (s, p) => {
    const keys = p.keys ?? p.text!;
    return withAftermath(
      s,
      (how) => how === "keys" ? `Pressed ${keys}` : `Typed ${JSON.stringify(keys)}`,
      () => s.sendKeys(keys, p.text !== undefined),
    );
  },
  select_dropdown: async (s, p, ctx) => {
    const i = await resolveIndex(s, p, ctx);
    const before = { tab: s.tabId, url: s.currentUrl() };
    const chosen = await s.selectOption(i, p.text);
    return ok(`Selected ${JSON.stringify(chosen)} in ${describe(i, ctx, s)}` + await aftermath(s, before));
  },
  dropdown_options: async (s, p, ctx) => {
    const i = await resolveIndex(s, p, ctx);
    const options = await s.dropdownOptions(i);
    if (!options.length) return read(`${describe(i, ctx, s)} has no options`);
    const lines = options.map((o, k) =>
      `${k}: ${JSON.stringify(o.text)}${o.selected ? " (selected)" : ""}${o.disabled ? " (disabled)" : ""}`
    );
    return read(`Options of ${describe(i, ctx, s)}:\n${lines.join("\n")}\nUse the exact text with select_dropdown.`);
  },
  scroll: async (s, p, ctx) => {
    let where: string, moved: number;
    if (p.coordinate_x !== undefined && p.coordinate_y !== undefined) {
      const at = toViewport(p.coordinate_x, p.coordinate_y, ctx, s);
      const r = await s.wheel(at, { down: p.down, pages: p.pages, pixels: p.pixels });
      [where, moved] = [`${r.target} at (${at.x}, ${at.y})`, r.moved];
    } else {
      const i = p.index !== undefined || p.selector !== undefined || p.text !== undefined
        ? await resolveIndex(s, p, ctx)
        : undefined;
      moved = await s.scroll({ down: p.down, pages: p.pages, index: i, pixels: p.pixels });
      where = i === undefined ? "the page" : `the container of ${describe(i, ctx, s)}`;
    }
    if (moved === 0) return ok(`Scrolled ${where}: already at the ${p.down ? "bottom" : "top"}`);
    return ok(`Scrolled ${where} ${moved > 0 ? "down" : "up"} by ${Math.abs(moved)} px`);
  },
  go_back: (s) => withAftermath(s, "Went back", () => s.goBack()),
  switch: async (s, p) => {
    await s.switchTab(p.tab_id);
    return ok(`Switched to tab ${p.tab_id} (${s.currentUrl()})`);
  },
  close: async (s, p) => {
    await s.closeTab(p.tab_id);
    return ok(`Closed tab ${p.tab_id}; the current tab is ${s.tabId}`);
  },
  upload_file: async (s, p, ctx) => {
    const i = await resolveIndex(s, p, ctx);
    await s.uploadFile(i, p.path);
    return ok(`Uploaded ${p.path} to ${describe(i, ctx, s)}`);
  },
  wait: async (s, p) => {
    await s.wait(p.seconds);
    return ok(`Waited ${Math.min(p.seconds, 30)} s`);
  },
  drag: async (s, p, ctx) => {
    if (p.path) {
      const path = p.path.map((q) => toViewport(q.x, q.y, ctx, s));
      const [first, last, through] = [path[0], path[path.length - 1], path.length - 2];
      const what = `Dragged from (${first.x}, ${first.y}) through ${through} point(s) to (${last.x}, ${last.y})`;
      return await withAftermath(s, what, () => s.dragPath(path));
    }
    const from = await dragEnd(s, ctx, p.source_index, p.source, p.source_x, p.source_y);
    const to = await dragEnd(s, ctx, p.target_index, p.target, p.target_x, p.target_y);
    const name = (e: DragEnd) =>
      "index" in e ? describe(e.index, ctx, s) : "selector" in e ? `"${e.selector}"` : `(${e.x}, ${e.y})`;
    return await withAftermath(s, `Dragged ${name(from)} to ${name(to)}`, () => s.drag(from, to));
  },
  clipboard_read: async (s) => read(await s.clipboardText()),
  clipboard_write: async (s, p) => {
    await s.writeClipboard(p.text);
    return ok(`Copied ${JSON.stringify(p.text)} to the clipboard`);
  },
  done: (_s, p) => Promise.resolve({ ok: true, extracted: p.text, done: { text: p.text, success: p.success } }),
  macro_done: () => Promise.resolve({ ok: true, extracted: "Macro finished", macroDone: true }),
};
