/**
 * The rules tier of answer grading: the typed candidates of an answer (dates and times before numbers; codes and
 * names hold no numbers), its decision (a pass only when every token is accounted for; a fail for a wrong value, a
 * rival picked or a value denied; undecided, the judge's turn, for the rest), and the QA tiers that apply it.
 */
import assert from "node:assert/strict";
import {
  type AnswerCandidates,
  answerCandidates,
  type AnswerContext,
  decideStrictAnswer,
  strictAnswerFailure,
} from "./answer.ts";
import type { Matcher } from "../protocol/mod.ts";
import { decideAnswer } from "./qa.ts";
import { spec } from "./_verifier_testdata.ts";

type Candidates = Partial<AnswerCandidates>;

const CANDIDATES: [string, Candidates][] = [
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

// Instructions of bundled tasks (fixtures/tasks.jsonl, fixtures/annotations): what an answer may repeat.
const SPRINT = "How many story points are planned in total for Sprint 14 (the sum of its issues' estimates)? " +
  "Answer with the number.";
const SHOP = "What was the total of your most recent order that has been delivered? Answer with the amount.";
const MAIL = "Of all the invoices in your mailbox, which one has the largest amount? Answer with that amount.";
const CHART = "On the Keystone K2 Mechanical Keyboard's page, the sales chart shows the units sold per month. In " +
  "which month did it sell the most units? Answer with the month's name.";
const ROOM = "Which room with a projector and at least 8 seats is still free on Tuesday 17 March 2026 from 14:00 to " +
  "15:00? Answer with the room's name.";
const API = "How many issues of the Payments API project carry the backend label and are not done yet (to do, in " +
  "progress or in review)? Answer with the number.";
const ROOMS = ["Aurora", "Birch", "Cedar", "Delta", "Ember", "Fjord", "Granite", "Iris", "Juniper", "Kestrel", "Lumen"];
const MONTHS = ["October", "November", "December", "February", "March"];

/** true: passes; false: fails; null: undecided (the judge decides). `why` matches the reason of the last two. */
interface Row {
  m: Matcher;
  answer: string;
  want: true | false | null;
  why?: RegExp;
  ctx?: AnswerContext;
}

const money = { number: 161.99, tol: 0.005 };
const shop = { instruction: SHOP };
const sprint = { instruction: SPRINT };
const rooms = { instruction: ROOM, others: ROOMS };
const months = { instruction: CHART, others: MONTHS };
const UNACCOUNTED = /has words the rules cannot account for: /;

const ROWS: Row[] = [
  // Passes: the value, its units, the task's words, neutral framing.
  { m: { number: 8 }, answer: "eight", want: true },
  { m: 12, answer: "Twelve", want: true },
  { m: { number: 66 }, answer: "sixty-six", want: true },
  { m: { number: 105 }, answer: "one hundred and five", want: true },
  { m: { number: 66 }, answer: "66 story points across 11 issues", want: true, ctx: sprint }, // 11: labelled context
  { m: { number: 66 }, answer: "Sprint 14 has 66 story points planned.", want: true, ctx: sprint },
  { m: money, answer: "The answer is $161.99.", want: true, ctx: shop },
  { m: money, answer: "161.99 USD", want: true, ctx: shop },
  { m: money, answer: "USD 161.99", want: true, ctx: shop },
  { m: money, answer: "It was $161.99", want: true, ctx: shop },
  { m: money, answer: "The total was $161.99.", want: true, ctx: shop },
  { m: money, answer: "Answer: $161.99", want: true },
  { m: money, answer: "Order SO-10242: $161.99", want: true, ctx: shop }, // the task names no identifier
  { m: money, answer: "Order SO-10242: $161.99", want: true, ctx: { instruction: "What did order SO-10242 cost?" } },
  {
    m: { number: 4870, tol: 0.005 },
    answer: "The largest amount is $4,870.00 (invoice NW-5521 from Northwind).",
    want: true,
    ctx: { instruction: MAIL },
  },
  { m: { number: 8 }, answer: "There are 8 such issues.", want: true, ctx: { instruction: API } },
  { m: { number: 8 }, answer: "8 issues are not done yet", want: true, ctx: { instruction: API } }, // the task's "not"
  { m: { number: 24 }, answer: "24 seats", want: true },
  { m: { number: 1234.5 }, answer: "$1,234.50", want: true },
  { m: { number: 4870, tol: 0.005 }, answer: "4,870.00 EUR", want: true },
  { m: { number: 66 }, answer: "66 points (66 total)", want: true }, // one value, however often stated
  { m: { number: 5 }, answer: "BK-KHCFG, 5 guests", want: true },
  { m: 3, answer: "Room 3", want: true }, // a label is the number when nothing else is stated
  { m: 12, answer: "Issue #12", want: true },
  { m: { contains: "January" }, answer: "January", want: true, ctx: months },
  { m: { contains: "January" }, answer: "It sold the most units in January.", want: true, ctx: months },
  { m: { contains: "Harbor" }, answer: "Harbor", want: true, ctx: rooms },
  { m: { contains: "Harbor" }, answer: "The Harbor room is still free then.", want: true, ctx: rooms },
  { m: { contains: "MOB-15" }, answer: "MOB-15", want: true },
  { m: "Harbor", answer: "  harbor ", want: true },
  { m: "Harbor", answer: "The answer is Harbor.", want: true }, // a bare string not equal is read as contains
  { m: { contains: "cannot swivel" }, answer: "No, it cannot swivel", want: true }, // the expected text negates
  { m: { contains: "swivel" }, answer: "It can't swivel", want: true, ctx: { reference: "It does not swivel." } },
  // A card number grouped by dashes or spaces is the number the app stores.
  { m: { exact: "4111111111111111" }, answer: "4111-1111-1111-1111", want: true },
  { m: { exact: "4111111111111111" }, answer: "4111 1111 1111 1111", want: true },
  { m: { number: 4111111111111111 }, answer: "4111-1111-1111-1111", want: true },
  {
    m: { number: 4111111111111111 },
    answer: "The card number is 4111-1111-1111-1111",
    want: true,
    ctx: { instruction: "Which card number is on file?" },
  },
  { m: { exact: "4111111111111111" }, answer: "4111-1111-1111-1112", want: false },
  { m: { exact: "4111111111111111" }, answer: "Card 4111-1111-1111-1111", want: false }, // exact stays exact
  // Dates and times in their usual forms.
  { m: { date: "2026-03-20" }, answer: "March 20, 2026", want: true },
  { m: { date: "2026-03-20" }, answer: "Friday 20 March 2026 (2026-03-20)", want: true },
  { m: { date: "2026-03-20" }, answer: "March 20", want: true }, // the year unstated is not a wrong year
  { m: { date: "2026-03-17" }, answer: "Tuesday 17 March 2026 at 14:00", want: true }, // a time on the day stated
  {
    m: 3,
    answer: "On March 24 at 10:00 there were 3",
    want: true,
    ctx: { instruction: "How many rooms were free on March 24 at 10:00?" },
  },

  // Hedges, qualifiers and extra claims: undecided, never a pass.
  {
    m: { number: 66 },
    answer: "I think 66",
    want: null,
    why: /^"I think 66" has words the rules cannot account for: "I think"$/,
    ctx: sprint,
  },
  { m: { number: 66 }, answer: "I believe 66", want: null, why: /: "I believe"$/, ctx: sprint },
  { m: { number: 66 }, answer: "about 66", want: null, why: /: "about"$/, ctx: sprint },
  { m: { number: 66 }, answer: "at least 66", want: null, why: /: "at least"$/, ctx: sprint },
  { m: { number: 66 }, answer: "roughly 66", want: null, why: /: "roughly"$/, ctx: sprint },
  { m: { number: 66 }, answer: "66?", want: null, why: /: "\?"$/ },
  { m: { number: 66 }, answer: "~66", want: null },
  { m: { number: 4870 }, answer: "the smallest is 4870", want: null, why: /: "smallest"$/, ctx: { instruction: MAIL } },
  { m: money, answer: "still in transit: $161.99", want: null, why: /: "still in transit"$/, ctx: shop },
  { m: { contains: "January" }, answer: "had the fewest: January", want: null, why: /: "fewest"$/, ctx: months },
  { m: { contains: "January" }, answer: "sales fell in January", want: null, why: /: "fell"$/, ctx: months },
  { m: { contains: "14:30" }, answer: "only from 14:30", want: null, why: /: "only"$/, ctx: rooms },
  { m: { number: 4870 }, answer: "2025: 4870", want: null, why: /: "2025"$/, ctx: { instruction: MAIL } }, // an extra claim
  { m: { number: 4870 }, answer: "2025: 4870", want: true, ctx: { instruction: "What were the sales of 2025?" } },
  { m: { number: 66 }, answer: "66 story points across 11 issues", want: null, why: /: "11"$/ }, // no task naming issues
  { m: { contains: "Harbor" }, answer: "None is free: Harbor is already booked", want: null, ctx: rooms },
  { m: { contains: "Harbor" }, answer: "Harbor isn't free", want: null, why: /: "isn't"$/, ctx: rooms },
  { m: { contains: "Harbor" }, answer: "Probably Harbor", want: null, why: /: "Probably"$/ },
  { m: { contains: "Harbor" }, answer: "Harbor is free", want: null, why: /: "free"$/ }, // no task: "free" is unknown
  { m: { contains: "Harbor" }, answer: "Harbor is free", want: true, ctx: rooms },
  { m: { contains: "Harbor" }, answer: "Harbor (see http://h/rooms/harbor)", want: null, why: /: "see"$/ },
  { m: { contains: "swivel" }, answer: "No, it can't swivel", want: null, why: /: "No, it can't"$/ },
  { m: { regex: "cannot|can't" }, answer: "It cannot swivel", want: null, why: /: "swivel"$/ },
  { m: { regex: "cannot|can't" }, answer: "It cannot swivel", want: true, ctx: { instruction: "Can it swivel?" } },

  // A second value beside the expected one: undecided, with the values named.
  {
    m: { number: 66 },
    answer: "66 or 61",
    want: null,
    why:
      /^"66 or 61" has words the rules cannot account for: "or 61"; it states 2 numbers \(66, 61\) where one is asked$/,
    ctx: sprint,
  },
  { m: { number: 66 }, answer: "66, maybe 61", want: null, why: /: "maybe 61"; it states 2 numbers/, ctx: sprint },
  { m: { number: 66 }, answer: "66 or 61 story points", want: null, ctx: sprint }, // the unit passes across "or"
  { m: { number: 66 }, answer: "66 story points, 61 story points", want: null, ctx: sprint },
  {
    m: money,
    answer: "$161.99 or $84.87",
    want: null,
    why: /: "or \$84\.87"; it states 2 numbers \(161\.99, 84\.87\)/,
  },
  { m: 8, answer: "8-9", want: null, why: /2 numbers \(8, 9\)/ }, // a range
  { m: { number: 66, tol: 1 }, answer: "66 or 67", want: null, why: /: "or"$/ }, // both within tolerance, still a hedge
  { m: 3, answer: "Room 3 or Room 4", want: null },
  {
    m: { date: "2026-03-20" },
    answer: "2026-03-20 or 2026-03-21",
    want: null,
    why: /2 dates \(2026-03-20, 2026-03-21\)/,
  },
  { m: { number: 66 }, answer: "Sprint 15 has 66 story points planned.", want: null, why: /: "15"$/, ctx: sprint },
  { m: { regex: "2025" }, answer: "2025 and 2026", want: null, why: /: "2026"$/ },
  { m: { regex: "ORD-\\d+" }, answer: "ORD-1042, ORD-1043", want: null, why: /: "ORD-1043"$/ },
  { m: money, answer: "Order SO-10243: $161.99", want: null, ctx: { instruction: "What did order SO-10242 cost?" } },

  // A wrong value stays a clean failure.
  { m: { number: 66 }, answer: "61", want: false, why: /^"61" states 61, not number 66$/, ctx: sprint },
  { m: { number: 66 }, answer: "I think 61", want: false, why: /states 61, not number 66$/ },
  {
    m: { number: 34.99 },
    answer: "Between 30 and 40",
    want: false,
    why: /states 2 numbers \(30, 40\), none number 34\.99$/,
  },
  { m: { number: 66 }, answer: "Sprint 14", want: false, why: /^"Sprint 14" states 14, not number 66$/ },
  { m: 8, answer: "WEB-8 waits for API-14", want: false, why: /states no number$/ }, // numbers inside codes
  { m: { number: 12.5 }, answer: "12,5", want: false, why: /states no number$/ },
  { m: 24, answer: "On March 24 at 10:00", want: false, why: /states no number$/ }, // dates and times are no numbers
  { m: 2, answer: "The standup starts at 2 pm", want: false, why: /states no number$/ },
  { m: { date: "2026-03-20" }, answer: "March 21, 2026", want: false, why: /states 2026-03-21, not date 2026-03-20$/ },
  { m: { date: "2026-03-20" }, answer: "next Friday", want: false, why: /states no date$/ },
  { m: { contains: "does not swivel" }, answer: "No, it can't swivel", want: false, why: /does not match contains/ },
  { m: { exact: "BK-KHCFG" }, answer: " BK-KHCFG\n", want: true },
  { m: { exact: "BK-KHCFG" }, answer: "bk-khcfg", want: false, why: /does not match == "BK-KHCFG"$/ },
  { m: { exact: "BK-KHCFG" }, answer: "BK-KHCFG.", want: false, why: /does not match/ },
  { m: { regex: "^ORD-\\d+$" }, answer: "ORD-1042", want: true },
  { m: { regex: "^ORD-\\d+$" }, answer: "The order is ORD-1042", want: false }, // anchored by its author
  { m: { regex: "ORD-\\d+" }, answer: "The answer is ORD-1042.", want: true }, // the match, framing around it
  // A value denied (a negation before it, in its clause) is no answer.
  {
    m: money,
    answer: "It was not $161.99.",
    want: false,
    why: /says "not", a negation: the value is denied/,
    ctx: shop,
  },
  { m: { number: 24 }, answer: "Delta does not have 24 seats.", want: false, why: /negation/ },
  { m: { date: "2026-03-17" }, answer: "Not on March 17, 2026", want: false, why: /negation/ },
  { m: { number: 8 }, answer: "There are not 8 issues", want: false, why: /negation/, ctx: { instruction: API } },
  { m: money, answer: "$161.99, not $84.87", want: null, ctx: shop }, // the negation denies the other value

  // Other candidates: picking one fails; naming one beside the expected is undecided.
  {
    m: { contains: "Harbor" },
    answer: "Fjord",
    want: false,
    why: /^"Fjord" names "Fjord", another candidate/,
    ctx: rooms,
  },
  {
    m: { contains: "January" },
    answer: "November",
    want: false,
    why: /names "November", another candidate/,
    ctx: months,
  },
  {
    m: { contains: "Harbor" },
    answer: "Harbor or Fjord",
    want: null,
    why: /: "or Fjord"; it names "Fjord", another/,
    ctx: rooms,
  },
  { m: { contains: "Harbor" }, answer: "Harbor; Aurora is booked", want: null, why: /it names "Aurora"/, ctx: rooms },
  { m: { contains: "Harbor" }, answer: "Harbor, the runner-up was Aurora", want: null, ctx: rooms },
  { m: { contains: "January" }, answer: "January or November", want: null, why: /it names "November"/, ctx: months },
  { m: { contains: "Harbor" }, answer: "Harbor and Summit", want: null, ctx: { others: ["Summit", "Cedar"] } },
  { m: { contains: "Harbor" }, answer: "Harbor, next to the summit", want: null, ctx: { others: ["Summit"] } },
  { m: { contains: "Harbor Room" }, answer: "The Harbor Room", want: true, ctx: { others: ["Harbor"] } }, // expected
  {
    m: { number: 66 },
    answer: "66, in Sprint 15",
    want: null,
    why: /names "Sprint 15"/,
    ctx: { others: ["Sprint 15"] },
  },
  // A text answer may not name the task's other names beside the expected one (they may be its rivals).
  { m: { contains: "January" }, answer: "January, February", want: null, ctx: { instruction: "January or February?" } },
  { m: { contains: "Harbor" }, answer: "Harbor or Summit", want: null, why: /: "or Summit"$/ },
  { m: { contains: "Harbor" }, answer: "Harbor/Summit", want: null },
  { m: "Harbor", answer: "Harbor or Summit", want: null },
  { m: { regex: "harbor", flags: "i" }, answer: "Harbor or Summit", want: null },

  // one_of: one alternative passes; alternatives that disagree are undecided.
  { m: { one_of: [{ contains: "Harbor" }, { contains: "Summit" }] }, answer: "Summit", want: true },
  {
    m: { one_of: [{ contains: "Harbor" }, { contains: "Summit" }] },
    answer: "Harbor and Summit",
    want: null,
    why: /passes 2 alternatives that disagree \(contains "Harbor" \| contains "Summit"\): a hedge$/,
  },
  { m: { one_of: [{ contains: "Harbor" }, { contains: "Harbor Room" }] }, answer: "The Harbor Room", want: true },
  { m: { one_of: [66, { contains: "sixty-six" }] }, answer: "66 (sixty-six)", want: true },
  { m: { one_of: [{ contains: "Harbor" }, 3] }, answer: "Cedar", want: false, why: /does not match one of/ },
  // not and present keep their meaning.
  { m: { not: { regex: "aurora|birch|cedar", flags: "i" } }, answer: "None of them", want: true },
  { m: { not: { regex: "aurora|birch|cedar", flags: "i" } }, answer: "Birch", want: false, why: /does not match not/ },
  { m: { present: true }, answer: "no", want: true },

  // A reference answer's words and values are accounted for.
  {
    m: { number: 4 },
    answer: "4 percentage points (from 91% in January to 95% in February)",
    want: true,
    ctx: {
      reference: "4 percentage points (from 91% to 95%)",
      instruction: "By how many percentage points did on-time delivery improve from January to February?",
    },
  },
  {
    m: { number: 4 },
    answer: "4 percentage points (from 91% in January to 95% in February)",
    want: null,
    why: /: "January", "February"$/,
    ctx: { reference: "4 percentage points (from 91% to 95%)" },
  },
  { m: { number: 4 }, answer: "4 percentage points (from 91% in January to 95% in February)", want: null },
];

Deno.test("decideStrictAnswer() passes only answers whose every token is accounted for", () => {
  for (const row of ROWS) {
    const d = decideStrictAnswer(row.m, row.answer, row.ctx);
    const label = `${JSON.stringify(row.m)} on ${JSON.stringify(row.answer)}`;
    assert.equal(d.ok, row.want, `${label}: ${"why" in d ? d.why : "passes"}`);
    if (d.ok === true) continue;
    if (row.want === null) assert.match(d.why, /has words the rules cannot account for|a hedge$/, label);
    if (row.why) assert.match(d.why, row.why, label);
  }
});

Deno.test("decideStrictAnswer() marks an answer without the asked value as absent (the QA tiers pass it on)", () => {
  assert.deepEqual(decideStrictAnswer(8, "a lot"), { ok: false, why: '"a lot" states no number', absent: true });
  assert.equal((decideStrictAnswer(8, "9") as { absent?: boolean }).absent, undefined);
  assert.equal((decideStrictAnswer({ date: "2026-03-20" }, "soon") as { absent?: boolean }).absent, true);
  assert.equal((decideStrictAnswer({ contains: "Harbor" }, "Fjord") as { absent?: boolean }).absent, true);
});

Deno.test("strictAnswerFailure() is null for a pass only: a failure and an undecided answer both say why", () => {
  assert.equal(strictAnswerFailure({ number: 66 }, "66"), null);
  assert.match(strictAnswerFailure({ number: 66 }, "61") ?? "", /states 61, not number 66$/);
  assert.match(strictAnswerFailure({ number: 66 }, "I think 66") ?? "", UNACCOUNTED);
  assert.match(strictAnswerFailure({ contains: "Harbor" }, "Fjord", ["Fjord"]) ?? "", /names "Fjord"/);
  assert.equal(strictAnswerFailure({ contains: "swivel" }, "It can't swivel", undefined, "It does not swivel."), null);
});

Deno.test("decideStrictAnswer() reads the same answer the same way whatever was read before it", () => {
  const first = decideStrictAnswer({ number: 66 }, "66 or 61");
  decideStrictAnswer({ contains: "Harbor" }, "Harbor");
  assert.deepEqual(decideStrictAnswer({ number: 66 }, "66 or 61"), first);
});

Deno.test("decideAnswer() tiers: a plain wrong value fails at its tier; unaccounted words go to the LLM tier", () => {
  const points = spec({ expected: "66 story points", number: 66 });
  assert.deepEqual(decideAnswer(points, "66 story points"), { ok: true, tier: "number", reason: "states number 66" });
  // Was a fail at the number tier: a second value is a word the rules cannot account for, the LLM tier decides.
  const hedge = decideAnswer(points, "66 or 61");
  assert.deepEqual([hedge.ok, hedge.tier], [null, "llm"]);
  assert.match(
    hedge.reason,
    /it states 2 numbers \(66, 61\) where one is asked \(number tier\): left to the LLM tier$/,
  );
  assert.equal(decideAnswer(points, "Sprint 14 has 66 story points planned.", SPRINT).ok, true);
  // Was a pass: without the instruction, "Sprint 14" and "planned" are accounted by nothing.
  assert.equal(decideAnswer(points, "Sprint 14 has 66 story points planned.").ok, null);
  assert.deepEqual([decideAnswer(points, "Sprint 14").ok, decideAnswer(points, "Sprint 14").tier], [false, "number"]);
  assert.deepEqual([decideAnswer(points, "a lot").ok, decideAnswer(points, "a lot").tier], [null, "llm"]);
  assert.equal(decideAnswer(points, "sixty-six").ok, true);

  const checkin = spec({ expected: "Wednesday, April 8, 2026", date: "2026-04-08", regex: "\\bApr(il)?\\.?\\s+8\\b" });
  assert.deepEqual([decideAnswer(checkin, "April 8, 2026").ok, decideAnswer(checkin, "April 8, 2026").tier], [
    true,
    "regex",
  ]);
  const instruction = "Open the hotel booking confirmation and tell me the check-in date.";
  assert.equal(decideAnswer(checkin, "Check-in is on Wednesday, April 8, 2026.", instruction).ok, true);
  // Were fails (a hedge): now undecided, the LLM tier's.
  const hedged = decideAnswer(checkin, "April 8 or April 12, 2026");
  assert.deepEqual([hedged.ok, hedged.tier], [null, "llm"]);
  assert.match(hedged.reason, /"or April 12, 2026" \(regex tier\)/);
  const twoDays = decideAnswer(spec({ date: "2026-04-08" }), "2026-04-08 or 2026-04-09");
  assert.deepEqual([twoDays.ok, twoDays.tier], [null, "llm"]);
  assert.deepEqual([decideAnswer(checkin, "Sunday, April 12, 2026").ok, decideAnswer(checkin, "April 12").tier], [
    false,
    "date",
  ]);

  const stand = spec({ expected: "It only tilts; it does not swivel.", regex: "swivel" });
  assert.equal(decideAnswer(stand, "It can't swivel").ok, true, "the reference negates too");
  const room = spec({ expected: "Harbor", regex: "harbor", flags: "i" });
  assert.deepEqual([decideAnswer(room, "None: Harbor is booked").ok, decideAnswer(room, "Harbor").ok], [null, true]);

  // The recorded answer of mail_h_ontime_points: its other numbers are the reference's, its months the instruction's.
  const ontime = spec({ expected: "4 percentage points (from 91% to 95%)", number: 4 });
  const question = "By how many percentage points did on-time delivery improve from January to February?";
  const recorded = "4 percentage points (from 91% in January to 95% in February)";
  assert.equal(decideAnswer(ontime, recorded, question).ok, true);
  assert.equal(decideAnswer(ontime, "It improved by 4 percentage points.", question).ok, true);
  assert.equal(decideAnswer(ontime, "4 or 5 points", question).ok, null);
  assert.equal(decideAnswer(ontime, "95%", question).ok, false);
});

Deno.test("decideAnswer() leaves unaccounted words to the LLM tier even when the spec turns it off", () => {
  const seats = spec({ expected: "24 seats", number: 24, llm: false });
  const q = "Open the Delta room's page: how many seats does it have?";
  assert.deepEqual([decideAnswer(seats, "24 or 16 seats", q).ok, decideAnswer(seats, "24 or 16 seats", q).tier], [
    null,
    "llm",
  ]);
  assert.equal(decideAnswer(seats, "The Delta room has 24 seats.", q).ok, true);
  assert.deepEqual([decideAnswer(seats, "16", q).ok, decideAnswer(seats, "16", q).tier], [false, "number"]);
  assert.match(decideAnswer(seats, "Delta does not have 24 seats.", q).reason, /negation/);
  assert.deepEqual([decideAnswer(seats, "lots", q).ok, decideAnswer(seats, "lots", q).tier], [false, "none"]);

  const email = spec({
    expected: "marcus.chen@sandbox.test",
    exact: ["marcus.chen@sandbox.test"],
    regex: "\\bmarcus\\.chen@sandbox\\.test\\b",
    flags: "i",
    llm: false,
  });
  const who = "Who is assigned to the Tracker issue API-20? Find that person's email address and answer with it.";
  assert.equal(decideAnswer(email, "Marcus Chen's email address is marcus.chen@sandbox.test.", who).ok, true);
  assert.equal(decideAnswer(email, "marcus.chen@sandbox.test or marcus@sandbox.test", who).ok, null);
  assert.equal(decideAnswer(email, "marcus@sandbox.test", who).ok, false);
});

Deno.test("decideStrictAnswer(): a date answer naming another year than the task's fails; the task's year passes", () => {
  const due = { instruction: "On which date was order SO-10242 to be delivered? Answer with the date." };
  for (const answer of ["March 20, 2025", "20 March (2025)", "March 20, in 2025", "2025-03-20"]) {
    const d = decideStrictAnswer({ date: "2026-03-20" }, answer, due);
    assert.equal(d.ok, false, answer);
    assert.match("why" in d ? d.why : "", /names the year 2025; the task's is 2026$/, answer);
  }
  for (const answer of ["March 20", "20 March 2026", "Friday, March 20, 2026"]) {
    assert.equal(decideStrictAnswer({ date: "2026-03-20" }, answer, due).ok, true, answer);
  }
  // A day the expected text gives without its year: the task's own year (here the instruction's) decides.
  const booked = { instruction: "On which day in 2026 is Harbor booked for the design review?" };
  assert.equal(decideStrictAnswer({ contains: "March 20" }, "March 20, 2025", booked).ok, false);
  assert.equal(decideStrictAnswer({ contains: "March 20" }, "March 20, 2026", booked).ok, true);
  // A task that states no year cannot tell: no silent pass, the judge reads it.
  assert.equal(decideStrictAnswer({ contains: "March 20" }, "March 20, 2025", { instruction: "When?" }).ok, null);
});

Deno.test("decideStrictAnswer(): the question's own names are accounted when the task lists its candidates", () => {
  const who = "Who booked the Harbor room on March 17 at 14:00? Answer with the person's name.";
  const people = { instruction: who, others: ["Carlos Ortega", "Priya Shah"] };
  assert.equal(decideStrictAnswer({ contains: "Dana Whitfield" }, "Dana Whitfield booked Harbor", people).ok, true);
  assert.equal(decideStrictAnswer({ contains: "Delta" }, "Delta is free", rooms).ok, true);
  // Without the candidates listed a name of the question may be a rival: the judge reads it.
  assert.equal(
    decideStrictAnswer({ contains: "Dana Whitfield" }, "Dana Whitfield booked Harbor", { instruction: who })
      .ok,
    null,
  );
  // A hedge between two candidates, or a candidate named in the question beside the answer, still never passes.
  for (const answer of ["Dana Whitfield or Carlos Ortega", "Dana Whitfield, Carlos Ortega"]) {
    assert.equal(decideStrictAnswer({ contains: "Dana Whitfield" }, answer, people).ok, null, answer);
  }
  const pick = { instruction: "Is Harbor or Aurora free at 14:00? Answer with the room.", others: ROOMS };
  assert.equal(decideStrictAnswer({ contains: "Harbor" }, "Harbor or Aurora", pick).ok, null);
});

Deno.test("decideStrictAnswer(): another name a screen shows in parentheses beside the answer names the same thing", () => {
  const shown = ["Projects\nPayments API (API) 12 open\nMobile App (MOB) 8 open\nWeb Platform (WEB) 3 open"];
  const ctx = { instruction: "Which project has the most open bugs?", others: ["Payments API", "Web Platform"], shown };
  assert.equal(decideStrictAnswer({ contains: "Mobile App" }, "Mobile App (MOB)", ctx).ok, true);
  assert.equal(decideStrictAnswer({ contains: "Mobile App" }, "MOB - Mobile App", ctx).ok, true);
  // Not shown as its other name: another project's key, or no screen showing it.
  assert.equal(decideStrictAnswer({ contains: "Mobile App" }, "Mobile App (WEB)", ctx).ok, null);
  assert.equal(decideStrictAnswer({ contains: "Mobile App" }, "Mobile App (MOB)", { ...ctx, shown: [] }).ok, null);
  assert.equal(decideStrictAnswer({ contains: "Mobile App" }, "Mobile App or Web Platform (WEB)", ctx).ok, null);
});
