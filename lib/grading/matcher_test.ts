import assert from "node:assert/strict";
import { answerSeen, describeMatcher, prepareSeen, testMatcher } from "./matcher.ts";
import { describeIssues, errorMap, type Matcher, matcherSchema } from "../protocol/mod.ts";

const pass = (m: Matcher, v: unknown) =>
  assert.ok(testMatcher(m, v), `${JSON.stringify(m)} should pass ${JSON.stringify(v)}`);
const fail = (m: Matcher, v: unknown) =>
  assert.ok(!testMatcher(m, v), `${JSON.stringify(m)} should fail ${JSON.stringify(v)}`);

function schemaError(raw: unknown): string {
  const r = matcherSchema.safeParse(raw, { error: errorMap });
  assert.ok(!r.success, `${JSON.stringify(raw)} should not parse`);
  return describeIssues(r.error);
}

Deno.test("testMatcher() bare strings and norm compare normalised text", () => {
  pass("Express", "  express ");
  pass({ norm: "Aurora  Desk Lamp" }, "aurora desk\nlamp");
  fail({ norm: "express" }, "express shipping");
  fail("express", null);
  pass("7", 7);
});

Deno.test("testMatcher() exact compares the string form exactly", () => {
  pass({ exact: "ORD-1042" }, "ORD-1042");
  pass({ exact: "7" }, 7);
  fail({ exact: "ORD-1042" }, "ord-1042");
  fail({ exact: "ORD-1042" }, "ORD-1042 ");
});

Deno.test("testMatcher() contains looks for normalised text", () => {
  pass({ contains: "Desk Lamp" }, "Aurora DESK  lamp (white)");
  fail({ contains: "desk lamps" }, "Aurora desk lamp");
});

Deno.test("testMatcher() regex matches the string form, anchors included", () => {
  pass({ regex: "^ORD-\\d+$" }, "ORD-1042");
  fail({ regex: "^ORD-\\d+$" }, "ORD-1042x");
  fail({ regex: "^ORD-\\d+$" }, "see ORD-1042");
  pass({ regex: "ord-\\d+" }, "see ORD-1042".toLowerCase());
  pass({ regex: "^ord-\\d+$", flags: "i" }, "ORD-7");
  fail({ regex: "^ord-\\d+$" }, "ORD-7");
  pass({ regex: "^3$" }, 3);
});

Deno.test("testMatcher() number parses the value within tolerance", () => {
  pass(14, "14");
  pass(14, "There are 14 open issues.");
  pass({ number: 1234.5 }, "$1,234.50");
  pass({ number: 12.5, tol: 0.01 }, "12.51 kg");
  fail({ number: 12.5, tol: 0.01 }, "12.52 kg");
  fail({ number: 12.5 }, "12,5");
  fail(14, "15");
  fail(14, "fourteen");
  pass({ number: 3 }, 3);
});

Deno.test("testMatcher() date compares the calendar day of any listed format", () => {
  for (const v of ["2026-03-20", "2026-03-20T10:00:00Z", "March 20, 2026", "20 Mar 2026", "03/20/2026"]) {
    pass({ date: "2026-03-20" }, v);
  }
  fail({ date: "2026-03-20" }, "2026-03-21");
  fail({ date: "2026-03-20" }, "March 19, 2026");
  fail({ date: "2026-03-20" }, "20/03/2026");
  fail({ date: "2026-03-20" }, "soon");
});

Deno.test("testMatcher() one_of, present and not combine matchers", () => {
  pass({ one_of: ["express", { number: 2 }] }, "2 days");
  fail({ one_of: ["express", { number: 2 }] }, "standard");
  pass({ present: true }, "x");
  pass({ present: true }, 0);
  fail({ present: true }, "  ");
  fail({ present: true }, null);
  pass({ present: false }, undefined);
  fail({ present: false }, "x");
  pass({ not: "standard" }, "express");
  fail({ not: "standard" }, "Standard");
  pass({ not: { regex: "x" } }, null);
});

Deno.test("matcherSchema accepts every kind and names the bad field", () => {
  const kinds: unknown[] = [
    "a",
    3,
    { exact: "a" },
    { exact: 5 },
    { norm: "a" },
    { contains: "a" },
    { regex: "^a$", flags: "i" },
    { number: 1, tol: 0.5 },
    { date: "2026-03-20" },
    { one_of: ["a", 1] },
    { present: false },
    { not: { not: "a" } },
  ];
  for (const k of kinds) assert.ok(matcherSchema.safeParse(k, { error: errorMap }).success, JSON.stringify(k));
  assert.equal(schemaError({ number: "12" }), 'number: expected a number, got "12"');
  assert.equal(schemaError({ number: 1, tol: -1 }), "tol: must be >= 0, got -1");
  assert.match(schemaError({ regex: "(" }), /^regex: is not a valid regular expression/);
  assert.equal(schemaError({ regex: "a", flags: "g" }), 'flags: only i, m, s, u are allowed, got "g"');
  assert.equal(schemaError({ date: "2026-02-30" }), 'date: is not a date: "2026-02-30"');
  assert.equal(schemaError({ norm: "a", tol: 1 }), "tol: is not a known field");
  assert.equal(schemaError({ one_of: [] }), "one_of: must have at least 1 item(s)");
  assert.equal(
    schemaError({ not: { nrom: "a" } }),
    'not: expected a matcher (one of exact, norm, text, contains, regex, number, date, one_of, present, not), got "nrom"',
  );
  assert.equal(schemaError(true), "expected a matcher, got true");
  assert.equal(schemaError({ norm: "a", exact: "a" }), 'has both "norm" and "exact" (one kind per object)');
});

Deno.test("describeMatcher() writes a short human form", () => {
  assert.equal(describeMatcher("express"), '= "express"');
  assert.equal(describeMatcher({ regex: "^a$", flags: "i" }), "~ /^a$/i");
  assert.equal(describeMatcher({ number: 12.5, tol: 0.01 }), "number 12.5 ±0.01");
  assert.equal(describeMatcher({ not: { present: true } }), "not (present)");
});

Deno.test("answerSeen() needs the answer or its expected value on a screen", () => {
  const seen = prepareSeen(["Open issues: 14\nClosed: 3", "Due March 20, 2026 — total $1,234.50"]);
  assert.ok(answerSeen(14, "14", seen));
  assert.ok(answerSeen(14, "There are 14 open issues", seen)); // not verbatim, but 14 was seen
  assert.ok(!answerSeen(15, "15", prepareSeen(["Open issues: 14", "150 closed"])));
  assert.ok(answerSeen({ date: "2026-03-20" }, "2026-03-20", seen));
  assert.ok(!answerSeen({ date: "2026-03-21" }, "2026-03-21", seen));
  assert.ok(answerSeen({ number: 1234.5 }, "1234.5", seen));
  assert.ok(answerSeen({ contains: "closed" }, "3 closed", seen));
  assert.ok(!answerSeen({ regex: "^\\d+$" }, "99", seen));
  assert.ok(!answerSeen({ one_of: [99, 14] }, "99", seen), "only the alternative the answer passes counts");
});
