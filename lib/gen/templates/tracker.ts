/** Templates on the tracker app (lib/sites/apps/tracker): its board, backlog, issue pages, forms, lists and inbox. */
import type { AppDb } from "../../sites/db.ts";
import type { ActionJson, AnyTemplate, NearMiss } from "../template.ts";
import {
  LABELS,
  PAGE_SIZE,
  PRIORITIES,
  priorityLabel,
  SORTS,
  STATUSES,
  typeLabel,
  TYPES,
} from "../../sites/apps/tracker/_model.ts";
import { DEFAULT_NOW } from "../../sites/clock.ts";
import {
  chooseFromCombobox,
  chooseRadio,
  confirmDialog,
  type ControlPlace,
  downloadFile,
  endsOnSibling,
  esc,
  formSegment,
  goal,
  layered,
  navigateMenu,
  openDetail,
  openNewTab,
  paginate,
  pickDate,
  postPath,
  procedure,
  reorderList,
  search,
  searchedFor,
  selectOption,
  setSlider,
  toggleCheckbox,
  typed,
  visitedPath,
} from "../macros/mod.ts";
import { plural } from "../text.ts";
import {
  anotherYear,
  answeredInstead,
  answerQuestion,
  copyToClipboard,
  dragAndDrop,
  switchTab,
} from "../macros/mod.ts";

// ---------------------------------------------------------------------------------------------------------------
// Shared readers and builders.
// ---------------------------------------------------------------------------------------------------------------

interface IssueRow {
  id: number;
  key: string;
  number: number;
  title: string;
  type: string;
  status: string;
  priority: string;
  assignee_id: number | null;
  assignee: string | null;
  estimate: number;
  sprint_id: number | null;
  sprint: string | null;
  due_date: string | null;
  labels: string;
  rank: number;
  project_id: number;
  project_key: string;
  project_name: string;
  blocked_by_id: number | null;
}

/** Every issue of the seed, by id, with the names it refers to. */
const issues = (db: AppDb) =>
  db.all<IssueRow>(
    `SELECT i.id, i.key, i.number, i.title, i.type, i.status, i.priority, i.assignee_id, a.name AS assignee,
       i.estimate, i.sprint_id, s.name AS sprint, i.due_date, i.labels, i.rank, i.project_id, p.key AS project_key,
       p.name AS project_name, i.blocked_by_id
     FROM issues i JOIN projects p ON p.id = i.project_id LEFT JOIN people a ON a.id = i.assignee_id
     LEFT JOIN sprints s ON s.id = i.sprint_id ORDER BY i.id`,
  );

/**
 * The issues whose labels the seed lists in the form's own order. The edit form used to write labels back in LABELS
 * order, so saving WEB-17 ("docs,security") or API-8 ("security,backend") rewrote their labels field untouched; it
 * keeps a stored list whose set is unchanged now (tracker_test.ts). Dropping this filter changes the templates' draws,
 * so it waits for the next GEN_VERSION and a regenerated bundled set.
 */
const editable = (db: AppDb) =>
  issues(db).filter((i) => i.labels === LABELS.filter((l) => i.labels.split(",").includes(l)).join(","));

const issueByKey = (db: AppDb, key: string): IssueRow => {
  const i = issues(db).find((r) => r.key === key);
  if (!i) throw new Error(`tracker templates: no issue ${key}`);
  return i;
};

const statusLabel = (v: string) => STATUSES.find((s) => s.value === v)?.label ?? v;

const topMenu = (href: string) => ({ click: { selector: `.topbar .menu a[href='${href}']` } });

/** The user clicked a top-menu entry (the top bar's `nav.menu`) whose text holds `label`. */
const topMenuClick = (label: string) => ({
  record: { action: "click", region: { contains: "nav.menu" }, target: { contains: label } },
});

/** Witness of a typed URL instead of any menu: a navigate, and no click in a menu at all. */
const typedNotMenu = {
  all: [{ event: { action: "navigate" } }, { record: { action: "click", region: { contains: "menu" } }, times: 0 }],
};

export const issuePath = (key: string) => `/tracker/issues/${key}`;
const boardPath = (project: string) => `/tracker/projects/${project}/board`;
const backlogPath = (project: string) => `/tracker/projects/${project}/backlog`;

const dragCard = (key: string, status: string) => ({
  drag: { source: { selector: `#card-${key}` }, target: { selector: `#col-${status}` } },
});

const statusChange = (id: number, before: string, after: string) => ({
  change: {
    site: "tracker",
    table: "issues",
    op: "update",
    key: id,
    before: { status: { exact: before } },
    after: { status: { exact: after } },
  },
});

/** The drag_and_drop segment of a card `key` (row `id`) from its status to another on its board. */
const cardDrag = (p: { key: string; id: number; from: string; to: string }) =>
  dragAndDrop("tracker", {
    card: p.key,
    to: p.to,
    label: statusLabel(p.to),
    change: statusChange(p.id, p.from, p.to),
  });

const everStatus = (id: number, after: string, before?: string) => ({
  change: {
    site: "tracker",
    table: "issues",
    op: "update",
    key: id,
    ...(before ? { before: { status: { exact: before } } } : {}),
    after: { status: { exact: after } },
  },
  ever: true,
});

// ---------------------------------------------------------------------------------------------------------------
// Drag & gesture.
// ---------------------------------------------------------------------------------------------------------------

/** A card moved on the board: the issue and the status it goes from and to, as a drag template's parameters. */
const cardMove = (i: ReturnType<typeof issues>[number], to: string) => ({
  key: i.key,
  id: i.id,
  title: i.title,
  project: i.project_key,
  project_name: i.project_name,
  from: i.status,
  to,
});
/** drag_and_drop after the menu: Board from the top menu, the project switcher, then a card into a column. */
const menuSwitcherDrag = layered<
  {
    key: string;
    id: number;
    title: string;
    project: string;
    project_name: string;
    from: string;
    to: string;
    next: string;
    other: string;
    other_id: number;
  }
