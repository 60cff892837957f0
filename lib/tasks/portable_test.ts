import assert from "node:assert/strict";
import type { Check } from "../protocol/mod.ts";
import { askedTexts, gradeTask, rebaseTask, relaxRecordedDates } from "./portable.ts";

Deno.test("rebaseTask() moves recorded origins onto the base in start, check, verifier and solution", () => {
  const task = {
    task_id: "t",
    instruction: "Open http://127.0.0.1:8318/shop/ and buy",
    option: { link: "http://127.0.0.1:8318/shop/" },
    start: { url: "http://127.0.0.1:8318/shop/products/7", setup: [] },
    check: { visited: { one_of: ["http://localhost:8319/shop/cart", "/shop/cart"] } },
    verifier: { answer: "http://127.0.0.1:8318/shop/orders/1" },
    solution: [{ name: "navigate", params: { url: "http://localhost:8319/shop/cart", new_tab: false } }],
  };
  const copy = structuredClone(task);
  const out = rebaseTask(task, "http://127.0.0.1:40115/");
  assert.equal(out.start.url, "http://127.0.0.1:40115/shop/products/7");
  assert.deepEqual(out.check, { visited: { one_of: ["http://127.0.0.1:40115/shop/cart", "/shop/cart"] } });
  assert.deepEqual(out.verifier, { answer: "http://127.0.0.1:40115/shop/orders/1" });
  assert.equal(out.solution[0].params.url, "http://127.0.0.1:40115/shop/cart");
  assert.equal(out.instruction, task.instruction, "the instruction is not rebased");
  assert.deepEqual(out.option, task.option, "the option is not rebased");
  assert.deepEqual(task, copy, "the input is not changed");
});

Deno.test("rebaseTask() leaves other origins and mid-string URLs alone", () => {
  const out = rebaseTask({
    start: { url: "/shop/" },
    check: [
      { visited: "https://127.0.0.1:8318/x" },
      { visited: "http://example.com:8318/x" },
      { answer: "see http://127.0.0.1:8318/x" },
      { visited: "http://127.0.0.1:83180x" },
      { visited: "http://localhost:8318" },
    ],
  }, "http://b:1");
  assert.deepEqual(out.check, [
    { visited: "https://127.0.0.1:8318/x" },
    { visited: "http://example.com:8318/x" },
    { answer: "see http://127.0.0.1:8318/x" },
    { visited: "http://127.0.0.1:83180x" },
    { visited: "http://b:1" },
  ]);
});

const CHECK: Check = {
  all: [
    {
      change: {
        table: "orders",
        op: "insert",
        after: {
          delivery_date: "2026-03-18",
          created_at: "2026-01-05T10:22:31Z",
          updated_at: { exact: "2026-01-05 10:22" },
          due: { date: "2026-01-06" },
          ordered: { date: "March 18, 2026" },
          alt: { one_of: [{ date: "2026-01-07" }, "express"] },
          never: { not: { date: "2026-01-08" } },
          total: 12,
        },
      },
    },
    { not: { change: { table: "orders", after: { created_at: "2026-01-09" } } } },
    { answer: { date: "2026-01-10" } },
  ],
};

Deno.test("relaxRecordedDates() relaxes recorded dates and keeps the ones the task asked for", () => {
  const texts = askedTexts({ instruction: "Deliver on March 18, 2026.", option: { shipping: "express" } });
  const before = structuredClone(CHECK);
  const out = relaxRecordedDates(CHECK, texts) as { all: Check[] };
  const after = (out.all[0] as { change: { after: Record<string, unknown> } }).change.after;
  assert.equal(after.delivery_date, "2026-03-18", "asked for in the instruction (another format)");
  assert.deepEqual(after.created_at, { present: true }, "a recorded timestamp");
  assert.deepEqual(after.updated_at, { present: true });
  assert.deepEqual(after.due, { present: true });
  assert.deepEqual(after.ordered, { date: "March 18, 2026" });
  assert.deepEqual(after.alt, { one_of: [{ present: true }, "express"] });
  assert.deepEqual(after.never, { not: { date: "2026-01-08" } }, "a negated matcher keeps its meaning");
  assert.equal(after.total, 12);
  assert.deepEqual(out.all[1], CHECK.all[1], "a negated condition keeps its meaning");
  // The expected answer is what the task is about: relaxing it to "anything" would pass every answer.
  assert.deepEqual(out.all[2], { answer: { date: "2026-01-10" } }, "an answer's date is never relaxed");
  assert.deepEqual(CHECK, before, "the input is not changed");
});

Deno.test("relaxRecordedDates() keeps a date found in the option's JSON", () => {
  const check: Check = { change: { table: "bookings", after: { day: "2026-01-05", slot: "2026-01-05T09:00" } } };
  const kept = relaxRecordedDates(check, askedTexts({ instruction: "Book it", option: { date: "2026-01-05" } }));
  assert.deepEqual(kept, check);
  const relaxed = relaxRecordedDates(check, askedTexts({ instruction: "Book it", option: { date: "2026-01-04" } }));
  assert.deepEqual(relaxed, {
    change: { table: "bookings", after: { day: { present: true }, slot: { present: true } } },
  });
});

