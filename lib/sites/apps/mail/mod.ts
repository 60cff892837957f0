/** Mail: a webmail client (folders, search, compose with attachments, contacts, labels, settings). */
import { Hono } from "hono";
import type { SandboxEnv, SiteApp } from "../../types.ts";
import { contactRoutes } from "./_pages_contacts.ts";
import { composeRoutes } from "./_pages_compose.ts";
import { listRoutes } from "./_pages_list.ts";
import { messageRoutes } from "./_pages_message.ts";
import { settingsRoutes } from "./_pages_settings.ts";
import { DEFAULT_SIGNATURE, mailSeed } from "./_seed.ts";

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
    // A label's page is read in any case (/mail/labels/work is Work).
    caselessPaths: ["^/mail/labels/[^/]+$"],
    // Sending appends the signature the user has then; a reply's form comes with the quoted message below.
    textAdditions: {
      "messages.body": [
        {
          name: "signature",
          suffix: String.raw`\s*\n-- \n{value}`,
          value: { table: "settings", key: 1, field: "signature", seed: DEFAULT_SIGNATURE },
        },
        { name: "quoted reply", suffix: String.raw`\s*\nOn [^\n]+ wrote:\n(?:>[^\n]*(?:\n|$))*\s*` },
      ],
    },
    irreversible: [
      { name: "send", table: "messages", op: "insert", when: { folder: "sent" } },
      { name: "send", table: "messages", op: "update", when: { folder: "sent" } },
      { name: "delete forever", table: "messages", op: "delete" },
    ],
  },
  routes: mailRoutes(),
};
