/** The shape of a hand-written seed message, before it becomes rows. */

export interface SeedAttachment {
  name: string;
  type: string;
  content: string;
}

export interface SeedMessage {
  folder: "inbox" | "sent" | "drafts" | "archive" | "trash";
  /** A key of who() in _people.ts. */
  from: string;
  /** Keys of who(). */
  to: string[];
  cc?: string[];
  subject: string;
  /** "MM-DD HH:MM" in 2026, UTC. */
  date: string;
  body: string;
  unread?: boolean;
  starred?: boolean;
  labels?: string[];
  attachments?: SeedAttachment[];
}