>({
  id: "tracker.drag_and_drop.menu_switcher_board",
  site: "tracker",
  macro: "drag_and_drop",
  prefix: ["navigate_menu"],
  summary: "Board from the top menu, switch project, then drag a card into another status column",
  params: (db) =>
    issues(db).filter((i) => i.project_key !== "WEB").flatMap((i) =>
      STATUSES.filter((s) => s.value !== i.status).map((s) => {
        const order = STATUSES.map((x) => x.value);
        const next = order.find((v, n) => n > order.indexOf(s.value) && v !== i.status) ??
          order.find((v) => v !== s.value && v !== i.status)!;
        const other = issues(db).find((o) =>
          o.project_id === i.project_id && o.id !== i.id && o.status !== s.value && o.id > i.id
        ) ?? issues(db).find((o) =>
          o.project_id === i.project_id && o.id !== i.id && o.status !== s.value
        )!;
        return {
          ...cardMove(i, s.value),
          next,
          other: other.key,
          other_id: other.id,
        };
      })
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `Open the Board from the Tracker's top menu, switch to the ${p.project_name} board with the project switcher, then drag ${p.key} "${p.title}" into the ${
        statusLabel(p.to)
      } column.`
    ),
    procedure((p) =>
      `Go to the Board through the top menu, use the project switcher to show ${p.project_name}, and move the card ${p.key} to ${
        statusLabel(p.to)
      } by dragging it.`
    ),
    goal((p) =>
      `Bring up the ${p.project_name} project's board and get ${p.key} "${p.title}" into ${statusLabel(p.to)}.`
    ),
    goal((p) => `${p.key} belongs in ${statusLabel(p.to)} now: see to it on the ${p.project_name} board.`),
  ],
  start: () => ({ url: "/tracker/" }),
  chain: (p) => [
    navigateMenu("tracker", "Board", "/tracker/board", boardPath("WEB")),
    navigateMenu("tracker", `${p.project} · ${p.project_name}`, boardPath(p.project), boardPath(p.project), "switcher"),
    cardDrag(p),
  ],
  outcome: (p) => [statusChange(p.id, p.from, p.to)],
  nearMisses: (p) => [
    {
      name: "dragged_on",
      category: "overshoot",
      after_reference: [{ navigate: { url: boardPath(p.project) } }, dragCard(p.key, p.next)],
      reason: "field_mismatch",
      witness: everStatus(p.id, p.next, p.to),
    },
    {
      name: "second_card_moved",
      category: "collateral",
      after_reference: [{ navigate: { url: boardPath(p.project) } }, dragCard(p.other, p.to)],
      reason: "unclaimed_write",
      witness: everStatus(p.other_id, p.to),
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// More shared readers and builders.
// ---------------------------------------------------------------------------------------------------------------

interface PersonRow {
  id: number;
  name: string;
}

const people = (db: AppDb) => db.all<PersonRow>("SELECT id, name FROM people ORDER BY id");

export const projectRows = (db: AppDb) =>
  db.all<{ id: number; key: string; name: string; lead_id: number }>(
    "SELECT id, key, name, lead_id FROM projects ORDER BY id",
  );

/** The issues a search of the issue list for `q` finds (title, key or description, any case), newest first. */
const searchResults = (db: AppDb, q: string) =>
  db.all<{ key: string }>(
    `SELECT i.key FROM issues i WHERE i.title LIKE ? OR i.key LIKE ? OR i.description LIKE ?
     ORDER BY i.created_at DESC`,
    `%${q}%`,
    `%${q}%`,
    `%${q}%`,
  ).map((r) => r.key);

const issueUpdate = (id: number, before: Record<string, unknown>, after: Record<string, unknown>) => ({
  change: { site: "tracker", table: "issues", op: "update", key: id, before, after },
});

const everUpdate = (after: Record<string, unknown>, key?: number, before?: Record<string, unknown>) => ({
  change: {
    site: "tracker",
    table: "issues",
    op: "update",
    ...(key !== undefined ? { key } : {}),
    ...(before ? { before } : {}),
    after,
  },
  ever: true,
});

/** The other values of a list, starting after `v` (wrapping round). */
function othersAfter<T>(list: readonly T[], v: T): T[] {
  const i = list.indexOf(v);
  return [...list.slice(i + 1), ...list.slice(0, Math.max(i, 0))].filter((x) => x !== v);
}

/** The next issue of the same project in `pool` after `i` (wrapping round), or undefined. */
function siblingIn(pool: readonly IssueRow[], i: IssueRow, ok: (o: IssueRow) => boolean = () => true) {
  const same = pool.filter((o) => o.project_id === i.project_id && o.id !== i.id && ok(o));
  return same.find((o) => o.id > i.id) ?? same[0];
}

const openIssueLink = (key: string) => ({ click: { selector: `#row-${key} td a` } });

/** The open issues of a project's backlog, in its order. */
export const backlog = (db: AppDb, projectId: number) =>
  db.all<{ id: number; key: string; title: string; rank: number }>(
    "SELECT id, key, title, rank FROM issues WHERE project_id = ? AND status != 'done' ORDER BY rank, id",
    projectId,
  );

/**
 * The rank writes of moving the backlog item at `from` to the place `to` (the list's own rule: the moved items
 * take the ranks the list held, sorted, and only rows whose rank changed are written).
 */
export function rankChanges(list: { id: number; key: string; rank: number }[], from: number, to: number) {
  const keys = list.map((r) => r.key);
  const [moved] = keys.splice(from, 1);
  keys.splice(to, 0, moved);
  const ranks = list.map((r) => r.rank).sort((a, b) => a - b);
  return keys.map((k, n) => {
    const row = list.find((r) => r.key === k)!;
    return { id: row.id, rank: ranks[n], old: row.rank };
  }).filter((c) => c.rank !== c.old).map((c) => ({
    change: { site: "tracker", table: "issues", op: "update", key: c.id, after: { rank: c.rank } },
  }));
}

/**
 * A scroll of the page before a click on the backlog's item at `pos` (from 0) when it sits low in the list: a click
 * on an item near the bottom of the viewport was lost without it (as the bundled near misses scroll first too).
 */
const scrollFor = (pos: number) => pos >= 7 ? [{ scroll: { down: true } }] : [];

const dragItem = (key: string, onto: string) => ({
  drag: { source: { selector: `#item-${key}` }, target: { selector: `#item-${onto}` } },
});

/** The pages a template may start on before a menu, with the words that name them. */
const START_PAGES = [
  { path: "/tracker/issues", name: "the issue list" },
  { path: "/tracker/sprints", name: "the Sprints page" },
  { path: "/tracker/inbox", name: "the Inbox page" },
];

// ---------------------------------------------------------------------------------------------------------------
// Drag & gesture (continued).
// ---------------------------------------------------------------------------------------------------------------

/** drag_and_drop after the project menu: from a project's overview, its Board tab, then a card into a column. */
const projectMenuDrag = layered<
  & { key: string; id: number; title: string; project: string; project_name: string; from: string; to: string }
  & { other: string; other_id: number; next: string }
>({
  id: "tracker.drag_and_drop.project_menu_board",
  site: "tracker",
  macro: "drag_and_drop",
  prefix: ["navigate_menu"],
  summary: "from a project's overview, open its Board with the project menu, then drag a card to a status",
  params: (db) =>
    issues(db).flatMap((i) =>
      STATUSES.filter((s) => s.value !== i.status).map((s) => {
        const other = siblingIn(issues(db), i, (o) => o.status === i.status) ??
          siblingIn(issues(db), i, (o) => o.status !== s.value)!;
        return {
          ...cardMove(i, s.value),
          other: other.key,
          other_id: other.id,
          next: STATUSES.map((x) => x.value).find((v) => v !== s.value && v !== i.status)!,
        };
      })
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `On the ${p.project_name} overview, open the project's Board from its menu (Overview, Issues, Board, Backlog), then drag ${p.key} "${p.title}" into the ${
        statusLabel(p.to)
      } column.`
    ),
    procedure((p) =>
      `Use the ${p.project_name} project menu to go to its Board and drag the card ${p.key} to ${statusLabel(p.to)}.`
    ),
    goal((p) =>
      `From this overview, go to the ${p.project_name} board and have ${p.key} end up in ${statusLabel(p.to)}.`
    ),
    goal((p) =>
      `${p.key} "${p.title}" should sit in ${
        statusLabel(p.to)
      } on the ${p.project_name} board. Make it so, starting here.`
    ),
  ],
  start: (p) => ({ url: `/tracker/projects/${p.project}` }),
  chain: (p) => [
    navigateMenu("tracker", "Board", boardPath(p.project), boardPath(p.project), "project"),
    cardDrag(p),
  ],
  outcome: (p) => [statusChange(p.id, p.from, p.to)],
  nearMisses: (p) => [
    {
      name: "other_card",
      category: "wrong_item",
      steps: [{ click: { selector: "#project-board" } }, dragCard(p.other, p.to)],
      reason: "field_mismatch",
      witness: everUpdate({ status: { exact: p.to } }, p.other_id),
    },
    {
      name: "other_column",
      category: "wrong_item",
      steps: [{ click: { selector: "#project-board" } }, dragCard(p.key, p.next)],
      reason: "field_mismatch",
      witness: everStatus(p.id, p.next, p.from),
    },
  ],
});

/** reorder_list: in a backlog, drag an issue to sit directly above or below another one near it. */
const backlogNextTo = layered<
  & { project: string; project_name: string; key: string; title: string; onto: string; from: number; to: number }
  & { sibling: string }
>({
  id: "tracker.reorder_list.backlog_next_to",
  site: "tracker",
  macro: "reorder_list",
  summary: "in a project's backlog, drag an issue directly above or below a nearby one",
  params: (db) =>
    projectRows(db).flatMap((pr) => {
      const list = backlog(db, pr.id);
      return list.flatMap((x, from) =>
        list.flatMap((y, to) => {
          if (from === to || Math.abs(from - to) > 3) return [];
          const sib = list.find((_, n) => n !== from && n !== to && Math.abs(n - from) === 1) ??
            list.find((_, n) => n !== from && n !== to)!;
          return [{
            project: pr.key,
            project_name: pr.name,
            key: x.key,
            title: x.title,
            onto: y.key,
            from,
            to,
            sibling: sib.key,
          }];
        })
      );
    }),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `In the ${p.project_name} backlog, drag ${p.key} "${p.title}" so that it sits directly ${
        p.to < p.from ? "above" : "below"
      } ${p.onto}.`
    ),
    procedure((p) =>
      `Reorder the ${p.project_name} backlog by dragging: put ${p.key} right ${
        p.to < p.from ? "above" : "below"
      } ${p.onto}.`
    ),
    goal((p) =>
      `In the ${p.project_name} backlog, ${p.key} "${p.title}" should come directly ${
        p.to < p.from ? "above" : "below"
      } ${p.onto}. Reorder it so.`
    ),
    goal((p) =>
      `Change the ${p.project_name} backlog's order so that ${p.key} is right ${
        p.to < p.from ? "above" : "below"
      } ${p.onto}, with everything else in its order.`
    ),
  ],
  start: (p) => ({ url: `/tracker/projects/${p.project}/backlog` }),
  chain: (p) => [reorderList("tracker", p.key, p.onto, p.from, p.to)],
  outcome: (p, db) => rankChanges(backlog(db, projectRows(db).find((r) => r.key === p.project)!.id), p.from, p.to),
  nearMisses: (p, db) => {
    const list = backlog(db, projectRows(db).find((r) => r.key === p.project)!.id);
    // The other side of `onto`: one place short of the asked one (for an adjacent swap, one past it).
    const short = p.to < p.from ? p.to + 1 : p.to - 1;
    const wrong = short === p.from ? (p.to < p.from ? p.to - 1 : p.to + 1) : short;
    const moved = list.find((r) => r.key === p.key)!;
    const misses: NearMiss[] = [{
      name: "neighbour_dragged",
      category: "wrong_item",
      steps: [dragItem(p.sibling, p.onto)],
      reason: "field_mismatch",
      witness: { record: { action: "drag", target: { contains: p.sibling } } },
    }];
    if (wrong >= 0 && wrong < list.length) {
      const rank = rankChanges(list, p.from, wrong).find((c) => c.change.key === moved.id);
      misses.push({
        name: "other_side",
        category: "wrong_item",
        steps: [dragItem(p.key, list[wrong].key)],
        reason: "field_mismatch",
        witness: rank ? { ...rank, ever: true } : { record: { action: "drag", target: { contains: p.key } } },
      });
    }
    return misses;
  },
});

/** reorder_list after the hover menu: a backlog from the Backlogs menu, then an issue to the top or bottom. */
const backlogsMenuEnd = layered<
  & { start: string; start_name: string; project: string; project_name: string; key: string; title: string }
  & { end: string; onto: string; from: number; to: number; other: string }
>({
  id: "tracker.reorder_list.backlogs_menu_end",
  site: "tracker",
  macro: "reorder_list",
  prefix: ["navigate_menu"],
  summary: "open a backlog from the Backlogs hover menu, then drag an issue to the top or the bottom",
  params: (db) =>
    START_PAGES.flatMap((s) =>
      projectRows(db).flatMap((pr) => {
        const list = backlog(db, pr.id);
        const last = list.length - 1;
        return list.flatMap((x, from) =>
          (["top", "bottom"] as const).flatMap((end) => {
            const to = end === "top" ? 0 : last;
            if (from === to) return [];
            const other = list.find((_, n) => n !== from && n !== to)!;
            return [{
              start: s.path,
              start_name: s.name,
              project: pr.key,
              project_name: pr.name,
              key: x.key,
              title: x.title,
              end,
              onto: list[to].key,
              from,
              to,
              other: other.key,
            }];
          })
        );
      })
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `From ${p.start_name}, open the ${p.project_name} backlog with the Backlogs menu in the top bar (it opens when you point at it), then drag ${p.key} "${p.title}" to the ${p.end} of the list.`
    ),
    procedure((p) =>
      `You are on ${p.start_name}. Point at "Backlogs" in the top bar, pick ${p.project_name}, and drag ${p.key} to the very ${p.end} of that backlog.`
    ),
    goal((p) =>
      `${p.key} "${p.title}" should sit at the ${p.end} of the ${p.project_name} backlog. You start on ${p.start_name}.`
    ),
    goal((p) =>
      `Starting from ${p.start_name}, make ${p.key} the ${
        p.end === "top" ? "first" : "last"
      } issue of the ${p.project_name} backlog, keeping the others in their order.`
    ),
  ],
  start: (p) => ({ url: p.start }),
  chain: (p) => [
    navigateMenu("tracker", p.project_name, backlogPath(p.project), backlogPath(p.project), "backlogs"),
    reorderList("tracker", p.key, p.onto, p.from, p.to),
  ],
  outcome: (p, db) => rankChanges(backlog(db, projectRows(db).find((r) => r.key === p.project)!.id), p.from, p.to),
  nearMisses: (p, db, steps) => {
    const list = backlog(db, projectRows(db).find((r) => r.key === p.project)!.id);
    const menu = steps.slice(0, -1);
    // The other end of the list; when the issue is already there, one place short of the asked end.
    const far = p.end === "top" ? list.length - 1 : 0;
    const wrong = far !== p.from ? far : p.end === "top" ? 1 : list.length - 2;
    const moved = list.find((r) => r.key === p.key)!;
    const rank = rankChanges(list, p.from, wrong).find((c) => c.change.key === moved.id);
    const misses: NearMiss[] = [{
      name: "other_issue_moved",
      category: "wrong_item",
      steps: [...menu, dragItem(p.other, p.onto)],
      reason: "field_mismatch",
      witness: { record: { action: "drag", target: { contains: p.other } } },
    }];
    if (wrong !== p.from && wrong !== p.to && rank) {
      misses.push({
        name: "wrong_place",
        category: "wrong_item",
        steps: [...menu, dragItem(p.key, list[wrong].key)],
        reason: "field_mismatch",
        witness: { ...rank, ever: true },
      });
    }
    return misses;
  },
});

