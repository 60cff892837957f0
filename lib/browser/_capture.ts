/** The page state a step sees: lib/dom's snapshot and a viewport screenshot. */
import { type PageSnapshot, type SnapshotOptions, snapshotPage } from "../dom/mod.ts";
import { HarnessError } from "../errors/mod.ts";
import { contextGone, pageCall, PageScriptError, type Tab } from "./_tab.ts";
import type { CaptureOptions } from "./types.ts";

/**
 * Runs snapshotPage in the tab `current()` names (it sets window.__webmixIndex); a capture the page's navigation
 * interrupted is retried after `settle` (twice at most).
 * @throws HarnessError when snapshotPage itself throws (a lib/dom bug, named with the URL).
 */
export async function snapshotTab(
  current: () => Tab,
  options: SnapshotOptions,
  settle: () => Promise<void>,
): Promise<PageSnapshot> {
  const expr = pageCall(snapshotPage, [options]);
  for (let attempt = 1;; attempt++) {
    const tab = current();
    try {
      return await tab.evaluate<PageSnapshot>(expr);
    } catch (err) {
      if (err instanceof PageScriptError) {
        throw new HarnessError(`snapshotPage failed on ${tab.page.url()}: ${err.message}`, { cause: err });
      }
      if (!contextGone(err) || attempt >= 3) throw err;
      await settle();
    }
  }
}

/** The tab's viewport as PNG or JPEG (DevTools directly: puppeteer's screenshot adds round trips). */
export async function screenshotTab(tab: Tab, opts: CaptureOptions = {}): Promise<Uint8Array> {
  const format = opts.format ?? "png";
  const r = await tab.cdp.send("Page.captureScreenshot", {
    format,
    ...(format === "jpeg" ? { quality: opts.quality ?? 80 } : {}),
    optimizeForSpeed: true,
  });
  return Uint8Array.fromBase64(r.data);
}
