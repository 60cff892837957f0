/**
 * Each episode's own clipboard. Headless Chromium keeps one system clipboard for the whole browser, which episodes
 * sharing a browser would share; so no page ever reaches it. A script that runs before any page script, in every
 * frame of every tab of the episode (clipboardMain), replaces the page's clipboard: navigator.clipboard's readText,
 * writeText, read and write, document.execCommand("copy"/"cut"/"paste"), and the copy/cut/paste that Ctrl+C/X/V
 * start (the trusted event is stopped before any listener of the page sees it, and the same event is dispatched
 * again with a clipboardData of the store's; a default the page did not prevent is carried out: the selection
 * copied, cut from its field, the text pasted). All of it is served from the episode's store (EpisodeClipboard),
 * kept here, through a DevTools binding; each frame holds a copy for what must answer at once (a paste), which the
 * store updates on every change. The episode's context has no clipboard permission, so a realm the script has not
 * reached yet (a tab the page opened, before it is adopted) cannot read the system clipboard either
 * (tests/browser_isolation_test.ts: pages writing and reading on timers while other episodes copy and paste).
 */
import type { Page } from "puppeteer-core";
import { ActionError } from "./errors.ts";
import { PageScriptError, type Tab } from "./_tab.ts";

/**
 * The binding's name (puppeteer's exposeFunction: its answers reach the page through this global, which therefore
 * stays, made non-enumerable so that Object.keys(window) does not show it; a page calling it reads or writes only its
 * own episode's clipboard, as navigator.clipboard does).
 */
const BINDING = "__webmixClipboard";
/** Where the store's updates reach a frame's copy (a page calling it changes only its own frame's copy). */
const SYNC = "__webmixClipboardSync";

/** What a frame asks of the store. */
type Ask = { op: "read" } | { op: "write"; text: string };
/** The store's answer: its text and version after the request. */
type Answer = { v: number; text: string };

/**
 * Runs in every frame before the page's scripts (serialised with toString(): it must not close over anything).
 * `binding` is the function that asks the store; `sync` the name under which the store's updates arrive.
 */
export function clipboardMain(binding: string, sync: string): void {
  // deno-lint-ignore no-explicit-any
  type Fn = (...a: any[]) => unknown;
  const g = globalThis as unknown as Record<string, unknown>;
  const ask = g[binding] as ((q: unknown) => Promise<{ v: number; text: string }>) | undefined;
  if (typeof ask !== "function" || g[sync]) return;
  // The binding stays a global (puppeteer answers through it), but out of the page's enumeration, like `sync`.
  Object.defineProperty(g, binding, { value: ask, enumerable: false, writable: true, configurable: true });
  // This frame's copy of the store: its text and the store's version it is from. A write goes to the store one at a
  // time, the latest one waiting (a page writing every few ms sends what it can, the last text always); until its
  // answer comes, the store's updates do not overwrite the newer text here.
  let text = "";
  let seen = -1;
  let synced = false;
  let latest: string | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const took = (a: { v: number; text: string }) => {
    if (a.v >= seen && latest === null) (text = a.text, synced = true);
    seen = Math.max(seen, a.v);
    return a.text;
  };
  Object.defineProperty(g, sync, {
    value: (v: number, t: string) => v > seen && took({ v, text: t }),
    enumerable: false,
  });
  const write = (t: string): Promise<void> => {
    text = t;
    latest = t;
    const sent = chain.then(() => {
      if (latest === null) return;
      const next = latest;
      return ask({ op: "write", text: next }).then((a) => {
        if (latest === next) latest = null;
        took(a);
      });
    });
    chain = sent.catch(() => undefined);
    return sent;
  };
  // Once the store's text has arrived, reads answer from this frame's copy, which the store keeps current.
  const read = (): Promise<string> => synced ? Promise.resolve(text) : ask({ op: "read" }).then(took);
  read().catch(() => undefined);
  const proto = (g.Clipboard as { prototype?: Record<string, Fn> } | undefined)?.prototype;
  const define = (o: object, name: string, fn: Fn) =>
    Object.defineProperty(o, name, { value: fn, writable: true, configurable: true });
  if (proto) {
    define(proto, "writeText", (t: unknown) => write(String(t)));
    define(proto, "readText", () => read());
    define(proto, "write", async (items: ClipboardItem[]) => {
      const item = [...(items ?? [])].find((i) => i.types.includes("text/plain"));
      await write(item ? await (await item.getType("text/plain")).text() : "");
    });
    define(proto, "read", async () => [new ClipboardItem({ "text/plain": new Blob([await read()]) })]);
  }

  const ours = new WeakSet<Event>();
  const editable = (el: Element | null): el is HTMLInputElement | HTMLTextAreaElement | HTMLElement =>
    !!el && (el instanceof HTMLTextAreaElement ||
      (el instanceof HTMLInputElement && /^(text|search|url|tel|email|password|number|)$/.test(el.type)) ||
      (el as HTMLElement).isContentEditable);
  const focused = (): Element | null => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el;
  };
  const selected = (): string | null => {
    const el = focused();
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (el instanceof HTMLInputElement && el.type === "password") return null;
      const [a, b] = [el.selectionStart, el.selectionEnd];
      if (a !== null && b !== null && a !== b) return el.value.slice(a, b);
    }
    const s = String(getSelection() ?? "");
    return s === "" ? null : s;
  };
  const execCommand = Document.prototype.execCommand;
  // The page's clipboard event, dispatched as the browser would, then its default carried out on the store.
  const run = (type: "copy" | "cut" | "paste", target: EventTarget): void => {
    const data = new DataTransfer();
    if (type === "paste") data.setData("text/plain", text);
    const ev = new ClipboardEvent(type, { clipboardData: data, bubbles: true, cancelable: true, composed: true });
    ours.add(ev);
    target.dispatchEvent(ev);
    if (type === "paste") {
      if (!ev.defaultPrevented && text !== "" && editable(focused())) {
        execCommand.call(document, "insertText", false, text);
      }
      return;
    }
    if (ev.defaultPrevented) {
      write(data.getData("text/plain")).catch(() => undefined);
      return;
    }
    const sel = selected();
    if (sel === null) return;
    write(sel).catch(() => undefined);
    if (type === "cut" && editable(focused())) execCommand.call(document, "delete", false);
  };
  for (const type of ["copy", "cut", "paste"] as const) {
    addEventListener(type, (e) => {
      if (ours.has(e)) return;
      e.stopImmediatePropagation();
      e.preventDefault();
      run(type, e.composedPath()[0] ?? e.target ?? document);
    }, true);
  }
  define(Document.prototype, "execCommand", function (this: Document, cmd: string, ...rest: unknown[]) {
    const c = String(cmd).toLowerCase();
    if (c !== "copy" && c !== "cut" && c !== "paste") {
      return execCommand.call(this, cmd, ...(rest as [boolean, string]));
    }
    run(c, focused() ?? this.body ?? this);
    return true;
  });
}