const ESTIMATES = [1, 2, 3, 5, 8, 13];

/** Where a control of an issue's edit form sits: Edit issue opens the form, Save issue posts it. */
const editForm = (key: string): ControlPlace => ({
  before: [{ click: { selector: "#edit-issue" } }],
  after: [{ click: { selector: "#save-issue" } }],
  saves: { method: "POST", path: `${issuePath(key)}/edit` },
});

/** The edit form's Estimate slider (0 to 20 story points) set to `value` and saved. */
const estimateSlider = (key: string, value: number) =>
  setSlider("#estimate", value, { min: 0, max: 20, step: 1 }, editForm(key));

/** open_detail on a list of issues at `list`: the issue's row link opens its page. */
const openFromList = (list: string, key: string, before: ActionJson[] = [], click = openIssueLink(key)) =>
  openDetail(list, click, issuePath(key), before);

/** set_slider after open_detail: from a project's issue list, open an issue and set its estimate with the slider. */
const listEstimate = layered<
  & { key: string; id: number; title: string; project: string; project_name: string; before: number; value: number }
  & { more: number; sibling: string; sibling_id: number }
>({
  id: "tracker.set_slider.list_open_estimate",
  site: "tracker",
  macro: "set_slider",
  prefix: ["open_detail"],
  summary: "from a project's issue list, open an issue and set its estimate with the edit form's slider",
  params: (db) =>
    editable(db).flatMap((i) =>
      ESTIMATES.filter((v) => v !== i.estimate).map((value) => {
        const sib = siblingIn(issues(db), i, (o) => o.estimate !== value)!;
        return {
          key: i.key,
          id: i.id,
          title: i.title,
          project: i.project_key,
          project_name: i.project_name,
          before: i.estimate,
          value,
          more: [value + 1, value + 2].find((v) => v !== i.estimate)!,
          sibling: sib.key,
          sibling_id: sib.id,
        };
      })
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `From the ${p.project_name} issue list, open ${p.key} "${p.title}" and set its estimate to ${
        plural(p.value, "story point")
      } with the slider on its edit form, then save.`
    ),
    procedure((p) =>
      `Open ${p.key} from this list, click Edit issue, move the Estimate slider to ${
        plural(p.value, "point")
      } and save the issue.`
    ),
    goal((p) =>
      `From the ${p.project_name} issue list, go to ${p.key} "${p.title}" and make its estimate ${
        plural(p.value, "story point")
      }.`
    ),
    goal((p) => `${p.key} in this list should be estimated at ${plural(p.value, "point")}: update the issue.`),
  ],
  start: (p) => ({ url: `/tracker/issues?project=${p.project}` }),
  chain: (p) => [openFromList("/tracker/issues", p.key), estimateSlider(p.key, p.value)],
  outcome: (p) => [issueUpdate(p.id, { estimate: p.before }, { estimate: p.value })],
  nearMisses: (p) => [
    {
      name: "sibling_estimated",
      category: "wrong_item",
      steps: [openIssueLink(p.sibling), ...estimateSlider(p.sibling, p.value).steps],
      reason: "field_mismatch",
      witness: everUpdate({ estimate: p.value }, p.sibling_id),
    },
    {
      name: "one_point_more",
      category: "overshoot",
      steps: [openIssueLink(p.key), ...estimateSlider(p.key, p.more).steps],
      reason: "field_mismatch",
      witness: everUpdate({ estimate: p.more }, p.id),
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Forms and selection.
// ---------------------------------------------------------------------------------------------------------------

/** submit_form after the menu: from an issue, New issue in the top menu, then a follow-up issue of it. */
type FollowUp = {
  origin: string;
  project: string;
  project_id: number;
  project_name: string;
  title: string;
  priority: string;
  assignee: string;
  assignee_id: number;
  extra_label: string;
};

/** submit_form on New issue: project, type, priority and assignee set, the title typed, Create issue. */
const followUpForm = (p: FollowUp, title = p.title) =>
  formSegment({
    macro: "submit_form",
    set: [
      { select_dropdown: { selector: "#project", text: `${p.project_name} (${p.project})` } },
      { click: { selector: "#type-task" } },
      { select_dropdown: { selector: "#priority", text: priorityLabel(p.priority) } },
      { input: { selector: "#assignee-box input[role=combobox]", text: p.assignee } },
      { send_keys: { keys: "Enter" } },
    ],
    fields: [{ selector: "#title", text: title }],
    submit: "#create-issue",
    posts: postPath("/tracker/issues"),
    enter: "#title",
    extra: {
      steps: [{ click: { selector: `#label-${p.extra_label}` } }],
      witness: {
        change: { site: "tracker", table: "issues", op: "insert", after: { labels: { exact: p.extra_label } } },
        ever: true,
      },
    },
  });

const menuFollowUp = layered<FollowUp>({
  id: "tracker.submit_form.menu_follow_up",
  site: "tracker",
  macro: "submit_form",
  prefix: ["navigate_menu"],
  summary: "from an issue page, open New issue in the top menu and file a follow-up task of that issue",
  params: (db) =>
    issues(db).flatMap((i) => {
      const lead = people(db).find((x) => x.id === projectRows(db).find((r) => r.id === i.project_id)!.lead_id)!;
      const who = [...(i.assignee_id ? [{ id: i.assignee_id, name: i.assignee! }] : []), lead];
      return who.filter((w, n) => who.findIndex((x) => x.id === w.id) === n).map((w) => ({
        origin: i.key,
        project: i.project_key,
        project_id: i.project_id,
        project_name: i.project_name,
        title: `Follow up on ${i.key}: ${i.title}`,
        priority: i.priority,
        assignee: w.name,
        assignee_id: w.id,
        extra_label: i.labels.split(",")[0] || "docs",
      }));
    }),
  entity: (p) => `issue:${p.origin}`,
  phrasings: [
    procedure((p) =>
      `From this issue's page, open "New issue" in the Tracker's top menu and create a ${p.project_name} task titled "${p.title}", priority ${
        priorityLabel(p.priority)
      }, assigned to ${p.assignee}. Leave the other fields as they are.`
    ),
    procedure((p) =>
      `Use the top menu's New issue entry to file a follow-up with the form: project ${p.project_name}, type Task, title "${p.title}", ${
        priorityLabel(p.priority)
      } priority, assignee ${p.assignee}; keep every other field at its default.`
    ),
    goal((p) =>
      `File a ${p.project_name} task "${p.title}" for ${p.assignee} at ${
        priorityLabel(p.priority)
      } priority, with nothing else filled in.`
    ),
    goal((p) =>
      `${p.assignee} should get a follow-up task of ${p.origin} in ${p.project_name}: "${p.title}", ${
        priorityLabel(p.priority)
      } priority. Everything else stays at its default.`
    ),
  ],
  start: (p) => ({ url: issuePath(p.origin) }),
  chain: (p) => [navigateMenu("tracker", "New issue", "/tracker/issues/new"), followUpForm(p)],
  outcome: (p) => [{
    change: {
      site: "tracker",
      table: "issues",
      op: "insert",
      after: {
        project_id: p.project_id,
        title: { text: p.title },
        description: { exact: "" },
        type: { exact: "task" },
        priority: { exact: p.priority },
        assignee_id: p.assignee_id,
        labels: { exact: "" },
        due_date: { present: false },
        estimate: 3,
        sprint_id: { present: false },
        status: { exact: "todo" },
        blocked_by_id: { present: false },
      },
    },
  }],
  nearMisses: (p) => {
    const title = `Follow up on ${p.origin}`;
    return [{
      name: "title_cut_short",
      category: "unlisted_field",
      steps: [topMenu("/tracker/issues/new"), ...followUpForm(p, title).steps],
      reason: "field_mismatch",
      witness: {
        change: { site: "tracker", table: "issues", op: "insert", after: { title: { exact: title } } },
        ever: true,
      },
    }];
  },
});

/** The edit form's Assignee combobox choosing `person` and saved. */
const assigneeBox = (key: string, person: string) =>
  chooseFromCombobox({ box: "#assignee-box", label: "Assignee" }, person, person, editForm(key));

/** choose_from_combobox after search and open: find an issue by its title, then assign it with the combobox. */
const searchAssign = layered<
  & { key: string; id: number; title: string; before: number; person: string; person_id: number; rival: string }
  & { rival_id: number }
>({
  id: "tracker.choose_from_combobox.search_assign",
  site: "tracker",
  macro: "choose_from_combobox",
  prefix: ["search", "open_detail"],
  summary: "search the issues for a title, open the issue, and assign it with the edit form's Assignee box",
  params: (db) =>
    editable(db).flatMap((i) => {
      const all = people(db);
      return all.filter((x) => x.id !== i.assignee_id).map((x) => {
        const rival = othersAfter(all, x).find((r) => r.id !== i.assignee_id)!;
        return {
          key: i.key,
          id: i.id,
          title: i.title,
          before: i.assignee_id ?? 0,
          person: x.name,
          person_id: x.id,
          rival: rival.name,
          rival_id: rival.id,
        };
      });
    }),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `Search the issues for "${p.title}", open ${p.key} and assign it to ${p.person} using the Assignee box on its edit form, then save.`
    ),
    procedure((p) =>
      `Find the issue "${p.title}" with the issue list's search, open it, and on Edit issue pick ${p.person} in the Assignee box. Save it.`
    ),
    goal((p) => `Look up the issue "${p.title}" among the issues, open it, and make ${p.person} its assignee.`),
    goal((p) => `${p.person} is taking over "${p.title}": search for that issue and assign it to them.`),
  ],
  start: () => ({ url: "/tracker/issues" }),
  chain: (p) => [
    search("tracker", p.title),
    openFromList("/tracker/issues", p.key),
    assigneeBox(p.key, p.person),
  ],
  outcome: (p) => [
    issueUpdate(p.id, { assignee_id: p.before ? p.before : { present: false } }, { assignee_id: p.person_id }),
  ],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_person",
      category: "wrong_item",
      steps: [...steps.slice(0, 3), ...assigneeBox(p.key, p.rival).steps],
      reason: "field_mismatch",
      witness: everUpdate({ assignee_id: p.rival_id }, p.id),
    },
  ],
});

