/** The session lifecycle through the sandbox's handler: started by the harness, read with its id, ended; evictions. */
import assert from "node:assert/strict";
import { createSandbox, type Sandbox, type Session, type SessionGone, SessionStore } from "./mod.ts";
import { notesApp } from "./testdata/notes_app.ts";

type Answer = { status: number; json: Record<string, unknown>; setCookie: string | null };

/** One client of the sandbox: keeps the cookie it is given (or starts with `cookie`). */
function client(sb: Sandbox, cookie = "") {
  const jar = { cookie };
  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await sb.request(path, {
      ...init,
      headers: { ...init.headers, cookie: jar.cookie },
      redirect: "manual",
    });
    const setCookie = res.headers.get("set-cookie");
    if (setCookie) jar.cookie = setCookie.split(";")[0];
    const text = await res.text();
    const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : { html: text };
    return { status: res.status, json, setCookie };
  };
  return Object.assign(call, { jar });
}

const note = (body: string) => ({ method: "POST", body: new URLSearchParams({ body }) });
const STREAMS = ["/_admin/log", "/_admin/changes", "/_admin/clipboard", "/_admin/record", "/_admin/state"];

Deno.test("admin requests without a cookie open no session", async () => {
  const sb = createSandbox({ apps: [notesApp] });
  for (let i = 0; i < 600; i++) {
    const res = await sb.request("/_admin/health");
    assert.equal(res.headers.get("set-cookie"), null);
    await res.body?.cancel();
  }
  assert.equal(sb.sessions.size, 0);
});

Deno.test("harness sessions outlive any number of cookie-less requests and browsing sessions", async () => {
  const sb = createSandbox({ apps: [notesApp] });
  const episodes = Array.from({ length: 8 }, () => client(sb));
  for (const [i, call] of episodes.entries()) {
    assert.equal((await call("/_admin/session-flags")).status, 200);
    assert.equal((await call("/notes/", note(`episode ${i}`))).status, 303);
  }
  for (let i = 0; i < 600; i++) {
    await (await sb.request("/_admin/health")).body?.cancel();
    await (await sb.request("/notes/")).body?.cancel(); // a browser without a cookie: a new browsing session
  }
  for (const [i, call] of episodes.entries()) {
    const { status, json } = await call("/_admin/changes");
    assert.equal(status, 200);
    assert.deepEqual((json.entries as { after: { body: string } }[]).map((e) => e.after.body), [`episode ${i}`]);
  }
  assert.deepEqual([sb.sessions.count("harness"), sb.sessions.count("browsing")], [8, 512]);
});

Deno.test("every evidence read answers with the id of the session session-flags started", async () => {
  const call = client(createSandbox({ apps: [notesApp] }));
  const started = await call("/_admin/session-flags");
  assert.match(String(started.json.session), /^[0-9a-f-]{36}$/);
  assert.equal(call.jar.cookie, `webmix_sid=${started.json.session}`);
  for (const path of STREAMS) {
    const { status, json } = await call(path);
    assert.equal(status, 200, path);
    assert.equal(json.session, started.json.session, path);
  }
});

Deno.test("reading a missing, unknown, evicted or ended session answers 410 naming why, and opens none", async () => {
  const sb = createSandbox({ apps: [notesApp], maxBrowsingSessions: 2 });
  const evicted = client(sb), ended = client(sb);
  await evicted("/notes/");
  await ended("/_admin/session-flags");
  await client(sb)("/notes/");
  await client(sb)("/notes/"); // the third browsing session: the first is evicted
  assert.equal((await ended("/_admin/session-end")).status, 200);
  const cases: [ReturnType<typeof client>, RegExp][] = [
    [client(sb), /^no session: the request carries no webmix_sid cookie/],
    [client(sb, "webmix_sid=not-a-session"), /^unknown session "not-a-session": this server never started it/],
    [evicted, /^evicted: the sandbox holds at most 2 browsing sessions and session "[0-9a-f-]+" was the least/],
    [ended, /^ended: session "[0-9a-f-]+" was ended with \/_admin\/session-end/],
  ];
  const before = sb.sessions.size;
  for (const [call, error] of cases) {
    for (const path of STREAMS) {
      const { status, json, setCookie } = await call(path);
      assert.equal(status, 410, `${path} with "${call.jar.cookie}"`);
      assert.match(String(json.error), error);
      assert.equal(setCookie, null);
    }
  }
  assert.equal(sb.sessions.size, before);
});

