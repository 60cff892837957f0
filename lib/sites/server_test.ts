import assert from "node:assert/strict";
import { createSandbox, type Sandbox, startSites } from "./mod.ts";
import { DEFAULT_USER } from "./session.ts";
import { notesApp, secretApp } from "./testdata/notes_app.ts";

type Json = { entries: Record<string, unknown>[] };

/** A client of one session: keeps the cookie the sandbox sets. */
function client(sb: Sandbox) {
  let cookie = "";
  return async (path: string, init: RequestInit = {}, env?: { remoteAddr: { hostname: string } }) => {
    const res = await sb.request(path, { ...init, headers: { ...init.headers, cookie } }, env);
    const set = res.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    return res;
  };
}

const form = (fields: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(fields) });

Deno.test("createSandbox() records every write of a session as a data change", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  assert.equal((await call("/notes/", form({ body: "buy milk" }))).status, 303);
  assert.equal((await call("/notes/1/edit", form({ body: "first, edited" }))).status, 303);
  assert.equal((await call("/notes/2/delete", form({}))).status, 303);
  const { entries } = await (await call("/_admin/changes")).json() as Json;
  assert.deepEqual(entries.map((e) => [e.table, e.op, e.key]), [["notes", "insert", 3], ["notes", "update", 1], [
    "notes",
    "delete",
    2,
  ]]);
  assert.deepEqual(entries[0].after, { id: 3, body: "buy milk", created: "2026-03-15" });
  assert.equal((entries[1].before as { body: string }).body, "first note");
  assert.equal((entries[1].after as { body: string }).body, "first, edited");
  assert.equal(entries[2].after, null);
});

Deno.test("createSandbox() logs requests with their form body and status, admin requests excluded", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  await (await call("/notes/?page=2&tag=a&tag=b")).body?.cancel();
  await (await call("/notes/", form({ body: "" }))).body?.cancel();
  await (await call("/_admin/changes")).body?.cancel();
  const { entries } = await (await call("/_admin/log")).json() as Json;
  assert.equal(entries.length, 2);
  assert.deepEqual(
    { method: entries[0].method, path: entries[0].path, query: entries[0].query, status: entries[0].status },
    { method: "GET", path: "/notes/", query: { page: "2", tag: ["a", "b"] }, status: 200 },
  );
  assert.deepEqual({ body: entries[1].body, status: entries[1].status }, { body: { body: "" }, status: 422 });
});

Deno.test("a failed validation writes nothing", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  assert.equal((await call("/notes/", form({ body: "   " }))).status, 422);
  const { entries } = await (await call("/_admin/changes")).json() as Json;
  assert.equal(entries.length, 0);
});

Deno.test("/_admin/session-flags resets the session's data and streams to the seed", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  await (await call("/notes/", form({ body: "temporary" }))).body?.cancel();
  assert.match(await (await call("/notes/")).text(), /temporary/);
  const flags = await (await call("/_admin/session-flags")).json();
  assert.equal(flags.flags.loggedIn, true);
  const page = await (await call("/notes/")).text();
  assert.doesNotMatch(page, /temporary/);
  assert.match(page, /first note/);
  assert.equal(((await (await call("/_admin/changes")).json()) as Json).entries.length, 0);
});

Deno.test("two sessions never see each other's writes", async () => {
  const sb = createSandbox({ apps: [notesApp] });
  const a = client(sb), b = client(sb);
  await (await a("/notes/", form({ body: "only in A" }))).body?.cancel();
  await (await b("/notes/1/delete", form({}))).body?.cancel();
  const pageA = await (await a("/notes/")).text(), pageB = await (await b("/notes/")).text();
  assert.match(pageA, /only in A/);
  assert.match(pageA, /first note/);
  assert.doesNotMatch(pageB, /only in A/);
  assert.doesNotMatch(pageB, /first note/);
  assert.equal(((await (await a("/_admin/changes")).json()) as Json).entries.length, 1);
  assert.equal(((await (await b("/_admin/changes")).json()) as Json).entries[0].op, "delete");
});

const ADMIN = ["health", "session-flags", "session-end", "state", "log", "changes", "clipboard", "record"]
  .map((name) => `/_admin/${name}`);
const recorderPost = (path: string) => ({
  path,
  init: { method: "POST", headers: { "content-type": "application/json" }, body: '{"entries":[{"type":"action"}]}' },
});

