/**
 * Each app's page model as the macros read it: where its search box, results, pager and list rows are. One entry per
 * app, beside nothing else: a macro never spells an app's selector, a template never spells a macro's. The values are
 * the apps' own (lib/sites/apps/<app>: the ids their views render); an app's test fails when one of them changes.
 */

/** A search form: its box, its button, the results page and the query key. */
export interface SearchModel {
  /** The search box's selector (an id: `#search`). */
  box: string;
  /** The submit button's selector (an id). */
  submit: string;
  /** The results page's path. */
  path: string;
  /** The query key the box submits. */
  key: string;
}

/** A list's pager: numbered page links, Next and Previous. */
export interface PagerModel {
  /** The selector of page `n`'s link. */
  page(n: number): string;
  /** The Next link's selector. */
  next: string;
  /** The Previous link's selector. */
  prev: string;
  /** The recorder target of any pager link (a regular expression). */
  any: string;
}

/** The app's top menu: its links and the landmark the recorder names for a click in it. */
export interface MenuModel {
  /** The selector of the menu's link to `href`. */
  link(href: string): string;
  /** What the recorder's `region` of a click in the menu contains. */
  region: string;
}

/** An ordered list whose items are dragged (and moved with arrow buttons). */
export interface ListModel {
  /** The selector of the item `key`. */
  item(key: string): string;
  /** Its Move up button's selector. */
  up(key: string): string;
  /** Its Move down button's selector. */
  down(key: string): string;
  /** The position from which an item is below the fold (a scroll first). */
  scrollFrom: number;
}

/** What the macros read of one app. */
export interface PageModel {
  /** The app. */
  site: string;
  /** The search form, when the app has one. */
  search?: SearchModel;
  /** Other search forms, by name (bookings' home page search). */
  searches?: Readonly<Record<string, SearchModel>>;
  /** The pager of its lists. */
  pager?: PagerModel;
  /** The top menu. */
  menu?: MenuModel;
  /** Its ordered, draggable list (the tracker's backlog). */
  list?: ListModel;
}

/** The top bar's menu (`.topbar .menu`, a `nav.menu`) every app's layout renders. */
const TOP_MENU: MenuModel = { link: (href) => `.topbar .menu a[href='${href}']`, region: "menu" };

/** The pager every app renders (`#page-N`, `#next-page`, `#prev-page`). */
const PAGER: PagerModel = {
  page: (n) => `#page-${n}`,
  next: "#next-page",
  prev: "#prev-page",
  any: "#(page-\\d+|next-page|prev-page)(?![\\w-])",
};

/** The apps' page models, by app. */
export const PAGES: Readonly<Record<string, PageModel>> = {
  shop: {
    site: "shop",
    search: { box: "#search", submit: "#search-button", path: "/shop/products", key: "q" },
    pager: PAGER,
    menu: TOP_MENU,
  },
  tracker: {
    site: "tracker",
    search: { box: "#q", submit: "#apply-filters", path: "/tracker/issues", key: "q" },
    pager: PAGER,
    menu: TOP_MENU,
    list: { item: (k) => `#item-${k}`, up: (k) => `#up-${k}`, down: (k) => `#down-${k}`, scrollFrom: 7 },
  },
  mail: {
    site: "mail",
    search: { box: "#search-q", submit: "#search-button", path: "/mail/search", key: "q" },
    pager: PAGER,
    menu: TOP_MENU,
  },
  bookings: {
    site: "bookings",
    menu: TOP_MENU,
    searches: { home: { box: "#home-q", submit: "#home-search-submit", path: "/bookings/rooms", key: "q" } },
  },
};

/** The page model of `site`. @throws Error naming an app without one. */
export function pageModel(site: string): PageModel {
  const m = PAGES[site];
  if (!m) throw new Error(`no page model for app "${site}" (lib/gen/macros/pages.ts)`);
  return m;
}
