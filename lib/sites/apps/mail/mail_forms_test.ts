import assert from "node:assert/strict";
import { assertHas, Client } from "./_testing.ts";

function composeForm(fields: Record<string, string>, files: File[] = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append("attachment", file);
  if (files.length === 0) f.append("attachment", new File([], ""));
  return f;
}

const GOOD = {
  to: "Priya Nair <priya.nair@larkspur.example>",
  cc: "",
  subject: "Mockups",
  body: "Looks great.",
  action: "send",
};

Deno.test("sending: bad submissions are 422 with their errors and change nothing", async () => {
  const c = new Client();
  const cases: [Record<string, string>, string][] = [
    [{ ...GOOD, to: "", cc: "" }, "Add at least one recipient."],
    [{ ...GOOD, cc: "marcus.chen@sandbox.test, bob@" }, "“bob@” is not a valid email address."],
    [{ ...GOOD, to: "priya at larkspur" }, "“priya at larkspur” is not a valid email address."],
    [{ ...GOOD, subject: "  " }, "Enter a subject."],
  ];
  for (const [fields, error] of cases) {
    const r = await c.post("/mail/compose", composeForm(fields));
    assert.equal(r.status, 422, error);
    assertHas(r.text, 'class="errors" role="alert"', 'class="field-error"', error);
  }
  const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "scan.pdf", { type: "application/pdf" });
  const r = await c.post("/mail/compose", composeForm(GOOD, [big]));
  assert.equal(r.status, 422);
  assertHas(r.text, "“scan.pdf” is 5.0 MB; attachments must be 5 MB or smaller.", "Choose your attachments again.");
  assertHas(r.text, 'value="Mockups"', "Looks great.");
  assert.deepEqual(await c.changes(), []);
});

Deno.test("sending: a good message is stored in Sent with its signature and attachments", async () => {
  const c = new Client();
  const file = new File(["agenda line 1\nagenda line 2"], "agenda.txt", { type: "text/plain" });
  const r = await c.post(
    "/mail/compose",
    composeForm({ ...GOOD, cc: "marcus.chen@sandbox.test; sofia.rossi@sandbox.test" }, [file]),
  );
  assert.equal(r.status, 303);
  assert.match(r.headers.get("location") ?? "", /^\/mail\/sent\?flash=/);
  const [msg, att] = await c.changes();
  assert.equal(msg.table, "messages");
  assert.equal(msg.op, "insert");
  assert.equal(msg.key, 61);
  assert.equal(msg.after?.folder, "sent");
  assert.equal(msg.after?.to_addrs, "priya.nair@larkspur.example");
  assert.equal(msg.after?.cc_addrs, "marcus.chen@sandbox.test, sofia.rossi@sandbox.test");
  assert.equal(msg.after?.date, "2026-03-15T10:00:00.000Z");
  assert.equal(msg.after?.body, "Looks great.\n\n-- \nAlex Morgan\nOperations Manager, Sandbox Co.\n+1 617 555 0142");
  assert.deepEqual([att.table, att.op, att.after?.message_id, att.after?.name, att.after?.size, att.after?.type], [
    "attachments",
    "insert",
    61,
    "agenda.txt",
    27,
    "text/plain",
  ]);
  assertHas(
    (await c.get(r.headers.get("location")!)).text,
    "Message “Mockups” sent to priya.nair@larkspur.example",
    "10 messages",
  );
  assertHas((await c.get(`/mail/attachments/${att.key}`)).text, "agenda line 2");
});

Deno.test("replying, forwarding and drafts link the new message to its source", async () => {
  const c = new Client();
  const reply = { ...GOOD, subject: "Re: Q2 planning meeting moved to Thursday", reply_id: "1" };
  assert.equal((await c.post("/mail/compose", composeForm({ ...reply, to: "sofia.rossi@sandbox.test" }))).status, 303);
  const fwd = { ...GOOD, subject: "Fwd: Invoice NW-5521", forward_id: "6", to: "emma.lindqvist@brightwater.example" };
  assert.equal((await c.post("/mail/compose", composeForm(fwd))).status, 303);
  const draft = { to: "", cc: "", subject: "Half-written", body: "", action: "draft" };
  const saved = await c.post("/mail/compose", composeForm(draft));
  assert.equal(saved.headers.get("location"), "/mail/drafts?flash=Draft%20saved.");
  const send = { ...GOOD, subject: "Vacation request: April 7-14", draft_id: "55", to: "hannah.kim@sandbox.test" };
  assert.equal((await c.post("/mail/compose", composeForm(send))).status, 303);
  const ch = await c.changes();
  assert.deepEqual(ch.map((e) => [e.table, e.op, e.key]), [
    ["messages", "insert", 61],
    ["messages", "insert", 62],
    ["attachments", "insert", 12],
    ["messages", "insert", 63],
    ["messages", "update", 55],
  ]);
  assert.equal(ch[0].after?.in_reply_to, 1);
  assert.equal(ch[1].after?.forward_of, 6);
  assert.equal(ch[2].after?.name, "invoice_NW-5521.txt");
  assert.equal(ch[3].after?.folder, "drafts");
  assert.deepEqual([ch[4].before?.folder, ch[4].after?.folder], ["drafts", "sent"]);
});

