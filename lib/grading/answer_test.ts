/**
 * Strict answer reading: the typed candidates of an answer (dates and times before numbers; codes and names hold no
 * numbers), strict matching (hedges, negations and rival values fail), and the QA tiers that apply it.
 */
import assert from "node:assert/strict";
import { type AnswerCandidates, answerCandidates, strictAnswerFailure } from "./answer.ts";
import type { Matcher } from "./matcher.ts";
import { decideAnswer } from "./qa.ts";
import { spec } from "./_verifier_testdata.ts";

type Want = Partial<AnswerCandidates>;

const CANDIDATES: [string, Want][] = [
  // Codes and names hold no numbers.
  ["Order SO-10242: $161.99", { numbers: [161.99] }],
  ["Sprint 14 has 66 story points planned.", { numbers: [66], labels: [14] }],
  ["WEB-8 waits for API-14", {}],
  ["MOB15, v2, 4f3a and room_3", {}],
  ["Issue #12 has 3 comments", { numbers: [3], labels: [12] }],
  ["Room 3", { labels: [3] }],
  ["Order 5 costs $20", { numbers: [20], labels: [5] }],
  ["Booking BK-KHCFG", {}],
  ["The iPhone 15 costs $799", { numbers: [799], labels: [15] }],
  ["Invoice INV-2026-03-12 is due", {}],
  // Quantity words, function words and currency codes name nothing.
  ["Total 66", { numbers: [66] }],
  ["About 66 points", { numbers: [66] }],
  ["In 2024 they sold 3", { numbers: [2024, 3] }],
  // Money and units keep the number grammar.
  ["$1,234.50", { numbers: [1234.5] }],
  ["4,870.00 EUR", { numbers: [4870] }],
  ["USD 161.99", { numbers: [161.99] }],
  ["EUR 4,870.00", { numbers: [4870] }],
  ["USD161.99", { numbers: [161.99] }],
  ["12.5 kg, 64GB and the 3rd", { numbers: [12.5, 64, 3] }],
  ["66%", { numbers: [66] }],
  ["-5 degrees", { numbers: [-5] }],
  ["12,5", {}],
  ["1.2.3", {}],
  ["5-7 days", { numbers: [5, 7] }],
  ["66 points (66 total)", { numbers: [66, 66] }],
  // Dates and times are no numbers.
  ["On March 24 at 10:00 there were 3", { numbers: [3], dates: ["--03-24"], times: ["10:00"] }],
  ["Tuesday 17 March 2026", { dates: ["2026-03-17"] }],
  ["Check-in: March 20, 2026", { dates: ["2026-03-20"] }],
  ["20 Mar 2026 or 03/21/2026", { dates: ["2026-03-20", "2026-03-21"] }],
  ["2026-03-20T10:00:00Z", { dates: ["2026-03-20"], times: ["10:00"] }],
  ["17th March, 8 guests", { numbers: [8], dates: ["--03-17"] }],
  ["In March 2026: 5 bookings", { numbers: [5] }],
  ["2026-02-30", {}],
  ["2 pm, 2:30pm, 9:30, 10:00 AM, 12 am, 2 p.m. and 14h00", {
    times: ["14:00", "14:30", "09:30", "10:00", "00:00", "14:00", "14:00"],
  }],
  ["25:70", { numbers: [25, 70] }], // no time: two numbers
  ["Option 2 may work", { labels: [2] }],
  ["it is 4 percentage points (from 91% to 95%)", { numbers: [4, 91, 95] }],
];

Deno.test("answerCandidates() reads dates, times, numbers and labels, codes and names holding no numbers", () => {
  for (const [text, want] of CANDIDATES) {
    const c = answerCandidates(text);
    assert.deepEqual(c, { numbers: [], dates: [], times: [], labels: [], ...want }, text);
  }
});

interface Row {
  m: Matcher;
  answer: string;
  /** null: passes; a pattern: the failure reason. */
  want: RegExp | null;
  others?: string[];
  reference?: string;
}