Deno.test("admin endpoints refuse a non-loopback client and serve a loopback one", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  for (const path of ADMIN) {
    const res = await call(path, {}, { remoteAddr: { hostname: "192.168.1.20" } });
    assert.equal(res.status, 403, path);
    assert.equal((await res.json()).error, "admin endpoints answer loopback clients only, not 192.168.1.20");
  }
  for (const host of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
    const res = await call("/_admin/health", {}, { remoteAddr: { hostname: host } });
    assert.equal(res.status, 200, host);
    assert.deepEqual((await res.json()).apps, ["notes"]);
  }
});

Deno.test("the recorder and clipboard endpoints refuse a non-loopback client", async () => {
  const sb = createSandbox({ apps: [notesApp] });
  const call = client(sb);
  await (await call("/_admin/session-flags")).body?.cancel();
  const remote = { remoteAddr: { hostname: "10.0.0.7" } };
  for (const { path, init } of [recorderPost("/_sandbox/record"), recorderPost("/_sandbox/clipboard")]) {
    const res = await call(path, init, remote);
    assert.equal(res.status, 403, path);
    assert.equal((await res.json()).error, "the recorder endpoints answer loopback clients only, not 10.0.0.7");
  }
  assert.equal(((await (await call("/_admin/record")).json()) as Json).entries.length, 0);
  const page = await call("/notes/", {}, remote);
  await page.body?.cancel();
  assert.equal(page.status, 200, "the apps themselves serve any client");
  const local = await call("/_sandbox/record", recorderPost("").init, { remoteAddr: { hostname: "127.0.0.1" } });
  assert.equal(local.status, 204);
  assert.equal(((await (await call("/_admin/record")).json()) as Json).entries.length, 1);
});

Deno.test("admin endpoints refuse a request a browser made (fetch metadata headers)", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  await (await call("/_admin/session-flags")).body?.cancel();
  for (
    const [header, value] of [["sec-fetch-site", "same-origin"], ["sec-fetch-mode", "cors"], ["sec-fetch-dest", ""]]
  ) {
    for (const path of ADMIN) {
      const res = await call(path, { headers: { [header]: value } });
      assert.equal(res.status, 403, `${path} with ${header}`);
      assert.equal(
        (await res.json()).error,
        `admin endpoints answer the harness only, not a browser: ` +
          `the request carries ${header}: ${value}`,
      );
    }
  }
  const page = await call("/notes/", { headers: { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" } });
  await page.body?.cancel();
  assert.equal(page.status, 200);
});

/** This machine's first non-loopback IPv4 address (null when it has none, or may not be asked). */
function lanAddress(): string | null {
  if (Deno.permissions.querySync({ name: "sys", kind: "networkInterfaces" }).state !== "granted") return null;
  return Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))?.address ?? null;
}

Deno.test({
  name: "startSites() on 0.0.0.0 serves the apps to another address, the admin and recorder endpoints to loopback only",
  // Needs a non-loopback address and the permission to bind 0.0.0.0 (`deno task test` grants 127.0.0.1 only).
  ignore: Deno.permissions.querySync({ name: "net", host: "0.0.0.0" }).state !== "granted" || lanAddress() === null,
  fn: async () => {
    await using srv = await startSites({ apps: [notesApp], port: 0, hostname: "0.0.0.0" });
    const port = new URL(srv.base).port;
    const lan = `http://${lanAddress()}:${port}`, local = `http://127.0.0.1:${port}`;
    const page = await fetch(`${lan}/notes/`);
    await page.body?.cancel();
    assert.equal(page.status, 200);
    const cookie = page.headers.get("set-cookie")!.split(";")[0];
    for (const path of ["/_admin/health", "/_admin/session-flags", "/_admin/log"]) {
      const res = await fetch(lan + path, { headers: { cookie } });
      assert.equal(res.status, 403, path);
      assert.match((await res.json()).error, /^admin endpoints answer loopback clients only, not /);
    }
    for (const { path, init } of [recorderPost("/_sandbox/record"), recorderPost("/_sandbox/clipboard")]) {
      const res = await fetch(lan + path, { ...init, headers: { ...init.headers, cookie } });
      assert.equal(res.status, 403, path);
      await res.body?.cancel();
    }
    const log = await fetch(`${local}/_admin/record`, { headers: { cookie } });
    assert.deepEqual(await log.json(), { session: cookie.split("=")[1], entries: [] });
  },
});

