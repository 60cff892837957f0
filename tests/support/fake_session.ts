/**
 * A Session (lib/browser) without a browser, for tests of the agent loop's, the router's and the executor's
 * decisions: a site of pages given as element lists, where a click on an element with an `href` loads that page
 * (in a new tab when it says so), a field holds what was typed, and every call the agent made is recorded in order.
 * It knows nothing of layout: points are recorded, not hit.
 */
import { ActionError, type BrowserState, type Session, type TabInfo, type Typed } from "../../lib/browser/mod.ts";
import { type DomElement, formatElements, type PageSnapshot } from "../../lib/dom/mod.ts";

/** One element of a fake page: its tag, text and attributes; a click on one with `href` opens that page. */
export interface FakeElement {
  tag: string;
  text?: string;
  attributes?: DomElement["attributes"];
  /** The page a click loads. */
  href?: string;
  /** The click opens `href` in a new tab (which becomes current). */
  newTab?: boolean;
  /** The options of a select. */
  options?: string[];
}

/** One page of the fake site. */
export interface FakePage {
  title: string;
  elements: FakeElement[];
  /** The page's visible text (default: its elements' texts, a line each). */
  text?: string;
}

const VIEWPORT = { width: 1280, height: 720 };

/** A Session over a map of URL → page. Unknown URLs refuse as the real session refuses an origin it does not allow. */
export class FakeSession implements Session {
  readonly viewport: { width: number; height: number };
  readonly blocked: string[] = [];
  /** Every call the agent made, in order: `click 2`, `input 3 "shoes"`, `goto /shop`. */
  readonly calls: string[] = [];
  readonly values = new Map<string, string>();
  clipboard = "";
  #tabs: { id: string; history: string[] }[];
  #current = 0;
  #indexed?: DomElement[];

  constructor(readonly pages: Readonly<Record<string, FakePage>>, start: string, viewport = VIEWPORT) {
    this.#tabs = [{ id: "T001", history: [start] }];
    this.viewport = viewport;
  }

  get tabId(): string {
    return this.#tabs[this.#current].id;
  }

  currentUrl(): string {
    return this.#tabs[this.#current].history.at(-1)!;
  }

