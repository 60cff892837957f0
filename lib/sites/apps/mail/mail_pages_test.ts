import assert from "node:assert/strict";
import { assertHas, assertLacks, Client } from "./_testing.ts";

Deno.test("mail pages render with their content", async () => {
  const c = new Client();
  const pages: [string, string][] = [
    ["/mail/inbox", "33 messages, 12 unread"],
    ["/mail/inbox?page=3", "31–33 of 33"],
    ["/mail/starred", "Your flight confirmation: Boston to Lisbon"],
    ["/mail/sent", "Lisbon trip in April"],
    ["/mail/drafts", "Vacation request: April 7-14"],
    ["/mail/archive", "Invoice SP-0219 for legal services"],
    ["/mail/trash", "You&#39;ve won a gift card!"],
    ["/mail/labels/Finance", "Invoice NW-5521 for February shipments"],
    ["/mail/search?q=lisbon", "Hotel options in Lisbon"],
    ["/mail/search", "Type a word from a subject"],
    ["/mail/messages/6", "Amount due: $4,870.00"],
    ["/mail/compose", "New message"],
    ["/mail/contacts", "priya.nair@larkspur.example"],
    ["/mail/contacts/1", "Messages with Priya Nair (6)"],
    ["/mail/settings", "Operations Manager, Sandbox Co."],
  ];
  for (const [path, text] of pages) {
    const r = await c.get(path);
    assert.equal(r.status, 200, path);
    assertHas(r.text, text);
  }
  assert.equal((await c.get("/mail/messages/999")).status, 404);
  assert.equal((await c.get("/mail/labels/Spam")).status, 404);
});

Deno.test("mail home redirects to the inbox, and a signed-out session to the login page", async () => {
  const c = new Client();
  const home = await c.get("/mail/");
  assert.equal(home.status, 302);
  assert.equal(home.headers.get("location"), "/mail/inbox");
  await c.get("/_admin/session-flags?logout=1");
  const r = await c.get("/mail/inbox");
  assert.equal(r.status, 302);
  assert.equal(r.headers.get("location"), "/login?next=%2Fmail%2Finbox");
});

Deno.test("folder lists paginate by 15 and the folder menu counts messages", async () => {
  const c = new Client();
  const p1 = await c.get("/mail/inbox");
  assert.equal((p1.text.match(/<tr class="(un)?read"/g) ?? []).length, 15);
  assertHas(p1.text, "1–15 of 33", 'id="next-page"', "Hannah Kim", 'id="folder-drafts"');
  assertLacks(p1.text, "Team offsite survey");
  const p3 = await c.get("/mail/inbox?page=3");
  assert.equal((p3.text.match(/<tr class="(un)?read"/g) ?? []).length, 3);
  assertHas(p3.text, "Team offsite survey", "CloudNest invoice CN-2026-02");
  assert.deepEqual(await c.changes(), []);
});

Deno.test("search matches subject, sender and body, and leaves out Trash", async () => {
  const c = new Client();
  assertHas((await c.get("/mail/search?q=QX7L2M")).text, "1 message found", "Your flight confirmation");
  assertHas((await c.get("/mail/search?q=Okafor")).text, "Warehouse walkthrough next week");
  assertHas((await c.get("/mail/search?q=invoice")).text, "Invoice HP-1187");
  assertHas((await c.get("/mail/search?q=gift%20card")).text, "0 messages found");
  assertHas((await c.get("/mail/search?q=100%25")).text, "0 messages found");
});

Deno.test("opening a message marks it read (one recorded update); reading it again writes nothing", async () => {
  const c = new Client();
  await c.get("/mail/messages/1");
  await c.get("/mail/messages/1");
  await c.get("/mail/messages/6");
  const changes = await c.changes();
  assert.equal(changes.length, 1);
  assert.equal(changes[0].table, "messages");
  assert.equal(changes[0].op, "update");
  assert.equal(changes[0].key, 1);
  assert.equal(changes[0].before?.read, 0);
  assert.equal(changes[0].after?.read, 1);
  assertHas((await c.get("/mail/inbox")).text, "33 messages, 11 unread");
});

Deno.test("attachments open inline as text and download as attachments", async () => {
  const c = new Client();
  const msg = await c.get("/mail/messages/9");
  assertHas(
    msg.text,
    'href="/mail/attachments/3" target="_blank"',
    "invoice_HP-1187.txt",
    'id="download-attachment-3"',
  );
  const open = await c.get("/mail/attachments/3");
  assert.equal(open.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.match(open.headers.get("content-disposition") ?? "", /^inline; filename="invoice_HP-1187.txt"/);
  assertHas(open.text, "TOTAL ...................................... $860.50");
  const dl = await c.get("/mail/attachments/6/download");
  assert.equal(dl.headers.get("content-type"), "text/csv; charset=utf-8");
  assert.match(dl.headers.get("content-disposition") ?? "", /^attachment; filename="shipments_feb.csv"/);
  assert.equal((await c.get("/mail/attachments/99")).status, 404);
});

Deno.test("compose prefills replies, forwards, drafts and ?to=", async () => {
  const c = new Client();
  assertHas(
    (await c.get("/mail/compose?reply=1")).text,
    'data-value="Sofia Rossi &lt;sofia.rossi@sandbox.test&gt;"',
    'value="Re: Q2 planning meeting moved to Thursday"',
    "&gt; Quick heads-up",
  );
  assertHas(
    (await c.get("/mail/compose?reply=45")).text,
    'data-value="Priya Nair &lt;priya.nair@larkspur.example&gt;"',
  );
  assertHas(
    (await c.get("/mail/compose?forward=6")).text,
    'value="Fwd: Invoice NW-5521 for February shipments"',
    "invoice_NW-5521.txt",
    "Forwarded message",
  );
  assertHas(
    (await c.get("/mail/compose?draft=55")).text,
    "Edit draft",
    'name="draft_id" value="55"',
    "hannah.kim@sandbox.test",
  );
  assertHas((await c.get("/mail/compose?to=ben.walsh@riversidetennis.example")).text, 'data-value="Ben Walsh');
  assert.deepEqual(await c.changes(), []);
});

Deno.test("the reading pane setting shows a message beside the list", async () => {
  const c = new Client();
  const saved = await c.post("/mail/settings", { reading_pane: "right", page_size: "25" });
  assert.equal(saved.status, 303);
  const list = await c.get("/mail/inbox?m=2");
  assertHas(
    list.text,
    'id="reading-pane"',
    "Version 3 of the homepage mockups",
    'href="/mail/inbox?page=1&amp;m=1"',
    "1–25 of 33",
  );
  const changes = await c.changes();
  assert.deepEqual(changes.map((e) => [e.table, e.key]), [["settings", 1], ["messages", 2]]);
});
