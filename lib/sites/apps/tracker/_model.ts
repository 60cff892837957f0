/** The tracker's vocabulary (statuses, priorities, types, labels) and its read queries. */
import type { AppDb } from "../../db.ts";

export const STATUSES = [
  { value: "todo", label: "To do" },
  { value: "in_progress", label: "In progress" },
  { value: "review", label: "Review" },
  { value: "done", label: "Done" },
];
export const PRIORITIES = [
  { value: "low", label: "Low" },
  { value: "medium", label: "Medium" },
  { value: "high", label: "High" },
  { value: "urgent", label: "Urgent" },
];
export const TYPES = [
  { value: "bug", label: "Bug" },
  { value: "feature", label: "Feature" },
  { value: "task", label: "Task" },
];
export const LABELS = ["bug", "ui", "backend", "security", "performance", "docs"];
export const SORTS = [
  { value: "newest", label: "Newest first", sql: "i.created_at DESC" },
  { value: "oldest", label: "Oldest first", sql: "i.created_at ASC" },
  { value: "updated", label: "Recently updated", sql: "i.updated_at DESC, i.id DESC" },
  {
    value: "priority",
    label: "Priority",
    sql: "CASE i.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END, i.created_at",
  },
  { value: "due", label: "Due date", sql: "i.due_date IS NULL, i.due_date, i.id" },
  { value: "key", label: "Key", sql: "p.key, i.number" },
];
export const PAGE_SIZE = 20;

export const statusLabel = (v: string) => STATUSES.find((s) => s.value === v)?.label ?? v;
export const priorityLabel = (v: string) => PRIORITIES.find((s) => s.value === v)?.label ?? v;
export const typeLabel = (v: string) => TYPES.find((s) => s.value === v)?.label ?? v;

export interface Person {
  id: number;
  name: string;
  email: string;
  role: string;
}
export interface Project {
  id: number;
  key: string;
  name: string;
  lead_id: number;
  description: string;
}
export interface Sprint {
  id: number;
  name: string;
  start_date: string;
  end_date: string;
  state: string;
}

/** An issue row with the names it refers to. */
export interface Issue {
  id: number;
  project_id: number;
  number: number;
  key: string;
  title: string;
  description: string;
  type: string;
  status: string;
  priority: string;
  assignee_id: number | null;
  reporter_id: number | null;
  estimate: number;
  sprint_id: number | null;
  due_date: string | null;
  labels: string;
  rank: number;
  blocked_by_id: number | null;
  created_at: string;
  updated_at: string;
  project_key: string;
  project_name: string;
  assignee: string | null;
  reporter: string | null;
  sprint: string | null;
}

const ISSUE_SELECT = `SELECT i.*, p.key AS project_key, p.name AS project_name, a.name AS assignee,
  r.name AS reporter, s.name AS sprint
  FROM issues i JOIN projects p ON p.id = i.project_id LEFT JOIN people a ON a.id = i.assignee_id
  LEFT JOIN people r ON r.id = i.reporter_id LEFT JOIN sprints s ON s.id = i.sprint_id`;

export const people = (db: AppDb) => db.all<Person>("SELECT * FROM people ORDER BY name");
export const projects = (db: AppDb) => db.all<Project>("SELECT * FROM projects ORDER BY id");
export const sprints = (db: AppDb) => db.all<Sprint>("SELECT * FROM sprints ORDER BY start_date");
export const projectByKey = (db: AppDb, key: string) =>
  db.get<Project>("SELECT * FROM projects WHERE key = ?", key.toUpperCase());
export const issueByKey = (db: AppDb, key: string) =>
  db.get<Issue>(`${ISSUE_SELECT} WHERE i.key = ?`, key.toUpperCase());
export const issueById = (db: AppDb, id: number | null) =>
  id === null ? undefined : db.get<Issue>(`${ISSUE_SELECT} WHERE i.id = ?`, id);
export const issuesWhere = (db: AppDb, where: string, order: string, ...params: unknown[]) =>
  db.all<Issue>(`${ISSUE_SELECT} WHERE ${where} ORDER BY ${order}`, ...params);

/** The issue list's filters, as the query string gives them. */
export interface IssueFilter {
  q: string;
  status: string[];
  priority: string;
  assignee: string;
  project: string;
  label: string;
  type: string;
  sprint: string;
  sort: string;
}

/** Reads the filters from a query string (`status` may repeat). */
export function parseFilter(params: URLSearchParams): IssueFilter {
  const one = (k: string) => (params.get(k) ?? "").trim();
  return {
    q: one("q"),
    status: params.getAll("status").filter((s) => STATUSES.some((x) => x.value === s)),
    priority: one("priority"),
    assignee: one("assignee"),
    project: one("project").toUpperCase(),
    label: one("label"),
    type: one("type"),
    sprint: one("sprint"),
    sort: SORTS.some((s) => s.value === one("sort")) ? one("sort") : "newest",
  };
}

/** The filters as a query string (without the page), for pager and export links. */
export function filterQuery(f: IssueFilter): string {
  const p = new URLSearchParams();
  if (f.q) p.set("q", f.q);
  for (const s of f.status) p.append("status", s);
  for (const k of ["priority", "assignee", "project", "label", "type", "sprint"] as const) if (f[k]) p.set(k, f[k]);
  if (f.sort !== "newest") p.set("sort", f.sort);
  return p.toString();
}

/** Every issue the filters select, in the chosen order. */
export function findIssues(db: AppDb, f: IssueFilter): Issue[] {
  const where: string[] = ["1 = 1"];
  const params: unknown[] = [];
  if (f.q) {
    where.push("(i.title LIKE ? OR i.key LIKE ? OR i.description LIKE ?)");
    params.push(`%${f.q}%`, `%${f.q}%`, `%${f.q}%`);
  }
  if (f.status.length) {
    where.push(`i.status IN (${f.status.map(() => "?").join(",")})`);
    params.push(...f.status);
  }
  if (f.priority) where.push("i.priority = ?"), params.push(f.priority);
  if (f.assignee.toLowerCase() === "unassigned") where.push("i.assignee_id IS NULL");
  else if (f.assignee) where.push("a.name = ? COLLATE NOCASE"), params.push(f.assignee);
  if (f.project) where.push("p.key = ?"), params.push(f.project);
  if (f.label) where.push("(',' || i.labels || ',') LIKE ?"), params.push(`%,${f.label},%`);
  if (f.type) where.push("i.type = ?"), params.push(f.type);
  if (f.sprint === "none") where.push("i.sprint_id IS NULL");
  else if (f.sprint) where.push("s.name = ?"), params.push(f.sprint);
  const order = SORTS.find((s) => s.value === f.sort)!.sql;
  return issuesWhere(db, where.join(" AND "), order, ...params);
}

/** Issue counts per status of one project (or of all projects). */
export function statusCounts(db: AppDb, projectId?: number): Record<string, number> {
  const rows = db.all<{ status: string; n: number }>(
    `SELECT status, COUNT(*) AS n FROM issues ${projectId ? "WHERE project_id = ?" : ""} GROUP BY status`,
    ...(projectId ? [projectId] : []),
  );
  const out: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s.value, 0]));
  for (const r of rows) out[r.status] = r.n;
  return out;
}
