/** The tracker's schema and deterministic rows, built from the hand-written lists in _seed_data.ts. */
import type { AppSeed, Row } from "../../db.ts";
import {
  BLOCKS,
  COMMENT_LINES,
  HISTORY_LINES,
  ISSUE_LINES,
  NOTIFICATION_LINES,
  PEOPLE,
  PROJECTS,
  SPRINTS,
} from "./_seed_data.ts";

const SCHEMA = `
CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, email TEXT NOT NULL, role TEXT NOT NULL);
CREATE TABLE projects (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL, lead_id INTEGER,
  description TEXT NOT NULL);
CREATE TABLE sprints (id INTEGER PRIMARY KEY, name TEXT NOT NULL, start_date TEXT NOT NULL, end_date TEXT NOT NULL,
  state TEXT NOT NULL);
CREATE TABLE issues (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, number INTEGER NOT NULL,
  key TEXT NOT NULL UNIQUE, title TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', type TEXT NOT NULL,
  status TEXT NOT NULL, priority TEXT NOT NULL, assignee_id INTEGER, reporter_id INTEGER, estimate INTEGER NOT NULL,
  sprint_id INTEGER, due_date TEXT, labels TEXT NOT NULL DEFAULT '', rank INTEGER NOT NULL, blocked_by_id INTEGER,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE comments (id INTEGER PRIMARY KEY, issue_id INTEGER NOT NULL, author_id INTEGER, body TEXT NOT NULL,
  created_at TEXT NOT NULL);
CREATE TABLE activity (id INTEGER PRIMARY KEY, issue_id INTEGER NOT NULL, actor_id INTEGER, field TEXT NOT NULL,
  old_value TEXT, new_value TEXT, created_at TEXT NOT NULL);
CREATE TABLE notifications (id INTEGER PRIMARY KEY, issue_id INTEGER NOT NULL, actor_id INTEGER NOT NULL,
  text TEXT NOT NULL, created_at TEXT NOT NULL, read INTEGER NOT NULL DEFAULT 0);
CREATE TABLE labels (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, color TEXT NOT NULL);
`;

/** The issue labels' colours (the labels page's table; issues name their labels in issues.labels). */
const LABELS = [
  { id: 1, name: "bug", color: "#e60000" },
  { id: 2, name: "backend", color: "#0066cc" },
  { id: 3, name: "docs", color: "#008a00" },
  { id: 4, name: "performance", color: "#ff9900" },
  { id: 5, name: "security", color: "#9933ff" },
  { id: 6, name: "ui", color: "#facccc" },
];

const STATUS_CODES: Record<string, string> = { T: "todo", P: "in_progress", R: "review", D: "done" };
const PRIORITY_CODES: Record<string, string> = { L: "low", M: "medium", H: "high", U: "urgent" };

/** `MM-DD HH:MM` of 2026 as an ISO instant. */
const stamp = (s: string) => `2026-${s.slice(0, 5)}T${s.slice(6)}:00Z`;

const lines = (block: string) => block.trim().split("\n").map((l) => l.split("|"));

function describe(type: string, title: string): string {
  if (type === "bug") {
    return `Reported problem: ${title}. Reproduce it on the latest build, fix it and add a regression test.`;
  }
  if (type === "feature") return `Goal: ${title}. Ship it behind a feature flag and update the user docs.`;
  return `Task: ${title}. Done when the change is merged and verified on staging.`;
}

function buildIssues(): Row[] {
  const counters = new Map<string, number>();
  return lines(ISSUE_LINES).map((f, i) => {
    const [pkey, title, type, labels, status, priority, assignee, estimate, sprint, due, created] = f;
    const number = (counters.get(pkey) ?? 0) + 1;
    counters.set(pkey, number);
    const project = PROJECTS.find((p) => p.key === pkey)!;
    return {
      id: i + 1,
      project_id: project.id,
      number,
      key: `${pkey}-${number}`,
      title,
      description: describe(type, title),
      type,
      status: STATUS_CODES[status],
      priority: PRIORITY_CODES[priority],
      assignee_id: Number(assignee) || null,
      reporter_id: project.lead_id,
      estimate: Number(estimate),
      sprint_id: Number(sprint) || null,
      due_date: due ? `2026-${due}` : null,
      labels,
      rank: number,
      blocked_by_id: null,
      created_at: stamp(created),
      updated_at: stamp(created),
    };
  });
}

/** Rows with `issue_id` from an issue key; the issue's updated_at follows its latest comment or change. */
function attach(issues: Row[], key: string, when: string): number {
  const issue = issues.find((r) => r.key === key);
  if (!issue) throw new Error(`tracker seed: no issue "${key}"`);
  if (when > String(issue.updated_at)) issue.updated_at = when;
  return issue.id as number;
}

/**
 * The tracker's seed: 6 people, 3 projects, 4 sprints, 60 issues, 40 comments, 24 history entries and 7
 * notifications for Alex Morgan (the inbox; they do not touch the issues' updated_at).
 */
export function trackerSeed(): AppSeed {
  const issues = buildIssues();
  for (const [blocked, blocker] of BLOCKS) {
    issues.find((r) => r.key === blocked)!.blocked_by_id = issues.find((r) => r.key === blocker)!.id;
  }
  const comments = lines(COMMENT_LINES).map(([key, author, when, body], i) => ({
    id: i + 1,
    issue_id: attach(issues, key, stamp(when)),
    author_id: Number(author),
    body,
    created_at: stamp(when),
  }));
  const activity = lines(HISTORY_LINES).map(([key, actor, when, field, oldValue, newValue], i) => ({
    id: i + 1,
    issue_id: attach(issues, key, stamp(when)),
    actor_id: Number(actor),
    field,
    old_value: oldValue,
    new_value: newValue,
    created_at: stamp(when),
  }));
  const notifications = lines(NOTIFICATION_LINES).map(([key, actor, when, text, read], i) => ({
    id: i + 1,
    issue_id: issues.find((r) => r.key === key)!.id,
    actor_id: Number(actor),
    text,
    created_at: stamp(when),
    read: Number(read),
  }));
  return {
    schema: SCHEMA,
    rows: {
      people: PEOPLE,
      projects: PROJECTS,
      sprints: SPRINTS,
      issues,
      comments,
      activity,
      notifications,
      labels: LABELS,
    },
  };
}