/** The edit form's Priority select set to `value` (from `before`) and saved. */
const prioritySelect = (key: string, before: string, value: string) =>
  selectOption("#priority", priorityLabel(value), editForm(key), {
    options: PRIORITIES.map((x) => x.label),
    from: priorityLabel(before),
  });

/** select_option: an issue's priority with the Priority select of its edit form. */
const editPriority = layered<
  { key: string; id: number; title: string; before: string; value: string; neighbour: string; status: string }
>({
  id: "tracker.select_option.edit_priority",
  site: "tracker",
  macro: "select_option",
  summary: "change an issue's priority with the Priority select on its edit form",
  params: (db) =>
    editable(db).flatMap((i) =>
      PRIORITIES.filter((x) => x.value !== i.priority).map((x) => {
        const order = PRIORITIES.map((y) => y.value);
        const n = order.indexOf(x.value);
        const neighbour = [order[n + 1], order[n - 1]].find((v) => v && v !== i.priority) ??
          order.find((v) => v !== x.value && v !== i.priority)!;
        return {
          key: i.key,
          id: i.id,
          title: i.title,
          before: i.priority,
          value: x.value,
          neighbour,
          status: STATUSES.find((s) => s.value !== i.status)!.value,
        };
      })
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `Set the priority of ${p.key} "${p.title}" to ${
        priorityLabel(p.value)
      } with the Priority select on its edit form, and save the issue. Change nothing else.`
    ),
    procedure((p) =>
      `Open Edit issue for ${p.key}, choose ${
        priorityLabel(p.value)
      } in the Priority drop-down and save; leave every other field alone.`
    ),
    goal((p) => `Make ${p.key} "${p.title}" a ${priorityLabel(p.value).toLowerCase()} priority issue, nothing more.`),
    goal((p) =>
      `The priority of ${p.key} should now be ${priorityLabel(p.value)}. Update it without touching anything else.`
    ),
  ],
  start: (p) => ({ url: issuePath(p.key) }),
  chain: (p) => [prioritySelect(p.key, p.before, p.value)],
  outcome: (p) => [issueUpdate(p.id, { priority: { exact: p.before } }, { priority: { exact: p.value } })],
  nearMisses: (p) => [
    {
      name: "neighbouring_priority",
      category: "wrong_item",
      steps: prioritySelect(p.key, p.before, p.neighbour).steps,
      reason: "field_mismatch",
      witness: everUpdate({ priority: { exact: p.neighbour } }, p.id),
    },
    {
      name: "status_changed_too",
      category: "collateral",
      steps: selectOption("#priority", priorityLabel(p.value), {
        ...editForm(p.key),
        after: [{ select_dropdown: { selector: "#status", text: statusLabel(p.status) } }, ...editForm(p.key).after!],
      }).steps,
      reason: "unclaimed_write",
      witness: everUpdate({ priority: { exact: p.value }, status: { exact: p.status } }, p.id),
    },
  ],
});

const addDay = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The edit form's Due date set to `date` in its calendar (which opens on `due`, else today) and saved. */
const dueDate = (key: string, due: string, date: string) =>
  pickDate("#due_date", date, { ...editForm(key), shows: due || null, blur: "#title" });

/** open_detail from a project's board: the card's link opens the issue. */
const openFromBoard = (project: string, key: string) =>
  openDetail(boardPath(project), { click: { selector: `#card-${key} a` } }, issuePath(key));

/** pick_date after open_detail: from a project's board, open an issue and pick a sprint's day as its due date. */
const boardDueDate = layered<
  & { key: string; id: number; title: string; project: string; project_name: string; due: string; date: string }
  & { what: string; near: string }
>({
  id: "tracker.pick_date.board_due_date",
  site: "tracker",
  macro: "pick_date",
  prefix: ["open_detail"],
  summary: "from a board, open an issue and pick a sprint boundary as its due date in the calendar",
  params: (db) => {
    const today = DEFAULT_NOW.slice(0, 10);
    const days = db.all<{ name: string; start_date: string; end_date: string }>(
      "SELECT name, start_date, end_date FROM sprints ORDER BY start_date",
    ).flatMap((s) => [
      { date: s.start_date, what: `the first day of ${s.name}` },
      { date: s.end_date, what: `the last day of ${s.name}` },
    ]).filter((d) => d.date >= today);
    return editable(db).flatMap((i) =>
      days.filter((d) => d.date !== i.due_date).map((d) => ({
        key: i.key,
        id: i.id,
        title: i.title,
        project: i.project_key,
        project_name: i.project_name,
        due: i.due_date ?? "",
        date: d.date,
        what: d.what,
        near: addDay(d.date, 1) !== i.due_date ? addDay(d.date, 1) : addDay(d.date, -1),
      }))
    );
  },
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `On the ${p.project_name} board, open ${p.key} "${p.title}", and on its edit form set the Due date field to ${p.what} (${p.date}), then save.`
    ),
    procedure((p) =>
      `Open the card ${p.key} from this board, click Edit issue and put ${p.date} (${p.what}) in its Due date field. Save.`
    ),
    goal((p) => `From the ${p.project_name} board, make ${p.key} "${p.title}" due on ${p.what} (${p.date}).`),
    goal((p) => `${p.key} on this board has to be done by ${p.date}, ${p.what}: record that as its due date.`),
  ],
  start: (p) => ({ url: boardPath(p.project) }),
  chain: (p) => [openFromBoard(p.project, p.key), dueDate(p.key, p.due, p.date)],
  outcome: (p) => [
    issueUpdate(p.id, { due_date: p.due ? { exact: p.due } : { present: false } }, { due_date: { date: p.date } }),
  ],
  nearMisses: (p, _db, steps) => [
    {
      name: "neighbouring_day",
      category: "wrong_item",
      steps: [steps[0], ...dueDate(p.key, p.due, p.near).steps],
      reason: "field_mismatch",
      witness: everUpdate({ due_date: { date: p.near } }, p.id),
    },
  ],
});

/** The edit form's box of label `label` ticked and saved. */
const labelBox = (key: string, label: string) => toggleCheckbox(`#label-${label}`, true, label, editForm(key));

/** toggle_checkbox after open_detail: from a backlog, open an issue and tick one more label on its edit form. */
const backlogLabel = layered<
  & { key: string; id: number; title: string; project: string; project_name: string; before: string; label: string }
  & { pos: number; after: string; other: string; other_after: string }
>({
  id: "tracker.toggle_checkbox.backlog_label",
  site: "tracker",
  macro: "toggle_checkbox",
  prefix: ["open_detail"],
  summary: "from a backlog, open an issue and tick a label it lacks on its edit form",
  params: (db) =>
    projectRows(db).flatMap((pr) =>
      backlog(db, pr.id).flatMap((b, pos) => {
        const i = issueByKey(db, b.key);
        const has = i.labels ? i.labels.split(",") : [];
        const missing = LABELS.filter((l) => !has.includes(l));
        const withLabel = (l: string) => LABELS.filter((x) => has.includes(x) || x === l).join(",");
        return missing.map((label) => {
          const other = othersAfter(missing, label)[0] ?? label;
          return {
            key: i.key,
            id: i.id,
            pos,
            title: i.title,
            project: pr.key,
            project_name: pr.name,
            before: i.labels,
            label,
            after: withLabel(label),
            other,
            other_after: withLabel(other),
          };
        });
      })
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `From the ${p.project_name} backlog, open ${p.key} "${p.title}" and add the label "${p.label}" by ticking it on the issue's edit form, then save.`
    ),
    procedure((p) =>
      `Open ${p.key} from this backlog, click Edit issue, tick the ${p.label} label (keep the labels it already has) and save.`
    ),
    goal((p) =>
      `From the ${p.project_name} backlog, give ${p.key} "${p.title}" the label "${p.label}" as well as the ones it has.`
    ),
    goal((p) => `${p.key} in this backlog is missing the "${p.label}" label: add it, keeping its other labels.`),
  ],
  start: (p) => ({ url: `/tracker/projects/${p.project}/backlog` }),
  chain: (p) => [
    openFromList(`/tracker/projects/${p.project}/backlog`, p.key, scrollFor(p.pos), {
      click: { selector: `#item-${p.key} a` },
    }),
    labelBox(p.key, p.label),
  ],
  outcome: (p) => [issueUpdate(p.id, { labels: { exact: p.before } }, { labels: { exact: p.after } })],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_label",
      category: "wrong_item",
      steps: [...steps.slice(0, -3), ...labelBox(p.key, p.other).steps],
      reason: "field_mismatch",
      witness: everUpdate({ labels: { exact: p.other_after } }, p.id),
    },
  ],
});

/** The edit form's Type radio `type` checked and saved. */
const typeRadio = (key: string, type: string) =>
  chooseRadio(TYPES.map((t) => `#type-${t.value}`), `#type-${type}`, type, editForm(key));

/** choose_radio after open_detail: from a sprint's page, open an issue and change its type with the Type radios. */
const sprintType = layered<
  & { key: string; id: number; title: string; sprint: string; sprint_id: number; before: string; type: string }
  & { other: string; priority: string }
