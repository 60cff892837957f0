/**
 * Chromium's lifecycle: launch (headless, the suite's flags, no signal handlers of puppeteer's own), the
 * browser-wide request filter, knowing when it died, and a close that kills the process when it hangs. One browser
 * runs one episode at a time (the clipboard and the request filter are browser-wide); a spare context and page are
 * prepared while it runs, so the next episode starts without paying for a new page.
 */
import puppeteer, { type Browser, type BrowserContext, type CDPSession, type Page } from "puppeteer-core";
import { HarnessError } from "../errors/mod.ts";
import { isAllowedUrl, normalizeOrigins } from "./_origins.ts";
import { type EpisodeHost, EpisodeSession } from "./episode.ts";
import type { EpisodeOptions, LaunchOptions, ResolvedEpisodeOptions, Viewport } from "./types.ts";

/** The flags every launch carries (see the house rules' known traps). */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";
const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 720 };
const CLIPBOARD = ["clipboard-read", "clipboard-write", "clipboard-sanitized-write"] as const;
const CLOSE_TIMEOUT_MS = 5000;
/**
 * The spare page loads this path on the last episode's first origin, answered by the request filter itself (no
 * server sees it): the renderer for that site then exists, and the first real page loads ~25 ms sooner.
 */
const WARMUP_PATH = "/__webmix_warmup";
// An empty icon, so that the warm-up page asks the site for no favicon.
const WARMUP_BODY = btoa('<!doctype html><title></title><link rel="icon" href="data:,">');

type Route = { origins: ReadonlySet<string>; onBlocked: (url: string) => void };
type Spare = { context: BrowserContext; page: Page };

/** The Chromium binary a launch uses: the option, else $CHROME_PATH, else /usr/bin/chromium. */
export function chromiumPath(opts: LaunchOptions = {}): string {
  if (opts.executablePath) return opts.executablePath;
  try {
    const env = Deno.env.get("CHROME_PATH");
    if (env) return env;
  } catch { /* no --allow-env: the default path */ }
  return DEFAULT_CHROMIUM_PATH;
}

async function assertExecutable(path: string): Promise<void> {
  const hint = "install Debian's chromium package (sudo apt-get install chromium) or set CHROME_PATH to a Chromium";
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    throw new HarnessError(`Chromium is missing: nothing at "${path}"; ${hint}`, { cause: err });
  }
  if (!info.isFile || (info.mode !== null && (info.mode & 0o111) === 0)) {
    throw new HarnessError(`Chromium at "${path}" is not an executable file; ${hint}`);
  }
}

export class ChromiumBrowser implements AsyncDisposable {
  #alive = true;
  #route: Route | null = null;
  #episode: EpisodeSession | null = null;
  #spare: Promise<Spare | null> | null = null;
  #warmOrigin: string | null = null;
  #closing?: Promise<void>;

