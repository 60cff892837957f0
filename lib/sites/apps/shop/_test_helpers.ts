/** Helpers for the shop's tests: one in-process sandbox session with its cookie, forms and data changes. */
import type { ChangeEntry } from "../../db.ts";
import { createSandbox, type Sandbox } from "../../server.ts";
import { shopApp } from "./mod.ts";

export interface Reply {
  status: number;
  location: string;
  headers: Headers;
  text: string;
}

/** One browser-like session of a sandbox holding only the shop. */
export class ShopClient {
  cookie = "";
  constructor(readonly sb: Sandbox = createSandbox({ apps: [shopApp] })) {}

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

/** A checkout form that passes validation on 2026-03-15. */
export const GOOD_CHECKOUT: Record<string, string> = {
  name: "Alex Morgan",
  email: "alex@sandbox.test",
  street: "1 Main Street",
  city: "Leeds",
  postcode: "LS1 4AP",
  country: "United Kingdom",
  shipping: "express",
  delivery_date: "2026-03-17",
  promo: "spring10",
  card: "4242 4242 4242 4242",
};