>({
  id: "tracker.choose_radio.sprint_type",
  site: "tracker",
  macro: "choose_radio",
  prefix: ["open_detail"],
  summary: "from a sprint's page, open an issue and change its type with the edit form's Type radios",
  params: (db) =>
    editable(db).filter((i) => i.sprint_id !== null).flatMap((i) =>
      TYPES.filter((t) => t.value !== i.type).map((t) => ({
        key: i.key,
        id: i.id,
        title: i.title,
        sprint: i.sprint!,
        sprint_id: i.sprint_id!,
        before: i.type,
        type: t.value,
        other: TYPES.find((x) => x.value !== i.type && x.value !== t.value)!.value,
        priority: PRIORITIES.find((x) => x.value !== i.priority)!.value,
      }))
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `On the ${p.sprint} page, open ${p.key} "${p.title}" and change its type to ${
        typeLabel(p.type)
      } with the Type choice on its edit form, then save.`
    ),
    procedure((p) =>
      `From this sprint's issue table, open ${p.key}, click Edit issue, select the ${
        typeLabel(p.type)
      } type and save. Change nothing else.`
    ),
    goal((p) =>
      `In ${p.sprint}, ${p.key} "${p.title}" is really a ${
        typeLabel(p.type).toLowerCase()
      }: open it and correct its type.`
    ),
    goal((p) => `From this sprint, make ${p.key} a ${typeLabel(p.type)} issue; leave the rest of it as it is.`),
  ],
  start: (p) => ({ url: `/tracker/sprints/${p.sprint_id}` }),
  chain: (p) => [
    openFromList(`/tracker/sprints/${p.sprint_id}`, p.key, [], {
      click: { selector: `#sprint-issues #row-${p.key} td a` },
    }),
    typeRadio(p.key, p.type),
  ],
  outcome: (p) => [issueUpdate(p.id, { type: { exact: p.before } }, { type: { exact: p.type } })],
  nearMisses: (p, _db, steps) => [
    {
      name: "other_type",
      category: "wrong_item",
      steps: [steps[0], ...typeRadio(p.key, p.other).steps],
      reason: "field_mismatch",
      witness: everUpdate({ type: { exact: p.other } }, p.id),
    },
    {
      name: "priority_changed_too",
      category: "collateral",
      steps: [
        ...steps.slice(0, -1),
        { select_dropdown: { selector: "#priority", text: priorityLabel(p.priority) } },
        { click: { selector: "#save-issue" } },
      ],
      reason: "unclaimed_write",
      witness: everUpdate({ type: { exact: p.type }, priority: { exact: p.priority } }, p.id),
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Text entry.
// ---------------------------------------------------------------------------------------------------------------

/**
 * The edit_inline segment of an issue's title: Edit beside the title, the text, Save; the issue's full edit form
 * writing the title is its equivalent control.
 */
const titleForm = (key: string, title: string, id: number) =>
  formSegment({
    macro: "edit_inline",
    open: [{ click: { selector: "#edit-title" } }],
    fields: [{ selector: "#title-input", text: title }],
    submit: "#save-title",
    posts: postPath(`${issuePath(key)}/title`),
    enter: "#title-input",
    equivalent: {
      steps: [
        { click: { selector: "#edit-issue" } },
        { input: { selector: "#title", text: title } },
        { click: { selector: "#save-issue" } },
      ],
      witness: everUpdate({ title: { text: title } }, id),
    },
  });

/** edit_inline after open_detail: from a board, open an issue and rename it with the Edit button by its title. */
const boardRename = layered<
  & { key: string; id: number; title: string; project: string; project_name: string; new_title: string; how: string }
  & { sibling: string; sibling_id: number }
>({
  id: "tracker.edit_inline.board_rename",
  site: "tracker",
  macro: "edit_inline",
  prefix: ["open_detail"],
  summary: "from a board, open an issue and rename it with the inline title editor",
  params: (db) =>
    issues(db).flatMap((i) => {
      const names = [
        { how: "type", new_title: `${typeLabel(i.type)}: ${i.title}` },
        ...(i.sprint ? [{ how: "sprint", new_title: `[${i.sprint}] ${i.title}` }] : []),
        ...(i.assignee ? [{ how: "assignee", new_title: `${i.title} (${i.assignee})` }] : []),
      ];
      const sib = siblingIn(issues(db), i)!;
      return names.filter((n) => n.new_title.length <= 120).map((n) => ({
        key: i.key,
        id: i.id,
        title: i.title,
        project: i.project_key,
        project_name: i.project_name,
        new_title: n.new_title,
        how: n.how,
        sibling: sib.key,
        sibling_id: sib.id,
      }));
    }),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `On the ${p.project_name} board, open ${p.key}, click Edit next to its title and rename it to "${p.new_title}", then save.`
    ),
    procedure((p) =>
      `Open the card ${p.key} "${p.title}" from this board and change its title in place (the Edit button beside the title) to "${p.new_title}".`
    ),
    goal((p) => `Issue ${p.key} on the ${p.project_name} board should be titled "${p.new_title}" from now on.`),
    goal((p) => `Give ${p.key}, now called "${p.title}", the new title "${p.new_title}"; nothing else of it changes.`),
  ],
  start: (p) => ({ url: boardPath(p.project) }),
  chain: (p) => [openFromBoard(p.project, p.key), titleForm(p.key, p.new_title, p.id)],
  outcome: (p) => [issueUpdate(p.id, { title: { exact: p.title } }, { title: { text: p.new_title } })],
  nearMisses: (p) => [
    {
      name: "neighbour_renamed",
      category: "wrong_item",
      steps: [openFromBoard(p.project, p.sibling), titleForm(p.sibling, p.new_title, p.sibling_id)].flatMap((s) =>
        s.steps
      ),
      reason: "field_mismatch",
      witness: everUpdate({ title: { text: p.new_title } }, p.sibling_id),
    },
    {
      name: "words_added",
      category: "unlisted_field",
      steps: [openFromBoard(p.project, p.key), titleForm(p.key, `${p.new_title} (renamed)`, p.id)].flatMap((s) =>
        s.steps
      ),
      reason: "field_mismatch",
      witness: everUpdate({ title: { contains: "(renamed)" } }, p.id),
    },
  ],
});

/** The words of the issue titles a search can use: four letters or more, with what a search for each lists. */
function titleWords(db: AppDb): { word: string; keys: string[] }[] {
  const words: string[] = [];
  for (const i of issues(db)) {
    for (const w of i.title.split(/\s+/)) {
      const lw = w.toLowerCase();
      if (/^[a-z]{4,}$/.test(lw) && !words.includes(lw)) words.push(lw);
    }
  }
  return words.map((word) => ({ word, keys: searchResults(db, word) }))
    .filter((w) => w.keys.length >= 1 && w.keys.length <= PAGE_SIZE);
}

/** search after the menu: Issues from the top menu, then a search of the issue list for a word. */
const menuSearch = layered<{ start: string; start_name: string; word: string; sibling: string }>({
  id: "tracker.search.menu_then_search",
  site: "tracker",
  macro: "search",
  prefix: ["navigate_menu"],
  summary: "open Issues from the top menu, then search the issue list for a word",
  params: (db) => {
    const words = titleWords(db);
    return [{ path: "/tracker/", name: "the Projects page" }, ...START_PAGES.slice(1)].flatMap((s) =>
      words.map((w, n) => ({
        start: s.path,
        start_name: s.name,
        word: w.word,
        sibling: words[(n + 1) % words.length].word,
      }))
    );
  },
  entity: (p) => `word:${p.word}`,
  phrasings: [
    procedure((p) =>
      `From ${p.start_name}, open Issues from the Tracker's top menu and search the issues for "${p.word}".`
    ),
    procedure((p) =>
      `You are on ${p.start_name}. Use the top menu to go to the issue list, then look up "${p.word}" with its search box.`
    ),
    goal((p) => `You are on ${p.start_name}. Show the Tracker's issues that match "${p.word}".`),
    goal((p) => `From ${p.start_name}, get to the list of issues found for "${p.word}".`),
  ],
  start: (p) => ({ url: p.start }),
  chain: (p) => [navigateMenu("tracker", "Issues", "/tracker/issues"), search("tracker", p.word)],
  outcome: (p) => [{ page: { path: "/tracker/issues", query: { q: p.word } } }, { no_writes: true }],
  nearMisses: (p, db, steps) => [
    searchedFor("other_word", "tracker", p.sibling, [steps[0]]),
    {
      name: "search_then_open",
      category: "overshoot",
      after_reference: [openIssueLink(searchResults(db, p.word)[0])],
      reason: "final_page",
      witness: visitedPath(issuePath(searchResults(db, p.word)[0])),
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Navigation.
// ---------------------------------------------------------------------------------------------------------------

/** The tracker's menu entries: the top menu's and the Backlogs hover menu's, with where each ends and what it shows. */
function menuEntries(db: AppDb) {
  const home = projectRows(db).find((r) => r.key === "WEB")!.name;
  const top = [
    { label: "Projects", href: "/tracker/", path: "/tracker/", what: "the list of projects" },
    { label: "Issues", href: "/tracker/issues", path: "/tracker/issues", what: "the list of all issues" },
    { label: "Board", href: "/tracker/board", path: "/tracker/projects/WEB/board", what: `the ${home} board` },
    { label: "Backlog", href: "/tracker/backlog", path: "/tracker/projects/WEB/backlog", what: `the ${home} backlog` },
    { label: "Sprints", href: "/tracker/sprints", path: "/tracker/sprints", what: "the list of sprints" },
    { label: "New issue", href: "/tracker/issues/new", path: "/tracker/issues/new", what: "the form for a new issue" },
    { label: "Inbox", href: "/tracker/inbox", path: "/tracker/inbox", what: "your tracker inbox" },
  ].map((e) => ({ ...e, region: "nav.menu", menu: "the top menu" }));
  // One entry per page: the Backlogs menu's entry for the backlog the top menu's Backlog opens would be the same task.
  const hover = projectRows(db).filter((r) => !top.some((e) => e.path === backlogPath(r.key))).map((r) => ({
    label: r.name,
    href: `/tracker/projects/${r.key}/backlog`,
    path: `/tracker/projects/${r.key}/backlog`,
    what: `the ${r.name} backlog`,
    region: "backlogs-menu",
    menu: "the Backlogs menu of the top bar (it opens when you point at it)",
  }));
  return [...top, ...hover];
}

/** The navigate_menu segment of a menu entry: the top menu's, or the Backlogs hover menu's. */
const menuSegment = (e: { label: string; region: string; href: string; path: string }) =>
  navigateMenu("tracker", e.label, e.href, e.path, e.region === "nav.menu" ? undefined : "backlogs");

/** navigate_menu: from an issue page, open an entry of the top menu or of the Backlogs menu. */
const menuEntry = layered<
  & { key: string; label: string; href: string; path: string; region: string; menu: string; what: string }
  & { sibling_label: string; sibling_href: string; sibling_path: string; sibling_region: string }
>({
  id: "tracker.navigate_menu.menu_entry",
  site: "tracker",
  macro: "navigate_menu",
  summary: "from an issue page, open an entry of the top menu or of the Backlogs hover menu",
  params: (db) => {
    const entries = menuEntries(db);
    return entries.flatMap((e, n) => {
      const sib = entries[(n + 1) % entries.length];
      return issues(db).map((i) => ({
        key: i.key,
        label: e.label,
        href: e.href,
        path: e.path,
        region: e.region,
        menu: e.menu,
        what: e.what,
        sibling_label: sib.label,
        sibling_href: sib.href,
        sibling_path: sib.path,
        sibling_region: sib.region,
      }));
    });
  },
  entity: (p) => `menu:${p.label}`,
  phrasings: [
    procedure((p) => `You are on issue ${p.key}. Open "${p.label}" from ${p.menu}.`),
    procedure((p) => `From the ${p.key} page, go to ${p.label} by clicking it in ${p.menu}.`),
    goal((p) => `You are looking at issue ${p.key}; go to ${p.what}.`),
    goal((p) => `Leave the ${p.key} page and end on ${p.what}, changing nothing.`),
  ],
  start: (p) => ({ url: issuePath(p.key) }),
  chain: (p) => [menuSegment(p)],
  outcome: (p) => [{ page: { path: p.path, query: {} } }, { no_writes: true }],
  nearMisses: (p) => {
    const sibling = menuSegment({
      label: p.sibling_label,
      region: p.sibling_region,
      href: p.sibling_href,
      path: p.sibling_path,
    }).steps;
    return [
      {
        name: "neighbouring_entry",
        category: "wrong_item",
        steps: sibling,
        reason: "final_page",
        witness: { page: { path: p.sibling_path, query: {} } },
      },
      {
        name: "then_next_entry",
        category: "overshoot",
        after_reference: sibling,
        reason: "final_page",
        witness: { all: [visitedPath(p.path), { page: { path: p.sibling_path, query: {} } }] },
      },
    ];
  },
});

/** open_detail after search: search the issue list for a word, then open one of the results. */
const searchOpen = layered<{ word: string; key: string; title: string; sibling: string }>({
  id: "tracker.open_detail.search_then_open",
  site: "tracker",
  macro: "open_detail",
  prefix: ["search"],
  summary: "search the issue list for a word, then open one result",
  params: (db) =>
    titleWords(db).flatMap((w) =>
      w.keys.filter(() => w.keys.length >= 2).map((key, n) => ({
        word: w.word,
        key,
        title: issueByKey(db, key).title,
        sibling: w.keys[(n + 1) % w.keys.length],
      }))
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) => `Search the issues for "${p.word}", then open ${p.key} "${p.title}" from the results.`),
    procedure((p) => `Use the issue list's search box to look for "${p.word}" and open the issue ${p.key} it finds.`),
    goal((p) => `Look up "${p.word}" among the issues and show the page of ${p.key} "${p.title}".`),
    goal((p) => `${p.key} is one of the issues that match "${p.word}": find those matches and open ${p.key}.`),
  ],
  start: () => ({ url: "/tracker/issues" }),
  chain: (p) => [
    search("tracker", p.word),
    openDetail("/tracker/issues", openIssueLink(p.key), issuePath(p.key)),
  ],
  outcome: (p) => [{ page: { path: issuePath(p.key), query: {} } }, { no_writes: true }],
  nearMisses: (p, _db, steps) => [
    endsOnSibling("other_result", steps, openIssueLink(p.sibling), issuePath(p.sibling)),
    {
      name: "issue_skipping_search",
      category: "wrong_method",
      steps: [{ navigate: { url: issuePath(p.key) } }],
      reason: "request_missing",
      witness: { all: [typed, { visited: { regex: "^/tracker/issues\\?" }, times: 0 }] },
    },
  ],
});

const TABS = [["details", "Details"], ["comments", "Comments"], ["history", "History"]] as const;

const tabLabel = (t: string) => TABS.find(([id]) => id === t)![1];

/** switch_tab: on an issue page, from one of its tabs to another. */
const issueTab = layered<{ key: string; title: string; from: string; tab: string; label: string; other: string }>({
  id: "tracker.switch_tab.issue_tab",
  site: "tracker",
  macro: "switch_tab",
  summary: "on an issue page, switch from one of its tabs (Details, Comments, History) to another",
  params: (db) =>
    issues(db).flatMap((i) =>
      TABS.flatMap(([from]) =>
        TABS.filter(([t]) => t !== from).map(([tab, label]) => ({
          key: i.key,
          title: i.title,
          from,
          tab,
          label,
          other: TABS.find(([t]) => t !== from && t !== tab)![0],
        }))
      )
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `You are on the ${tabLabel(p.from)} tab of issue ${p.key} "${p.title}". Click its ${p.label} tab.`
    ),
    procedure((p) =>
      `On issue ${p.key}, switch from the ${tabLabel(p.from)} tab to the ${p.label} tab by clicking it.`
    ),
    goal((p) =>
      `Show the ${p.label.toLowerCase()} of issue ${p.key} "${p.title}" instead of its ${
        tabLabel(p.from).toLowerCase()
      }.`
    ),
    // The start tab is named in every phrasing: two records differing only in it would be one instance twice.
    goal((p) =>
      `I want to read ${p.key}'s ${p.label.toLowerCase()} now, not its ${
        tabLabel(p.from).toLowerCase()
      }; bring that view up.`
    ),
  ],
  start: (p) => ({ url: `${issuePath(p.key)}${p.from === "details" ? "" : `?tab=${p.from}`}` }),
  chain: (p) => [switchTab("tracker", p.tab, { path: issuePath(p.key), query: { tab: p.tab } })],
  outcome: (p) => [{ page: { path: issuePath(p.key), query: { tab: p.tab } } }, { no_writes: true }],
  nearMisses: (p) => [
    {
      name: "other_tab",
      category: "wrong_item",
      steps: [{ click: { selector: `#tab-${p.other}` } }],
      reason: "final_page",
      witness: { page: { path: issuePath(p.key), query: { tab: p.other } } },
    },
    {
      name: "tab_then_project",
      category: "overshoot",
      after_reference: [{ click: { selector: `#project-menu a, .crumbs a[href^='/tracker/projects/']` } }],
      reason: "final_page",
      witness: {
        all: [{ visited: { regex: `^${esc(issuePath(p.key))}\\?tab=${p.tab}$` } }, {
          page: { path: { regex: "^/tracker/projects/[A-Z]+$" } },
        }],
      },
    },
  ],
});

/** The issue list's one-filter views with more than one page (and the whole list), each with its issues' ids. */
function pagedLists(db: AppDb) {
  const all = issues(db);
  const views = [
    { key: "", value: "", words: "", ids: all.map((i) => i.id) },
    ...exportFilters(db).map((f) => ({
      key: f.key,
      value: f.value,
      words: f.words,
      ids: all.filter((i) => filterHolds(i, f.key, f.value)).map((i) => i.id),
    })),
  ];
  return views.filter((v) => v.ids.length > PAGE_SIZE);
}

/** paginate: a (filtered) issue list under a sort order, from its first page to the page that lists an issue. */
const pageOfIssue = layered<
  & { key: string; value: string; words: string; sort: string; sort_label: string; issue: string; title: string }
  & { page: number; pages: number }
>({
  id: "tracker.paginate.page_of_issue",
  site: "tracker",
  macro: "paginate",
  summary: "page through the sorted (filtered) issue list to the page listing an issue",
  params: (db) =>
    pagedLists(db).flatMap((v) =>
      SORTS.flatMap((s) => {
        const rows = db.all<{ id: number; key: string; title: string }>(
          `SELECT i.id, i.key, i.title FROM issues i JOIN projects p ON p.id = i.project_id ORDER BY ${s.sql}`,
        ).filter((r) => v.ids.includes(r.id));
        const pages = Math.ceil(rows.length / PAGE_SIZE);
        return Array.from({ length: pages - 1 }, (_, n) => n + 2).map((page) => {
          const on = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
          const r = on[Math.floor(on.length / 2)];
          return {
            key: v.key,
            value: v.value,
            words: v.words,
            sort: s.value,
            sort_label: s.label,
            issue: r.key,
            title: r.title,
            page,
            pages,
          };
        });
      })
    ),
  entity: (p) => `issue:${p.issue}`,
  phrasings: [
    procedure((p) =>
      `The issue list${
        p.key ? ` (filtered to ${p.words} issues)` : ""
      } is sorted by "${p.sort_label}". Page through it to the page that lists ${p.issue} "${p.title}".`
    ),
    procedure((p) =>
      `Using the page links under this ${
        p.key ? `${p.words} ` : ""
      }issue table (sorted ${p.sort_label}), go to the page where ${p.issue} appears. Do not open the issue.`
    ),
    goal((p) =>
      `Show the page of this ${p.key ? `${p.words} ` : ""}issue list (sorted by "${p.sort_label}") that lists ` +
      `${p.issue} "${p.title}", without opening the issue.`
    ),
    goal((p) =>
      `Which page of the ${p.key ? `${p.words} ` : ""}issue list sorted ${p.sort_label} has ${p.issue}? ` +
      `Leave that page of the list on screen.`
    ),
  ],
  start: (p) => ({ url: listUrl(p, 1) }),
  chain: (p) => [paginate("tracker", "/tracker/issues", (n) => listQuery(p, n), 1, p.page)],
  outcome: (p) => [{ page: { path: "/tracker/issues", query: listQuery(p, p.page) } }, { no_writes: true }],
  nearMisses: (p) => {
    const next = p.page < p.pages ? p.page + 1 : p.page - 1;
    return [
      {
        name: "one_page_on",
        category: "overshoot",
        after_reference: [{ click: { selector: next > p.page ? "#next-page" : "#prev-page" } }],
        reason: "final_page",
        witness: { page: { path: "/tracker/issues", query: listQuery(p, next) } },
      },
      {
        name: "opens_the_issue",
        category: "overshoot",
        after_reference: [openIssueLink(p.issue)],
        reason: "final_page",
        witness: { page: { path: issuePath(p.issue) } },
      },
    ];
  },
});

/** The query of a page of a list view: its filter, its sort unless the default, its page unless the first. */
function listQuery(p: { key: string; value: string; sort: string }, page: number): Record<string, string> {
  return {
    ...(p.key ? { [p.key]: p.value } : {}),
    ...(p.sort === "newest" ? {} : { sort: p.sort }),
    ...(page === 1 ? {} : { page: String(page) }),
  };
}

function listUrl(p: { key: string; value: string; sort: string }, page: number): string {
  const q = new URLSearchParams(listQuery(p, page)).toString();
  return `/tracker/issues${q ? `?${q}` : ""}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Out-of-page I/O.
// ---------------------------------------------------------------------------------------------------------------

/** copy_to_clipboard after search and open: find an issue by its title and copy its key or link. */
const searchCopy = layered<{ key: string; title: string; what: string; sibling: string }>({
  id: "tracker.copy_to_clipboard.search_copy",
  site: "tracker",
  macro: "copy_to_clipboard",
  prefix: ["search", "open_detail"],
  summary: "search an issue by its title, open it and copy its key or link with the page's button",
  params: (db) =>
    issues(db).flatMap((i) =>
      ["key", "link"].map((what) => ({ key: i.key, title: i.title, what, sibling: what === "key" ? "link" : "key" }))
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `Find the issue "${p.title}" with the issue list's search and copy its ${p.what} with the issue page's Copy ${p.what} button.`
    ),
    procedure((p) => `Search the issues for "${p.title}", open it, and use its "Copy ${p.what}" button.`),
    goal((p) => `Look up the issue "${p.title}" and put its ${p.what} on the clipboard from its page.`),
    goal((p) =>
      `I need the ${p.what} of the issue called "${p.title}" on my clipboard: search for it and copy it from its page.`
    ),
  ],
  start: () => ({ url: "/tracker/issues" }),
  chain: (p) => [
    search("tracker", p.title),
    openDetail("/tracker/issues", openIssueLink(p.key), issuePath(p.key)),
    copyToClipboard({
      control: `#copy-${p.what}`,
      text: p.what === "key" ? p.key : issuePath(p.key),
      matcher: copied(p.key, p.what),
      another: { steps: [{ click: { selector: `#copy-${p.sibling}` } }], matcher: copied(p.key, p.sibling) },
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p, db, steps) => {
    const other = searchResults(db, p.title).find((k) => k !== p.key);
    return other === undefined ? [] : [{
      name: "other_result_copied",
      category: "wrong_item",
      steps: [...steps.slice(0, -2), openIssueLink(other), { click: { selector: `#copy-${p.what}` } }],
      reason: "clipboard_mismatch",
      witness: { clipboard: copied(other, p.what) },
    }];
  },
});

