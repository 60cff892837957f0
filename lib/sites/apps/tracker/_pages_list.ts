/** The issue list (search, filters, sort, pagination) and its CSV export. */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { Html } from "../../layout.ts";
import type { SandboxEnv } from "../../types.ts";
import {
  filterQuery,
  findIssues,
  type Issue,
  type IssueFilter,
  LABELS,
  PAGE_SIZE,
  parseFilter,
  people,
  PRIORITIES,
  projects,
  SORTS,
  sprints,
  STATUSES,
  statusLabel,
  TYPES,
} from "./_model.ts";
import { BASE, type Ctx, day, EXTRA_CSS, issueTable, page, when } from "./_views.ts";

type Opt = { value: string; label: string };

function select(id: string, label: string, any: string, options: Opt[], value: string): Html {
  return html`
    <div>
      <label for="${id}">${label}</label>
      <select id="${id}" name="${id}">
        <option value="">${any}</option>
        ${options.map((o) =>
          html`<option value="${o.value}" ${o.value === value ? "selected" : ""}>${o.label}</option>`
        )}
      </select>
    </div>
  `;
}

function filterForm(c: Ctx, f: IssueFilter): Html {
  const db = c.get("db");
  const assignees = ["Unassigned", ...people(db).map((p) => p.name)];
  return html`
    <form method="get" action="${BASE}/issues" id="filter-form" class="card filters" role="search">
      <div style="grid-column:1/3">
        <label for="q">Search</label>
        <input type="search" id="q" name="q" value="${f.q}" placeholder="Title, key or description">
      </div>
      ${select(
        "project",
        "Project",
        "All projects",
        projects(db).map((p) => ({ value: p.key, label: p.name })),
        f.project,
      )}
      ${select("priority", "Priority", "Any priority", PRIORITIES, f.priority)}
      <fieldset id="status-filter">
        <legend>Status</legend>
        ${STATUSES.map((s) =>
          html`
            <label
              for="status-${s.value}"><input type="checkbox" id="status-${s.value}" name="status" value="${s
                .value}" ${f.status.includes(s.value) ? "checked" : ""}> ${s.label}</label>
          `
        )}
      </fieldset>
      <div>
        <label id="assignee-label">Assignee</label>
        <div class="combobox" id="assignee-filter" data-combobox data-name="assignee" data-label="Assignee"
          data-placeholder="Anyone" data-options="${JSON.stringify(assignees)}" data-value="${f.assignee}"></div>
      </div>
      ${select("label", "Label", "Any label", LABELS.map((l) => ({ value: l, label: l })), f.label)}
      ${select("type", "Type", "Any type", TYPES, f.type)}
      ${select(
        "sprint",
        "Sprint",
        "Any sprint",
        [...sprints(db).map((s) => ({ value: s.name, label: s.name })), { value: "none", label: "No sprint" }],
        f.sprint,
      )}
      ${select("sort", "Sort by", "Newest first", SORTS.slice(1), f.sort === "newest" ? "" : f.sort)}
      <div class="row">
        <button type="submit" id="apply-filters">Apply filters</button>
        <a href="${BASE}/issues" id="clear-filters">Clear</a>
      </div>
    </form>
  `;
}

function pager(query: string, pageNo: number, pages: number): Html {
  if (pages <= 1) return html``;
  const href = (n: number) => `${BASE}/issues?${query ? `${query}&` : ""}page=${n}`;
  const nums = Array.from({ length: pages }, (_, i) => i + 1);
  return html`
    <nav class="pager" id="pager" aria-label="Pages">
      ${pageNo > 1 ? html`<a href="${href(pageNo - 1)}" id="prev-page" rel="prev">‹ Previous</a>` : ""}
      ${nums.map((n) =>
        n === pageNo
          ? html`<span class="current" aria-current="page">${n}</span>`
          : html`<a href="${href(n)}" id="page-${n}">${n}</a>`
      )}
      ${pageNo < pages ? html`<a href="${href(pageNo + 1)}" id="next-page" rel="next">Next ›</a>` : ""}
    </nav>
  `;
}

function listPage(c: Ctx) {
  const url = new URL(c.req.url);
  const f = parseFilter(url.searchParams);
  const all = findIssues(c.get("db"), f);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const pageNo = Math.min(pages, Math.max(1, Math.floor(Number(url.searchParams.get("page")) || 1)));
  const shown = all.slice((pageNo - 1) * PAGE_SIZE, pageNo * PAGE_SIZE);
  const query = filterQuery(f);
  const range = all.length ? `${(pageNo - 1) * PAGE_SIZE + 1}–${(pageNo - 1) * PAGE_SIZE + shown.length}` : "0";
  return page(c, {
    title: "Issues",
    active: "issues",
    crumbs: [{ href: `${BASE}/issues`, label: "Issues" }],
    body: html`
      ${EXTRA_CSS}
      <div class="row">
        <h1>Issues</h1>
        <span class="spacer"></span>
        <a class="button secondary" id="export-csv" href="${BASE}/issues/export.csv${query ? `?${query}` : ""}"
        >Export CSV</a>
        <a class="button" id="new-issue" href="${BASE}/issues/new">New issue</a>
        <a href="${BASE}/docs" id="docs-link" target="_blank" rel="noopener">Docs ↗</a>
      </div>
      ${filterForm(c, f)}
      <p id="issue-count"><b>${all.length}</b> ${all.length === 1
        ? "issue"
        : "issues"} · showing ${range} · page ${pageNo}
        of ${pages}</p>
      ${issueTable(shown)} ${pager(query, pageNo, pages)}
    `,
  });
}

const CSV_COLUMNS: [string, (i: Issue) => string | number][] = [
  ["Key", (i) => i.key],
  ["Title", (i) => i.title],
  ["Project", (i) => i.project_name],
  ["Type", (i) => i.type],
  ["Status", (i) => statusLabel(i.status)],
  ["Priority", (i) => i.priority],
  ["Assignee", (i) => i.assignee ?? ""],
  ["Estimate", (i) => i.estimate],
  ["Sprint", (i) => i.sprint ?? ""],
  ["Due date", (i) => day(i.due_date)],
  ["Labels", (i) => i.labels],
  ["Created", (i) => when(i.created_at)],
];

const csvCell = (v: string | number) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The filtered issues (every page) as CSV. */
export function issuesCsv(issues: Issue[]): string {
  const lines = [CSV_COLUMNS.map(([h]) => h), ...issues.map((i) => CSV_COLUMNS.map(([, get]) => get(i)))];
  return lines.map((l) => l.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

export function listRoutes(app: Hono<SandboxEnv>): void {
  app.get("/issues", listPage);
  app.get("/issues/export.csv", (c) => {
    const issues = findIssues(c.get("db"), parseFilter(new URL(c.req.url).searchParams));
    return c.body(issuesCsv(issues), 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="tracker-issues-${c.get("clock").today()}.csv"`,
    });
  });
}
