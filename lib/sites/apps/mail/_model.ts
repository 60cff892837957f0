/** The mail app's vocabulary: folders, labels, row types and the small formatting helpers every page uses. */

export const FOLDERS = ["inbox", "starred", "sent", "drafts", "archive", "trash"] as const;
export type FolderView = typeof FOLDERS[number];
/** Folders a message row can be in (Starred is a view of starred messages outside Trash). */
export type Folder = Exclude<FolderView, "starred">;
/** Where the "Move to" select can send a message. */
export const MOVE_TARGETS: Folder[] = ["inbox", "archive", "trash"];
/** The labels a message can carry, in the order the pages list them. */
export const LABELS = ["Work", "Personal", "Finance", "Travel"] as const;
/** The list sizes the settings offer (messages per page). */
export const PAGE_SIZES = [15, 25, 50] as const;
/** The reading-pane layouts the settings offer. */
export const READING_PANES = ["off", "right", "bottom"] as const;
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_SIGNATURE_CHARS = 300;

export interface Message {
  id: number;
  folder: Folder;
  from_name: string;
  from_email: string;
  /** Addresses joined with ", ". */
  to_addrs: string;
  cc_addrs: string;
  subject: string;
  body: string;
  /** ISO instant. */
  date: string;
  read: number;
  starred: number;
  /** Labels joined with "," in LABELS order, "" for none. */
  labels: string;
  in_reply_to: number | null;
  forward_of: number | null;
}

export interface Attachment {
  id: number;
  message_id: number;
  name: string;
  size: number;
  type: string;
  content: string | null;
}

export interface Contact {
  id: number;
  name: string;
  email: string;
  company: string;
  phone: string;
}

export interface Settings {
  id: number;
  signature: string;
  reading_pane: typeof READING_PANES[number];
  page_size: number;
}

export function folderTitle(f: string): string {
  return f.charAt(0).toUpperCase() + f.slice(1);
}

export function labelList(m: Pick<Message, "labels">): string[] {
  return m.labels ? m.labels.split(",") : [];
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Mar 14, 2026, 16:42" (UTC, as every date of the sandbox). */
export function longDate(iso: string): string {
  const d = new Date(iso);
  const hm = iso.slice(11, 16);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${hm}`;
}

/** "Mar 14" for a list row. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** "1.2 MB", "860 B". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[A-Za-z]{2,}$/;

export function isEmail(s: string): boolean {
  return EMAIL.test(s);
}

/** Splits a recipient field ("Name <a@b.c>, d@e.f") into its entries, each an address or the text as typed. */
export function parseRecipients(raw: string): string[] {
  return raw.split(/[,;]/).map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = s.match(/<([^>]*)>\s*$/);
    return (m ? m[1] : s).trim();
  });
}
