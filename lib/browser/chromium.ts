/**
 * Chromium's lifecycle: launch (headless, the suite's flags, no signal handlers of puppeteer's own), the network
 * allowlist, knowing when it died, and a close that kills the process when it hangs. One browser runs up to
 * LaunchOptions.maxEpisodes episodes at once (default 1), each in its own incognito context with its own recording
 * proxy, downloads folder and clipboard (_clipboard.ts: no page reaches Chromium's browser-wide one); spare contexts
 * and pages are prepared for the next episodes, so that they start without paying for a new page: at launch
 * (LaunchOptions.prewarmOrigins), when an episode closes, and when its caller says the episode's start is over
 * (prepareNext: the runner does so while the model answers the first step, so that the spare neither slows the
 * start down nor waits for the episode's end).
 *
 * Chromium talks to the harness over a pipe (--remote-debugging-pipe), not a port: when the harness dies, even by
 * SIGKILL, the pipe closes and Chromium exits with its whole process group.
 *
 * The allowlist admits the episode's origins (off their `/_admin` paths, which only the harness calls, from outside
 * the browser) and data:, blob:, about:. Every other attempt is refused before any server hears of it and lands in
 * the blocked list of the episode that made it (EpisodeSession.blocked), once, in the order first seen, in one of
 * these forms:
 * - a URL the browser-wide request filter (CDP Fetch) saw: navigation, link, form, new tab, fetch, XHR,
 *   sendBeacon, EventSource, `<a ping>`, prefetch, workers' and service workers' requests, e.g.
 *   `http://127.0.0.2:9/collect?x=1` or `http://127.0.0.1:8080/_admin/session-flags`. The filter tells whose
 *   request it is by its frame: a page's, a worker's or service worker's target belongs to one context; a
 *   subframe to one of an episode's tabs. A request no episode owns is allowed only when every running episode
 *   allows it, and recorded in every one of them (never seen in tests/browser_isolation_test.ts);
 * - a WebSocket, which the filter never sees: each episode context uses its own recording proxy (_proxy.ts) as
 *   its HTTP proxy, and only the allowed origins' HTTP bypasses it; `ws://127.0.0.2:9001/x` (a WebSocket to an
 *   allowed origin is passed on unless its path is an admin one);
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
import { HarnessError, UsageError } from "../errors/mod.ts";
import { isAllowedUrl, normalizeOrigins, proxyBypassList } from "./_origins.ts";
import { makeProfile, removeProfile } from "./_profile.ts";
import { type ProxyRoute, RecordingProxy } from "./_proxy.ts";
import { type EpisodeHost, EpisodeSession } from "./episode.ts";
import { Watchdog } from "./_watchdog.ts";
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
/** How long close() waits for the killed browser process to exit before it removes the profile. */
const EXIT_WAIT_MS = 5000;
const UNRESPONSIVE_MS = 5000;
/** How long a destroyed target's context is remembered for requests it made as it went. */
const FORGET_TARGET_MS = 10_000;
/** A context made ahead of its episode, with its own recording proxy. */
type Spare = { context: BrowserContext; page: Page; proxy: RecordingProxy };
/** The next episode's context and page on their way, made for `origins` (the proxy bypass list depends on them). */
type PendingSpare = { origins: string; ready: Promise<Spare | null> };
/** An episode running in the browser: its session (once open) and where its proxy and the filter record. */
type Running = { route: ProxyRoute | null; session?: EpisodeSession };

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
 * One headless Chromium: it runs up to LaunchOptions.maxEpisodes EpisodeSessions at once (newEpisode), each in
 * its own context, and prepares the next ones' contexts meanwhile (the module comment says what the network
 * allowlist admits and records, and whose record a refused request lands in).
 */
export class ChromiumBrowser implements AsyncDisposable {
  #alive = true;
  /** The running episodes by browser context id. */
  readonly #running = new Map<string, Running>();
  /** Every target's browser context (pages, workers, service workers, out-of-process frames), by target id. */
  readonly #targetContext = new Map<string, string>();
  #spares: PendingSpare[] = [];
  /** Every context's recording proxy not closed yet. */
  readonly #proxies = new Set<RecordingProxy>();
  /** The origins the next episode most likely allows: the last episode's, else LaunchOptions.prewarmOrigins. */
  #warmOrigins: ReadonlySet<string> | null;
  #closing?: Promise<void>;
  readonly #watchdog: Watchdog;
  #failure?: HarnessError;

