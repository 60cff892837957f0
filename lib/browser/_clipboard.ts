/**
 * The clipboard, through navigator.clipboard in the current page (it needs a page on an allowed origin, which has
 * the clipboard permissions). Headless Chromium keeps one clipboard for the whole browser.
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

/** Empties the clipboard past the page's hooks (Clipboard.prototype), so no page records the clearing. */
export async function clearClipboard(tab: Tab): Promise<void> {
  await onClipboard(tab, "Clipboard.prototype.writeText.call(navigator.clipboard, '')");
}
