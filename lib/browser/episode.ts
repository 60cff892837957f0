/**
 * One episode's browser session: a fresh incognito context on one Chromium, its tabs, the network allowlist's
 * record, dialogs, downloads, the clipboard and admin calls. Agent-level mistakes throw ActionError; a browser
 * that died, a page that hangs or a site that breaks the admin protocol throw the other HarnessErrors.
 */
import type { BrowserContext, Frame, Page } from "puppeteer-core";
import { type DomElement, formatElements, type PageSnapshot } from "../dom/mod.ts";
import { HarnessError } from "../errors/mod.ts";
import { screenshotTab, snapshotTab } from "./_capture.ts";
import { EpisodeClipboard } from "./_clipboard.ts";
import { locateIndex } from "./_locate.ts";
import { ActionError } from "./errors.ts";
import { isAdminUrl, isAllowedUrl } from "./_origins.ts";
import { classifyError, type Tab } from "./_tab.ts";
import {
  clickElement,
  clickPoint,
  drag,
  dragPath,
  hoverElement,
  hoverPoint,
  optionsOf,
  scroll,
  selectOption,
  sendKeys,
  type Typed,
  typeInto,
  uploadTo,
  wheelAt,
} from "./_input.ts";
import { TabSet } from "./_tabs.ts";
import { getJson } from "../io/mod.ts";
import { cookieHeaderFor, listDownloads, parseSetCookie, resolveUpload } from "./_io.ts";
import type {
  BrowserState,
  CaptureOptions,
  DialogRecord,
  DragEnd,
  Point,
  ResolvedEpisodeOptions,
  SelectOption,
  TabInfo,
  Viewport,
} from "./types.ts";
import type { Session } from "./session.ts";

/** What a session needs from the browser that opened it. */
export interface EpisodeHost {
  readonly alive: boolean;
  /** Why the browser is gone ("the browser died", or why it was given up: ChromiumBrowser.failure). */
  readonly death: string;
  /** Where the request filter and the proxy record this episode's refusals (null: nowhere, as it closes). */
  setRoute(route: { origins: ReadonlySet<string>; onBlocked: (url: string) => void } | null): void;
  /** The session closed its context. */
  released(session: EpisodeSession): void;
}

const CLOSE_TIMEOUT_MS = 5000;

/**
 * One episode's browser session (ChromiumBrowser.newEpisode opens it): its tabs, navigation, page state, the
 * element primitives and the admin calls. Agent-level mistakes throw ActionError.
 */
export class EpisodeSession implements AsyncDisposable, Session {
  /**
   * What the browser refused to reach, first occurrence order, each once: URLs off the allowed origins or on their
   * admin paths, WebSockets, bare connections and ICE servers (chromium.ts's module comment lists the forms).
   */
  readonly blocked: string[] = [];
  /** Dialogs the pages opened (all accepted). */
  readonly dialogs: DialogRecord[] = [];
  /** The options the session runs on. */
  readonly options: ResolvedEpisodeOptions;
  /** The episode's own clipboard (_clipboard.ts): no other episode's page reads or writes it. */
  readonly #clipboard = new EpisodeClipboard();
  readonly #tabs: TabSet;
  #firstPage = true;
  /** The tab and elements of the last snapshot (window.__webmixIndex holds the same). */
  #indexed?: { tab: string; elements: DomElement[] };
  #closing?: Promise<void>;
  #onAbort = () => void this.close();