Deno.test("a logged-out session is sent to /login by a guarded app and back after signing in", async () => {
  const call = client(createSandbox({ apps: [notesApp, secretApp] }));
  await (await call("/_admin/session-flags?logout=1")).body?.cancel();
  const res = await call("/secret/?x=1");
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "/login?next=%2Fsecret%2F%3Fx%3D1");
  assert.equal((await call("/notes/")).status, 200, "an unguarded app stays open");
  const bad = await call("/login", form({ username: DEFAULT_USER.username, password: "wrong", next: "/secret/" }));
  assert.equal(bad.status, 401);
  assert.match(await bad.text(), /Wrong username or password/);
  const good = await call("/login", form({ ...DEFAULT_USER, next: "/secret/?x=1" }));
  assert.equal(good.status, 303);
  assert.equal(good.headers.get("location"), "/secret/?x=1");
  assert.equal((await call("/secret/")).status, 200);
});

Deno.test("the recorder and clipboard endpoints append to the session's streams in one order", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  const post = (path: string, body: unknown) =>
    call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  await (await call("/notes/")).body?.cancel();
  await post("/_sandbox/record", { entries: [{ type: "action", action: "click", target: "button#save" }] });
  await post("/_sandbox/clipboard", { text: "ORD-1042", url: "http://x/notes/" });
  const rec = ((await (await call("/_admin/record")).json()) as Json).entries;
  const clip = ((await (await call("/_admin/clipboard")).json()) as Json).entries;
  const log = ((await (await call("/_admin/log")).json()) as Json).entries;
  assert.deepEqual([rec[0].action, rec[0].target], ["click", "button#save"]);
  assert.equal(clip[0].text, "ORD-1042");
  assert.ok((log[0].seq as number) < (rec[0].seq as number) && (rec[0].seq as number) < (clip[0].seq as number));
  const since = ((await (await call(`/_admin/record?since=${rec[0].seq}`)).json()) as Json).entries;
  assert.equal(since.length, 0);
});

Deno.test("pages carry the frozen clock, the recorder and the widgets; unknown paths get a 404 page", async () => {
  const call = client(createSandbox({ apps: [notesApp], now: "2026-04-01T09:30:00Z" }));
  const page = await (await call("/notes/")).text();
  assert.match(page, /window.__SANDBOX_NOW = "2026-04-01T09:30:00.000Z"/);
  assert.match(page, /\/_sandbox\/recorder.js/);
  const js = await (await call("/_sandbox/recorder.js")).text();
  assert.match(js, /__webmix/);
  const missing = await call("/nowhere");
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /Page not found/);
  assert.throws(() => createSandbox({ apps: [], now: "yesterday" }), /--now "yesterday" is not an ISO date/);
});

Deno.test("startSites() serves the portal and the admin protocol over HTTP on 127.0.0.1", async () => {
  await using srv = await startSites({ apps: [notesApp, secretApp], port: 0 });
  assert.match(srv.base, /^http:\/\/127\.0\.0\.1:\d+$/);
  const home = await fetch(srv.base + "/");
  const cookie = home.headers.get("set-cookie")!.split(";")[0];
  const html = await home.text();
  assert.match(html, /href="\/notes\/"/);
  assert.match(html, /href="\/secret\/"/);
  const post = await fetch(srv.base + "/notes/", {
    method: "POST",
    body: new URLSearchParams({ body: "over http" }),
    headers: { cookie },
    redirect: "manual",
  });
  await post.body?.cancel();
  assert.equal(post.status, 303);
  const changes = await (await fetch(srv.base + "/_admin/changes", { headers: { cookie } })).json() as Json;
  assert.equal((changes.entries[0].after as { body: string }).body, "over http");
  const health = await fetch(srv.base + "/_admin/health");
  assert.equal((await health.json()).ok, true);
});

Deno.test("the favicon and static assets open no session and set no cookie", async () => {
  // A cookie-less favicon request answered with a new session's cookie could overwrite, in the browser, the
  // session the harness had just reset.
  const sb = createSandbox({ apps: [notesApp] });
  for (const path of ["/favicon.ico", "/_sandbox/recorder.js"]) {
    const res = await sb.request(path);
    await res.body?.cancel();
    assert.ok(res.status < 400, `${path}: ${res.status}`);
    assert.equal(res.headers.get("set-cookie"), null, path);
  }
  assert.equal(sb.sessions.size, 0);
  const page = await sb.request("/notes/");
  await page.body?.cancel();
  assert.match(page.headers.get("set-cookie") ?? "", /webmix_sid=/);
  assert.equal(sb.sessions.size, 1);
});
