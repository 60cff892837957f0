/**
 * Tracker chains that leave the drag and io adapters (issue 31, item 5): a backlog reordered by dragging, then an
 * issue opened from it (drag → rest, and rest → drag → rest from the top menu); the docs opened in a new tab, then a
 * page opened from the docs' top menu (io → rest, and rest → io → rest). Each reads like a table.
 */
import type { AppDb } from "../../sites/db.ts";
import type { ActionJson, AnyTemplate, NearMiss } from "../template.ts";
import {
  endsOnSibling,
  goal,
  layered,
  navigateMenu,
  openDetail,
  openNewTab,
  procedure,
  reorderList,
} from "../macros/mod.ts";
import { backlog, issuePath, projectRows, rankChanges } from "./tracker.ts";

type MoveP = {
  project: string;
  project_name: string;
  key: string;
  title: string;
  onto: string;
  from: number;
  to: number;
};

/** Each move of a backlog item one or two places up or down, in the projects `only` names (all by default). */
function moves(db: AppDb, only?: string): MoveP[] {
  return projectRows(db).filter((pr) => !only || pr.key === only).flatMap((pr) => {
    const list = backlog(db, pr.id);
    return list.flatMap((x, from) =>
      [from - 2, from - 1, from + 1, from + 2].filter((to) => to >= 0 && to < list.length).map((to) => ({
        project: pr.key,
        project_name: pr.name,
        key: x.key,
        title: x.title,
        onto: list[to].key,
        from,
        to,
      }))
    );
  });
}
const side = (p: MoveP) => p.to < p.from ? "above" : "below";
const backlogPath = (p: MoveP) => `/tracker/projects/${p.project}/backlog`;
/** The link of `key` in the backlog (a low item's after a scroll: a click near the viewport's bottom was lost). */
const openItem = (p: MoveP, key = p.key) =>
  openDetail(
    backlogPath(p),
    { click: { selector: `#item-${key} a` } },
    issuePath(key),
    p.to >= 7 ? [{ scroll: { down: true } }] : [],
  );
const moved = (p: MoveP, db: AppDb) => {
  const list = backlog(db, projectRows(db).find((r) => r.key === p.project)!.id);
  return [...rankChanges(list, p.from, p.to), { page: { path: issuePath(p.key), query: {} } }];
};
const moveMisses = (p: MoveP, steps: ActionJson[]): NearMiss[] => [
  {
    name: "other_issue_opened",
    category: "wrong_item",
    steps: [...steps.slice(0, -1), ...openItem(p, p.onto).steps],
    reason: "final_page",
    witness: { page: { path: issuePath(p.onto) } },
  },
  {
    name: "opened_without_moving",
    category: "wrong_item",
    // Without the drag, a low item's link needs the page scrolled first (as the app's other backlog misses do).
    steps: [
      ...steps.slice(0, -1).filter((s) => !("drag" in s)),
      ...(p.from >= 7 ? [{ scroll: { down: true } }] : []),
      steps.at(-1)!,
    ],
    reason: "field_mismatch",
    witness: { all: [{ page: { path: issuePath(p.key) } }, { no_writes: true }] },
  },
];

const reorderThenOpen = layered<MoveP>({
  id: "tracker.open_detail.reorder_then_open",
  site: "tracker",
  macro: "open_detail",
  prefix: ["reorder_list"],
  summary: "drag a backlog issue next to another one, then open the moved issue from the backlog",
  params: (db) => moves(db),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) => `Drag ${p.key} "${p.title}" to sit directly ${side(p)} ${p.onto} in this backlog, then open it.`),
    procedure((p) => `In the ${p.project_name} backlog, drag ${p.key} right ${side(p)} ${p.onto} and click its key.`),
    goal((p) => `${p.key} "${p.title}" belongs directly ${side(p)} ${p.onto} in this backlog: move it, then open it.`),
    goal((p) => `Reorder the ${p.project_name} backlog so ${p.key} comes right ${side(p)} ${p.onto}; end on ${p.key}.`),
  ],
  start: (p) => ({ url: backlogPath(p) }),
  chain: (p) => [reorderList("tracker", p.key, p.onto, p.from, p.to), openItem(p)],
  outcome: (p, db) => moved(p, db),
  nearMisses: (p, _db, steps) => moveMisses(p, steps),
});

