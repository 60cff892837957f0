/** Reads of the mail app's data (every write stays in the page handlers, through db.insert/update/remove). */
import type { AppDb } from "../../db.ts";
import type { Attachment, Contact, Folder, FolderView, Message, Settings } from "./_model.ts";

/** Which messages a list shows. */
export type Filter =
  | { kind: "folder"; folder: Folder }
  | { kind: "starred" }
  | { kind: "label"; label: string }
  | { kind: "search"; q: string }
  | { kind: "contact"; email: string };

/** A list row: the message and how many attachments it has. */
export type ListedMessage = Message & { n_att: number };

export interface Page {
  rows: ListedMessage[];
  total: number;
  page: number;
  pages: number;
}

const likeArg = (s: string) => `%${s.replace(/[\\%_]/g, (ch) => "\\" + ch)}%`;

function where(f: Filter): [string, unknown[]] {
  switch (f.kind) {
    case "folder":
      return ["folder = ?", [f.folder]];
    case "starred":
      return ["starred = 1 AND folder != 'trash'", []];
    case "label":
      return ["(',' || labels || ',') LIKE ? AND folder != 'trash'", [`%,${f.label},%`]];
    case "search": {
      const q = likeArg(f.q);
      const cols = ["subject", "from_name", "from_email", "body"].map((c) => `${c} LIKE ? ESCAPE '\\'`);
      return [`folder != 'trash' AND (${cols.join(" OR ")})`, [q, q, q, q]];
    }
    case "contact": {
      const q = likeArg(f.email);
      return [
        "folder != 'trash' AND (from_email = ? COLLATE NOCASE OR to_addrs LIKE ? ESCAPE '\\' OR cc_addrs LIKE ? ESCAPE '\\')",
        [
          f.email,
          q,
          q,
        ],
      ];
    }
  }
}

/** One page (1-based, clamped) of the messages that match, newest first. */
export function listMessages(db: AppDb, f: Filter, page: number, size: number): Page {
  const [w, args] = where(f);
  const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM messages WHERE ${w}`, ...args)?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / size));
  const p = Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), pages);
  const rows = db.all<ListedMessage>(
    `SELECT m.*, (SELECT COUNT(*) FROM attachments a WHERE a.message_id = m.id) AS n_att
     FROM messages m WHERE ${w} ORDER BY date DESC, id DESC LIMIT ? OFFSET ?`,
    ...args,
    size,
    (p - 1) * size,
  );
  return { rows, total, page: p, pages };
}

export interface FolderCount {
  total: number;
  unread: number;
}

/** Totals and unread counts of every folder view. */
export function folderCounts(db: AppDb): Record<FolderView, FolderCount> {
  const out = {} as Record<FolderView, FolderCount>;
  for (const f of ["inbox", "sent", "drafts", "archive", "trash"] as const) out[f] = { total: 0, unread: 0 };
  const rows = db.all<{ folder: Folder; total: number; unread: number }>(
    "SELECT folder, COUNT(*) AS total, SUM(read = 0) AS unread FROM messages GROUP BY folder",
  );
  for (const r of rows) out[r.folder] = { total: r.total, unread: r.unread ?? 0 };
  out.starred = db.get<FolderCount>(
    "SELECT COUNT(*) AS total, COALESCE(SUM(read = 0), 0) AS unread FROM messages WHERE starred = 1 AND folder != 'trash'",
  ) ?? { total: 0, unread: 0 };
  return out;
}

export function getMessage(db: AppDb, id: number): Message | undefined {
  return Number.isInteger(id) ? db.byId<Message>("messages", id) : undefined;
}

export function attachmentsOf(db: AppDb, messageId: number): Attachment[] {
  return db.all<Attachment>("SELECT * FROM attachments WHERE message_id = ? ORDER BY id", messageId);
}

export function getSettings(db: AppDb): Settings {
  return db.byId<Settings>("settings", 1) ?? { id: 1, signature: "", reading_pane: "off", page_size: 15 };
}

export function allContacts(db: AppDb): Contact[] {
  return db.all<Contact>("SELECT * FROM contacts ORDER BY name COLLATE NOCASE, id");
}

export function contactByEmail(db: AppDb, email: string): Contact | undefined {
  return db.get<Contact>("SELECT * FROM contacts WHERE email = ? COLLATE NOCASE", email);
}

/** "Name <email>" for an address book entry, the bare address otherwise. */
export function displayAddress(db: AppDb, email: string): string {
  const c = contactByEmail(db, email);
  return c ? `${c.name} <${c.email}>` : email;
}

/** Opening a message marks it read: a write, recorded as a data change. */
export function markRead(db: AppDb, m: Message): void {
  if (!m.read) db.update("messages", m.id, { read: 1 });
}