  private constructor(
    private readonly host: EpisodeHost,
    private readonly context: BrowserContext,
    private readonly origins: ReadonlySet<string>,
    options: ResolvedEpisodeOptions,
  ) {
    this.options = options;
    this.#tabs = new TabSet(
      context,
      options.viewport,
      (d) => this.dialogs.push(d),
      (url) => this.#recordBlocked(url),
      this.#clipboard,
    );
  }

  /**
   * Opens a session on a prepared context and its first page (ChromiumBrowser.newEpisode calls this).
   * @internal
   */
  static async open(
    host: EpisodeHost,
    context: BrowserContext,
    page: Page,
    origins: ReadonlySet<string>,
    options: ResolvedEpisodeOptions,
  ): Promise<EpisodeSession> {
    const s = new EpisodeSession(host, context, origins, options);
    host.setRoute({ origins, onBlocked: (url) => s.#recordBlocked(url) });
    await s.#tabs.start(page);
    options.signal?.addEventListener("abort", s.#onAbort, { once: true });
    if (options.signal?.aborted) await s.close();
    return s;
  }

  /**
   * Whether a frame of one of this episode's tabs has this DevTools frame id (the request filter asks).
   * @internal
   */
  hasFrame(frameId: string): boolean {
    return this.#tabs.all.some((t) => t.page.frames().some((f) => frameIdOf(f) === frameId));
  }

  #recordBlocked(url: string): void {
    if (!this.blocked.includes(url)) this.blocked.push(url);
  }

  /** The viewport of every tab, in CSS pixels. */
  get viewport(): Viewport {
    return this.options.viewport;
  }

  /** True once close() began. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** The current tab's id. */
  get tabId(): string {
    return this.#tabs.current.id;
  }

  // ---- tabs ----

  /** The open tabs, in opening order. */
  tabs(): Promise<TabInfo[]> {
    return this.#tabs.list();
  }

  /** Makes a tab current. */
  switchTab(id: string): Promise<void> {
    return this.#guard(`switch to tab ${id}`, async () => {
      this.#assertOpen();
      const tab = await this.#tabs.switchTo(id);
      await tab.settle(this.options.navTimeoutMs, this.options.signal);
    });
  }

  /** Closes a tab; the last one stays open. */
  closeTab(id: string): Promise<void> {
    return this.#guard(`close tab ${id}`, () => (this.#assertOpen(), this.#tabs.close(id)));
  }

  /**
   * The current tab, ready for an action: lib/browser's own primitives and tests reach the page through it.
   * @internal
   */
  tab(): Tab {
    this.#assertOpen();
    this.#tabs.current.assertUsable();
    return this.#tabs.current;
  }

  /** Waits for what the last action set off: a navigation, a new tab (which becomes current). */
  settle(): Promise<void> {
    return this.#tabs.settle(this.options.navTimeoutMs, this.options.signal);
  }

  // ---- navigation ----

  /**
   * Loads `url` in the current tab (or a new one) up to DOMContentLoaded.
   * @throws ActionError for a URL off the allowed origins or on their /_admin paths, or a network error;
   *   BrowserTimeoutError past navTimeoutMs.
   */
  goto(url: string, opts: { newTab?: boolean } = {}): Promise<void> {
    return this.#guard(`open ${url}`, async () => {
      if (!isAllowedUrl(url, this.origins)) {
        this.#recordBlocked(url);
        throw new ActionError(
          isAdminUrl(url, this.origins)
            ? `cannot open "${url}": /_admin/ is the harness's own, not the agent's`
            : `cannot open "${url}": only ${[...this.origins].join(", ")} may be visited`,
        );
      }
      const tab = opts.newTab ? (this.#assertOpen(), await this.#tabs.open()) : this.tab();
      await tab.navigate(url, this.options.navTimeoutMs, this.options.signal);
      if (this.#firstPage && isAllowedUrl(tab.page.url(), this.origins) && /^https?:/.test(tab.page.url())) {
        this.#firstPage = false;
        await this.#startHistory(tab);
      }
    });
  }

  /** Evaluates a self-contained expression in the current tab's page; its value, by value. */
  evaluate<T>(expression: string): Promise<T> {
    return this.#guard("evaluate in the page", () => this.tab().evaluate<T>(expression));
  }

  /** The current tab's URL. */
  currentUrl(): string {
    return this.#tabs.current.page.url();
  }

  /**
   * Makes the current page the first entry of its tab's history, so go_back cannot reach what came before (a
   * session-flags URL, the blank page the tab began on). The runner calls it once the start page loaded.
   */
  resetHistory(): Promise<void> {
    return this.#guard("reset the history", async () => {
      await this.tab().cdp.send("Page.resetNavigationHistory");
    });
  }

  /** History back in the current tab. */
  goBack(): Promise<void> {
    return this.#guard("go back", async () => {
      const tab = this.tab();
      await tab.goBack(this.options.navTimeoutMs);
      await this.settle();
    });
  }

  // ---- state ----

  /** The current tab's snapshot (lib/dom), element list, visible text, tabs and optionally a screenshot. */
  captureState(opts: CaptureOptions = {}): Promise<BrowserState> {
    return this.#guard("capture the page state", async () => {
      await this.settle();
      const tab = this.tab();
      const [snapshot, screenshot, tabs] = await Promise.all([
        this.snapshot(),
        opts.screenshot === false ? undefined : this.screenshot(opts),
        this.tabs(),
      ]);
      return {
        url: snapshot.url,
        title: snapshot.title,
        tabs,
        tabId: tab.id,
        snapshot,
        elementsText: formatElements(snapshot),
        visibleText: snapshot.visibleText,
        screenshot,
      };
    });
  }

  /** Runs lib/dom's snapshotPage in the current tab (this also renews window.__webmixIndex). */
  snapshot(): Promise<PageSnapshot> {
    return this.#guard("snapshot the page", async () => {
      const snapshot = await snapshotTab(() => this.tab(), this.options.snapshot, () => this.settle());
      this.#indexed = { tab: this.tab().id, elements: snapshot.elements };
      return snapshot;
    });
  }

  /** The elements of the current tab's last snapshot: what an index means on the page now (after a re-index too). */
  indexedElements(): DomElement[] | undefined {
    return this.#indexed?.tab === this.tabId ? this.#indexed.elements : undefined;
  }

  /** A screenshot of the current tab's viewport. */
  screenshot(opts: CaptureOptions = {}): Promise<Uint8Array> {
    return this.#guard("take a screenshot", () => screenshotTab(this.tab(), opts));
  }

  /** Sends every tab's pending recorder events (window.__webmix.flush); pages without a recorder are skipped. */
  async flushRecorder(timeoutMs = 3000): Promise<void> {
    await Promise.all(this.#tabs.all.map((t) => {
      const flush = t.evaluate("window.__webmix?.flush?.()").catch(() => undefined);
      return Promise.race([flush, new Promise((r) => setTimeout(r, timeoutMs))]);
    }));
  }

  // ---- out-of-page I/O ----

  /** The `cookie` header the browser would send to `base` (the sandbox session cookie). */
  cookieHeader(base: string): Promise<string> {
    return this.#guard("read cookies", async () => cookieHeaderFor(base, await this.context.cookies()));
  }

  /**
   * GETs an admin endpoint (`/_admin/log`) as this session and returns its JSON.
   * @throws SiteProtocolError naming the URL on a non-200 answer or a body that is not JSON.
   */
  async adminGet(base: string, path: string, timeoutMs = 10_000): Promise<unknown> {
    return await getJson(base, path, await this.cookieHeader(base), timeoutMs, this.options.signal);
  }

  /**
   * GETs an admin endpoint as this session from outside the page and adopts the cookies it sets, so that
   * `/_admin/session-flags` starts the session without a page load (a whole navigation per episode saved).
   * @throws SiteProtocolError naming the URL on a non-200 answer or a body that is not JSON.
   */
  async adminCall(base: string, path: string, timeoutMs = 10_000): Promise<unknown> {
    const set: string[] = [];
    const json = await getJson(base, path, await this.cookieHeader(base), timeoutMs, this.options.signal, (c) => {
      set.push(...c);
    });
    const cookies = set.map((h) => parseSetCookie(h, base)).filter((c) => c !== null);
    if (cookies.length) await this.#guard("set cookies", () => this.context.setCookie(...cookies));
    return json;
  }

  /** The episode's clipboard text. */
  clipboardText(): Promise<string> {
    return Promise.resolve(this.#clipboard.text);
  }

  /** Writes text to the clipboard from the current page (the page's clipboard hooks see it). */
  writeClipboard(text: string): Promise<void> {
    return this.#guard("write the clipboard", () => this.#clipboard.write(this.tab(), text));
  }

  /**
   * Once the episode's first page loaded: history starts there (go_back never reaches the blank page the tab
   * began on), and the clipboard is emptied past the page's own hooks (what a page wrote before is not the task's).
   */
  async #startHistory(tab: Tab): Promise<void> {
    this.#clipboard.set("");
    await tab.cdp.send("Page.resetNavigationHistory");
  }

  /** Names of the finished downloads. */
  downloads(): Promise<string[]> {
    return listDownloads(this.options.downloadDir);
  }

  /** Waits `seconds` (at most 30), then for the page to settle. */
  wait(seconds: number): Promise<void> {
    return this.#guard("wait", async () => {
      const ms = Math.min(Math.max(seconds, 0), 30) * 1000;
      const signal = this.options.signal;
      await new Promise<void>((resolve) => {
        const done = () => (clearTimeout(timer), signal?.removeEventListener("abort", done), resolve());
        const timer = setTimeout(done, ms);
        signal?.addEventListener("abort", done, { once: true });
      });
      await this.settle();
    });
  }

  /** Runs `fn`, mapping what puppeteer throws (see classifyError). */
  async #guard<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw classifyError(err, what, this.host.alive, this.closed, this.host.death);
    }
  }

  /** Runs an action on the current tab, then waits for what it caused (a navigation, a new tab). */
  #act<T>(what: string, fn: (tab: Tab) => Promise<T>): Promise<T> {
    return this.#guard(what, async () => {
      const out = await fn(this.tab());
      await this.settle();
      return out;
    });
  }

  // ---- element primitives (indexes of window.__webmixIndex, renewed by each snapshot) ----

  /**
   * Clicks the element with the mouse where a person's click reaches it (a visible point where it is on top),
   * pressing only once the hover has left it (or its re-rendered equivalent) under the mouse. Returns what the click
   * did otherwise than planned (the equivalent it clicked, the point it moved to), or "" when nothing.
   * @throws ActionError naming what covers it when every point is covered (the click would hit that instead), or
   *   what the hover put in its place.
   */
  click(index: number): Promise<string> {
    return this.#act(`click element ${index}`, async (tab) => {
      let note = "";
      await clickElement(tab, index, (n) => note = n);
      return note;
    });
  }

  /** Moves the mouse onto the element where it is on top (what opens on hover opens); returns the point. */
  hover(index: number): Promise<Point> {
    return this.#act(`hover over element ${index}`, (tab) => hoverElement(tab, index));
  }

  /** Moves the mouse to a viewport point (CSS pixels). */
  hoverAt(p: Point): Promise<void> {
    return this.#act(`hover at (${p.x}, ${p.y})`, (tab) => hoverPoint(tab, p, this.viewport));
  }

  /** Clicks a viewport point (CSS pixels). */
  clickAt(p: Point): Promise<void> {
    return this.#act(`click at (${p.x}, ${p.y})`, (tab) => clickPoint(tab, p, this.viewport));
  }

  /**
   * Types into a text field, emptied first unless `clear` is false, and reads what it holds afterwards.
   * @throws ActionError when the focus moved away or the field does not hold the text (saying what it holds).
   */
  input(index: number, text: string, clear = true): Promise<Typed> {
    return this.#act(`type into element ${index}`, (tab) => typeInto(tab, index, text, clear));
  }

  /** Chooses a native select's option by text or value; returns the option's text. */
  selectOption(index: number, text: string): Promise<string> {
    return this.#act(`select in element ${index}`, (tab) => selectOption(tab, index, text));
  }

  /** A select's options. */
  dropdownOptions(index: number): Promise<SelectOption[]> {
    return this.#guard(`list the options of element ${index}`, () => optionsOf(this.tab(), index));
  }

  /** Sets a file input to `name` from the upload folder (or takes the file chooser the element opens). */
  uploadFile(index: number, name: string): Promise<string> {
    return this.#act(`upload to element ${index}`, async (tab) => {
      const path = await resolveUpload(this.options.uploadDir, name);
      await uploadTo(tab, index, path);
      return path;
    });
  }

  /** An HTML5-compatible drag between two elements or viewport points. */
  drag(from: DragEnd, to: DragEnd): Promise<void> {
    return this.#act("drag", (tab) => drag(tab, from, to, this.viewport));
  }

  /** Drags along viewport points: mouse down at the first, moves through each, up at the last. */
  dragPath(path: readonly Point[]): Promise<void> {
    return this.#act("drag along a path", (tab) => dragPath(tab, path, this.viewport));
  }

  /**
   * Scrolls the page (or the element's scrollable container) by `pages` viewports of it, or by `pixels`; returns
   * the pixels moved.
   */
  scroll(opts: { down?: boolean; pages?: number; index?: number; pixels?: number } = {}): Promise<number> {
    return this.#act("scroll", (tab) => scroll(tab, opts.down ?? true, opts.pages ?? 1, opts.index, opts.pixels));
  }

  /**
   * Turns the mouse wheel at a viewport point by `pages` heights of what is under it (or `pixels`); returns what
   * scrolled and the pixels moved.
   */
  wheel(p: Point, opts: { down?: boolean; pages?: number; pixels?: number } = {}): Promise<
    { target: string; moved: number }
  > {
    return this.#act(
      `scroll at (${p.x}, ${p.y})`,
      (tab) => wheelAt(tab, p, opts.down ?? true, opts.pages ?? 1, this.viewport, opts.pixels),
    );
  }

  /**
   * Presses a key or shortcut (`Enter`, `Control+a`), or types any other string (`ls`) character by character;
   * `asText` types it whatever it is. Returns which it did.
   */
  sendKeys(keys: string, asText = false): Promise<"keys" | "text"> {
    return this.#act(`send keys ${JSON.stringify(keys)}`, (tab) => sendKeys(tab, keys, asText));
  }

  /**
   * The index of the element a locator designates (docs/tasks.md): `selector` → the first match that carries an
   * index, else the first match's indexed ancestor; `text` → the first element of `elements` (the state the caller
   * holds) whose text, case- and space-normalised, equals it. A match outside the indexed part of the page is
   * scrolled into view and the page re-indexed.
   */
  locate(locator: { selector: string } | { text: string }, elements: DomElement[]): Promise<number> {
    return this.#guard("resolve a locator", () => locateIndex(this.tab(), locator, elements, () => this.snapshot()));
  }

  #assertOpen(): void {
    if (!this.host.alive) throw new HarnessError(this.host.death);
    if (this.closed) throw new HarnessError("the episode session is closed");
  }

  /** Closes the context (every tab); never throws, safe to call twice. */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      this.options.signal?.removeEventListener("abort", this.#onAbort);
      this.#tabs.stop();
      this.host.setRoute(null);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.context.close().catch(() => undefined),
        new Promise((r) => (timer = setTimeout(r, CLOSE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      this.host.released(this);
    })());
  }

  /** Closes the session, as close() does (for `await using`). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * A frame's DevTools id. Puppeteer keeps it on the frame without a public getter; a frame without it is nobody's
 * (the request filter then treats its requests as no episode's: tests/browser_isolation_test.ts would see that).
 */
function frameIdOf(frame: Frame): string | undefined {
  const id = (frame as unknown as { _id?: unknown })._id;
  return typeof id === "string" ? id : undefined;
}