/** The top menu's Backlog entry opens the WEB project's backlog (the app's redirect). */
const MENU_BACKLOG = "WEB";

const menuReorderOpen = layered<MoveP>({
  id: "tracker.open_detail.menu_reorder_open",
  site: "tracker",
  macro: "open_detail",
  prefix: ["navigate_menu", "reorder_list"],
  summary: "open Backlog from the top menu, drag an issue next to another one, then open the moved issue",
  params: (db) => moves(db, MENU_BACKLOG),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `Open "Backlog" from the Tracker's top menu, drag ${p.key} directly ${side(p)} ${p.onto}, then open ${p.key}.`
    ),
    procedure((p) =>
      `Use the top menu's Backlog entry, then drag ${p.key} "${p.title}" right ${side(p)} ${p.onto} and click it.`
    ),
    goal((p) => `In the ${p.project_name} backlog, put ${p.key} directly ${side(p)} ${p.onto}, then open ${p.key}.`),
    goal((p) =>
      `${p.key} should come right ${side(p)} ${p.onto} in the ${p.project_name} backlog; fix that and open it.`
    ),
  ],
  start: () => ({ url: "/tracker/issues" }),
  chain: (p) => [
    navigateMenu("tracker", "Backlog", "/tracker/backlog", backlogPath(p)),
    reorderList("tracker", p.key, p.onto, p.from, p.to),
    openItem(p),
  ],
  outcome: (p, db) => moved(p, db),
  nearMisses: (p, _db, steps) => moveMisses(p, steps),
});