/** The least time between two rounds of the store's updates to the frames. */
const PUSH_EVERY_MS = 50;

const PAGE_SCRIPT = `(${clipboardMain.toString()})(${JSON.stringify(BINDING)}, ${JSON.stringify(SYNC)});`;

/**
 * One episode's clipboard: its text, served to every frame of its tabs (attach) and to the agent (text, write).
 */
export class EpisodeClipboard {
  #text = "";
  #version = 0;
  readonly #pages = new Set<Page>();
  #pushing = false;
  #again = false;

  /** The clipboard's text. */
  get text(): string {
    return this.#text;
  }

  /** Installs the clipboard in a tab: every frame of every document it loads from now on, and those loaded. */
  async attach(page: Page): Promise<void> {
    this.#pages.add(page);
    page.once("close", () => this.#pages.delete(page));
    await page.exposeFunction(BINDING, (q: Ask): Answer => {
      if (q?.op === "write") this.set(String(q.text));
      return { v: this.#version, text: this.#text };
    });
    await page.evaluateOnNewDocument(PAGE_SCRIPT);
    // Documents loaded before (a tab the page opened, adopted after its first document began).
    await Promise.all(page.frames().map((f) => f.evaluate(PAGE_SCRIPT).catch(() => undefined)));
  }

  /** Sets the text past the pages' own hooks (no page records it), and updates every frame's copy. */
  set(text: string): void {
    this.#text = text;
    this.#version++;
    void this.#push();
  }

  /**
   * Sends the text to every frame: one round at a time, the last text winning, a round at most every PUSH_EVERY_MS
   * (a page writing every few ms would otherwise keep the browser busy with nothing else).
   */
  async #push(): Promise<void> {
    if (this.#pushing) return void (this.#again = true);
    this.#pushing = true;
    try {
      do {
        this.#again = false;
        const [v, text] = [this.#version, this.#text];
        const frames = [...this.#pages].flatMap((p) => p.isClosed() ? [] : p.frames());
        await Promise.all([
          ...frames.map((f) =>
            f.evaluate(`globalThis.${SYNC}?.(${v}, ${JSON.stringify(text)})`).catch(() => undefined)
          ),
          new Promise((r) => setTimeout(r, PUSH_EVERY_MS)),
        ]);
      } while (this.#again);
    } finally {
      this.#pushing = false;
    }
  }

  /**
   * Writes text through the page's navigator.clipboard (so the page's own clipboard hooks record it, as the
   * sandbox's recorder does), then into the store.
   * @throws ActionError when the page has no clipboard (a page off the allowed origins).
   */
  async write(tab: Tab, text: string): Promise<void> {
    try {
      await tab.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`, true);
    } catch (err) {
      if (!(err instanceof PageScriptError)) throw err;
      throw new ActionError(`the clipboard is not available on ${tab.page.url()}: ${err.message}`, { cause: err });
    }
    if (this.#text !== text) this.set(text);
  }
}