/** The clipboard matcher of an issue's key, or of its link (the page's full URL ends with its path). */
const copied = (key: string, what: string) =>
  what === "key" ? { exact: key } : { regex: `/tracker/issues/${esc(key)}$` };

/** The list filters of a select the issue list offers besides the project: each value, its option and its words. */
function exportFilters(db: AppDb) {
  return [
    ...PRIORITIES.map((x) => ({ key: "priority", value: x.value, text: x.label, words: `${x.label}-priority` })),
    ...TYPES.map((x) => ({ key: "type", value: x.value, text: x.label, words: `${x.label.toLowerCase()}-type` })),
    ...LABELS.map((l) => ({ key: "label", value: l, text: l, words: `"${l}"-labelled` })),
    ...db.all<{ name: string }>("SELECT name FROM sprints ORDER BY start_date").map((s) => ({
      key: "sprint",
      value: s.name,
      text: s.name,
      words: `${s.name}`,
    })),
  ];
}

/** Whether an issue is in the list the filter `key` = `value` selects. */
function filterHolds(i: IssueRow, key: string, value: string): boolean {
  if (key === "priority") return i.priority === value;
  if (key === "type") return i.type === value;
  if (key === "label") return i.labels.split(",").includes(value);
  return i.sprint === value;
}

const EXPORT = "/tracker/issues/export.csv";

