/**
 * What an episode's browser is to the agent loop, the executor and the arms: tabs, navigation, the page state, the
 * element primitives and the clipboard. EpisodeSession implements it over Chromium (as puppeteer's Page is its api
 * over a CDP implementation); a fake implements it for tests of the loop's and the executor's decisions without a
 * browser (tests/support/fake_session.ts). Agent-level mistakes reject with ActionError; harness failures with
 * another HarnessError.
 */
import type { DomElement } from "../dom/mod.ts";
import type { Typed } from "./_input.ts";
import type { BrowserState, CaptureOptions, DragEnd, Point, SelectOption, TabInfo, Viewport } from "./types.ts";

/** One episode's browser, as the agent uses it. */
export interface Session {
  /** The viewport of every tab, in CSS pixels. */
  readonly viewport: Viewport;
  /** The current tab's id. */
  readonly tabId: string;
  /** What the browser refused to reach, first occurrence order, each once. */
  readonly blocked: readonly string[];

  /** The open tabs, in opening order. */
  tabs(): Promise<TabInfo[]>;
  /** Makes a tab current. */
  switchTab(id: string): Promise<void>;
  /** Closes a tab; the last one stays open. */
  closeTab(id: string): Promise<void>;
  /** Loads `url` in the current tab (or a new one); ActionError for a URL off the allowed origins. */
  goto(url: string, opts?: { newTab?: boolean }): Promise<void>;
  /** History back in the current tab. */
  goBack(): Promise<void>;
  /** The current tab's URL. */
  currentUrl(): string;
  /** Makes the current page the first entry of its tab's history (go_back cannot reach what came before). */
  resetHistory(): Promise<void>;

  /** The current tab's snapshot, element list, visible text, tabs and optionally a screenshot. */
  captureState(opts?: CaptureOptions): Promise<BrowserState>;
  /** The elements of the current tab's last snapshot: what an index means on the page now. */
  indexedElements(): DomElement[] | undefined;
  /** Evaluates a self-contained expression in the current tab's page; its value, by value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Waits `seconds` (at most 30), then for the page to settle. */
  wait(seconds: number): Promise<void>;

  /** Clicks an indexed element; what it did otherwise than planned, or "". */
  click(index: number): Promise<string>;
  /** Moves the mouse onto an indexed element; the point. */
  hover(index: number): Promise<Point>;
  /** Moves the mouse to a viewport point. */
  hoverAt(p: Point): Promise<void>;
  /** Clicks a viewport point. */
  clickAt(p: Point): Promise<void>;
  /** Types into a text field (emptied first unless `clear` is false); what it holds afterwards. */
  input(index: number, text: string, clear?: boolean): Promise<Typed>;
  /** Chooses a native select's option by text or value; the option's text. */
  selectOption(index: number, text: string): Promise<string>;
  /** A select's options. */
  dropdownOptions(index: number): Promise<SelectOption[]>;
  /** Sets a file input to `name` from the upload folder; what it holds. */
  uploadFile(index: number, name: string): Promise<string>;
  /** A drag between two elements or viewport points. */
  drag(from: DragEnd, to: DragEnd): Promise<void>;
  /** Drags along viewport points. */
  dragPath(path: readonly Point[]): Promise<void>;
  /** Scrolls the page (or an element's scrollable container); the pixels moved. */
  scroll(opts?: { down?: boolean; pages?: number; index?: number; pixels?: number }): Promise<number>;
  /** Turns the mouse wheel at a viewport point; what scrolled and the pixels moved. */
  wheel(
    p: Point,
    opts?: { down?: boolean; pages?: number; pixels?: number },
  ): Promise<{ target: string; moved: number }>;
  /** Presses a key or shortcut, or types a string; which it did. */
  sendKeys(keys: string, asText?: boolean): Promise<"keys" | "text">;
  /** The index of the element a selector or a text designates (re-indexing the page when it scrolls one in). */
  locate(locator: { selector: string } | { text: string }, elements: DomElement[]): Promise<number>;

  /** The episode's clipboard text. */
  clipboardText(): Promise<string>;
  /** Writes text to the clipboard from the current page. */
  writeClipboard(text: string): Promise<void>;
}
