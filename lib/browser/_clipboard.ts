/**
 * The clipboard, through navigator.clipboard in a page (it needs a page on an allowed origin, which has the
 * clipboard permissions). Headless Chromium keeps one clipboard for the whole browser, so episodes sharing a
 * browser take turns (ClipboardTurns): an episode's action runs while the clipboard holds that episode's text.
 */
import { ActionError } from "./errors.ts";
import { PageScriptError, type Tab } from "./_tab.ts";

async function onClipboard<T>(tab: Tab, expr: string): Promise<T> {
  try {
    return await tab.evaluate<T>(expr, true);
  } catch (err) {
    if (!(err instanceof PageScriptError)) throw err;
    throw new ActionError(`the clipboard is not available on ${tab.page.url()}: ${err.message}`, { cause: err });
  }
}

/** The clipboard's text. */
export function readClipboard(tab: Tab): Promise<string> {
  return onClipboard(tab, "navigator.clipboard.readText()");
}

/** Writes text through the page's navigator.clipboard (so the page's own clipboard hooks record it). */
export async function writeClipboard(tab: Tab, text: string): Promise<void> {
  await onClipboard(tab, `navigator.clipboard.writeText(${JSON.stringify(text)})`);
}

/** Sets the clipboard past the page's hooks (Clipboard.prototype), so no page records it. */
export async function setClipboardQuietly(tab: Tab, text: string): Promise<void> {
  await onClipboard(tab, `Clipboard.prototype.writeText.call(navigator.clipboard, ${JSON.stringify(text)})`);
}

/** Empties the clipboard past the page's hooks, so no page records the clearing. */
export function clearClipboard(tab: Tab): Promise<void> {
  return setClipboardQuietly(tab, "");
}

/** How long a turn outlasts its action's input when another episode waits for the clipboard. */
const GRACE_MS = 50;

/** An episode as the clipboard's turns see it. */
export interface ClipboardHolder {
  /** Its clipboard text while another episode holds the browser's clipboard. */
  saved: string;
  /** Tabs of the episode whose page may use the clipboard (on an allowed origin), the current one first. */
  clipboardTabs(): Tab[];
}

/**
 * Turns on a browser's one clipboard: run() waits for the turn before it (actions of other episodes of the same
 * browser), puts the holder's text on the clipboard when another episode's was there (saving that one's), and runs
 * the action. A turn covers the action's input, not the wait for what it caused (a navigation may take the whole
 * navigation timeout, and the other episodes would wait as long): when another episode waits, the turn ends
 * GRACE_MS after the input, time for the clipboard write a handler started to land. With one episode at a time it
 * costs nothing but the queue; a swap costs a read and a write (two page evaluations). What a page writes outside
 * that (a timer, a page's load) lands in whichever episode holds the clipboard: the sandbox's pages write only when
 * clicked.
 */
export class ClipboardTurns {
  #owner: ClipboardHolder | null = null;
  #queue: Promise<void> = Promise.resolve();
  #waiting = 0;
  /** How many times the clipboard changed hands (a test reads it). */
  swaps = 0;

  async run<T>(holder: ClipboardHolder, fn: () => Promise<T>): Promise<T> {
    const before = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((r) => (release = r));
    this.#waiting++;
    await before;
    this.#waiting--;
    try {
      await this.#take(holder);
      return await fn();
    } finally {
      if (this.#waiting > 0) await new Promise((r) => setTimeout(r, GRACE_MS));
      release();
    }
  }

  /** The holder is gone (its context closed): its text is not saved, and the next holder's replaces it. */
  forget(holder: ClipboardHolder): void {
    if (this.#owner === holder) this.#owner = null;
  }

  async #take(holder: ClipboardHolder): Promise<void> {
    const old = this.#owner;
    if (old === holder) return;
    this.#owner = null;
    const mine = holder.clipboardTabs();
    const theirs = old?.clipboardTabs() ?? [];
    if (old) {
      const text = await firstOk([...theirs, ...mine], readClipboard);
      if (text !== undefined) old.saved = text;
    }
    // The clipboard is the browser's: any page that may use it can set it.
    const set = await firstOk([...mine, ...theirs], (tab) => setClipboardQuietly(tab, holder.saved).then(() => true));
    // No page could set it: the holder's own page, once it has one, is the first to; until then no one owns it.
    if (set) {
      this.#owner = holder;
      this.swaps++;
    }
  }
}

async function firstOk<T>(tabs: Tab[], fn: (tab: Tab) => Promise<T>): Promise<T | undefined> {
  for (const tab of tabs) {
    try {
      return await fn(tab);
    } catch { /* a page that cannot: the next one */ }
  }
  return undefined;
}
