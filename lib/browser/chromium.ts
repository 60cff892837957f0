/**
 * Chromium's lifecycle: launch (headless, the suite's flags, no signal handlers of puppeteer's own), the network
 * allowlist, knowing when it died, and a close that kills the process when it hangs. One browser runs one episode
 * at a time (the clipboard and the request filter are browser-wide); a spare context and page are prepared for the
 * next episode, so that it starts without paying for a new page: at launch (LaunchOptions.prewarmOrigins), when an
 * episode closes, and when its caller says the episode's start is over (prepareNext: the runner does so while the
 * model answers the first step, so that the spare neither slows the start down nor waits for the episode's end).
 *
 * Chromium talks to the harness over a pipe (--remote-debugging-pipe), not a port: when the harness dies, even by
 * SIGKILL, the pipe closes and Chromium exits with its whole process group.
 *
 * The allowlist admits the episode's origins (off their `/_admin` paths, which only the harness calls, from outside
 * the browser) and data:, blob:, about:. Every other attempt is refused before any server hears of it and lands in
 * EpisodeSession.blocked, once, in the order first seen, in one of these forms:
 * - a URL the browser-wide request filter (CDP Fetch) saw: navigation, link, form, new tab, fetch, XHR,
 *   sendBeacon, EventSource, `<a ping>`, prefetch, workers' and service workers' requests, e.g.
 *   `http://127.0.0.2:9/collect?x=1` or `http://127.0.0.1:8080/_admin/session-flags`;
 * - a WebSocket, which the filter never sees: each episode context uses the recording proxy (_proxy.ts) as its
 *   HTTP proxy, and only the allowed origins' HTTP bypasses it; `ws://127.0.0.2:9001/x` (a WebSocket to an allowed
 *   origin is passed on unless its path is an admin one);
 * - a tunnel that carried no HTTP (TURN over TCP, a WebRTC TCP candidate, TLS: so a wss: WebSocket, whose path
 *   cannot be read, is refused even to an allowed origin): `connect://127.0.0.2:3478`;
 * - an ICE server a page gave RTCPeerConnection, as given: `stun:127.0.0.2:3478`, `turn:host:port?transport=tcp`
 *   (_webrtc.ts). The profile forbids WebRTC UDP outside a proxy (_profile.ts), so STUN and peer traffic never go
 *   out, and TURN over TCP meets the proxy (and is also recorded as `connect://`).
 * `<link rel=preconnect>` and dns-prefetch leave no record: in tests/browser_network_test.ts they open no
 * connection, neither to the host nor to the proxy.
 */
import puppeteer, { type Browser, type BrowserContext, type CDPSession, type Page } from "puppeteer-core";
import puppeteerPackage from "puppeteer-core/package.json" with { type: "json" };
import { HarnessError } from "../errors/mod.ts";
import { isAllowedUrl, normalizeOrigins, proxyBypassList } from "./_origins.ts";
import { makeProfile, removeProfile } from "./_profile.ts";
import { type ProxyRoute, RecordingProxy } from "./_proxy.ts";
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
  // Chromium asks Google's autofill server about every form it sees: a request no page made, which the
  // allowlist would record as the page's.
  "--disable-features=AutofillServerCommunication",
];

/** The Chromium binary when neither LaunchOptions.executablePath nor $CHROME_PATH names one. */
const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/** The puppeteer-core release that drives Chromium (run.json records it). */
export const PUPPETEER_VERSION: string = puppeteerPackage.version;

/** What to do about a Chromium that is missing or does not start. */
const CHROMIUM_HINT =
  "install Debian's chromium package (sudo apt-get install chromium) or set CHROME_PATH to a Chromium";
const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 720 };
const CLIPBOARD = ["clipboard-read", "clipboard-write", "clipboard-sanitized-write"] as const;
const CLOSE_TIMEOUT_MS = 5000;
type Spare = { context: BrowserContext; page: Page };
/** The next episode's context and page on their way, made for `origins` (the proxy bypass list depends on them). */
type PendingSpare = { origins: string; ready: Promise<Spare | null> };

const originsKey = (origins: Iterable<string>) => [...origins].sort().join(" ");

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
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    throw new HarnessError(`Chromium is missing: nothing at "${path}"; ${CHROMIUM_HINT}`, { cause: err });
  }
  if (!info.isFile || (info.mode !== null && (info.mode & 0o111) === 0)) {
    throw new HarnessError(`Chromium at "${path}" is not an executable file; ${CHROMIUM_HINT}`);
  }
}

/**
 * One headless Chromium, for one worker: it runs one EpisodeSession at a time (newEpisode) and prepares the next
 * one's context meanwhile (the module comment says what the network allowlist admits and records).
 */
export class ChromiumBrowser implements AsyncDisposable {
  #alive = true;
  #route: ProxyRoute | null = null;
  #episode: EpisodeSession | null = null;
  #spare: PendingSpare | null = null;
  /** The origins the next episode most likely allows: the last episode's, else LaunchOptions.prewarmOrigins. */
  #warmOrigins: ReadonlySet<string> | null;
  #closing?: Promise<void>;

