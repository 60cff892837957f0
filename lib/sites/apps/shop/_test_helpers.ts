/** Helpers for the shop's tests: one in-process sandbox session with its cookie, forms and data changes. */
import { createSandbox, type Sandbox } from "../../server.ts";
import { SandboxClient } from "../../testing.ts";
import { shopApp } from "./mod.ts";

export type { Reply } from "../../testing.ts";

/** One browser-like session of a sandbox holding only this app. */
export class ShopClient extends SandboxClient {
  constructor(sb: Sandbox = createSandbox({ apps: [shopApp] })) {
    super(sb);
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
