/**
 * The sandbox's cost per episode: a session reset (fresh seeded data for every app) and page requests, in process
 * (the handler alone) and over HTTP (the real server on 127.0.0.1).
 */
import { APPS, createSandbox, startSites } from "../lib/sites/mod.ts";

const sb = createSandbox({ apps: APPS });
let cookie = "";
{
  const res = await sb.request("/_admin/session-flags");
  cookie = res.headers.get("set-cookie")!.split(";")[0];
  await res.body?.cancel();
}
const firstPage = APPS.length ? `/${APPS[0].id}/` : "/";
const srv = await startSites({ apps: APPS, port: 0 });
const httpCookie = (await fetch(srv.base + "/_admin/session-flags")).headers.get("set-cookie")!.split(";")[0];
addEventListener("unload", () => srv.close());

async function touchEveryApp(): Promise<void> {
  for (const app of APPS) await (await sb.request(`/${app.id}/`, { headers: { cookie } })).body?.cancel();
}

Deno.bench("session reset, then the first page of every app (seeds each app's data)", { group: "reset" }, async () => {
  await (await sb.request("/_admin/session-flags", { headers: { cookie } })).body?.cancel();
  await touchEveryApp();
});

Deno.bench("session reset alone", { group: "reset", baseline: true }, async () => {
  await (await sb.request("/_admin/session-flags", { headers: { cookie } })).body?.cancel();
});

Deno.bench(`page request in process (${firstPage})`, { group: "page" }, async () => {
  await (await sb.request(firstPage, { headers: { cookie } })).text();
});

Deno.bench(`page request over HTTP (${firstPage})`, { group: "page" }, async () => {
  await (await fetch(srv.base + firstPage, { headers: { cookie: httpCookie } })).text();
});
