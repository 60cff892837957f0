/** The data lib/browser hands to its callers and the options they pass. */
import type { PageSnapshot, SnapshotOptions } from "../dom/mod.ts";

/** How to start Chromium. */
export interface LaunchOptions {
  /** The Chromium binary; default $CHROME_PATH, else /usr/bin/chromium. */
  executablePath?: string;
  /** Extra command-line flags, after the suite's own. */
  args?: string[];
  /** Default viewport of new pages (an episode may override it). */
  viewport?: Viewport;
  /** How long one DevTools call may take before it fails (default 30 s). */
  protocolTimeoutMs?: number;
  /**
   * How many episodes the browser runs at once, each in its own context (default 1). The runner's
   * --workers-per-browser.
   */
  maxEpisodes?: number;
  /**
   * How many contexts to keep prepared for the next episodes, at most the free episode slots (default 1 with one
   * episode at a time, else 2).
   */
  spares?: number;
  /**
   * How long Chromium may leave a DevTools ping unanswered while episodes run before it counts as frozen (default
   * 5000 ms): it is then killed and its episodes fail as harness errors (ChromiumBrowser.failure). The runner's
   * --browser-ping-timeout.
   */
  unresponsiveMs?: number;
  /** Prepare the next episode's context and page while the current one runs (default true). */
  prewarm?: boolean;
  /**
   * The origins the first episode will allow (a run's sandbox base): its context is then prepared at launch. Without
   * them the first episode makes its own; later ones get a context prepared for the last episode's origins.
   */
  prewarmOrigins?: string[];
}

/** A viewport's size in CSS pixels. */
export interface Viewport {
  /** Width in CSS pixels. */
  width: number;
  /** Height in CSS pixels. */
  height: number;
}

/** What a caller passes to ChromiumBrowser.newEpisode. */
export interface EpisodeOptions {
  /** Origins pages may reach (`http://127.0.0.1:40115`); data:, blob: and about: are always allowed. */
  allowedOrigins: string[];
  /** Where downloads land. */
  downloadDir: string;
  /** The only folder upload_file takes files from. */
  uploadDir: string;
  /** Default 1280×720. */
  viewport?: Viewport;
  /** Cap on a navigation, in ms (default 15000). */
  navTimeoutMs?: number;
  /** Options of lib/dom's snapshotPage for every capture. */
  snapshot?: SnapshotOptions;
  /** Aborting closes the session. */
  signal?: AbortSignal;
}

/** EpisodeOptions with every field set. */
export interface ResolvedEpisodeOptions {
  /** EpisodeOptions.allowedOrigins. */
  allowedOrigins: string[];
  /** EpisodeOptions.downloadDir. */
  downloadDir: string;
  /** EpisodeOptions.uploadDir. */
  uploadDir: string;
  /** EpisodeOptions.viewport, else LaunchOptions.viewport, else 1280×720. */
  viewport: Viewport;
  /** EpisodeOptions.navTimeoutMs, else 15000. */
  navTimeoutMs: number;
  /** EpisodeOptions.snapshot, else `{}`. */
  snapshot: SnapshotOptions;
  /** EpisodeOptions.signal. */
  signal?: AbortSignal;
}

/** One open tab, as the model sees it. */
export interface TabInfo {
  /** Four characters, stable for the tab's life and the same in every run of an episode. */
  id: string;
  /** The tab's current URL. */
  url: string;
  /** The tab's document title. */
  title: string;
}

/** What the agent sees at one step. */
export interface BrowserState {
  /** The current tab's URL. */
  url: string;
  /** The current tab's document title. */
  title: string;
  /** Every open tab, in opening order. */
  tabs: TabInfo[];
  /** The id of the current tab. */
  tabId: string;
  /** lib/dom's snapshot of the current tab. */
  snapshot: PageSnapshot;
  /** lib/dom's formatElements of the snapshot. */
  elementsText: string;
  /** The snapshot's visible text. */
  visibleText: string;
  /** The viewport's screenshot, in CaptureOptions.format; absent when CaptureOptions.screenshot was false. */
  screenshot?: Uint8Array;
}

/** What a state capture or a screenshot takes. */
export interface CaptureOptions {
  /** Take a screenshot of the viewport (default true). */
  screenshot?: boolean;
  /** Default "png". */
  format?: "png" | "jpeg";
  /** JPEG quality, 0-100 (default 80). */
  quality?: number;
}

/** A dialog a page opened; the session accepts every one. */
export interface DialogRecord {
  /** The dialog's kind. */
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  /** The text the dialog showed. */
  message: string;
  /** The URL of the tab's page when it opened. */
  url: string;
  /** The id of the tab that opened it. */
  tabId: string;
}

/** A point in viewport CSS pixels. */
export interface Point {
  /** Pixels from the viewport's left edge. */
  x: number;
  /** Pixels from the viewport's top edge. */
  y: number;
}

/**
 * One end of a drag: an indexed element's centre, the centre of the first element matching a selector (a drop
 * zone such as a board column is rarely interactive, so rarely indexed), or a viewport point.
 */
export type DragEnd = { index: number } | { selector: string } | Point;

/** One option of a native select. */
export interface SelectOption {
  /** The option's text, trimmed. */
  text: string;
  /** The option's value. */
  value: string;
  /** Whether the option is selected now. */
  selected: boolean;
  /** Whether the option is disabled. */
  disabled: boolean;
}