/** The options of the list's selects whose order is the model's (the sprints' is the seed's), for the arrow keys. */
const LIST_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  priority: ["Any priority", ...PRIORITIES.map((x) => x.label)],
  type: ["Any type", ...TYPES.map((x) => x.label)],
  label: ["Any label", ...LABELS],
};

/** The project's issue list from its menu, its select `key` set to `text` and applied, then Export CSV. */
const exportChain = (p: { project: string; key: string; value: string }, text: string) => [
  navigateMenu("tracker", "Issues", `/tracker/issues?project=${p.project}`, "/tracker/issues", "project"),
  selectOption(`#${p.key}`, text, {
    list: { path: "/tracker/issues", query: { project: p.project, [p.key]: p.value }, submit: "#apply-filters" },
    unsent: "request_missing",
  }, LIST_OPTIONS[p.key] && { options: LIST_OPTIONS[p.key], from: LIST_OPTIONS[p.key][0] }),
  downloadFile({ control: "#export-csv", path: EXPORT, kind: `^${esc(EXPORT)}$` }),
];

/** download_file after the project menu and a filter: a project's issue list, one more filter, then Export CSV. */
const projectExport = layered<
  & { project: string; project_name: string; key: string; value: string; text: string; words: string; n: number }
  & { other: string; other_text: string }
>({
  id: "tracker.download_file.project_menu_export",
  site: "tracker",
  macro: "download_file",
  prefix: ["navigate_menu", "select_option"],
  summary: "from a project's overview, its Issues tab, one more filter, then Export CSV",
  params: (db) => {
    const all = exportFilters(db);
    return projectRows(db).flatMap((pr) =>
      all.map((f) => {
        const same = all.filter((g) => g.key === f.key);
        const other = othersAfter(same, f)[0];
        const n = issues(db).filter((i) => i.project_id === pr.id && filterHolds(i, f.key, f.value)).length;
        return {
          project: pr.key,
          project_name: pr.name,
          key: f.key,
          value: f.value,
          text: f.text,
          words: f.words,
          n,
          other: other.value,
          other_text: other.text,
        };
      }).filter((r) => r.n > 0)
    );
  },
  entity: (p) => `filter:${p.project}:${p.key}`,
  phrasings: [
    procedure((p) =>
      `On the ${p.project_name} overview, open the project's Issues from its menu, filter them to the ${p.words} ones and export them as a CSV file.`
    ),
    procedure((p) =>
      `Use the ${p.project_name} project menu to open its issue list, narrow it to ${p.words} issues, and download the CSV export.`
    ),
    goal((p) => `Download a CSV file of the ${p.project_name} project's ${p.words} issues, and of no others.`),
    goal((p) => `Export the ${p.words} issues of ${p.project_name} (only those) to a CSV file, starting here.`),
  ],
  start: (p) => ({ url: `/tracker/projects/${p.project}` }),
  chain: (p) => exportChain(p, p.text),
  outcome: (p) => [
    {
      request: { method: "GET", path: { exact: EXPORT }, query: { project: p.project, [p.key]: p.value }, status: 200 },
    },
    { no_writes: true },
  ],
  nearMisses: (p) => [
    {
      name: "other_value",
      category: "wrong_item",
      steps: exportChain({ ...p, value: p.other }, p.other_text).flatMap((s) => s.steps),
      reason: "request_missing",
      witness: {
        request: { method: "GET", path: { exact: EXPORT }, query: { project: p.project, [p.key]: p.other } },
      },
    },
    {
      name: "export_unfiltered",
      category: "unlisted_field",
      steps: [exportChain(p, p.text)[0], exportChain(p, p.text)[2]].flatMap((s) => s.steps),
      reason: "request_missing",
      witness: { request: { method: "GET", path: { exact: EXPORT }, query: { project: p.project } } },
    },
  ],
});

/** Where an issue can be opened from before it is deleted: its board, its sprint's page, its project's list. */
function deleteStarts(i: IssueRow) {
  return [
    { from: "board", path: boardPath(i.project_key), name: `the ${i.project_name} board`, link: `#card-${i.key} a` },
    ...(i.sprint_id
      ? [{
        from: "sprint",
        path: `/tracker/sprints/${i.sprint_id}`,
        name: `the ${i.sprint} page`,
        link: `#sprint-issues #row-${i.key} td a`,
      }]
      : []),
    {
      from: "list",
      path: "/tracker/issues",
      query: `?project=${i.project_key}`,
      name: `the ${i.project_name} issue list`,
      link: `#row-${i.key} td a`,
    },
  ];
}

/** confirm_dialog after open_detail: open an issue from a list of it, delete it and confirm. */
const openDelete = layered<
  & { key: string; id: number; title: string; from: string; path: string; query: string; name: string; link: string }
  & { sibling: string; sibling_link: string }
>({
  id: "tracker.confirm_dialog.open_and_delete",
  site: "tracker",
  macro: "confirm_dialog",
  prefix: ["open_detail"],
  summary: "open an issue from its board, sprint or project list, delete it and confirm the dialog",
  params: (db) =>
    issues(db).flatMap((i) =>
      deleteStarts(i).map((s) => {
        const pool = issues(db).filter((o) => deleteStarts(o).some((t) => t.from === s.from && t.path === s.path));
        const sib = siblingIn(pool, i) ?? pool.find((o) => o.id !== i.id)!;
        return {
          key: i.key,
          id: i.id,
          title: i.title,
          from: s.from,
          path: s.path,
          query: s.query ?? "",
          name: s.name,
          link: s.link,
          sibling: sib.key,
          sibling_link: s.link.replace(i.key, sib.key),
        };
      })
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `On ${p.name}, open ${p.key} "${p.title}" and delete it, confirming when the page asks. Change nothing else.`
    ),
    procedure((p) => `From ${p.name}, go to issue ${p.key} and remove it with its Delete button (confirm the dialog).`),
    goal((p) => `Issue ${p.key} "${p.title}" should no longer exist in the tracker. You start on ${p.name}.`),
    goal((p) => `Get rid of ${p.key} for good, starting from ${p.name}, and leave every other issue as it is.`),
  ],
  start: (p) => ({ url: p.path + p.query }),
  chain: (p) => [
    openDetail(p.path, { click: { selector: p.link } }, issuePath(p.key)),
    confirmDialog({ control: "#delete-issue", posts: `${issuePath(p.key)}/delete` }),
  ],
  outcome: (p, db) => [
    { change: { site: "tracker", table: "issues", op: "delete", key: p.id, before: { key: { exact: p.key } } } },
    ...db.all<{ id: number }>("SELECT id FROM issues WHERE blocked_by_id = ? ORDER BY id", p.id).map((b) => ({
      change: {
        site: "tracker",
        table: "issues",
        op: "update",
        key: b.id,
        after: { blocked_by_id: { present: false } },
      },
    })),
  ],
  nearMisses: (p) => {
    const gone = (key: string) => ({
      change: { site: "tracker", table: "issues", op: "delete", before: { key: { exact: key } } },
      ever: true,
    });
    return [
      {
        name: "neighbour_deleted",
        category: "wrong_item",
        steps: [{ click: { selector: p.sibling_link } }, { click: { selector: "#delete-issue" } }],
        reason: "field_mismatch",
        witness: gone(p.sibling),
      },
      {
        name: "deletes_both",
        category: "collateral",
        after_reference: [{ navigate: { url: issuePath(p.sibling) } }, { click: { selector: "#delete-issue" } }],
        reason: "irreversible_extra",
        witness: gone(p.sibling),
      },
    ];
  },
});

