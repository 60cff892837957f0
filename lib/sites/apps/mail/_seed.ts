/** The mail app's schema and deterministic seed: 60 messages, 11 attachments, 15 contacts, one settings row. */
import type { AppSeed, Row } from "../../db.ts";
import { LABELS } from "./_model.ts";
import { CONTACTS, who } from "./_people.ts";
import { ARCHIVE } from "./_seed_archive.ts";
import { INBOX_1 } from "./_seed_inbox.ts";
import { INBOX_2 } from "./_seed_inbox_2.ts";
import { OUTBOX_AND_TRASH } from "./_seed_outbox.ts";
import type { SeedMessage } from "./_seed_types.ts";

export const SCHEMA = `
CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  folder TEXT NOT NULL,
  from_name TEXT NOT NULL,
  from_email TEXT NOT NULL,
  to_addrs TEXT NOT NULL DEFAULT '',
  cc_addrs TEXT NOT NULL DEFAULT '',
  subject TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL DEFAULT '',
  date TEXT NOT NULL,
  read INTEGER NOT NULL DEFAULT 1,
  starred INTEGER NOT NULL DEFAULT 0,
  labels TEXT NOT NULL DEFAULT '',
  in_reply_to INTEGER,
  forward_of INTEGER
);
CREATE TABLE attachments (
  id INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  size INTEGER NOT NULL,
  type TEXT NOT NULL,
  content TEXT
);
CREATE TABLE contacts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  company TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT ''
);
CREATE TABLE settings (
  id INTEGER PRIMARY KEY,
  signature TEXT NOT NULL DEFAULT '',
  reading_pane TEXT NOT NULL DEFAULT 'off',
  page_size INTEGER NOT NULL DEFAULT 15
);
`;

export const DEFAULT_SIGNATURE = "Alex Morgan\nOperations Manager, Sandbox Co.\n+1 617 555 0142";

const addrs = (keys: string[] | undefined) => (keys ?? []).map((k) => who(k).email).join(", ");

function messageRow(m: SeedMessage, id: number): Row {
  const from = who(m.from);
  return {
    id,
    folder: m.folder,
    from_name: from.name,
    from_email: from.email,
    to_addrs: addrs(m.to),
    cc_addrs: addrs(m.cc),
    subject: m.subject,
    body: m.body,
    date: `2026-${m.date.replace(" ", "T")}:00Z`,
    read: m.unread ? 0 : 1,
    starred: m.starred ? 1 : 0,
    labels: LABELS.filter((l) => m.labels?.includes(l)).join(","),
    in_reply_to: null,
    forward_of: null,
  };
}

/** Builds the seed; message ids follow the order of the seed files: inbox 1-33, archive 34-43, sent 44-52, drafts 53-55, trash 56-60. */
export function mailSeed(): AppSeed {
  const all = [...INBOX_1, ...INBOX_2, ...ARCHIVE, ...OUTBOX_AND_TRASH];
  const messages = all.map((m, i) => messageRow(m, i + 1));
  const attachments: Row[] = [];
  all.forEach((m, i) => {
    for (const a of m.attachments ?? []) {
      const size = new TextEncoder().encode(a.content).length;
      attachments.push({
        id: attachments.length + 1,
        message_id: i + 1,
        name: a.name,
        size,
        type: a.type,
        content: a.content,
      });
    }
  });
  const contacts = CONTACTS.map((c, i) => ({ id: i + 1, ...c }));
  const settings = [{ id: 1, signature: DEFAULT_SIGNATURE, reading_pane: "off", page_size: 15 }];
  return { schema: SCHEMA, rows: { messages, attachments, contacts, settings } };
}
