/**
 * The rules that pass only what they can account for (docs/grading.md): irreversible acts, bookkeeping only as a
 * side effect, free text with the app's additions stripped, method binding, seen on a page, reason codes. Each case
 * pairs a near miss (its reason code asserted) with the legitimate route the rule must still pass.
 */
import assert from "node:assert/strict";
import { gate } from "./gate.ts";
import {
  type AppRules,
  type ChangeEntry,
  type Check,
  type ClipEntry,
  type Evidence,
  type LogEntry,
  REASON_CODES,
  type RecordEntry,
} from "../protocol/mod.ts";
import { stripAdditions } from "./free_text.ts";

const BASE = "http://127.0.0.1:40115";
const SIGNATURE = "Alex Morgan\nSandbox Co.";

const MAIL: AppRules = {
  bookkeeping: { messages: ["read"] },
  generated: { messages: ["id", "date"] },
  irreversible: [
    { name: "send", table: "messages", op: "insert", when: { folder: "sent" } },
    { name: "send", table: "messages", op: "update", when: { folder: "sent" } },
    { name: "delete forever", table: "messages", op: "delete" },
  ],
  textAdditions: {
    "messages.body": [
      {
        name: "signature",
        suffix: String.raw`\s*\n-- \n{value}`,
        value: { table: "settings", key: 1, field: "signature", seed: SIGNATURE },
      },
      { name: "quoted reply", suffix: String.raw`\s*\nOn [^\n]+ wrote:\n(?:>[^\n]*(?:\n|$))*\s*` },
    ],
  },
};

let seq = 0;
const req = (method: string, path: string, body: Record<string, unknown> | null = null): LogEntry => ({
  seq: ++seq,
  method,
  path,
  query: {},
  body,
  status: method === "GET" ? 200 : 303,
});
const chg = (op: ChangeEntry["op"], key: number, before: unknown, after: unknown, table = "messages"): ChangeEntry => ({
  seq: ++seq,
  site: "mail",
  table,
  op,
  key,
  before: before as ChangeEntry["before"],
  after: after as ChangeEntry["after"],
});

/** Evidence of a mail session: each step is a change made by the request logged right after it. */
function mail(
  steps: { change?: ChangeEntry; request: LogEntry }[],
  extra: Partial<Evidence> = {},
): Evidence {
  const log: LogEntry[] = [], changes: ChangeEntry[] = [];
  for (const s of steps) {
    if (s.change) changes.push(s.change);
    log.push(s.request);
  }
  return {
    base: BASE,
    log,
    changes,
    clip: [],
    events: [],
    record: [],
    answer: null,
    seen: [],
    final: { url: `${BASE}/mail/sent`, urls: [`${BASE}/mail/sent`], logged_in: true, start_logged_in: true },
    rules: { mail: MAIL },
    ...extra,
  };
}

const sent = (id: number, body: string) => ({ id, folder: "sent", to_addrs: "dan@x.test", body, date: "d" });
const REPLY: Check = {
  change: {
    site: "mail",
    table: "messages",
    op: "insert",
    after: { folder: { exact: "sent" }, to_addrs: { exact: "dan@x.test" }, body: { text: "See you at 10:00." } },
  },
};

Deno.test("irreversible: a wrong message sent and deleted forever still happened, even under a reused id", () => {
  const wrong = sent(61, `See you at 11:00.\n\n-- \n${SIGNATURE}`);
  const right = sent(61, `See you at 10:00.\n\n-- \n${SIGNATURE}`);
  const ev = mail([
    { change: chg("insert", 61, null, wrong), request: req("POST", "/mail/compose") },
    {
      change: chg("update", 61, wrong, { ...wrong, folder: "trash" }),
      request: req("POST", "/mail/messages/61/delete"),
    },
    {
      change: chg("delete", 61, { ...wrong, folder: "trash" }, null),
      request: req("POST", "/mail/messages/61/delete"),
    },
    { change: chg("insert", 61, null, right), request: req("POST", "/mail/compose") },
  ]);
  const g = gate(REPLY, null, ev);
  assert.equal(g.ok, false);
  assert.equal(g.reason, "irreversible_extra");
  assert.match(g.detail, /irreversible send: mail\.messages insert key 61 \(undone afterwards, but it happened\)/);
  // The legitimate route: the one reply, sent once.
  const once = mail([{ change: chg("insert", 61, null, right), request: req("POST", "/mail/compose") }]);
  assert.deepEqual(gate(REPLY, null, once), { ok: true, detail: "" });
});

