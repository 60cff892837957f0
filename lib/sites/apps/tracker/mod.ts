/**
 * Tracker: an issue tracker with a drag-and-drop kanban board, a sortable backlog, filters, comments and export,
 * and label colours set with a swatch colour picker.
 */
import { Hono } from "hono";
import type { SandboxEnv, SiteApp } from "../../types.ts";
import { boardRoutes } from "./_pages_board.ts";
import { formRoutes } from "./_pages_form.ts";
import { inboxRoutes } from "./_pages_inbox.ts";
import { issueRoutes } from "./_pages_issue.ts";
import { labelRoutes } from "./_pages_labels.ts";
import { listRoutes } from "./_pages_list.ts";
import { miscRoutes } from "./_pages_misc.ts";
import { trackerSeed } from "./_seed.ts";

const routes = new Hono<SandboxEnv>({ strict: false });
// Order matters: fixed paths (/issues/new, /issues/export.csv) before /issues/:key.
miscRoutes(routes);
inboxRoutes(routes);
listRoutes(routes);
formRoutes(routes);
boardRoutes(routes);
issueRoutes(routes);
labelRoutes(routes);

export const trackerApp: SiteApp = {
  id: "tracker",
  title: "Tracker",
  description: "Issue tracker: projects, kanban boards, backlogs, sprints and comments.",
  requiresLogin: false,
  seed: trackerSeed,
  grading: {
    // Every issue write appends to the activity log and stamps updated_at.
    bookkeeping: { activity: "*", issues: ["updated_at"] },
    generated: {
      issues: ["id", "number", "key", "created_at", "updated_at", "rank", "reporter_id"],
      comments: ["id", "author_id", "created_at"],
    },
    queryDefaults: { page: "1" },
    ignoredQuery: ["flash"],
    caselessQuery: ["q"],
    // Issue and project keys are read in any case (/tracker/issues/web-9 is WEB-9).
    caselessPaths: ["^/tracker/issues/[^/]+", "^/tracker/projects/[^/]+"],
    irreversible: [
      { name: "post comment", table: "comments", op: "insert" },
      { name: "delete issue", table: "issues", op: "delete" },
    ],
  },
  routes,
};
