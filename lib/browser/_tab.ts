/**
 * One tab of an episode: its page, a DevTools session that watches main-frame navigations (so an action can wait
 * for the page it caused), the dialog handler, and evaluation of page functions on indexed elements.
 */
import type { CDPSession, Page } from "puppeteer-core";
import { indexedElement, LISTENER_WATCH_SCRIPT } from "../dom/mod.ts";
import { BrowserTimeoutError, HarnessError } from "../errors/mod.ts";
import { ActionError } from "./errors.ts";
import type { PageRefusal } from "./_page_fns.ts";
import type { DialogRecord, Viewport } from "./types.ts";
import { watchIceServers } from "./_webrtc.ts";

/** What a tab reports to its session. */
export interface TabHooks {
  onDialog: (dialog: DialogRecord) => void;
  /** The page asked for a navigation in a new tab or window (a target=_blank link). */
  /**
   * A new tab is coming: `announced` when Chromium said it opens one (it is then created once its response arrives,
   * which may take as long as a navigation), not when an action only guessed so from a target=_blank link.
   */
  onNewTabRequested: (announced: boolean) => void;
  onClosed: (tab: Tab) => void;
  /** A URL the page tried and the browser refused (here: an ICE server of a WebRTC connection). */
  onBlocked: (url: string) => void;
}

/** A navigation requested but not started after this long was cancelled (prevented, or turned into nothing). */
const REQUEST_GRACE_MS = 1000;

// deno-lint-ignore ban-types
type PageFn = Function;

export class Tab {
  crashed = false;
  closed = false;
  #pending = false;
  #started = false;
  #requestedAt = 0;
  #waiters = new Set<() => void>();
  #hooks?: TabHooks;

  private constructor(
    readonly id: string,
    readonly page: Page,
    readonly cdp: CDPSession,
    readonly mainFrameId: string,
  ) {}

  /**
   * Wraps a page: navigation watcher, dialog handler, focus emulation (the clipboard needs a focused page), the
   * report of the ICE servers its documents configure, lib/dom's record of click listeners.
   */
  static async open(id: string, page: Page, viewport: Viewport, hooks: TabHooks): Promise<Tab> {
    const cdp = await page.createCDPSession();
    const [, tree] = await Promise.all([
      cdp.send("Page.enable"),
      cdp.send("Page.getFrameTree"),
      cdp.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
      sameViewport(page.viewport(), viewport) ? undefined : page.setViewport(viewport),
      watchIceServers(cdp, hooks.onBlocked), // after Page.enable, which its init script needs
      // lib/dom's record of click listeners, before the page's scripts in every frame (see lib/dom/listeners.ts).
      cdp.send("Page.addScriptToEvaluateOnNewDocument", { source: LISTENER_WATCH_SCRIPT, runImmediately: true }),
    ]);
    const tab = new Tab(id, page, cdp, tree.frameTree.frame.id);
    tab.#hooks = hooks;
    tab.#watch(hooks);
    return tab;
  }

  /**
   * An action is about to open a new tab (a click on a target=_blank link): settle() then waits for it, since
   * Chromium reports such a tab well after the click returns, too late for the final state otherwise.
   */
  expectNewTab(): void {
    this.#hooks?.onNewTabRequested(false);
  }

  #watch(hooks: TabHooks): void {
    const main = (e: { frameId: string }) => e.frameId === this.mainFrameId;
    this.cdp.on("Page.frameRequestedNavigation", (e) => {
      if (!main(e)) return;
      if (e.disposition === "newTab" || e.disposition === "newWindow") return hooks.onNewTabRequested(true);
      if (e.disposition !== "currentTab") return;
      this.#pending = true;
      this.#started = false;
      this.#requestedAt = performance.now();
    });
    this.cdp.on("Page.windowOpen", () => hooks.onNewTabRequested(true)); // target=_blank, window.open()
    this.cdp.on("Page.frameStartedLoading", (e) => {
      if (!main(e)) return;
      this.#pending = true;
      this.#started = true;
    });
    const idle = () => {
      this.#pending = false;
      for (const w of this.#waiters) w();
    };
    this.cdp.on("Page.domContentEventFired", idle);
    this.cdp.on("Page.frameStoppedLoading", (e) => main(e) && idle());
    this.page.on("dialog", async (d) => {
      hooks.onDialog({
        type: d.type() as DialogRecord["type"],
        message: d.message(),
        url: this.page.url(),
        tabId: this.id,
      });
      await d.accept(d.type() === "prompt" ? d.defaultValue() : undefined).catch(() => undefined);
    });
    this.page.on("error", () => { // the renderer crashed
      this.crashed = true;
      idle();
    });
    this.page.on("close", () => {
      this.closed = true;
      idle();
      hooks.onClosed(this);
    });
  }

  /** True while a main-frame navigation is on its way and its document has not reached DOMContentLoaded. */
  get navigating(): boolean {
    if (this.#pending && !this.#started && performance.now() - this.#requestedAt > REQUEST_GRACE_MS) {
      this.#pending = false;
    }
    return this.#pending;
  }