Deno.test("irreversible: one act asked, two made, fails as irreversible_extra rather than a count", () => {
  const a = sent(61, "See you at 10:00."), b = sent(62, "See you at 10:00.");
  const ev = mail([
    { change: chg("insert", 61, null, a), request: req("POST", "/mail/compose") },
    { change: chg("insert", 62, null, b), request: req("POST", "/mail/compose") },
  ]);
  const g = gate(REPLY, null, ev);
  assert.equal(g.reason, "irreversible_extra");
  assert.match(g.detail, /2 changed rows matched, expected 1/);
});

Deno.test("bookkeeping: opening marks read (no change); Mark as unread is a write like any other", () => {
  const read = { id: 12, folder: "inbox", read: 1 };
  const opened = mail([
    { change: chg("update", 13, { id: 13, read: 0 }, { id: 13, read: 1 }), request: req("GET", "/mail/messages/13") },
  ]);
  assert.deepEqual(gate({ no_writes: true }, null, opened), { ok: true, detail: "" });
  const unread = mail([
    { request: req("GET", "/mail/messages/12") },
    { change: chg("update", 12, read, { ...read, read: 0 }), request: req("POST", "/mail/messages/12/unread") },
  ]);
  const g = gate({ no_writes: true }, null, unread);
  assert.equal(g.reason, "unclaimed_write");
  assert.match(g.detail, /mail\.messages update key 12/);
  // A stamp a real write sets alongside it stays bookkeeping: the same request moved the message too.
  const moved = mail([
    {
      change: chg("update", 12, read, { ...read, folder: "archive", read: 0 }),
      request: req("POST", "/mail/messages/12/move"),
    },
  ]);
  const asked: Check = { change: { site: "mail", table: "messages", key: 12, after: { folder: "archive" } } };
  assert.deepEqual(gate(asked, null, moved), { ok: true, detail: "" });
});

Deno.test("free text: the app's signature and quote are stripped exactly; a retraction after `-- ` is not", () => {
  const quote = "\n\nOn Mon, March 9, Dan wrote:\n> Can you come?\n> Dan";
  const ok = (body: string) =>
    gate(
      REPLY,
      null,
      mail([{ change: chg("insert", 61, null, sent(61, body)), request: req("POST", "/mail/compose") }]),
    );
  assert.equal(ok(`See you at 10:00.\n\n-- \n${SIGNATURE}`).ok, true);
  assert.equal(ok(`see you at 10:00${quote}\n\n-- \n${SIGNATURE}`).ok, true, "typed above the quote, no final stop");
  const retracted = ok(`See you at 10:00.\n-- \nSorry, ignore this.\n\n-- \n${SIGNATURE}`);
  assert.equal(retracted.reason, "field_mismatch");
  assert.match(retracted.detail, /after\.body text "See you at 10:00\."/);
  // A `-- ` block that is not the user's signature at the time is the user's text.
  assert.equal(ok("See you at 10:00.\n\n-- \nSomeone Else").reason, "field_mismatch");
  // The signature the user set earlier in the episode is the one stripped.
  const changed = mail([
    {
      change: chg("update", 1, { id: 1, signature: SIGNATURE }, { id: 1, signature: "A. M." }, "settings"),
      request: req("POST", "/mail/settings"),
    },
    {
      change: chg("insert", 61, null, sent(61, "See you at 10:00.\n\n-- \nA. M.")),
      request: req("POST", "/mail/compose"),
    },
  ]);
  assert.equal(
    stripAdditions("See you at 10:00.\n\n-- \nA. M.", MAIL.textAdditions!["messages.body"], changed.changes, 99),
    "See you at 10:00.",
  );
});

const click = (id: string, target: string, t: number): RecordEntry => ({
  type: "action",
  action: "click",
  target,
  id,
  t,
});

