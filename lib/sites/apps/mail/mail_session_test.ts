import assert from "node:assert/strict";
import { createSandbox, startSites } from "../../server.ts";
import { assertHas, assertLacks, Client } from "./_testing.ts";
import { mailApp } from "./mod.ts";

Deno.test("the seed holds 60 messages, 11 attachments, 15 contacts and one settings row", () => {
  const rows = mailApp.seed().rows;
  assert.deepEqual(
    Object.fromEntries(Object.entries(rows).map(([t, r]) => [t, r.length])),
    { messages: 60, attachments: 11, contacts: 15, settings: 1 },
  );
  const count = (folder: string) => rows.messages.filter((m) => m.folder === folder).length;
  assert.deepEqual(["inbox", "archive", "sent", "drafts", "trash"].map(count), [33, 10, 9, 3, 5]);
  assert.deepEqual(mailApp.seed(), mailApp.seed());
});

Deno.test("a session-flags reset restores the seed", async () => {
  const c = new Client();
  await c.post("/mail/contacts", { name: "Nina Patel", email: "nina.patel@orbit.example" });
  await c.post("/mail/messages/7/move", { folder: "archive" });
  assert.equal((await c.changes()).length, 2);
  await c.reset();
  assert.deepEqual(await c.changes(), []);
  assertLacks((await c.get("/mail/contacts")).text, "Nina Patel");
  assertHas((await c.get("/mail/inbox")).text, "33 messages, 12 unread");
});

Deno.test("two sessions do not see each other's writes", async () => {
  const sb = createSandbox({ apps: [mailApp] });
  const a = new Client(sb);
  const b = new Client(sb);
  await a.get("/mail/inbox");
  await b.get("/mail/inbox");
  assert.notEqual(a.cookie, b.cookie);
  assert.equal((await a.post("/mail/messages/1/delete", {})).status, 303);
  assertHas((await a.get("/mail/trash")).text, "Q2 planning meeting moved to Thursday");
  assertLacks((await b.get("/mail/trash")).text, "Q2 planning meeting moved to Thursday");
  assertHas((await b.get("/mail/inbox")).text, "33 messages");
  assert.equal((await a.changes()).length, 1);
  assert.deepEqual(await b.changes(), []);
});

Deno.test("through the real server: open, label and send a multipart message with an attachment", async () => {
  await using srv = await startSites({ apps: [mailApp], port: 0 });
  let cookie = "";
  const go = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set("cookie", cookie);
    const res = await fetch(srv.base + path, { ...init, headers, redirect: "manual" });
    cookie ||= (res.headers.get("set-cookie") ?? "").split(";")[0];
    return { status: res.status, location: res.headers.get("location"), text: await res.text() };
  };
  assertHas((await go("/mail/messages/10")).text, "Q1 advisory fee invoice BW-0312", 'id="label-finance" checked');
  const labels = await go("/mail/messages/10/labels", {
    method: "POST",
    body: new URLSearchParams([["label", "Finance"], ["label", "Work"]]),
  });
  assert.equal(labels.status, 303);
  const form = new FormData();
  form.append("to", "Emma Lindqvist <emma.lindqvist@brightwater.example>");
  form.append("subject", "Re: Q1 advisory fee invoice BW-0312");
  form.append("body", "Paid today.");
  form.append("reply_id", "10");
  form.append("action", "send");
  form.append("attachment", new File(["receipt"], "receipt.txt", { type: "text/plain" }));
  const sent = await go("/mail/compose", { method: "POST", body: form });
  assert.equal(sent.status, 303);
  assert.match(sent.location ?? "", /^\/mail\/sent/);
  const changes = JSON.parse((await go("/_admin/changes")).text).entries;
  assert.deepEqual(changes.map((e: { table: string; op: string }) => `${e.table}:${e.op}`), [
    "messages:update",
    "messages:update",
    "messages:insert",
    "attachments:insert",
  ]);
  assert.equal(changes[1].after.labels, "Work,Finance");
  assert.equal(changes[3].after.name, "receipt.txt");
  const log = JSON.parse((await go("/_admin/log")).text).entries;
  const post = log.find((e: { method: string; path: string }) => e.method === "POST" && e.path === "/mail/compose");
  assert.deepEqual(post.body.attachment, { name: "receipt.txt", size: 7, type: "text/plain" });
});