Deno.test("relaxRecordedDates() never relaxes what the agent says or copies, however deep in the check", () => {
  const check: Check = {
    any: [
      [{ answer: "2026-02-14" }, { clipboard: { exact: "2026-02-14T10:00:00Z" } }],
      { all: [{ answer: { one_of: ["2026-02-14", { date: "Feb 14, 2026" }] } }] },
    ],
  };
  assert.deepEqual(relaxRecordedDates(check, askedTexts({ instruction: "When did Ann last order?" })), check);
});

Deno.test("relaxRecordedDates() leaves non-date values alone", () => {
  const check: Check = [
    { request: { path: "/shop/2026-01-05", body: { note: "ships 2026-01-05 maybe" }, status: 200 } },
    { clipboard: { contains: "2026-01-05" } },
  ];
  assert.deepEqual(relaxRecordedDates(check, [null, "null"]), check);
});

Deno.test("gradeTask() rebases, relaxes recorded dates, then gates check and verifier", () => {
  const evidence = {
    base: "http://127.0.0.1:40115",
    log: [{ method: "GET", path: "/shop/orders/1042", query: {}, body: null, status: 200 }],
    changes: [{
      site: "shop",
      table: "orders",
      op: "insert" as const,
      key: 1042,
      before: null,
      after: { delivery_date: "2026-03-18", created_at: "2026-05-01T09:00:00Z" },
    }],
    clip: [],
    events: [],
    record: [],
    answer: "ORD-1042",
    seen: ["Order ORD-1042 confirmed"],
  };
  const task = {
    instruction: "Order for delivery on 2026-03-18 and report the order id.",
    option: null,
    check: [
      { visited: "http://127.0.0.1:8318/shop/orders/1042" },
      { change: { table: "orders", after: { delivery_date: "2026-03-18", created_at: "2026-01-05T10:22:31Z" } } },
    ] as Check,
    verifier: { answer: { regex: "^ORD-\\d+$" } },
  };
  assert.deepEqual(gradeTask(task, evidence), { ok: true, detail: "" });
  const late = structuredClone(evidence);
  late.changes[0].after.delivery_date = "2026-03-19";
  assert.match(
    gradeTask(task, late).detail,
    /^all\[1\] change orders: no changed row matched after\.delivery_date = "2026-03-18"/,
  );
  assert.equal(
    gradeTask({ ...task, verifier: { answer: "ORD-1043" } }, evidence).detail,
    'verifier answer: "ORD-1042" does not match = "ORD-1043"',
  );
});

/** The hand-written signature task (fixtures/tasks.jsonl): its instruction asks for the signature "exactly". */
const SIGNATURE_TASK = (await Deno.readTextFile(new URL("../../fixtures/tasks.jsonl", import.meta.url))).split("\n")
  .filter(Boolean).map((l) => JSON.parse(l)).find((t) => t.task_id === "mail_edit_signature");

/** The evidence of an episode that saved the signature `text`. */
const signatureSaved = (text: string) => ({
  base: "http://127.0.0.1:40115",
  log: [{ method: "POST", path: "/mail/settings/signature", query: {}, body: { signature: text }, status: 303 }],
  changes: [{
    site: "mail",
    table: "settings",
    op: "update" as const,
    key: 1,
    before: { signature: "Alex Morgan\nOperations" },
    after: { signature: text },
  }],
  clip: [],
  events: [],
  record: [],
  answer: null,
  seen: [],
});

Deno.test("gradeTask() compares a value the instruction asks for exactly with its case and punctuation", () => {
  const asked = SIGNATURE_TASK.option.signature as string;
  assert.match(SIGNATURE_TASK.instruction, /exactly/);
  assert.deepEqual(gradeTask(SIGNATURE_TASK, signatureSaved(asked)), { ok: true, detail: "" });
  assert.deepEqual(gradeTask(SIGNATURE_TASK, signatureSaved(`  ${asked.replace(/ /g, "  ")} `)).ok, true);
  for (const near of [asked.toLowerCase(), asked.replace(/\.$/, "")]) {
    assert.notEqual(near, asked);
    const g = gradeTask(SIGNATURE_TASK, signatureSaved(near));
    assert.equal(g.ok, false, near);
    assert.equal(g.reason, "field_mismatch");
    assert.match(g.detail, /after\.signature verbatim "Alex Morgan \| Operations \| Sandbox Co\."/);
  }
  // Without "exactly", free text compares up to case and a final full stop, as before.
  const loose = { ...SIGNATURE_TASK, instruction: SIGNATURE_TASK.instruction.replace("exactly", "as") };
  assert.equal(gradeTask(loose, signatureSaved(asked.toLowerCase().replace(/\.$/, ""))).ok, true);
});
