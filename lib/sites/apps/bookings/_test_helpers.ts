/** Helpers for the Bookings tests: an in-process session that keeps its cookie, posts forms and reads changes. */
import type { ChangeEntry } from "../../db.ts";
import { createSandbox, type Sandbox } from "../../server.ts";
import { bookingsApp } from "./mod.ts";

export interface Reply {
  status: number;
  location: string;
  headers: Headers;
  text: string;
}

/** One browser-like session of a sandbox that serves only the Bookings app. */
export class BookingsClient {
  cookie = "";
  constructor(readonly sb: Sandbox = createSandbox({ apps: [bookingsApp] })) {}

  async #send(path: string, init: RequestInit): Promise<Reply> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("cookie", this.cookie);
    const res = await this.sb.request(path, { ...init, headers, redirect: "manual" });
    const set = res.headers.get("set-cookie");
    if (set && !this.cookie) this.cookie = set.split(";")[0];
    return {
      status: res.status,
      location: res.headers.get("location") ?? "",
      headers: res.headers,
      text: await res.text(),
    };
  }

  get(path: string): Promise<Reply> {
    return this.#send(path, { method: "GET" });
  }

  post(path: string, form: Record<string, string>): Promise<Reply> {
    return this.#send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
  }

  async changes(): Promise<ChangeEntry[]> {
    return JSON.parse((await this.get("/_admin/changes")).text).entries;
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
