/** The admin client against a real site server over HTTP (Deno's fetch, as lib/browser's channel calls it too). */
import assert from "node:assert/strict";
import { SiteProtocolError } from "../errors/mod.ts";
import {
  type AdminChannel,
  CookieChannel,
  endSession,
  readLoginState,
  readSessionStreams,
  startSession,
  startSites,
} from "./mod.ts";
import { notesApp } from "./testdata/notes_app.ts";

/** The harness's channel, and the page requests of its browser (which adopt the cookie the server sets). */
class FetchChannel extends CookieChannel {
  async browse(base: string, path: string, init: RequestInit = {}): Promise<number> {
    const res = await fetch(base + path, { ...init, headers: { cookie: this.cookie }, redirect: "manual" });
    await res.body?.cancel();
    this.cookie = res.headers.get("set-cookie")?.split(";")[0] ?? this.cookie;
    return res.status;
  }
}

const LOST =
  /^SiteProtocolError: the site server lost the episode's session [0-9a-f-]{36} \(restarted, or the session was evicted\): /;

Deno.test("startSession() returns the session id; the reads check it; endSession() ends it", async () => {
  await using srv = await startSites({ apps: [notesApp], port: 0 });
  const ch = new FetchChannel();
  const started = await startSession(ch, srv.base, { logout: true });
  assert.equal(ch.cookie, `webmix_sid=${started.session}`);
  assert.equal(await ch.browse(srv.base, "/notes/", { method: "POST", body: new URLSearchParams({ body: "x" }) }), 303);
  const streams = await readSessionStreams(ch, srv.base, { ...started, since: 0 });
  assert.equal(streams.changes.length, 1);
  assert.equal(await readLoginState(ch, srv.base, started), false);
  await endSession(ch, srv.base);
  assert.equal(srv.sandbox.sessions.size, 0);
  const read = readSessionStreams(ch, srv.base, started);
  await assert.rejects(read, (err: Error) => {
    assert.ok(err instanceof SiteProtocolError);
    assert.match(String(err), LOST);
    assert.match(err.message, /answered 410: .*ended: session/);
    return true;
  });
  await endSession(ch, srv.base); // ending twice is no error
});

Deno.test("the reads throw when the site server restarted under the episode", async () => {
  const first = await startSites({ apps: [notesApp], port: 0 });
  const port = Number(new URL(first.base).port);
  const ch = new FetchChannel();
  const started = await startSession(ch, first.base, { logout: false });
  await first.close();
  await using srv = await startSites({ apps: [notesApp], port });
  // Read before any page request: the cookie names a session the new server never had.
  await assert.rejects(readSessionStreams(ch, srv.base, started), LOST);
  await assert.rejects(readLoginState(ch, srv.base, started), /answered 410: .*unknown session/);
  // A page request gives the browser a fresh session: the server answers for it, not for the episode's.
  assert.equal(await ch.browse(srv.base, "/notes/"), 200);
  const other = ch.cookie.split("=")[1];
  assert.notEqual(other, started.session);
  await assert.rejects(readSessionStreams(ch, srv.base, started), new RegExp(`answered for session ${other}$`));
  await assert.rejects(readLoginState(ch, srv.base, started), LOST);
  await endSession(ch, srv.base); // another session answering: the episode's own is gone already, no error
});

Deno.test("startSession() surfaces the server's refusal past its harness session limit", async () => {
  await using srv = await startSites({ apps: [notesApp], port: 0, maxHarnessSessions: 1 });
  const one = new FetchChannel(), two = new FetchChannel();
  await startSession(one, srv.base, { logout: false });
  await assert.rejects(startSession(two, srv.base, { logout: false }), /answered 503: .*at most 1 harness sessions/);
  await endSession(one, srv.base);
  assert.match(String((await startSession(two, srv.base, { logout: false })).session), /^[0-9a-f-]{36}$/);
});

Deno.test("an external server that names no session is taken at its word", async () => {
  const answers: Record<string, unknown> = {
    "/_admin/session-flags": { ok: true },
    "/_admin/state": { logged_in: true },
  };
  const paths: string[] = [];
  const external: AdminChannel = {
    adminGet: (base, path) => {
      paths.push(path);
      if (path === "/_admin/session-end") throw new SiteProtocolError(`GET ${base}${path} answered 404: ""`);
      return Promise.resolve(answers[path] ?? { entries: [{ seq: 1 }] });
    },
    adminCall: (_base, path) => Promise.resolve(answers[path]),
    flushRecorder: () => Promise.resolve(),
  };
  const started = await startSession(external, "http://ext", { logout: false });
  assert.deepEqual(started, { session: null });
  assert.equal((await readSessionStreams(external, "http://ext", started)).log.length, 1);
  // An id the harness holds, and a server that answers none: accepted too.
  const named = { session: "00000000-0000-0000-0000-000000000000" };
  assert.equal(await readLoginState(external, "http://ext", named), true);
  await endSession(external, "http://ext");
  assert.ok(paths.includes("/_admin/session-end"));
});