  private constructor(
    private readonly browser: Browser,
    private readonly cdp: CDPSession,
    private readonly proxy: RecordingProxy,
    private readonly profile: string,
    private readonly opts: LaunchOptions,
    warmOrigins: ReadonlySet<string> | null,
  ) {
    this.#warmOrigins = warmOrigins;
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
    // A bad origin fails here, not in the spare.
    const warmOrigins = opts.prewarmOrigins ? normalizeOrigins(opts.prewarmOrigins) : null;
    const profile = await makeProfile();
    let b: ChromiumBrowser | undefined;
    const proxy = RecordingProxy.start(() => (b ? b.#route : null));
    const cleanUp = async () => {
      await proxy.close();
      await removeProfile(profile);
    };
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath: path,
        headless: true,
        pipe: true, // Chromium exits when the harness's end closes, however the harness died
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, ...(opts.args ?? [])],
        defaultViewport: opts.viewport ?? DEFAULT_VIEWPORT,
        protocolTimeout: opts.protocolTimeoutMs ?? 30_000,
        timeout: 30_000,
      });
    } catch (err) {
      await cleanUp();
      throw new HarnessError(`cannot start Chromium at "${path}": ${(err as Error).message}; ${CHROMIUM_HINT}`, {
        cause: err,
      });
    }
    try {
      // One filter for every context and tab: it sees a new tab's first request, which a per-page one misses.
      const cdp = await browser.target().createCDPSession();
      await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
      b = new ChromiumBrowser(browser, cdp, proxy, profile, opts, warmOrigins);
      b.#prewarm();
      return b;
    } catch (err) {
      await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
      await cleanUp();
      throw new HarnessError(`cannot set up Chromium at "${path}": ${(err as Error).message}`, { cause: err });
    }
  }

  /** False once the process died, the connection dropped or close() began. */
  get alive(): boolean {
    return this.#alive && this.browser.connected;
  }

  /** The browser's version string, e.g. "HeadlessChrome/139.0.7258.154" (run.json records it). */
  version(): Promise<string> {
    return this.browser.version();
  }

  /** The Chromium process id. */
  get pid(): number | undefined {
    return this.browser.process()?.pid;
  }

  #filter(requestId: string, url: string): void {
    const route = this.#route;
    if (isAllowedUrl(url, route?.origins ?? new Set())) {
      this.cdp.send("Fetch.continueRequest", { requestId }).catch(() => undefined);
    } else {
      route?.onBlocked(url);
      this.cdp.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }).catch(() => undefined);
    }
  }

  /**
   * Starts preparing the next episode's context and page now, in the background, for the origins of the episode
   * that runs (else the last one's, else LaunchOptions.prewarmOrigins); nothing when one is on its way already or
   * `prewarm` is off. The runner calls it once the episode's start is over: a spare made during the start slows the
   * start's page loads down (~75 ms at one worker), and one made when the episode closes is not ready in time for
   * the next episode, which opens at once.
   * @returns whether a spare is ready (once it is): false when `prewarm` is off, Chromium died or the spare failed.
   *   Never rejects.
   */
  prepareNext(): Promise<boolean> {
    this.#prewarm();
    return this.#spare ? this.#spare.ready.then((spare) => spare !== null) : Promise.resolve(false);
  }

  /** Prepares the next episode's context and page in the background, for the origins it most likely allows. */
  #prewarm(): void {
    const origins = this.#warmOrigins;
    if (this.opts.prewarm === false || this.#spare || !this.alive || !origins) return;
    // The spare's page stays blank: loading a page of the site into it first (so that its renderer exists) cost
    // 80-150 ms of Chromium CPU per episode and made the first real page load no sooner (episode_cpu_probe.ts).
    const ready = this.#newContext(origins).catch(() => null);
    this.#spare = { origins: originsKey(origins), ready };
  }

  /** The spare when it was made for `origins`; one made for others is closed in the background, unawaited. */
  async #takeSpare(origins: ReadonlySet<string>): Promise<Spare | null> {
    const pending = this.#spare;
    this.#spare = null;
    if (!pending) return null;
    if (pending.origins === originsKey(origins)) return await pending.ready;
    pending.ready.then((spare) => spare?.context.close()).catch(() => undefined);
    return null;
  }

  /** An incognito context whose traffic, but the allowed origins' HTTP, goes through the recording proxy. */
  async #newContext(origins: ReadonlySet<string>): Promise<Spare> {
    const context = await this.browser.createBrowserContext({
      proxyServer: this.proxy.url,
      proxyBypassList: proxyBypassList(origins),
    });
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
    this.#warmOrigins = origins;
    await Deno.mkdir(resolved.downloadDir, { recursive: true });
    const { context, page } = (await this.#takeSpare(origins)) ?? await this.#newContext(origins);
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
        // A spare asked for during the episode (prepareNext) is on its way already; else one starts now.
        released: (s) => {
          if (this.#episode === s) this.#episode = null;
          this.#prewarm();
        },
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
      await this.proxy.close();
      await removeProfile(this.profile);
    })());
  }

  /** Closes Chromium, as close() does (for `await using`). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
