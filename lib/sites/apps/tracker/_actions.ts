/** Writes to issues: every change goes through db.update and leaves a history entry per changed field. */
import type { AppDb, Row } from "../../db.ts";
import { type Issue, issueById, STATUSES } from "./_model.ts";
import type { Ctx } from "./_views.ts";

/** The person acting: Alex Morgan (id 1) when signed in, nobody otherwise. */
export const actorId = (c: Ctx): number | null => (c.get("session").flags.loggedIn ? 1 : null);

/** Fields whose changes show in an issue's History tab, with how their values read there. */
const TRACKED: Record<string, (db: AppDb, v: unknown) => string | null> = {
  title: (_db, v) => v as string,
  status: (_db, v) => v as string,
  priority: (_db, v) => v as string,
  type: (_db, v) => v as string,
  assignee_id: (db, v) => v === null ? null : db.byId<{ name: string }>("people", v)?.name ?? null,
  estimate: (_db, v) => String(v),
  due_date: (_db, v) => v as string | null,
  sprint_id: (db, v) => v === null ? null : db.byId<{ name: string }>("sprints", v)?.name ?? null,
  labels: (_db, v) => v as string,
};

const FIELD_NAMES: Record<string, string> = { assignee_id: "assignee", sprint_id: "sprint", due_date: "due date" };

/**
 * Sets fields of an issue (`patch` holds issues columns) and records one activity row per tracked field that
 * changed; returns the names of the changed fields.
 */
export function changeIssue(c: Ctx, issue: Issue, patch: Row): string[] {
  const db = c.get("db");
  const changed = Object.keys(patch).filter((k) => String(patch[k] ?? "") !== String(issue[k as keyof Issue] ?? ""));
  if (!changed.length) return [];
  const now = c.get("clock").now().toISOString();
  const values = Object.fromEntries(changed.map((k) => [k, patch[k]]));
  db.update("issues", issue.id, { ...values, updated_at: now });
  for (const k of changed) {
    const show = TRACKED[k];
    if (!show) continue;
    db.insert("activity", {
      issue_id: issue.id,
      actor_id: actorId(c),
      field: FIELD_NAMES[k] ?? k,
      old_value: show(db, issue[k as keyof Issue] ?? null),
      new_value: show(db, patch[k] ?? null),
      created_at: now,
    });
  }
  return changed;
}

export const isStatus = (s: unknown): s is string => STATUSES.some((x) => x.value === s);

/** Moves an issue to `status`; false when the status is not one of the four. */
export function moveIssue(c: Ctx, issue: Issue, status: unknown): boolean {
  if (!isStatus(status)) return false;
  changeIssue(c, issue, { status });
  return true;
}

/** The title rule shared by the new/edit forms and the inline edit. */
export function titleError(title: string): string | undefined {
  const n = title.trim().length;
  return n < 5 || n > 120 ? "Title must be 5 to 120 characters." : undefined;
}

/**
 * Gives the open issues of a project the order `keys` (a permutation of them): they take the ranks they held,
 * sorted, so only issues whose place changed are written. Returns the number of rows updated, or an error.
 */
export function reorderBacklog(db: AppDb, projectId: number, keys: unknown): number | string {
  const open = db.all<{ id: number; key: string; rank: number }>(
    "SELECT id, key, rank FROM issues WHERE project_id = ? AND status != 'done' ORDER BY rank, id",
    projectId,
  );
  if (!Array.isArray(keys) || keys.length !== open.length || new Set(keys).size !== keys.length) {
    return "order must list every open issue of the project once";
  }
  const byKey = new Map(open.map((r) => [r.key, r]));
  if (!keys.every((k) => byKey.has(String(k)))) return "order names an issue that is not in this backlog";
  const ranks = open.map((r) => r.rank).sort((a, b) => a - b);
  let n = 0;
  keys.forEach((k, i) => {
    if (db.update("issues", byKey.get(String(k))!.id, { rank: ranks[i] })) n++;
  });
  return n;
}

/** The issue this one waits on, and the issues waiting on it. */
export function blockers(db: AppDb, issue: Issue): { blockedBy?: Issue; blocks: { key: string; title: string }[] } {
  return {
    blockedBy: issueById(db, issue.blocked_by_id),
    blocks: db.all<{ key: string; title: string }>(
      "SELECT key, title FROM issues WHERE blocked_by_id = ? ORDER BY id",
      issue.id,
    ),
  };
}
