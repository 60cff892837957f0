import assert from "node:assert/strict";
import { containsWords, firstNumber, normaliseText, numbersIn, stringForm } from "./text.ts";
import { datesIn } from "../protocol/mod.ts";

Deno.test("numbersIn() reads currency, thousands separators and units", () => {
  assert.deepEqual(numbersIn("$1,234.50"), [1234.5]);
  assert.deepEqual(numbersIn("12.5 kg"), [12.5]);
  assert.deepEqual(numbersIn("Total: 3 items, 1,000,000 points."), [3, 1000000]);
  assert.deepEqual(numbersIn("-4 degrees, then −2"), [-4, -2]);
});

Deno.test("numbersIn() rejects ambiguous separators and keeps ids unsigned", () => {
  assert.deepEqual(numbersIn("12,5"), []);
  assert.deepEqual(numbersIn("1,23"), []);
  assert.deepEqual(numbersIn("v1.2.3"), []);
  assert.deepEqual(numbersIn("ORD-1042"), [1042]);
  assert.deepEqual(numbersIn("no digits"), []);
});

Deno.test("firstNumber() takes numbers as they are and the first number of a text", () => {
  assert.equal(firstNumber(14), 14);
  assert.equal(firstNumber("about 14 of 20"), 14);
  assert.equal(firstNumber(null), undefined);
  assert.equal(firstNumber(Number.NaN), undefined);
});

Deno.test("datesIn() reads every listed format as a calendar day", () => {
  assert.deepEqual(datesIn("2026-03-20"), ["2026-03-20"]);
  assert.deepEqual(datesIn("at 2026-03-20T23:30:00-05:00"), ["2026-03-20"]);
  assert.deepEqual(datesIn("Friday, March 20, 2026"), ["2026-03-20"]);
  assert.deepEqual(datesIn("Mar 20 2026"), ["2026-03-20"]);
  assert.deepEqual(datesIn("20 Mar 2026"), ["2026-03-20"]);
  assert.deepEqual(datesIn("the 3rd September 2026"), ["2026-09-03"]);
  assert.deepEqual(datesIn("03/20/2026"), ["2026-03-20"]);
  assert.deepEqual(datesIn("from 2026-03-01 to April 2, 2026"), ["2026-03-01", "2026-04-02"]);
});

Deno.test("datesIn() rejects impossible days and day-first slashes", () => {
  assert.deepEqual(datesIn("2026-02-29"), []);
  assert.deepEqual(datesIn("April 31, 2026"), []);
  assert.deepEqual(datesIn("20/03/2026"), []);
  assert.deepEqual(datesIn("12026-03-20"), []);
  assert.deepEqual(datesIn("Marching 20, 2026"), []);
});

Deno.test("normaliseText() folds case and collapses white space", () => {
  assert.equal(normaliseText("  Aurora\n\tDesk  LAMP "), "aurora desk lamp");
  assert.equal(normaliseText("ＡＢＣ１"), "abc1");
});

Deno.test("containsWords() matches whole words only", () => {
  assert.ok(containsWords("there are 14 open", "14"));
  assert.ok(containsWords("total ($14)", "$14"));
  assert.ok(!containsWords("there are 140 open", "14"));
  assert.ok(!containsWords("a114", "14"));
  assert.ok(!containsWords("anything", ""));
});

Deno.test("stringForm() prints values as the matchers compare them", () => {
  assert.equal(stringForm(12), "12");
  assert.equal(stringForm(true), "true");
  assert.equal(stringForm(null), "");
  assert.equal(stringForm({ a: 1 }), '{"a":1}');
});
