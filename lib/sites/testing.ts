/** A test client of an in-process sandbox: one browser-like session that keeps its cookie, posts forms, reads changes. */
import type { ChangeEntry } from "./db.ts";
import type { Sandbox } from "./server.ts";

export interface Reply {
  status: number;
  location: string;
  headers: Headers;
  text: string;
}

export class SandboxClient {
  cookie = "";
  constructor(readonly sb: Sandbox) {}

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

  /** POSTs an urlencoded form; an array value repeats its field. */
  post(path: string, form: Record<string, string | string[]>): Promise<Reply> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return this.#send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
  }

  async changes(): Promise<ChangeEntry[]> {
    return JSON.parse((await this.get("/_admin/changes")).text).entries;
  }
}