  private constructor(
    private readonly browser: Browser,
    private readonly cdp: CDPSession,
    private readonly profile: string,
    private readonly opts: LaunchOptions,
    warmOrigins: ReadonlySet<string> | null,
  ) {
    this.#warmOrigins = warmOrigins;
    this.#watchdog = new Watchdog(
      () => cdp.send("Browser.getVersion"),
      opts.unresponsiveMs ?? UNRESPONSIVE_MS,
      () => this.#running.size > 0 && this.alive,
      () => this.#frozen(),
    );
    browser.on("disconnected", () => (this.#alive = false));
    browser.process()?.once("exit", () => (this.#alive = false));
    type Info = { targetInfo: { targetId: string; browserContextId?: string } };
    const known = ({ targetInfo: t }: Info) =>
      t.browserContextId && this.#targetContext.set(t.targetId, t.browserContextId);
    cdp.on("Target.targetCreated", known);
    cdp.on("Target.targetInfoChanged", known);
    // Forgotten a while after the target goes: what its page sent as it closed may still be paused after that.
    cdp.on("Target.targetDestroyed", (e) => {
      Deno.unrefTimer(setTimeout(() => this.#targetContext.delete(e.targetId), FORGET_TARGET_MS));
    });
    cdp.on("Fetch.requestPaused", (e) => this.#filter(e.requestId, e.request.url, e.frameId));
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
    if (opts.maxEpisodes !== undefined && !(Number.isInteger(opts.maxEpisodes) && opts.maxEpisodes >= 1)) {
      throw new UsageError(`maxEpisodes must be a whole number ≥ 1, not ${opts.maxEpisodes}`);
    }
    const profile = await makeProfile();
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
      await removeProfile(profile);
      throw new HarnessError(`cannot start Chromium at "${path}": ${(err as Error).message}; ${CHROMIUM_HINT}`, {
        cause: err,
      });
    }
    try {
      // One filter for every context and tab: it sees a new tab's first request, which a per-page one misses.
      const cdp = await browser.target().createCDPSession();
      const b = new ChromiumBrowser(browser, cdp, profile, opts, warmOrigins);
      await cdp.send("Target.setDiscoverTargets", { discover: true });
      await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
      b.#prewarm();
      return b;
    } catch (err) {
      await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
      await removeProfile(profile);
      throw new HarnessError(`cannot set up Chromium at "${path}": ${(err as Error).message}`, { cause: err });
    }
  }

  /** False once the process died, the connection dropped or close() began. */
  get alive(): boolean {
    return this.#alive && this.browser.connected;
  }

  /** How many episodes may run at once (LaunchOptions.maxEpisodes). */
  get maxEpisodes(): number {
    return this.opts.maxEpisodes ?? 1;
  }

  /** How many episodes run now. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * Why the browser was given up while it still ran: a DevTools ping unanswered past LaunchOptions.unresponsiveMs
   * (frozen: SIGSTOP, a suspended job); it was then killed. Undefined otherwise.
   */
  get failure(): HarnessError | undefined {
    return this.#failure;
  }

  /**
   * Whether the browser answers a ping now (within LaunchOptions.unresponsiveMs): null when it does or is gone
   * otherwise; else the failure (it is then killed). The runner asks when an episode ran past --timeout, so that
   * a frozen browser's episode is a harness error, not the agent's timeout.
   */
  async unresponsive(): Promise<HarnessError | null> {
    if (!this.#failure && this.alive) await this.#watchdog.answers();
    return this.#failure ?? null;
  }

  #frozen(): void {
    const s = (this.opts.unresponsiveMs ?? UNRESPONSIVE_MS) / 1000;
    this.#failure = new HarnessError(
      `Chromium (pid ${this.pid}) is unresponsive: no answer to a DevTools ping in ${s} s; it was killed`,
    );
    this.#alive = false;
    this.#kill();
    void this.close();
  }

  /** Kills Chromium's process group (its renderers too); never throws. */
  #kill(): void {
    const proc = this.browser.process();
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    try {
      Deno.kill(-proc.pid!, "SIGKILL"); // Chromium leads its process group: renderers go too
    } catch {
      try {
        proc.kill("SIGKILL");
      } catch { /* already gone */ }
    }
  }

  /** The browser's version string, e.g. "HeadlessChrome/139.0.7258.154" (run.json records it). */
  version(): Promise<string> {
    return this.browser.version();
  }

  /** The Chromium process id. */
  get pid(): number | undefined {
    return this.browser.process()?.pid;
  }

  #filter(requestId: string, url: string, frameId: string | undefined): void {
    const owner = this.#ownerOf(frameId);
    // A request no one can tell the owner of passes only what every running episode allows (nothing, when none
    // runs) and is recorded in each; one of a context no episode runs in now (a spare, one closing) in none.
    const routes = owner === undefined
      ? [...this.#running.values()].flatMap((r) => r.route ? [r.route] : [])
      : owner === null
      ? []
      : [owner];
    const allowed = routes.length > 0
      ? routes.every((r) => isAllowedUrl(url, r.origins))
      : isAllowedUrl(url, new Set());
    if (allowed) {
      this.cdp.send("Fetch.continueRequest", { requestId }).catch(() => undefined);
    } else {
      for (const r of routes) r.onBlocked(url);
      this.cdp.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }).catch(() => undefined);
    }
  }

  /**
   * The route of the episode a request's frame belongs to (a target's context, else a subframe of its tabs); null
   * for a context no episode runs in now (a spare, or one whose episode is closing or closed); undefined when no
   * one can tell.
   */
  #ownerOf(frameId: string | undefined): ProxyRoute | null | undefined {
    if (!frameId) return undefined;
    const context = this.#targetContext.get(frameId);
    if (context) return this.#running.get(context)?.route ?? null;
    for (const r of this.#running.values()) if (r.session?.hasFrame(frameId)) return r.route;
    return undefined;
  }

  /**
   * Starts preparing the next episode's context and page now, in the background, for the origins of the episode
   * that runs (else the last one's, else LaunchOptions.prewarmOrigins); nothing when enough are on their way
   * already (LaunchOptions.spares, never more than the free episode slots) or `prewarm` is off. The runner calls it once the episode's
   * start is over: a spare made during the start slows the start's page loads down (~75 ms at one worker), and one
   * made when the episode closes is not ready in time for the next episode, which opens at once.
   * @returns whether a spare is ready (once it is): false when `prewarm` is off, Chromium died or the spare failed.
   *   Never rejects.
   */
  prepareNext(): Promise<boolean> {
    this.#prewarm();
    const last = this.#spares.at(-1);
    return last ? last.ready.then((spare) => spare !== null) : Promise.resolve(false);
  }

  /** Prepares a context and page in the background for the origins the next episode most likely allows. */
  #prewarm(): void {
    const origins = this.#warmOrigins;
    if (this.opts.prewarm === false || !this.alive || !origins) return;
    // Spares for the episodes that may start before the next prepareNext, never more than the free slots (two
    // when the browser runs several episodes: with one, episodes ending together made contexts of their own, and
    // the set-up at 8 workers, 4 a browser, was 338 ms instead of 210 in bench/harness.ts).
    const wanted = Math.max(
      1,
      Math.min(this.opts.spares ?? Math.min(2, this.maxEpisodes), this.maxEpisodes - this.#running.size),
    );
    if (this.#spares.length >= wanted) return;
    // The spare's page stays blank: loading a page of the site into it first (so that its renderer exists) cost
    // 80-150 ms of Chromium CPU per episode and made the first real page load no sooner (episode_cpu_probe.ts).
    const ready = this.#newContext(origins).catch(() => null);
    this.#spares.push({ origins: originsKey(origins), ready });
  }

  /** A spare made for `origins`; without one, those made for others are closed in the background, unawaited. */
  async #takeSpare(origins: ReadonlySet<string>): Promise<Spare | null> {
    const i = this.#spares.findIndex((s) => s.origins === originsKey(origins));
    if (i >= 0) return await this.#spares.splice(i, 1)[0].ready;
    for (const s of this.#spares.splice(0)) s.ready.then((spare) => spare && closeSpare(spare)).catch(() => undefined);
    return null;
  }

  /** A context whose traffic, but the allowed origins' HTTP, goes through a recording proxy of its own. */
  async #newContext(origins: ReadonlySet<string>): Promise<Spare> {
    let route: ProxyRoute | null = null;
    const proxy = RecordingProxy.start(() => route);
    this.#proxies.add(proxy);
    proxy.closed.then(() => this.#proxies.delete(proxy));
    let context: BrowserContext | undefined;
    try {
      context = await this.browser.createBrowserContext({
        proxyServer: proxy.url,
        proxyBypassList: proxyBypassList(origins),
      });
      const id = context.id!;
      // The proxy records where the filter does: to the episode that runs in this context, once one does.
      route = { origins, onBlocked: (url) => this.#running.get(id)?.route?.onBlocked(url) };
      return { context, page: await context.newPage(), proxy };
    } catch (err) {
      await context?.close().catch(() => undefined);
      await proxy.close();
      throw err;
    }
  }

  /**
   * A fresh incognito context for one episode: its own clipboard (no page has Chromium's), downloads into
   * downloadDir, every request off the allowed origins refused and recorded in this episode's blocked list.
   * @throws HarnessError when the browser is dead or runs maxEpisodes episodes already; UsageError for a bad origin.
   */
  async newEpisode(options: EpisodeOptions): Promise<EpisodeSession> {
    if (this.#failure) throw new HarnessError(`cannot open an episode: ${this.#failure.message}`);
    if (!this.alive) throw new HarnessError("Chromium is not running (it died or was closed)");
    // Sessions closing (an aborted signal) still hold their slot: let them finish.
    if (this.#running.size >= this.maxEpisodes) {
      await Promise.all([...this.#running.values()].map((r) => r.session?.closed ? r.session.close() : undefined));
    }
    if (this.#running.size >= this.maxEpisodes) {
      throw new HarnessError(
        `this browser runs ${this.#running.size} episode(s), its most (maxEpisodes ${this.maxEpisodes}): close one first`,
      );
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
    // The slot is taken before the first await, so that episodes opening together count each other.
    const slot = `opening:${crypto.randomUUID()}`;
    const running: Running = { route: null };
    this.#running.set(slot, running);
    this.#watchdog.start();
    let spare: Spare | undefined;
    try {
      await Deno.mkdir(resolved.downloadDir, { recursive: true });
      spare = (await this.#takeSpare(origins)) ?? await this.#newContext(origins);
      const { context, page, proxy } = spare;
      const id = context.id!;
      this.#running.delete(slot);
      this.#running.set(id, running);
      await Promise.all([
        this.cdp.send("Browser.setDownloadBehavior", {
          behavior: "allow",
          browserContextId: id,
          downloadPath: resolved.downloadDir,
        }),
        // No clipboard permission: a page reaches only its episode's own clipboard (_clipboard.ts), never Chromium's.
        ...[...origins].map((o) => context.overridePermissions(o, [])),
      ]);
      const isAlive = () => this.alive;
      const death = () => this.#failure?.message ?? "the browser died";
      const host: EpisodeHost = {
        get alive() {
          return isAlive();
        },
        get death() {
          return death();
        },
        setRoute: (route) => (running.route = route),
        // A spare asked for during the episode (prepareNext) is on its way already; else one starts now.
        released: () => {
          if (this.#running.get(id) === running) this.#running.delete(id);
          void proxy.close();
          this.#prewarm();
        },
      };
      running.session = await EpisodeSession.open(host, context, page, origins, resolved);
      return running.session;
    } catch (err) {
      for (const [k, r] of this.#running) if (r === running) this.#running.delete(k);
      if (spare) await closeSpare(spare);
      if (!this.alive) {
        throw new HarnessError(`cannot open an episode: ${this.failure?.message ?? "the browser died"}`, {
          cause: err,
        });
      }
      throw err;
    }
  }

  /** Closes Chromium (its process group killed, its profile removed); never throws, safe to call twice. */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      this.#alive = false;
      // Its profile is thrown away and nothing in it is read again, so Chromium's graceful shutdown (a second or
      // more of flushing what nobody reads, on every run's end) is skipped: its process group is killed.
      await this.#killAndWait();
      await this.browser.disconnect().catch(() => undefined);
      // Not waiting for spares on their way: a call the dead browser never answers waits for the protocol timeout.
      this.#spares = [];
      await Promise.all([...this.#proxies].map((p) => p.close()));
      await removeProfile(this.profile);
    })());
  }

  /** Kills Chromium's process group and waits (at most EXIT_WAIT_MS) for the browser process to exit. */
  async #killAndWait(): Promise<void> {
    const proc = this.browser.process();
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    this.#kill();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Closes Chromium, as close() does (for `await using`). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Closes a context that no episode took (or whose episode failed to open) and its proxy; never throws. */
async function closeSpare(spare: Spare): Promise<void> {
  await spare.context.close().catch(() => undefined);
  await spare.proxy.close();
}
