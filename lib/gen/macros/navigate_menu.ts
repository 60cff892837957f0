/**
 * navigate_menu: a page opened from the app's top menu. Its method evidence is a click in the menu on the entry's
 * label that opened the page; typing the page's URL is its attack, and another control to the same page where the
 * app has one.
 */
import type { ActionJson } from "../template.ts";
import { typed, visitedPath } from "./evidence.ts";
import type { Segment } from "./macro.ts";
import { pageModel } from "./pages.ts";

/**
 * The navigate_menu segment on `site`: the menu entry `label` links to `href`, which opens the page at `path`. `named`
 * picks another menu of the app's page model than its top menu (a project's menu, a switcher). `equivalent`: another
 * control's steps that open the same page (a home page's link to the section), the equivalent-control attack.
 */
export function navigateMenu(
  site: string,
  label: string,
  href: string,
  path = href,
  named?: string,
  equivalent?: ActionJson[],
): Segment {
  const model = pageModel(site);
  const menu = named === undefined ? model.menu : model.menus?.[named];
  if (!menu) throw new Error(`app "${site}" has no menu ${named ?? "(top)"} in its page model`);
  const entry = { action: "click", region: { contains: menu.region }, target: { contains: label } };
  return {
    macro: "navigate_menu",
    steps: [
      ...(menu.open ? [{ click: { selector: menu.open } }] : []),
      ...(menu.hover ? [{ hover: { selector: menu.hover } }] : []),
      { click: { selector: menu.link(href) } },
    ],
    reached: [visitedPath(path)],
    method: [{ record: entry, opened: { path } }],
    attacks: [
      {
        kind: "typed_url",
        steps: [{ navigate: { url: href } }],
        reason: "method_missing",
        // No menu click opened this page (another segment of the chain may use the menu for another page).
        witness: { all: [typed, { not: { record: entry, opened: { path } } }] },
        method: true,
      },
      ...(equivalent
        ? [{
          kind: "equivalent_control" as const,
          steps: equivalent,
          reason: "method_missing" as const,
          witness: { all: [{ not: { record: entry, opened: { path } } }, visitedPath(path)] },
          method: true,
        }]
        : []),
    ],
    alternatives: [],
  };
}