Deno.test("method binding: the copy click must have produced the clipboard's final content", () => {
  const check: Check = { record: { action: "click", target: { regex: "copy", flags: "i" } }, bound: "clipboard" };
  const record = [click("p:1", 'button#copy-order-number "Copy"', 1)];
  const bound = (clipboard: ClipEntry[]) =>
    gate(check, null, mail([], { record, clip: clipboard.map((c) => c.text), clipboard }));
  assert.equal(bound([{ text: "SO-10243", n: 2, cause: "p:1" }]).ok, true);
  const direct = bound([{ text: "SO-10242", n: 2, cause: "p:1" }, { text: "SO-10243", n: 3 }]);
  assert.equal(direct.reason, "method_unbound");
  assert.match(direct.detail, /final content "SO-10243" was written by no click or key/);
  // Evidence saved before clipboard entries cannot bind: not a pass.
  assert.equal(gate(check, null, mail([], { record, clip: ["SO-10243"] })).reason, "method_unbound");
});

Deno.test("method binding: the menu click must be the last action before the final page loaded", () => {
  const check: Check = { record: { action: "click", region: { contains: "menu" } }, bound: "page" };
  const load = (t: number): RecordEntry => ({ type: "observation", kind: "page_load", url: `${BASE}/shop/orders`, t });
  const menu: RecordEntry = { ...click("p:1", 'a "My orders"', 10), region: "nav.menu" };
  const final = { url: `${BASE}/shop/orders`, urls: [`${BASE}/shop/orders`], logged_in: true, start_logged_in: true };
  assert.equal(gate(check, null, mail([], { record: [menu, load(11)], final })).ok, true);
  const typed = gate(
    check,
    null,
    mail([], { record: [menu, load(11), click("p:2", 'a "Home"', 12), load(20)], final }),
  );
  assert.equal(typed.reason, "method_unbound");
});

Deno.test("method binding: the slider's last change must be the asked value", () => {
  const check: Check = {
    record: { action: "change", target: { contains: "#max-price" }, value: "100" },
    bound: "last",
  };
  const change = (value: string, t: number): RecordEntry => ({
    type: "action",
    action: "change",
    target: "input#max-price",
    value,
    t,
  });
  assert.equal(gate(check, null, mail([], { record: [change("120", 1), change("100", 2)] })).ok, true);
  assert.equal(gate(check, null, mail([], { record: [change("100", 1), change("120", 2)] })).reason, "method_unbound");
});

Deno.test("seen on a page: a value seen elsewhere does not count; evidence without URLs cannot tell", () => {
  const check: Check = { answer: { number: 4870 }, seen: { path: "/mail/messages/6" } };
  const seen = ["Vendor quotes: Northwind 4870.00", "Invoice NW-5521. Amount due: $4,870.00"];
  const at = (urls: string[]) => gate(check, null, mail([], { answer: "$4,870.00", seen, seen_urls: urls }));
  assert.equal(at([`${BASE}/mail/messages/33`, `${BASE}/mail/messages/6`]).ok, true);
  const elsewhere = at([`${BASE}/mail/messages/33`, `${BASE}/mail/inbox`]);
  assert.equal(elsewhere.reason, "not_seen");
  assert.match(elsewhere.detail, /never saw the page that shows it/);
  assert.equal(gate(check, null, mail([], { answer: "$4,870.00", seen })).reason, "not_seen");
});

Deno.test("an answer the rules cannot account for is pending, with what the judge is asked; a wrong value fails", () => {
  const check: Check = { answer: { number: 66 }, seen: false, why: "a sum" };
  const hedged = gate(check, null, mail([], { answer: "I believe it is roughly 66" }));
  assert.equal(hedged.ok, false);
  assert.equal(hedged.reason, "answer_unaccounted");
  assert.match(hedged.detail, /^pending: /);
  assert.equal(hedged.undecided?.answer, "I believe it is roughly 66");
  assert.equal(gate(check, null, mail([], { answer: "61" })).reason, "answer_wrong");
  assert.equal(gate(check, null, mail([], { answer: "" })).reason, "answer_missing");
  // Another rule failing decides: no judge is asked for an episode that fails anyway.
  const both = gate([check, { logged_in: false }], null, mail([], { answer: "I believe 66" }));
  assert.equal(both.reason, "login_state");
  assert.equal(both.undecided, undefined);
});