Deno.test("contacts: bad ones are 422 with no change, a good one is inserted", async () => {
  const c = new Client();
  const bad: [Record<string, string>, string][] = [
    [{ name: "", email: "nina@orbit.example" }, "Enter a name."],
    [{ name: "Nina", email: "nina.orbit.example" }, "Enter a valid email address"],
    [{ name: "Priya 2", email: "PRIYA.NAIR@larkspur.example" }, "already exists (Priya Nair)"],
  ];
  for (const [form, error] of bad) {
    const r = await c.post("/mail/contacts", form);
    assert.equal(r.status, 422);
    assertHas(r.text, 'role="alert"', 'class="field-error"', error, `value="${form.name}"`);
  }
  assert.deepEqual(await c.changes(), []);
  const ok = await c.post("/mail/contacts", {
    name: "Nina Patel",
    email: "nina.patel@orbit.example",
    company: "Orbit",
  });
  assert.equal(ok.status, 303);
  const [e] = await c.changes();
  assert.deepEqual([e.table, e.op, e.after?.name, e.after?.email, e.after?.company], [
    "contacts",
    "insert",
    "Nina Patel",
    "nina.patel@orbit.example",
    "Orbit",
  ]);
  assertHas((await c.get("/mail/contacts")).text, "16 contacts", 'data-copy="nina.patel@orbit.example"');
  assertHas((await c.get("/mail/compose")).text, "Nina Patel &lt;nina.patel@orbit.example&gt;");
});

Deno.test("settings: signature and preferences validate, save and take effect", async () => {
  const c = new Client();
  const long = await c.post("/mail/settings/signature", { signature: "x".repeat(301) });
  assert.equal(long.status, 422);
  assertHas(long.text, "The signature is 301 characters long", 'class="field-error"');
  const badPrefs = await c.post("/mail/settings", { reading_pane: "left", page_size: "15" });
  assert.equal(badPrefs.status, 422);
  assertHas(badPrefs.text, "Choose a reading pane option.");
  assert.deepEqual(await c.changes(), []);
  assert.equal((await c.post("/mail/settings/signature", { signature: "Alex\r\nOps" })).status, 303);
  assert.equal((await c.post("/mail/settings", { reading_pane: "off", page_size: "50" })).status, 303);
  const ch = await c.changes();
  assert.deepEqual(ch.map((e) => [e.table, e.after?.signature, e.after?.page_size]), [
    ["settings", "Alex\nOps", 15],
    ["settings", "Alex\nOps", 50],
  ]);
  const inbox = await c.get("/mail/inbox");
  assert.equal((inbox.text.match(/<tr class="(un)?read"/g) ?? []).length, 33);
});

Deno.test("message actions: star, labels, move, mark unread, delete to Trash and forever", async () => {
  const c = new Client();
  const star = await c.post("/mail/messages/2/star", { return: "/mail/inbox?page=1" });
  assert.equal(star.headers.get("location"), "/mail/inbox?page=1&flash=Message%20starred.");
  const badLabel = await c.post("/mail/messages/2/labels", { label: ["Work", "Spam"] });
  assert.equal(badLabel.status, 422);
  assertHas(badLabel.text, "“Spam” is not a label.");
  assert.equal((await c.post("/mail/messages/2/labels", { label: ["Travel", "Work"] })).status, 303);
  assert.equal((await c.post("/mail/messages/3/labels", {})).status, 303);
  assert.equal((await c.post("/mail/messages/5/move", { folder: "sent" })).status, 422);
  assert.equal((await c.post("/mail/messages/5/move", { folder: "archive" })).status, 303);
  assert.equal((await c.post("/mail/messages/16/unread", {})).status, 303);
  assert.equal(
    (await c.post("/mail/messages/17/delete", {})).headers.get("location"),
    "/mail/inbox?flash=Message%20moved%20to%20Trash.",
  );
  assert.equal((await c.post("/mail/messages/56/delete", {})).status, 303);
  const ch = await c.changes();
  const brief = ch.map((e) => [e.table, e.op, e.key, e.after ? JSON.stringify(e.after) : null]);
  assert.deepEqual(brief.map((b) => b.slice(0, 3)), [
    ["messages", "update", 2],
    ["messages", "update", 2],
    ["messages", "update", 3],
    ["messages", "update", 5],
    ["messages", "update", 16],
    ["messages", "update", 17],
    ["messages", "delete", 56],
  ]);
  assert.equal(ch[0].after?.starred, 1);
  assert.equal(ch[1].after?.labels, "Work,Travel");
  assert.equal(ch[2].after?.labels, "");
  assert.equal(ch[3].after?.folder, "archive");
  assert.equal(ch[4].after?.read, 0);
  assert.equal(ch[5].after?.folder, "trash");
  assertHas((await c.get("/mail/trash")).text, "Coffee machine on 3rd floor is fixed");
});
