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
  /** The selector that opens the menu first (a drop-down's summary), when it is folded. */
  open?: string;
  /** The selector pointed at to unfold the menu (a hover menu's trigger), when it opens on hover. */
  hover?: string;
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

/** A strip of tabs: links, one per tab, each opening the page with that tab shown. */
export interface TabStripModel {
  /** The selector of tab `key`'s link (an id). */
  link(key: string): string;
}

/** A board of columns whose cards are dragged between them (the tracker's board). */
export interface BoardModel {
  /** The selector of the card `key`. */
  card(key: string): string;
  /** The selector of the column `value` (a status). */
  column(value: string): string;
  /** The card's detail page, where the same change is made with a form (the equivalent control). */
  detail(key: string): string;
  /** That form's select of the column's value (an id). */
  select: string;
  /** That form's submit button (an id). */
  submit: string;
}

/**
 * A star rating widget: a custom element whose buttons (one per value) live in its shadow root and post the value
 * themselves.
 */
export interface StarsModel {
  /** The widget's selector (an id: the recorder names the element for a click on any of its buttons). */
  widget: string;
  /** The selector of the button for `n` stars (piercing the shadow root). */
  button(n: number): string;
  /** The highest value. */
  max: number;
  /** The path the widget of the item `key` posts to. */
  posts(key: string): string;
  /** The body field that carries the value. */
  field: string;
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
  /** Other menus than the top one, by name (a project's menu, a switcher). */
  menus?: Readonly<Record<string, MenuModel>>;
  /** Its tab strips, by name (`main`: a detail page's tabs). */
  tabs?: Readonly<Record<string, TabStripModel>>;
  /** Its board of columns. */
  board?: BoardModel;
  /** Its star rating widgets, by name. */
  ratings?: Readonly<Record<string, StarsModel>>;
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

/** The tab strip every app's detail pages render (`#tab-KEY` links). */
const TABS: TabStripModel = { link: (key) => `#tab-${key}` };

/** The apps' page models, by app. */
export const PAGES: Readonly<Record<string, PageModel>> = {
  shop: {
    site: "shop",
    tabs: { main: TABS },
    search: { box: "#search", submit: "#search-button", path: "/shop/products", key: "q" },
    pager: PAGER,
    menu: TOP_MENU,
    ratings: {
      delivery: {
        widget: "#delivery-rating",
        button: (n) => `delivery-rating >>> button[data-stars='${n}']`,
        max: 5,
        posts: (number) => `/shop/orders/${number}/rating`,
        field: "stars",
      },
    },
  },
  tracker: {
    site: "tracker",
    tabs: { main: TABS },
    menus: {
      project: { link: (href) => `#project-menu a[href='${href}']`, region: "nav#project-menu" },
      switcher: {
        link: (href) => `#project-switcher a[href='${href}']`,
        region: "ul",
        open: "#project-switcher summary",
      },
      backlogs: {
        link: (href) => `#backlogs-menu a[href='${href}']`,
        region: "backlogs-menu",
        hover: "#backlogs-menu .hovermenu-trigger",
      },
    },
    board: {
      card: (k) => `#card-${k}`,
      column: (v) => `#col-${v}`,
      detail: (k) => `/tracker/issues/${k}`,
      select: "#status-select",
      submit: "#update-status",
    },
    search: { box: "#q", submit: "#apply-filters", path: "/tracker/issues", key: "q" },
    pager: PAGER,
    menu: TOP_MENU,
    list: { item: (k) => `#item-${k}`, up: (k) => `#up-${k}`, down: (k) => `#down-${k}`, scrollFrom: 7 },
  },
  mail: {
    site: "mail",
    menu: TOP_MENU,
    menus: {
      folders: { link: (href) => `nav#folders a[href='${href}']`, region: "folders" },
      labels: { link: (href) => `nav#labels-nav a[href='${href}']`, region: "labels-nav" },
    },
    search: { box: "#search-q", submit: "#search-button", path: "/mail/search", key: "q" },
    pager: PAGER,
  },
  bookings: {
    site: "bookings",
    tabs: { main: TABS, my: { link: (key) => `#show-${key}` } },
    menu: TOP_MENU,
    pager: PAGER,
    search: { box: "#q", submit: "#apply-filters", path: "/bookings/rooms", key: "q" },
    searches: { home: { box: "#home-q", submit: "#home-search-submit", path: "/bookings/rooms", key: "q" } },
  },
};

/** The page model of `site`. @throws Error naming an app without one. */
export function pageModel(site: string): PageModel {
  const m = PAGES[site];
  if (!m) throw new Error(`no page model for app "${site}" (lib/gen/macros/pages.ts)`);
  return m;
}