const money = { number: 161.99, tol: 0.005 };
const ROWS: Row[] = [
  // Hedges between numbers fail; one value, however often stated, passes.
  { m: money, answer: "$161.99 or $84.87", want: /states 2 numbers \(161\.99, 84\.87\) where one is asked: a hedge$/ },
  {
    m: { number: 66 },
    answer: "66 or 61",
    want: /^"66 or 61" states 2 numbers \(66, 61\) where one is asked: a hedge$/,
  },
  { m: 8, answer: "8 or 9", want: /a hedge$/ },
  { m: 8, answer: "8-9", want: /a hedge$/ },
  { m: { number: 66 }, answer: "66 points (66 total)", want: null },
  { m: { number: 66 }, answer: "61", want: /^"61" states 61, not number 66$/ },
  { m: { number: 34.99 }, answer: "Between 30 and 40", want: /states 2 numbers \(30, 40\), none number 34\.99$/ },
  { m: { number: 66, tol: 1 }, answer: "66 or 67", want: null }, // every value within tolerance: no wrong one
  // Numbers inside codes and names are not the answer's.
  { m: money, answer: "Order SO-10242: $161.99", want: null },
  { m: { number: 66 }, answer: "Sprint 14 has 66 story points planned.", want: null },
  { m: { number: 66 }, answer: "Sprint 14", want: /^"Sprint 14" states 14, not number 66$/ },
  { m: 3, answer: "Room 3", want: null }, // a label is the number when nothing else is stated
  { m: 3, answer: "Room 3 or Room 4", want: /2 numbers \(3, 4\).*a hedge$/ },
  { m: 8, answer: "WEB-8 waits for API-14", want: /states no number$/ },
  { m: 12, answer: "Issue #12", want: null },
  { m: { number: 5 }, answer: "BK-KHCFG, 5 guests", want: null },
  // Money forms.
  { m: { number: 1234.5 }, answer: "$1,234.50", want: null },
  { m: { number: 4870, tol: 0.005 }, answer: "4,870.00 EUR", want: null },
  { m: money, answer: "USD 161.99", want: null },
  { m: { number: 12.5 }, answer: "12,5", want: /states no number$/ },
  // Dates and times are no numbers.
  { m: 3, answer: "On March 24 at 10:00 there were 3", want: null },
  { m: 24, answer: "On March 24 at 10:00", want: /states no number$/ },
  { m: 2, answer: "The standup starts at 2 pm", want: /states no number$/ },
  // Dates.
  { m: { date: "2026-03-20" }, answer: "March 20, 2026", want: null },
  { m: { date: "2026-03-20" }, answer: "Friday 20 March 2026 (2026-03-20)", want: null },
  { m: { date: "2026-03-20" }, answer: "March 20", want: null }, // the year unstated is not a wrong year
  { m: { date: "2026-03-17" }, answer: "Tuesday 17 March 2026 at 14:00", want: null },
  {
    m: { date: "2026-03-20" },
    answer: "2026-03-20 or 2026-03-21",
    want: /2 dates \(2026-03-20, 2026-03-21\).*a hedge$/,
  },
  { m: { date: "2026-03-20" }, answer: "March 21, 2026", want: /states 2026-03-21, not date 2026-03-20$/ },
  { m: { date: "2026-03-20" }, answer: "next Friday", want: /states no date$/ },
  // Text: negations and alternatives the expected text lacks fail.
  { m: { contains: "Harbor" }, answer: "None is free: Harbor is already booked", want: /says "None", a negation/ },
  { m: { contains: "Harbor" }, answer: "Harbor isn't free", want: /says "n't", a negation/ },
  { m: { contains: "Harbor" }, answer: "Harbor is free", want: null },
  { m: { contains: "Harbor" }, answer: "Harbor or Summit", want: /joins alternatives with "or": a hedge$/ },
  { m: { contains: "Harbor" }, answer: "Either Harbor or Summit", want: /joins alternatives with "Either"/ },
  { m: { contains: "Harbor" }, answer: "Harbor/Summit", want: /joins alternatives with "\/"/ },
  { m: { contains: "Harbor" }, answer: "Probably Harbor", want: /hedges with "Probably"$/ },
  { m: { contains: "Harbor" }, answer: "Harbor (see http://h/rooms/harbor)", want: null }, // a URL: no alternatives
  { m: { contains: "Harbor" }, answer: "Harbor, free 24/7", want: null }, // a slash between numbers
  { m: { contains: "not swivel" }, answer: "It does not swivel", want: null },
  { m: { contains: "swivel" }, answer: "No, it can't swivel", want: /a negation the expected text does not have$/ },
  { m: { contains: "does not swivel" }, answer: "No, it can't swivel", want: /does not match contains/ },
  { m: { contains: "cannot swivel" }, answer: "No, it cannot swivel", want: null }, // the expected text negates
  { m: "Harbor", answer: "  harbor ", want: null },
  { m: "Harbor", answer: "Harbor or Summit", want: /does not match = "Harbor"$/ },
  { m: { regex: "harbor", flags: "i" }, answer: "Harbor or Summit", want: /a hedge$/ },
  { m: { regex: "cannot|can't" }, answer: "It cannot swivel", want: null }, // the regex's words are allowed
  { m: { regex: "^ORD-\\d+$" }, answer: "ORD-1042", want: null },
  // exact is exact, outer white space aside.
  { m: { exact: "BK-KHCFG" }, answer: " BK-KHCFG\n", want: null },
  { m: { exact: "BK-KHCFG" }, answer: "bk-khcfg", want: /does not match == "BK-KHCFG"$/ },
  { m: { exact: "BK-KHCFG" }, answer: "BK-KHCFG.", want: /does not match/ },
  // one_of: one strict pass, or passes that agree.
  { m: { one_of: [{ contains: "Harbor" }, { contains: "Summit" }] }, answer: "Summit", want: null },
  {
    m: { one_of: [{ contains: "Harbor" }, { contains: "Summit" }] },
    answer: "Harbor and Summit",
    want: /passes 2 alternatives that disagree \(contains "Harbor" \| contains "Summit"\): a hedge$/,
  },
  { m: { one_of: [{ contains: "Harbor" }, { contains: "Harbor Room" }] }, answer: "The Harbor Room", want: null },
  { m: { one_of: [66, { contains: "sixty-six" }] }, answer: "66 (sixty-six)", want: null },
  { m: { one_of: [{ contains: "Harbor" }, 3] }, answer: "Harbor or Summit", want: /joins alternatives with "or"/ },
  { m: { one_of: [{ contains: "Harbor" }, 3] }, answer: "Cedar", want: /does not match one of/ },
  // not and present keep their meaning.
  { m: { not: { regex: "aurora|birch|cedar", flags: "i" } }, answer: "None of them", want: null },
  { m: { not: { regex: "aurora|birch|cedar", flags: "i" } }, answer: "Birch", want: /does not match not/ },
  { m: { present: true }, answer: "no", want: null },
  // others: naming another candidate fails.
  { m: { contains: "Harbor" }, answer: "Harbor and Summit", others: ["Summit", "Cedar"], want: /names "Summit"/ },
  {
    m: { contains: "Harbor" },
    answer: "Harbor, next to the summit",
    others: ["Summit"],
    want: /names "Summit", another/,
  },
  { m: { contains: "Harbor" }, answer: "Harbor (Summitview wing)", others: ["Summit"], want: null }, // whole words
  { m: { contains: "Harbor Room" }, answer: "The Harbor Room", others: ["Harbor"], want: null }, // in the expected
  { m: { number: 66 }, answer: "66, in Sprint 15", others: ["Sprint 15"], want: /names "Sprint 15"/ },
  // A reference answer allows its own words and context values.
  {
    m: { number: 4 },
    answer: "4 percentage points (from 91% in January to 95% in February)",
    reference: "4 percentage points (from 91% to 95%)",
    want: null,
  },
  {
    m: { number: 4 },
    answer: "4 percentage points (from 91% in January to 95% in February)",
    want: /states 3 numbers \(4, 91, 95\) where one is asked: a hedge$/,
  },
  { m: { contains: "swivel" }, answer: "It can't swivel", reference: "It does not swivel.", want: null },
];