Deno.test("session-flags refuses one harness session past maxHarnessSessions; session-end frees a place", async () => {
  const sb = createSandbox({ apps: [notesApp], maxHarnessSessions: 2 });
  const [a, b, c] = [client(sb), client(sb), client(sb)];
  await a("/_admin/session-flags");
  await b("/notes/");
  await b("/_admin/session-flags"); // a browsing session the harness adopts counts as a harness session
  const refused = await c("/_admin/session-flags");
  assert.equal(refused.status, 503);
  assert.match(String(refused.json.error), /^the sandbox holds at most 2 harness sessions and all are in use/);
  assert.equal(refused.setCookie, null);
  assert.equal((await a("/_admin/session-flags")).status, 200, "restarting a live harness session is no new one");
  const end = await a("/_admin/session-end");
  assert.deepEqual([end.status, end.json.ended, end.json.session], [200, true, a.jar.cookie.split("=")[1]]);
  assert.equal((await c("/_admin/session-flags")).status, 200);
  assert.equal(sb.sessions.count("harness"), 2);
});

Deno.test("an ended session is not brought back by a late request of its page", async () => {
  const sb = createSandbox({ apps: [notesApp] });
  const call = client(sb);
  await call("/_admin/session-flags");
  await call("/notes/", note("written before the end"));
  await call("/_admin/session-end");
  const cookie = call.jar.cookie;
  const page = await call("/notes/");
  assert.equal(page.status, 410);
  assert.match(String(page.json.html), /This session has ended/);
  const post = { method: "POST", headers: { "content-type": "application/json" } };
  const record = await call("/_sandbox/record", { ...post, body: JSON.stringify({ entries: [{ type: "action" }] }) });
  const clip = await call("/_sandbox/clipboard", { ...post, body: JSON.stringify({ text: "late" }) });
  assert.deepEqual([record.status, clip.status], [410, 410]);
  assert.equal(call.jar.cookie, cookie, "no new cookie");
  assert.equal(sb.sessions.size, 0);
  assert.equal((await call("/_admin/session-end")).status, 200, "ending twice is no error");
  const restarted = await call("/_admin/session-flags");
  assert.notEqual(`webmix_sid=${restarted.json.session}`, cookie, "a new start is a new session");
});

Deno.test("a browser with an unknown or evicted cookie browses on in a new session", async () => {
  const sb = createSandbox({ apps: [notesApp], maxBrowsingSessions: 1 });
  const human = client(sb, "webmix_sid=from-before-a-restart");
  const page = await human("/notes/");
  assert.equal(page.status, 200);
  assert.notEqual(human.jar.cookie, "webmix_sid=from-before-a-restart");
  const first = human.jar.cookie;
  await client(sb)("/notes/");
  assert.equal((await human("/notes/")).status, 200);
  assert.notEqual(human.jar.cookie, first);
});

Deno.test("SessionStore evicts the least recently used browsing session; start() makes a browsing one a harness one", () => {
  const store = new SessionStore(new Map(), { maxBrowsing: 2 });
  const [a, b] = [store.browse(undefined), store.browse(undefined)] as Session[];
  assert.equal(store.find(a.id), a, "a used: b is now the least recently used");
  const c = store.browse(undefined) as Session;
  assert.equal((store.find(b.id) as SessionGone).reason, "evicted");
  assert.equal(store.start(a.id), a, "a browsing session the harness starts keeps its id");
  assert.equal(store.start(a.id), a);
  assert.deepEqual([store.count("harness"), store.count("browsing")], [1, 1]);
  for (let i = 0; i < 3; i++) store.browse(undefined);
  assert.equal(store.find(a.id), a, "a harness session is never evicted");
  assert.equal((store.find(c.id) as SessionGone).reason, "evicted");
  assert.equal(store.end(a.id), a);
  assert.deepEqual([store.count("harness"), (store.find(a.id) as SessionGone).reason], [0, "ended"]);
});