/** open_new_tab after the menu: from an issue, Issues or Projects from the top menu, then Docs in a new tab. */
const menuDocsTab = layered<{ key: string; label: string; href: string; other: string; other_href: string }>({
  id: "tracker.open_new_tab.menu_docs",
  site: "tracker",
  macro: "open_new_tab",
  prefix: ["navigate_menu"],
  summary: "from an issue page, Issues or Projects from the top menu, then its Docs link (a new tab)",
  params: (db) =>
    issues(db).flatMap((i) =>
      [["Issues", "/tracker/issues", "Projects", "/tracker/"], ["Projects", "/tracker/", "Issues", "/tracker/issues"]]
        .map(([label, href, other, other_href]) => ({ key: i.key, label, href, other, other_href }))
    ),
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) =>
      `You are on issue ${p.key}. Open "${p.label}" from the Tracker's top menu, then open the Docs link there (it opens in a new tab).`
    ),
    procedure((p) =>
      `From the ${p.key} page, use the top menu to go to ${p.label} and open its "Docs ↗" link in a new tab.`
    ),
    goal((p) => `You are on issue ${p.key}. Go to the Tracker's ${p.label} page, then bring up the Tracker's docs.`),
    goal((p) => `From the ${p.key} page, get to ${p.label} and from there to the Tracker's documentation.`),
  ],
  start: (p) => ({ url: issuePath(p.key) }),
  chain: (p) => [
    navigateMenu("tracker", p.label, p.href),
    openNewTab({ click: { selector: "#docs-link" } }, "Docs", "/tracker/docs"),
  ],
  outcome: () => [{ page: { path: "/tracker/docs", query: {}, tab: "any" } }, { no_writes: true }],
  nearMisses: (p) => [
    {
      name: "docs_from_other_entry",
      category: "wrong_item",
      steps: [topMenu(p.other_href), { click: { selector: "#docs-link" } }, { wait: { seconds: 1 } }],
      reason: "not_visited",
      witness: {
        all: [topMenuClick(p.other), { page: { path: "/tracker/docs", tab: "any" } }],
      },
    },
    {
      name: "docs_skipping_the_page",
      category: "wrong_method",
      steps: [{ navigate: { url: "/tracker/docs" } }],
      reason: "not_visited",
      witness: { all: [...typedNotMenu.all, { page: { path: "/tracker/docs", tab: "any" } }] },
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Reasoning.
// ---------------------------------------------------------------------------------------------------------------

/** answer_question after the menu: Sprints from the top menu, then a sprint's points or issue count (a scope). */
const sprintTotals = layered<
  {
    start: string;
    sprint: string;
    sprint_id: number;
    project: string;
    project_name: string;
    open_only: boolean;
    measure: string;
    answer: number;
    rival: number;
  }
>({
  id: "tracker.answer_question.menu_sprint_total",
  site: "tracker",
  macro: "answer_question",
  prefix: ["navigate_menu"],
  summary: "Sprints from the top menu, then a sprint's story points or issue count (of a project, or still open)",
  params: (db) => {
    const sprints = db.all<{ id: number; name: string }>("SELECT id, name FROM sprints ORDER BY start_date");
    const scopes = [{ key: "", name: "" }, ...projectRows(db).map((r) => ({ key: r.key, name: r.name }))];
    const value = (sprintId: number, project: string, open: boolean, measure: string) => {
      const list = issues(db).filter((i) =>
        i.sprint_id === sprintId && (!project || i.project_key === project) && (!open || i.status !== "done")
      );
      return measure === "points" ? list.reduce((a, i) => a + i.estimate, 0) : list.length;
    };
    const seen = new Set<string>();
    return sprints.flatMap((s) =>
      scopes.flatMap((sc) =>
        [false, true].flatMap((open) =>
          ["points", "issues"].flatMap((measure) => {
            const answer = value(s.id, sc.key, open, measure);
            const rival = [...othersAfter(sprints, s).map((o) => value(o.id, sc.key, open, measure)), answer + 1]
              .find((v) => v !== answer)!;
            if (answer === 0 || seen.has(`${s.id}:${answer}`)) return [];
            seen.add(`${s.id}:${answer}`);
            return [{
              start: "/tracker/",
              sprint: s.name,
              sprint_id: s.id,
              project: sc.key,
              project_name: sc.name,
              open_only: open,
              measure,
              answer,
              rival,
            }];
          })
        )
      )
    );
  },
  entity: (p) => `sprint:${p.sprint}`,
  phrasings: [
    procedure((p) => `Open Sprints from the Tracker's top menu. ${sprintQuestion(p)} Answer with the number.`),
    procedure((p) =>
      `Using the top menu's Sprints page, work out: ${lowerFirst(sprintQuestion(p))} Reply with a number only.`
    ),
    goal((p) => `Look at the Tracker's sprints. ${sprintQuestion(p)} Give just the number.`),
    goal((p) => `${sprintQuestion(p)} Check the sprints in the Tracker and answer with a number.`),
  ],
  start: (p) => ({ url: p.start }),
  chain: (p) => [
    navigateMenu("tracker", "Sprints", "/tracker/sprints"),
    answerQuestion({
      answer: String(p.answer),
      matcher: { number: p.answer },
      computed: "the figure is a sum or count over the issues the sprint page lists; no page shows it",
      page: { path: `/tracker/sprints/${p.sprint_id}` },
      read: [{ click: { selector: `#sprint-list a[href='/tracker/sprints/${p.sprint_id}']` } }],
      rival: String(p.rival),
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    answeredInstead("other_sprint_figure", String(p.rival)),
  ],
});

function sprintQuestion(p: { sprint: string; project_name: string; open_only: boolean; measure: string }): string {
  const scope = [
    p.project_name ? `of the ${p.project_name} project` : "",
    p.open_only ? "that are not done yet" : "",
  ].filter(Boolean).join(" ");
  return p.measure === "points"
    ? `How many story points are planned in ${p.sprint} for the issues${
      scope ? ` ${scope}` : ""
    } (the sum of their estimates)?`
    : `How many issues${scope ? ` ${scope}` : ""} are in ${p.sprint}?`;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** answer_question after search and open: an issue's assignee, due date, estimate or latest commenter. */
const issueFact = layered<
  { key: string; title: string; fact: string; answer: string; rival: string; others: string; tab: string }
>({
  id: "tracker.answer_question.search_issue_fact",
  site: "tracker",
  macro: "answer_question",
  prefix: ["search", "open_detail"],
  summary: "search an issue by title, open it and give its assignee, due date, estimate or latest commenter",
  params: (db) => {
    const names = people(db).map((x) => x.name);
    const all = issues(db);
    return all.flatMap((i, n) => {
      const later = [...all.slice(n + 1), ...all.slice(0, n)];
      const out: { fact: string; answer: string; rival: string; others: string; tab: string }[] = [];
      if (i.assignee) {
        const others = names.filter((x) => x !== i.assignee);
        out.push({ fact: "assignee", answer: i.assignee, rival: others[0], others: others.join("|"), tab: "" });
      }
      if (i.due_date) {
        const rival = later.find((o) => o.due_date && o.due_date !== i.due_date)!.due_date!;
        out.push({ fact: "due", answer: i.due_date, rival, others: "", tab: "" });
      }
      out.push({
        fact: "estimate",
        answer: String(i.estimate),
        rival: String(later.find((o) => o.estimate !== i.estimate)!.estimate),
        others: "",
        tab: "",
      });
      const commenters = db.all<{ name: string }>(
        `SELECT p.name FROM comments c JOIN people p ON p.id = c.author_id WHERE c.issue_id = ?
         ORDER BY c.created_at DESC, c.id DESC`,
        i.id,
      ).map((r) => r.name);
      if (commenters.length && commenters[0] !== i.assignee) {
        const others = names.filter((x) => x !== commenters[0]);
        const rival = commenters.find((x) => x !== commenters[0]) ?? others[0];
        out.push({ fact: "commenter", answer: commenters[0], rival, others: others.join("|"), tab: "comments" });
      }
      return out.map((o) => ({ key: i.key, title: i.title, ...o }));
    });
  },
  entity: (p) => `issue:${p.key}`,
  phrasings: [
    procedure((p) => `Search the issues for "${p.title}" and open it. ${factQuestion(p)}`),
    procedure((p) =>
      `Find the issue "${p.title}" with the issue list's search, open it and tell me: ${lowerFirst(factQuestion(p))}`
    ),
    goal((p) => `Look up the issue "${p.title}" and open it. ${factQuestion(p)}`),
    goal((p) =>
      `${factQuestion(p).replace(/\?.*$/, "?")} It is the issue titled "${p.title}": find its page and read it there.`
    ),
  ],
  start: () => ({ url: "/tracker/issues" }),
  chain: (p) => [
    search("tracker", p.title),
    openDetail("/tracker/issues", openIssueLink(p.key), issuePath(p.key)),
    answerQuestion({
      answer: p.answer,
      matcher: p.fact === "due"
        ? { date: p.answer }
        : p.fact === "estimate"
        ? { number: Number(p.answer) }
        : { contains: p.answer },
      others: p.others ? p.others.split("|") : [],
      page: { path: issuePath(p.key) },
      read: p.tab ? [{ click: { selector: `#tab-${p.tab}` } }] : [],
      rival: p.rival,
    }),
  ],
  outcome: () => [{ no_writes: true }],
  nearMisses: (p) => [
    answeredInstead("another_value", p.rival),
    ...(p.fact === "due" ? [anotherYear(p.answer)] : []),
  ],
});

function factQuestion(p: { key: string; fact: string }): string {
  if (p.fact === "assignee") return `Who is ${p.key} assigned to? Answer with the person's name.`;
  if (p.fact === "due") return `What is the due date of ${p.key}? Answer with the date.`;
  if (p.fact === "estimate") return `How many story points is ${p.key} estimated at? Answer with the number.`;
  return `Who wrote the latest comment on ${p.key}? Answer with the person's name.`;
}

/** The tracker's templates. */
export const TRACKER_TEMPLATES: readonly AnyTemplate[] = [
  menuSwitcherDrag,
  projectMenuDrag,
  backlogNextTo,
  backlogsMenuEnd,
  listEstimate,
  menuFollowUp,
  searchAssign,
  editPriority,
  boardDueDate,
  backlogLabel,
  sprintType,
  boardRename,
  menuSearch,
  menuEntry,
  searchOpen,
  issueTab,
  pageOfIssue,
  searchCopy,
  projectExport,
  openDelete,
  menuDocsTab,
  sprintTotals,
  issueFact,
];
