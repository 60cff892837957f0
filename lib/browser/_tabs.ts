/**
 * An episode's tabs: adopting every page of the context (the first one, navigate new_tab, and tabs the pages
 * open), the current tab, deterministic 4-character ids, and waiting for what an action set off.
 */
import type { BrowserContext, Page, Target } from "puppeteer-core";
import { ActionError } from "./errors.ts";
import { Tab } from "./_tab.ts";
import type { EpisodeClipboard } from "./_clipboard.ts";
import type { DialogRecord, TabInfo, Viewport } from "./types.ts";

/** How long an action's guess of a new tab (a click on a target=_blank link) waits for Chromium to announce it. */
const NEW_TAB_WAIT_MS = 1000;

/** Tab ids: four characters from a fixed sequence, so an episode's ids are the same on every run. */
export function tabId(n: number): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  let x = (Math.imul(n + 1, 2654435761) ^ 0x5bd1e995) >>> 0;
  let id = "";
  for (let k = 0; k < 4; k++, x = Math.floor(x / alphabet.length)) id += alphabet[x % alphabet.length];
  return id;
}

export class TabSet {
  #tabs: Tab[] = [];
  #current!: Tab;
  #byPage = new Map<Page, Promise<Tab>>();
  #adopting = new Set<Promise<unknown>>();
  #count = 0;
  #expectTabUntil = 0;
  /** Chromium announced a new tab, which settle() then waits for as long as for a navigation. */
  #announced = false;
  /** When the last page target was created (an announcement just after it is that tab's, arriving late). */
  #lastTargetAt = -Infinity;
  #stopped = false;

  constructor(
    private readonly context: BrowserContext,
    private readonly viewport: Viewport,
    private readonly onDialog: (d: DialogRecord) => void,
    private readonly onBlocked: (url: string) => void,
    private readonly clipboard: EpisodeClipboard,
  ) {
    context.on("targetcreated", (t: Target) => this.#onTarget(t));
  }

  /** Adopts the context's first page as the current tab. */
  async start(page: Page): Promise<void> {
    this.#current = await this.#adopt(page);
  }

  /** No more adoption (the session is closing). */
  stop(): void {
    this.#stopped = true;
  }

  get current(): Tab {
    return this.#current;
  }

  get all(): readonly Tab[] {
    return this.#tabs;
  }

  #adopt(page: Page): Promise<Tab> {
    let tab = this.#byPage.get(page);
    if (!tab) {
      let id = tabId(this.#count++);
      while ([...this.#tabs].some((t) => t.id === id)) id = tabId(this.#count++);
      const opened = Tab.open(id, page, this.viewport, {
        onDialog: this.onDialog,
        onBlocked: this.onBlocked,
        onNewTabRequested: (announced) => {
          this.#expectTabUntil = Math.max(this.#expectTabUntil, performance.now() + NEW_TAB_WAIT_MS);
          if (announced && performance.now() - this.#lastTargetAt > NEW_TAB_WAIT_MS) this.#announced = true;
        },
        onClosed: (t) => this.#forget(t),
      });
      tab = Promise.all([opened, this.clipboard.attach(page)]).then(([t]) => (this.#tabs.push(t), t));
      this.#byPage.set(page, tab);
    }
    return tab;
  }

  #onTarget(t: Target): void {
    if (t.type() !== "page" || this.#stopped) return;
    // The tab awaited is here (settle() waits for its adoption): no more waiting for one to appear.
    this.#expectTabUntil = 0;
    this.#announced = false;
    this.#lastTargetAt = performance.now();
    const p = (async () => {
      const page = await t.page();
      if (!page || this.#byPage.has(page)) return;
      const tab = await this.#adopt(page);
      if (!tab.closed && !this.#stopped) {
        this.#current = tab; // a tab the page opened comes to the front, as in a desktop browser
        await page.bringToFront();
      }
    })().catch(() => undefined);
    this.#adopting.add(p);
    p.finally(() => this.#adopting.delete(p));
  }

  #forget(tab: Tab): void {
    this.#tabs = this.#tabs.filter((t) => t !== tab);
    if (this.#current === tab && this.#tabs.length) {
      this.#current = this.#tabs[this.#tabs.length - 1];
      this.#current.page.bringToFront().catch(() => undefined);
    }
  }

  /** Opens a new blank tab and makes it current. */
  async open(): Promise<Tab> {
    const tab = await this.#adopt(await this.context.newPage());
    this.#current = tab;
    return tab;
  }

  /** The open tabs, in opening order. */
  async list(): Promise<TabInfo[]> {
    return await Promise.all(
      this.#tabs.map(async (t) => ({ id: t.id, url: t.page.url(), title: await t.page.title().catch(() => "") })),
    );
  }

  find(id: string): Tab {
    const tab = this.#tabs.find((t) => t.id === id);
    if (!tab) throw new ActionError(`no tab "${id}" (open tabs: ${this.#tabs.map((t) => t.id).join(", ")})`);
    return tab;
  }

  /** Makes a tab current and brings it to the front (background pages get no frames, so they cannot act). */
  async switchTo(id: string): Promise<Tab> {
    const tab = this.find(id);
    await tab.page.bringToFront();
    this.#current = tab;
    return tab;
  }

  /** Closes a tab; the last one stays open. */
  async close(id: string): Promise<void> {
    const tab = this.find(id);
    if (this.#tabs.length === 1) throw new ActionError(`cannot close tab ${id}: it is the only tab`);
    await tab.page.close();
    this.#forget(tab);
  }

  /** Waits for what an action set off: a navigation of the current tab, a new tab (which becomes current). */
  async settle(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    let tab = this.#current;
    await tab.settle(timeoutMs, signal);
    const count = this.#count, started = performance.now();
    // A guessed tab has a second to be announced; an announced one is awaited like a navigation (Chromium creates a
    // noopener tab only once its response arrives).
    const until = () => this.#announced ? Math.max(this.#expectTabUntil, started + timeoutMs) : this.#expectTabUntil;
    while (performance.now() < until() && this.#count === count && !this.#adopting.size && !signal?.aborted) {
      await new Promise((r) => setTimeout(r, 10));
    }
    this.#expectTabUntil = 0;
    this.#announced = false;
    while (this.#adopting.size) await Promise.all([...this.#adopting]);
    if (this.#current !== tab) {
      tab = this.#current;
      await tab.settle(timeoutMs, signal);
    }
  }
}