  private constructor(
    private readonly browser: Browser,
    private readonly cdp: CDPSession,
    private readonly opts: LaunchOptions,
  ) {
    browser.on("disconnected", () => (this.#alive = false));
    browser.process()?.once("exit", () => (this.#alive = false));
    cdp.on("Fetch.requestPaused", (e) => this.#filter(e.requestId, e.request.url));
  }

  /**
   * Starts Chromium.
   * @throws HarnessError when the binary is missing or does not start.
   */
  static async launch(opts: LaunchOptions = {}): Promise<ChromiumBrowser> {
    const path = chromiumPath(opts);
    await assertExecutable(path);
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath: path,
        headless: true,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        args: [...CHROMIUM_FLAGS, ...(opts.args ?? [])],
        defaultViewport: opts.viewport ?? DEFAULT_VIEWPORT,
        protocolTimeout: opts.protocolTimeoutMs ?? 30_000,
        timeout: 30_000,
      });
    } catch (err) {
      throw new HarnessError(`cannot start Chromium at "${path}": ${(err as Error).message}`, { cause: err });
    }
    try {
      // One filter for every context and tab: it sees a new tab's first request, which a per-page one misses.
      const cdp = await browser.target().createCDPSession();
      await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
      const b = new ChromiumBrowser(browser, cdp, opts);
      b.#prewarm();
      return b;
    } catch (err) {
      await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
      throw new HarnessError(`cannot set up Chromium at "${path}": ${(err as Error).message}`, { cause: err });
    }
  }

  /** False once the process died, the connection dropped or close() began. */
  get alive(): boolean {
    return this.#alive && this.browser.connected;
  }

  /** The Chromium process id. */
  get pid(): number | undefined {
    return this.browser.process()?.pid;
  }

  #filter(requestId: string, url: string): void {
    if (url.endsWith(WARMUP_PATH) && new URL(url).pathname === WARMUP_PATH) {
      this.cdp.send("Fetch.fulfillRequest", {
        requestId,
        responseCode: 200,
        responseHeaders: [{ name: "content-type", value: "text/html" }],
        body: WARMUP_BODY,
      }).catch(() => undefined);
      return;
    }
    const route = this.#route;
    if (isAllowedUrl(url, route?.origins ?? new Set())) {
      this.cdp.send("Fetch.continueRequest", { requestId }).catch(() => undefined);
    } else {
      route?.onBlocked(url);
      this.cdp.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }).catch(() => undefined);
    }
  }

  /** Prepares the next episode's context and page in the background. */
  #prewarm(): void {
    if (this.opts.prewarm === false || this.#spare || !this.alive) return;
    const origin = this.#warmOrigin;
    this.#spare = this.#newContext().then(async (spare) => {
      if (origin) await spare.page.goto(origin + WARMUP_PATH, { timeout: 5000 }).catch(() => undefined);
      return spare;
    }).catch(() => null);
  }

  async #newContext(): Promise<Spare> {
    const context = await this.browser.createBrowserContext();
    try {
      return { context, page: await context.newPage() };
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  /**
   * A fresh incognito context for one episode: clipboard permissions on the allowed origins, downloads into
   * downloadDir, every request off the allowed origins refused and recorded.
   * @throws HarnessError when the browser is dead or already runs an episode; UsageError for a bad origin.
   */
  async newEpisode(options: EpisodeOptions): Promise<EpisodeSession> {
    if (!this.alive) throw new HarnessError("Chromium is not running (it died or was closed)");
    if (this.#episode?.closed) await this.#episode.close(); // closing (an aborted signal): let it finish
    if (this.#episode) {
      throw new HarnessError("this browser already runs an episode: close it first (one episode per browser)");
    }
    const resolved: ResolvedEpisodeOptions = {
      allowedOrigins: options.allowedOrigins,
      downloadDir: options.downloadDir,
      uploadDir: options.uploadDir,
      viewport: options.viewport ?? this.opts.viewport ?? DEFAULT_VIEWPORT,
      navTimeoutMs: options.navTimeoutMs ?? 15_000,
      snapshot: options.snapshot ?? {},
      signal: options.signal,
    };
    const origins = normalizeOrigins(resolved.allowedOrigins);
    this.#warmOrigin = [...origins][0] ?? null;
    await Deno.mkdir(resolved.downloadDir, { recursive: true });
    const spare = this.#spare;
    this.#spare = null;
    const { context, page } = (await spare) ?? await this.#newContext();
    try {
      await Promise.all([
        this.cdp.send("Browser.setDownloadBehavior", {
          behavior: "allow",
          browserContextId: context.id,
          downloadPath: resolved.downloadDir,
        }),
        ...[...origins].map((o) => context.overridePermissions(o, [...CLIPBOARD])),
      ]);
      const isAlive = () => this.alive;
      const host: EpisodeHost = {
        get alive() {
          return isAlive();
        },
        setRoute: (route) => (this.#route = route),
        released: (s) => {
          if (this.#episode === s) this.#episode = null;
          this.#prewarm();
        },
        // The next episode's context warms while this one runs (a runner opens the next episode the moment this
        // one closes, too soon for a spare started at release), but only once this one's first page has loaded:
        // started earlier, it slows that load down.
        started: () => this.#prewarm(),
      };
      const session = await EpisodeSession.open(host, context, page, origins, resolved);
      this.#episode = session;
      return session;
    } catch (err) {
      this.#route = null;
      await context.close().catch(() => undefined);
      if (!this.alive) throw new HarnessError("cannot open an episode: the browser died", { cause: err });
      throw err;
    }
  }

  /** Closes Chromium (killing it when it does not close in time); never throws, safe to call twice. */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      this.#alive = false;
      const proc = this.browser.process();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const closed = await Promise.race([
        this.browser.close().then(() => true, () => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), this.opts.closeTimeoutMs ?? CLOSE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      if (!closed && proc && proc.exitCode === null && proc.signalCode === null) {
        try {
          Deno.kill(-proc.pid!, "SIGKILL"); // Chromium leads its process group: renderers go too
        } catch {
          try {
            proc.kill("SIGKILL");
          } catch { /* already gone */ }
        }
      }
    })());
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