  /**
   * Lets the page run what an action queued (a form submission, a script navigation), then waits for a
   * navigation that started to reach DOMContentLoaded.
   * @throws BrowserTimeoutError when it does not within `timeoutMs`.
   */
  async settle(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.closed || this.crashed) return;
    await this.cdp.send("Runtime.evaluate", {
      expression: "new Promise((r) => setTimeout(r, 0))",
      awaitPromise: true,
    }).catch(() => undefined); // the old document went away: a navigation is under way
    if (!this.navigating) return;
    const deadline = performance.now() + timeoutMs;
    while (this.navigating && !this.closed && !this.crashed) {
      signal?.throwIfAborted();
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new BrowserTimeoutError(
          `tab ${this.id}: the page did not load within ${timeoutMs} ms (still at ${this.page.url()})`,
        );
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, REQUEST_GRACE_MS / 4));
        this.#waiters.add(done);
      });
    }
  }

  /**
   * Loads `url` up to DOMContentLoaded.
   * @throws ActionError for a network error (net::ERR_...), BrowserTimeoutError past `timeoutMs`.
   */
  async navigate(url: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.assertUsable();
    try {
      await this.page.goto(url, { waitUntil: "domcontentloaded", timeout: timeoutMs, signal });
    } catch (err) {
      if ((err as Error).name === "TimeoutError") {
        throw new BrowserTimeoutError(`${url} did not load within ${timeoutMs} ms`, { cause: err });
      }
      const net = /net::ERR_[A-Z_]+/.exec(String((err as Error).message ?? err));
      if (net) throw new ActionError(`cannot open "${url}": ${net[0]}`, { cause: err });
      throw err;
    }
  }

  /** History back. @throws ActionError when there is no previous page. */
  async goBack(timeoutMs: number): Promise<void> {
    this.assertUsable();
    const history = await this.cdp.send("Page.getNavigationHistory");
    if (history.currentIndex <= 0) throw new ActionError("there is no previous page");
    await this.page.goBack({ waitUntil: "domcontentloaded", timeout: timeoutMs });
  }

  /** Evaluates an expression in the page's main world; returns its value (by value). */
  async evaluate<T>(expression: string, userGesture = false): Promise<T> {
    this.assertUsable();
    const r = await this.cdp.send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
      userGesture,
    });
    if (r.exceptionDetails) {
      const msg = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
      throw new PageScriptError(msg.split("\n")[0]);
    }
    return r.result.value as T;
  }

  /**
   * Runs a page function on the element of index `i` (lib/dom's indexedElement), arguments passed as pageCall
   * passes them; refusals become ActionErrors.
   */
  async onElement<T>(i: number, fn: PageFn, ...args: unknown[]): Promise<Exclude<T, PageRefusal>> {
    const passed = args.map((a) => `,${pageValue(a)}`).join("");
    const expr = `(async () => {
      const el = (${indexedElement.toString()})(${i}, true);
      if (el === "unindexed") return { missing: "the page has no element index yet (capture its state first)" };
      if (el === "absent") return { missing: "there is no element with index ${i} on the page" };
      if (!el.isConnected) return { missing: "element ${i} is no longer in the page" };
      return { value: await (${fn.toString()})(el${passed}) };
    })()`;
    let out: { missing?: string; value?: T };
    try {
      out = await this.evaluate(expr);
    } catch (err) {
      if (err instanceof PageScriptError) throw new ActionError(`element ${i}: ${err.message}`, { cause: err });
      throw contextGone(err) ? new ActionError(`element ${i}: the page changed during the action`) : err;
    }
    if (out.missing) throw new ActionError(out.missing);
    return refusalToError(out.value as T, `element ${i}`);
  }

  /** Runs a standalone page function, arguments passed as pageCall passes them. */
  call<T>(fn: PageFn, ...args: unknown[]): Promise<T> {
    return this.evaluate<T>(pageCall(fn, args));
  }

  assertUsable(): void {
    if (this.crashed) throw new HarnessError(`tab ${this.id} crashed (its renderer died) at ${this.page.url()}`);
    if (this.closed) throw new ActionError(`tab ${this.id} is closed`);
  }
}

/**
 * A page function's call as an expression: arguments as JSON, function arguments (page functions themselves, such
 * as lib/dom's indexedElement) as their source.
 */
export function pageCall(fn: PageFn, args: readonly unknown[]): string {
  return `(${fn.toString()})(${args.map(pageValue).join(",")})`;
}

function pageValue(arg: unknown): string {
  return typeof arg === "function" ? `(${arg.toString()})` : JSON.stringify(arg);
}

/** An exception thrown by page code. */
export class PageScriptError extends Error {}

/** True for the errors DevTools gives when the document an evaluation ran in went away. */
export function contextGone(err: unknown): boolean {
  return /context was destroyed|Cannot find context|Cannot find default execution context|detached/i.test(
    String((err as Error)?.message ?? err),
  );
}

/**
 * What a session method throws for `err`: a dead browser is a HarnessError, a puppeteer timeout a
 * BrowserTimeoutError, a document that went away an ActionError; HarnessErrors pass as they are.
 */
export function classifyError(
  err: unknown,
  what: string,
  alive: boolean,
  closed: boolean,
  death = "the browser died",
): unknown {
  if (!alive) return new HarnessError(`cannot ${what}: ${death}`, { cause: err });
  if (err instanceof HarnessError) return err;
  if (closed) return new HarnessError(`cannot ${what}: the session is closed`, { cause: err });
  if ((err as Error)?.name === "TimeoutError") {
    return new BrowserTimeoutError(`cannot ${what}: ${(err as Error).message}`, { cause: err });
  }
  if (contextGone(err)) return new ActionError(`cannot ${what}: the page changed meanwhile`, { cause: err });
  return err;
}

/** Turns a page function's refusal into an ActionError naming what was refused. */
export function refusalToError<T>(value: T, what: string): Exclude<T, PageRefusal> {
  if (value && typeof value === "object" && "refused" in value) {
    throw new ActionError(`${what}: ${(value as PageRefusal).refused}`);
  }
  return value as Exclude<T, PageRefusal>;
}

function sameViewport(a: Viewport | null, b: Viewport): boolean {
  return !!a && a.width === b.width && a.height === b.height;
}
