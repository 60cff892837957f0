/** Mail: a webmail client (folders, search, compose with attachments, contacts, labels, settings). */
import { Hono } from "hono";
import type { SandboxEnv, SiteApp } from "../../types.ts";
import { contactRoutes } from "./_pages_contacts.ts";
import { composeRoutes } from "./_pages_compose.ts";
import { listRoutes } from "./_pages_list.ts";
import { messageRoutes } from "./_pages_message.ts";
import { settingsRoutes } from "./_pages_settings.ts";
import { mailSeed } from "./_seed.ts";

function mailRoutes(): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>({ strict: false });
  listRoutes(app);
  messageRoutes(app);
  composeRoutes(app);
  contactRoutes(app);
  settingsRoutes(app);
  return app;
}

export const mailApp: SiteApp = {
  id: "mail",
  title: "Mail",
  description: "Webmail: read, search, label and send messages with attachments; contacts and settings.",
  requiresLogin: true,
  seed: mailSeed,
  grading: {
    // Opening a message marks it read.
    bookkeeping: { messages: ["read"] },
    generated: {
      messages: ["id", "date", "from_name", "from_email", "read"],
      attachments: ["id", "size", "type", "content"],
      contacts: ["id"],
    },
    queryDefaults: { page: "1" },
    ignoredQuery: ["flash"],
    caselessQuery: ["q"],
  },
  routes: mailRoutes(),
};
