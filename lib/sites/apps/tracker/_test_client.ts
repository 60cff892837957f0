/** A cookie-keeping client of an in-process sandbox holding only the tracker, for the tracker's tests. */
import { createSandbox, type Sandbox } from "../../server.ts";
import type { ChangeEntry } from "../../db.ts";
import { trackerApp } from "./mod.ts";

export class TrackerClient {
  cookie = "";
  constructor(readonly sb: Sandbox = createSandbox({ apps: [trackerApp] })) {}

  /** Another session on the same sandbox. */
  other(): TrackerClient {
    return new TrackerClient(this.sb);
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("cookie", this.cookie);
    const res = await this.sb.request(path, { ...init, headers, redirect: "manual" });
    const set = res.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0];
    return res;
  }

  async get(path: string): Promise<{ status: number; text: string; res: Response }> {
    const res = await this.request(path);
    return { status: res.status, text: await res.text(), res };
  }

  async post(
    path: string,
    form: Record<string, string | string[]>,
  ): Promise<{ status: number; text: string; location: string | null }> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    const res = await this.request(path, { method: "POST", body });
    return { status: res.status, text: await res.text(), location: res.headers.get("location") };
  }

  async postJson(path: string, data: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(data),
    });
    return { status: res.status, json: await res.json() };
  }

  async changes(): Promise<ChangeEntry[]> {
    const res = await this.request("/_admin/changes");
    return (await res.json()).entries;
  }

  async reset(): Promise<void> {
    await (await this.request("/_admin/session-flags")).body?.cancel();
  }
}
