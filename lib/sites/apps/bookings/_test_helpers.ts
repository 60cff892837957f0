/** Helpers for the Bookings tests: an in-process session that keeps its cookie, posts forms and reads changes. */
import { createSandbox, type Sandbox } from "../../server.ts";
import { SandboxClient } from "../../testing.ts";
import { bookingsApp } from "./mod.ts";

export type { Reply } from "../../testing.ts";

/** One browser-like session of a sandbox holding only this app. */
export class BookingsClient extends SandboxClient {
  constructor(sb: Sandbox = createSandbox({ apps: [bookingsApp] })) {
    super(sb);
  }
}

/** A booking form that passes validation on 2026-03-15: Harbor, Tuesday 17 March, 14:00 for an hour. */
export const GOOD_BOOKING: Record<string, string> = {
  room: "8",
  date: "2026-03-17",
  slot: "14:00",
  duration: "60",
  attendees: "8",
  purpose: "Quarterly planning with finance",
  notes: "Need the projector",
  email: "alex@sandbox.test",
};

/** The text of a page without tags, with white space collapsed. */
export function pageText(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, " ").replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&").replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, " ");
}