const reorderThenMenu = layered<MoveP & { label: string; href: string; other_href: string }>({
  id: "tracker.navigate_menu.reorder_then_menu",
  site: "tracker",
  macro: "navigate_menu",
  prefix: ["reorder_list"],
  summary: "drag a backlog issue next to another one, then open a page from the top menu",
  params: (db) =>
    moves(db).map((m, n) => {
      const [label, href] = ENTRIES[n % ENTRIES.length], [, other_href] = ENTRIES[(n + 1) % ENTRIES.length];
      return { ...m, label, href, other_href };
    }),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `Drag ${p.key} to sit directly ${side(p)} ${p.onto} in this backlog, then open "${p.label}" from the top menu.`
    ),
    procedure((p) =>
      `In the ${p.project_name} backlog, drag ${p.key} right ${
        side(p)
      } ${p.onto}; then click ${p.label} in the top bar.`
    ),
    goal((p) =>
      `${p.key} "${p.title}" belongs directly ${side(p)} ${p.onto} in this backlog. Move it, then go to ${p.label}.`
    ),
    goal((p) =>
      `Put ${p.key} right ${side(p)} ${p.onto} in the ${p.project_name} backlog and end on the ${p.label} page.`
    ),
  ],
  start: (p) => ({ url: backlogPath(p) }),
  chain: (p) => [reorderList("tracker", p.key, p.onto, p.from, p.to), navigateMenu("tracker", p.label, p.href)],
  outcome: (p, db) => [...moved(p, db).slice(0, -1), { page: { path: p.href, query: {} } }],
  nearMisses: (p, _db, steps) => [
    endsOnSibling(
      "other_entry",
      steps,
      { click: { selector: `.topbar .menu a[href='${p.other_href}']` } },
      p.other_href,
    ),
    {
      name: "menu_without_moving",
      category: "wrong_item",
      steps: steps.slice(-1),
      reason: "field_mismatch",
      witness: { all: [{ page: { path: p.href } }, { no_writes: true }] },
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// The docs in a new tab, then a page from the docs' top menu

type DocsP = { label: string; href: string; other: string; other_href: string };
/** Top menu entries that open their own page (Board and Backlog redirect to the WEB project's). */
const ENTRIES = [["Issues", "/tracker/issues"], ["Sprints", "/tracker/sprints"], ["Inbox", "/tracker/inbox"]];
const docsRows = (): DocsP[] =>
  ENTRIES.map(([label, href], i) => {
    const [other, other_href] = ENTRIES[(i + 1) % ENTRIES.length];
    return { label, href, other, other_href };
  });
const docsTab = () => openNewTab({ click: { selector: "#docs-link" } }, "Docs", "/tracker/docs");
const docsOutcome = (p: DocsP) => [{ page: { path: p.href, query: {} } }, { no_writes: true }];
const docsMisses = (p: DocsP, steps: ActionJson[]): NearMiss[] => [
  endsOnSibling("other_entry", steps, { click: { selector: `.topbar .menu a[href='${p.other_href}']` } }, p.other_href),
  {
    name: "entry_without_docs",
    category: "wrong_item",
    steps: [{ click: { selector: `.topbar .menu a[href='${p.href}']` } }],
    reason: "not_visited",
    witness: { all: [{ page: { path: p.href } }, { not: { visited: { regex: "^/tracker/docs" } } }] },
  },
  {
    name: "stopped_on_docs",
    category: "wrong_item",
    steps: steps.slice(0, -1),
    reason: "final_page",
    witness: { page: { path: "/tracker/docs" } },
  },
];

const docsThenMenu = layered<DocsP>({
  id: "tracker.navigate_menu.docs_tab_then_menu",
  site: "tracker",
  macro: "navigate_menu",
  prefix: ["open_new_tab"],
  summary: "on Projects, open the Docs link (a new tab), then a page from the top menu in that tab",
  params: docsRows,
  entity: (p) => `entry:${p.label}`,
  phrasings: [
    procedure((p) =>
      `Open the Docs link here (it opens a new tab), then in that tab click "${p.label}" in the top menu.`
    ),
    procedure((p) =>
      `Click "Docs ↗" to open the docs in a new tab, and from there use the top menu to go to ${p.label}.`
    ),
    goal((p) => `Bring up the Tracker's docs, then go on from the docs to the ${p.label} page.`),
    goal((p) => `Have a look at the Tracker documentation and end on ${p.label}, reached from the docs.`),
  ],
  start: () => ({ url: "/tracker/" }),
  chain: (p) => [docsTab(), navigateMenu("tracker", p.label, p.href)],
  outcome: docsOutcome,
  nearMisses: (p, _db, steps) => docsMisses(p, steps),
});

const menuDocsMenu = layered<DocsP & { key: string }>({
  id: "tracker.navigate_menu.menu_docs_menu",
  site: "tracker",
  macro: "navigate_menu",
  prefix: ["navigate_menu", "open_new_tab"],
  summary: "from an issue, Projects from the top menu, its Docs link (a new tab), then a page from the docs' menu",
  params: (db) =>
    db.all<{ key: string }>("SELECT key FROM issues ORDER BY id").flatMap((i) =>
      docsRows().map((d) => ({ ...d, ...i }))
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `You are on ${p.key}. Open "Projects" from the top menu, click its Docs link (a new tab), then "${p.label}" there.`
    ),
    procedure((p) =>
      `From ${p.key}, use the top menu to reach Projects, open "Docs ↗" in a new tab and pick ${p.label} in its menu.`
    ),
    goal((p) => `You are on ${p.key}. Get to the Tracker's docs by way of Projects, then on to ${p.label}.`),
    goal((p) =>
      `From the ${p.key} page, reach the documentation through Projects and end on ${p.label} from the docs.`
    ),
  ],
  start: (p) => ({ url: issuePath(p.key) }),
  chain: (p) => [navigateMenu("tracker", "Projects", "/tracker/"), docsTab(), navigateMenu("tracker", p.label, p.href)],
  outcome: docsOutcome,
  nearMisses: (p, _db, steps) => docsMisses(p, steps).filter((m) => m.name !== "entry_without_docs"),
});

export const TRACKER_CHAIN_TEMPLATES: readonly AnyTemplate[] = [
  reorderThenMenu,
  reorderThenOpen,
  menuReorderOpen,
  docsThenMenu,
  menuDocsMenu,
];