Deno.test("docs/grading.md lists every reason code, and only those", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/grading.md", import.meta.url));
  const section = doc.slice(doc.indexOf("## Reason codes"));
  const listed = [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((m) => m[1]);
  assert.deepEqual([...listed].sort(), [...REASON_CODES].sort());
});

Deno.test("a path the app reads ignoring case matches in any case; other apps' paths stay exact", () => {
  const rules = { tracker: { caselessPaths: ["^/tracker/issues/[^/]+"] } };
  const at = (path: string) => ({
    base: BASE,
    log: [{ seq: 1, method: "GET", path, query: {}, body: null, status: 200 }],
    changes: [],
    clip: [],
    events: [],
    record: [],
    answer: null,
    seen: [],
    final: { url: `${BASE}${path}`, urls: [`${BASE}${path}`], logged_in: true, start_logged_in: true },
    rules,
  });
  const page: Check = { page: { path: "/tracker/issues/WEB-9", query: {} } };
  assert.equal(gate(page, null, at("/tracker/issues/web-9")).ok, true);
  assert.equal(gate(page, null, at("/tracker/issues/web-19")).reason, "final_page");
  const visited: Check = { visited: { regex: "^/tracker/issues/WEB-9$" } };
  assert.equal(gate(visited, null, at("/tracker/issues/web-9")).ok, true);
  const shop: Check = { page: { path: "/shop/orders/SO-10242", query: {} } };
  assert.equal(gate(shop, null, at("/shop/orders/so-10242")).reason, "final_page");
});

Deno.test("method binding: a slider's later value counts even though its description shows the value", () => {
  const check: Check = {
    record: { action: "change", target: { contains: "#max-price" }, value: "100" },
    bound: "last",
  };
  const at = (value: string, t: number): RecordEntry => ({
    type: "action",
    action: "change",
    target: `input#max-price[name=max_price] "${value}"`,
    value,
    t,
  });
  assert.equal(gate(check, null, mail([], { record: [at("30", 1), at("100", 2)] })).ok, true);
  assert.equal(gate(check, null, mail([], { record: [at("100", 1), at("110", 2)] })).reason, "method_unbound");
});

Deno.test("method binding: opened: the event must have opened the page (from a page, in the tab asked)", () => {
  const result = (extra: Partial<RecordEntry> = {}): RecordEntry => ({
    ...click("p:1", 'a "Desk Lamp"', 10),
    ...extra,
  });
  const load = (path: string, t: number, referrer: string, history = 2): RecordEntry => ({
    type: "observation",
    kind: "page_load",
    url: `${BASE}${path}`,
    t,
    referrer,
    history,
  });
  const check: Check = {
    record: { action: "click", target: { contains: "Desk Lamp" } },
    opened: { path: "/shop/products/7" },
  };
  const grade = (record: RecordEntry[]) => gate(check, null, mail([], { record }));
  const list = `${BASE}/shop/products?q=lamp`;
  assert.equal(grade([result(), load("/shop/products/7", 11, list)]).ok, true);
  // Clicked, then the page typed: not opened by the click.
  const typed = grade([result(), load("/shop/products/3", 11, list), load("/shop/products/7", 20, "")]);
  assert.equal(typed.reason, "method_unbound");
  assert.match(typed.detail, /"\/shop\/products\/7" was reached by a typed URL/);
  // Opened by another action (a click on another row led there after the named one).
  const other = grade([result(), click("p:2", 'a "Next"', 12), load("/shop/products/7", 13, list)]);
  assert.equal(other.reason, "method_unbound");
  assert.match(other.detail, /opened by another action \(click "a \\"Next\\""\)/);
  // tab: new needs the load to begin its tab.
  const tab = (history: number) =>
    gate(
      { ...check, opened: { path: "/shop/products/7", tab: "new" } },
      null,
      mail([], {
        record: [result(), load("/shop/products/7", 11, list, history)],
      }),
    );
  assert.equal(tab(1).ok, true);
  assert.equal(tab(3).reason, "method_unbound");
  assert.match(tab(3).detail, /opened in the same tab, not a new one/);
  // No matching event at all: the method is missing.
  assert.equal(grade([load("/shop/products/7", 11, list)]).reason, "method_missing");
});
