/** The apps' seeded data, as the generator reads it: each app's own seed, in a read-only database. */
import { AppDb, APPS } from "../sites/mod.ts";

const CACHE = new Map<string, AppDb>();

/**
 * App `site`'s seeded database (the rows every session starts from), read only: a write throws.
 * @throws Error for a site the sandbox does not serve.
 */
export function seedDb(site: string): AppDb {
  const cached = CACHE.get(site);
  if (cached) return cached;
  const app = APPS.find((a) => a.id === site);
  if (!app) throw new Error(`no sandbox app "${site}" (apps: ${APPS.map((a) => a.id).join(", ")})`);
  const db = new AppDb(site, app.seed(), (c) => {
    throw new Error(`the generator's ${site} data is read only (a ${c.op} on ${c.table})`);
  });
  CACHE.set(site, db);
  return db;
}
