/**
 * lib/browser: the only place that drives Chromium (puppeteer-core). A ChromiumBrowser runs up to
 * LaunchOptions.maxEpisodes episodes at once (the runner's --workers-per-browser); an EpisodeSession per episode
 * (fresh incognito context, network allowlist, dialogs, downloads, uploads, tabs, clipboard, admin calls) with the
 * element primitives the action executor uses.
 *
 * ```ts
 * await using browser = await ChromiumBrowser.launch();
 * await using session = await browser.newEpisode({ allowedOrigins: [base], downloadDir, uploadDir });
 * await session.goto(`${base}/shop/`);
 * const state = await session.captureState({ screenshot: true });
 * ```
 * @module
 */
export { ChromiumBrowser, chromiumPath, PUPPETEER_VERSION } from "./chromium.ts";
export { EpisodeSession } from "./episode.ts";
export type { Session } from "./session.ts";
export { ActionError } from "./errors.ts";
export type { Typed } from "./_input.ts";
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
// The lib/dom and lib/errors types this API hands out, for its documentation: lib/dom/mod.ts and lib/errors/mod.ts
// own them, and callers import them from there.
export type { ATTRIBUTE_ORDER, AttributeName, DomElement, PageSnapshot, Rect, SnapshotOptions } from "../dom/mod.ts";
export type { HarnessError } from "../errors/mod.ts";