Deno.test("strictAnswerFailure() passes one stated value and fails hedges, negations and other candidates", () => {
  for (const row of ROWS) {
    const got = strictAnswerFailure(row.m, row.answer, row.others, row.reference);
    const label = `${JSON.stringify(row.m)} on ${JSON.stringify(row.answer)}`;
    if (row.want === null) assert.equal(got, null, label);
    else {
      assert.ok(got !== null, `${label} should fail`);
      assert.match(got, row.want, label);
    }
  }
});

Deno.test("decideAnswer() tiers are strict: a hedge is rejected by the tier that reads it, not left to the LLM", () => {
  const points = spec({ expected: "66 story points", number: 66 });
  assert.deepEqual([decideAnswer(points, "66 or 61").ok, decideAnswer(points, "66 or 61").tier], [false, "number"]);
  assert.match(decideAnswer(points, "66 or 61").reason, /a hedge$/);
  assert.equal(decideAnswer(points, "Sprint 14 has 66 story points planned.").ok, true);
  assert.equal(decideAnswer(points, "Sprint 14").ok, false, "a name's number alone is the one stated");
  assert.equal(decideAnswer(points, "a lot").ok, null, "no number: the LLM tier's turn");

  const checkin = spec({ expected: "Wednesday, April 8, 2026", date: "2026-04-08", regex: "\\bApr(il)?\\.?\\s+8\\b" });
  assert.equal(decideAnswer(checkin, "April 8, 2026").tier, "regex");
  const hedged = decideAnswer(checkin, "April 8 or April 9");
  assert.deepEqual([hedged.ok, hedged.tier], [false, "regex"]);
  assert.match(hedged.reason, /joins alternatives with "or"/);
  const twoDays = decideAnswer(spec({ date: "2026-04-08" }), "2026-04-08 or 2026-04-09");
  assert.deepEqual([twoDays.ok, twoDays.tier], [false, "date"]);

  const stand = spec({ expected: "It only tilts; it does not swivel.", regex: "swivel" });
  assert.equal(decideAnswer(stand, "It can't swivel").ok, true, "the reference negates too");
  const room = spec({ expected: "Harbor", regex: "harbor", flags: "i" });
  assert.deepEqual([decideAnswer(room, "None: Harbor is booked").ok, decideAnswer(room, "Harbor").ok], [false, true]);

  // The recorded answer of mail_h_ontime_points: its other numbers are the reference's context.
  const ontime = spec({ expected: "4 percentage points (from 91% to 95%)", number: 4 });
  assert.equal(decideAnswer(ontime, "4 percentage points (from 91% in January to 95% in February)").ok, true);
  assert.equal(decideAnswer(ontime, "4 or 5 points").ok, false);
});

Deno.test("strictAnswerFailure() fails a number or date the answer denies", () => {
  assert.match(strictAnswerFailure({ number: 161.99, tol: 0.005 }, "It was not $161.99.") ?? "", /negation/);
  assert.match(strictAnswerFailure({ number: 24 }, "Delta does not have 24 seats.") ?? "", /negation/);
  assert.match(strictAnswerFailure({ date: "2026-03-17" }, "Not on March 17, 2026") ?? "", /negation/);
  assert.equal(strictAnswerFailure({ number: 161.99, tol: 0.005 }, "The total was $161.99."), null);
});
