/** Locators (docs/tasks.md): a CSS selector or an element's text, resolved to an index of the page's snapshot. */
import { type DomElement, indexedElement, type PageSnapshot } from "../dom/mod.ts";
import { ActionError } from "./errors.ts";
import { locateSelector, type PageRefusal, queryDeep, revealText } from "./_page_fns.ts";
import { refusalToError, type Tab } from "./_tab.ts";

type LocateAnswer = { index: number } | { matches: number } | PageRefusal;

/** Case- and space-normalised text, as the `text` locator compares it. */
function normalizeText(s: string): string {
  return s.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * The index a locator designates. `selector`: the first match that carries an index, else the first match's
 * nearest indexed ancestor (matches and ancestors reach through open shadow roots and same-origin iframes, and
 * `>>>` crosses into them: queryDeep). `text`: the first of `elements` whose normalised text equals it. A match the
 * snapshot left out (outside the viewport) is scrolled into view and `resnapshot` re-indexes the page.
 * @throws ActionError when nothing matches.
 */
export async function locateIndex(
  tab: Tab,
  locator: { selector: string } | { text: string },
  elements: DomElement[],
  resnapshot: () => Promise<PageSnapshot>,
): Promise<number> {
  if ("selector" in locator) {
    for (let attempt = 0;; attempt++) {
      const r = refusalToError(
        await tab.call<LocateAnswer>(locateSelector, indexedElement, locator.selector, queryDeep),
        "locator",
      );
      if ("index" in r) return r.index;
      if (r.matches === 0) throw new ActionError(`selector "${locator.selector}" matches nothing on the page`);
      if (attempt === 1) {
        throw new ActionError(`selector "${locator.selector}" matches no indexed element or child of one`);
      }
      await resnapshot();
    }
  }
  const want = normalizeText(locator.text);
  const hit = elements.find((e) => normalizeText(e.text) === want);
  if (hit) return hit.index;
  if (await tab.call<boolean>(revealText, locator.text, queryDeep)) {
    const again = (await resnapshot()).elements.find((e) => normalizeText(e.text) === want);
    if (again) return again.index;
  }
  throw new ActionError(`no indexed element has the text "${locator.text}"`);
}
