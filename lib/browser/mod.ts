/**
 * lib/browser: the only place that drives Chromium (puppeteer-core). A ChromiumBrowser per worker; an
 * EpisodeSession per episode (fresh incognito context, network allowlist, dialogs, downloads, uploads, tabs,
 * clipboard, admin calls) with the element primitives the action executor uses.
 *
 * ```ts
 * await using browser = await ChromiumBrowser.launch();
 * await using session = await browser.newEpisode({ allowedOrigins: [base], downloadDir, uploadDir });
 * await session.goto(`${base}/shop/`);
 * const state = await session.captureState({ screenshot: true });
 * ```
 */
export { CHROMIUM_FLAGS, ChromiumBrowser, chromiumPath, DEFAULT_CHROMIUM_PATH, PUPPETEER_VERSION } from "./chromium.ts";
export { EpisodeSession } from "./episode.ts";
export { normalizeText } from "./_locate.ts";
export { ActionError } from "./errors.ts";
export type {
  BrowserState,
  CaptureOptions,
  DialogRecord,
  DragEnd,
  EpisodeOptions,
  LaunchOptions,
  Point,
  ResolvedEpisodeOptions,
  SelectOption,
  TabInfo,
  Viewport,
} from "./types.ts";