  #page(): FakePage {
    return this.pages[this.currentUrl()];
  }

  #element(index: number): FakeElement {
    const el = this.#page().elements[index - 1];
    if (!el || !this.#indexed) throw new ActionError(`there is no element with index ${index} on the page`);
    return el;
  }

  #load(url: string, newTab = false): void {
    if (!this.pages[url]) {
      this.blocked.push(url);
      throw new ActionError(`cannot open "${url}": only the fake site may be visited`);
    }
    if (newTab) {
      this.#tabs.push({ id: `T00${this.#tabs.length + 1}`, history: [url] });
      this.#current = this.#tabs.length - 1;
    } else this.#tabs[this.#current].history.push(url);
    this.#indexed = undefined;
  }

  tabs(): Promise<TabInfo[]> {
    return Promise.resolve(this.#tabs.map((t) => {
      const url = t.history.at(-1)!;
      return { id: t.id, url, title: this.pages[url].title };
    }));
  }

  switchTab(id: string): Promise<void> {
    this.calls.push(`switch_tab ${id}`);
    const i = this.#tabs.findIndex((t) => t.id === id);
    if (i < 0) return Promise.reject(new ActionError(`no tab ${id}`));
    this.#current = i;
    return Promise.resolve();
  }

  closeTab(id: string): Promise<void> {
    this.calls.push(`close_tab ${id}`);
    if (this.#tabs.length > 1) this.#tabs = this.#tabs.filter((t) => t.id !== id);
    this.#current = Math.min(this.#current, this.#tabs.length - 1);
    return Promise.resolve();
  }

  goto(url: string, opts: { newTab?: boolean } = {}): Promise<void> {
    this.calls.push(`goto ${url}${opts.newTab ? " (new tab)" : ""}`);
    return Promise.try(() => this.#load(new URL(url, "http://fake.test").pathname, opts.newTab));
  }

  goBack(): Promise<void> {
    this.calls.push("go_back");
    const h = this.#tabs[this.#current].history;
    if (h.length > 1) h.pop();
    return Promise.resolve();
  }

  resetHistory(): Promise<void> {
    this.#tabs[this.#current].history.splice(0, this.#tabs[this.#current].history.length - 1);
    return Promise.resolve();
  }

  captureState(): Promise<BrowserState> {
    const page = this.#page();
    const elements = page.elements.map((e, k): DomElement => ({
      index: k + 1,
      tag: e.tag,
      attributes: {
        ...e.attributes,
        ...(this.values.has(`${this.currentUrl()}#${k + 1}`)
          ? { value: this.values.get(`${this.currentUrl()}#${k + 1}`)! }
          : {}),
      },
      text: e.text ?? "",
      isNew: false,
      inViewport: true,
      rect: { x: 10, y: 20 + 30 * k, width: 200, height: 24 },
      ...(e.options ? { options: e.options, optionCount: e.options.length } : {}),
    }));
    this.#indexed = elements;
    const visibleText = page.text ?? page.elements.map((e) => e.text ?? "").filter(Boolean).join("\n");
    const snapshot: PageSnapshot = {
      url: `http://fake.test${this.currentUrl()}`,
      title: page.title,
      elements,
      scrollY: 0,
      pixelsAbove: 0,
      pixelsBelow: 0,
      viewport: this.viewport,
      pageHeight: this.viewport.height,
      visibleText,
      captureMs: 0,
    };
    return this.tabs().then((tabs) => ({
      url: snapshot.url,
      title: page.title,
      tabs,
      tabId: this.tabId,
      snapshot,
      elementsText: formatElements(snapshot),
      visibleText,
    }));
  }

  indexedElements(): DomElement[] | undefined {
    return this.#indexed;
  }

  evaluate<T>(expression: string): Promise<T> {
    return Promise.reject(new Error(`the fake session evaluates no page code (${expression.slice(0, 40)})`));
  }

  wait(seconds: number): Promise<void> {
    this.calls.push(`wait ${seconds}`);
    return Promise.resolve();
  }

  click(index: number): Promise<string> {
    this.calls.push(`click ${index}`);
    return Promise.try(() => {
      const el = this.#element(index);
      if (el.href) this.#load(el.href, el.newTab);
      return "";
    });
  }

  hover(index: number) {
    this.calls.push(`hover ${index}`);
    return Promise.try(() => (this.#element(index), { x: 110, y: 32 + 30 * (index - 1) }));
  }

  hoverAt(p: { x: number; y: number }): Promise<void> {
    this.calls.push(`hover_at ${p.x},${p.y}`);
    return Promise.resolve();
  }

  clickAt(p: { x: number; y: number }): Promise<void> {
    this.calls.push(`click_at ${p.x},${p.y}`);
    return Promise.resolve();
  }

  input(index: number, text: string, clear = true): Promise<Typed> {
    this.calls.push(`input ${index} ${JSON.stringify(text)}`);
    return Promise.try(() => {
      this.#element(index);
      const key = `${this.currentUrl()}#${index}`;
      const value = (clear ? "" : this.values.get(key) ?? "") + text;
      this.values.set(key, value);
      return { value, differs: false };
    });
  }

  selectOption(index: number, text: string): Promise<string> {
    this.calls.push(`select ${index} ${JSON.stringify(text)}`);
    return Promise.try(() => {
      const option = this.#element(index).options?.find((o) => o.toLowerCase() === text.toLowerCase());
      if (!option) throw new ActionError(`element ${index} has no option "${text}"`);
      this.values.set(`${this.currentUrl()}#${index}`, option);
      return option;
    });
  }

  dropdownOptions(index: number) {
    return Promise.try(() =>
      (this.#element(index).options ?? []).map((text) => ({ text, value: text, selected: false, disabled: false }))
    );
  }

  uploadFile(index: number, name: string): Promise<string> {
    this.calls.push(`upload ${index} ${name}`);
    return Promise.resolve(name);
  }

  drag(from: unknown, to: unknown): Promise<void> {
    this.calls.push(`drag ${JSON.stringify(from)} ${JSON.stringify(to)}`);
    return Promise.resolve();
  }

  dragPath(path: readonly { x: number; y: number }[]): Promise<void> {
    this.calls.push(`drag_path ${path.map((p) => `${p.x},${p.y}`).join(" ")}`);
    return Promise.resolve();
  }

  scroll(opts: { down?: boolean; pages?: number; index?: number; pixels?: number } = {}): Promise<number> {
    this.calls.push(`scroll ${JSON.stringify(opts)}`);
    return Promise.resolve(0);
  }

  wheel(p: { x: number; y: number }): Promise<{ target: string; moved: number }> {
    this.calls.push(`wheel ${p.x},${p.y}`);
    return Promise.resolve({ target: "the page", moved: 0 });
  }

  sendKeys(keys: string): Promise<"keys" | "text"> {
    this.calls.push(`keys ${keys}`);
    return Promise.resolve("keys");
  }

  locate(locator: { selector: string } | { text: string }, elements: DomElement[]): Promise<number> {
    const want = "text" in locator ? locator.text.toLowerCase() : undefined;
    const hit = elements.find((e) => want !== undefined && e.text.toLowerCase() === want);
    return hit
      ? Promise.resolve(hit.index)
      : Promise.reject(new ActionError(`nothing matches ${JSON.stringify(locator)}`));
  }

  clipboardText(): Promise<string> {
    return Promise.resolve(this.clipboard);
  }

  writeClipboard(text: string): Promise<void> {
    this.clipboard = text;
    return Promise.resolve();
  }
}
