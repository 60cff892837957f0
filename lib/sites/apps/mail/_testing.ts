/** Test helpers: a cookie-keeping client of an in-process sandbox that holds only the mail app. */
import { createSandbox, type Sandbox } from "../../server.ts";
import type { ChangeEntry } from "../../db.ts";
import { mailApp } from "./mod.ts";

export interface Reply {
  status: number;
  text: string;
  headers: Headers;
}

/** One browser-like session: keeps the session cookie, never follows redirects. */
export class Client {
  cookie = "";
  constructor(readonly sb: Sandbox = createSandbox({ apps: [mailApp] })) {}

  async req(path: string, init: RequestInit = {}): Promise<Reply> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("cookie", this.cookie);
    const res = await this.sb.request(path, { ...init, headers, redirect: "manual" });
    const set = res.headers.get("set-cookie");
    if (set && !this.cookie) this.cookie = set.split(";")[0];
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  get(path: string): Promise<Reply> {
    return this.req(path);
  }

  /** POSTs a form: URL-encoded from a record (arrays repeat the key), multipart from a FormData. */
  post(path: string, form: Record<string, string | string[]> | FormData): Promise<Reply> {
    if (form instanceof FormData) return this.req(path, { method: "POST", body: form });
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return this.req(path, { method: "POST", body });
  }

  async changes(): Promise<ChangeEntry[]> {
    return JSON.parse((await this.get("/_admin/changes")).text).entries;
  }

  async reset(): Promise<void> {
    await this.get("/_admin/session-flags?reset=1");
  }
}

/** Throws unless `text` contains every one of `parts`. */
export function assertHas(text: string, ...parts: string[]): void {
  for (const p of parts) {
    if (!text.includes(p)) throw new Error(`expected the page to contain ${JSON.stringify(p)}`);
  }
}

/** Throws when `text` contains `part`. */
export function assertLacks(text: string, part: string): void {
  if (text.includes(part)) throw new Error(`expected the page not to contain ${JSON.stringify(part)}`);
}
