/**
 * Grading human episodes: the QA tier chain (regex, exact, precise, then the LLM tier), checks before answers, and
 * the LLM tier asked only for what the rule tiers leave open (a grade error without one). The LLM tier over HTTP
 * and regrading from saved inputs: tests/human_verifier_test.ts.
 */
import assert from "node:assert/strict";
import { decideAnswer } from "./qa.ts";
import { fakeJudge, idle, searched, searchTask as task, spec } from "./_verifier_testdata.ts";
import { gradeHuman } from "./verifier.ts";

Deno.test("decideAnswer() runs regex, exact, then precise tiers; only what none decides goes to the LLM tier", () => {
  const money = spec({ expected: "$34.99", regex: "^\\$?34\\.99$", exact: ["thirty-four ninety-nine"], number: 34.99 });
  assert.deepEqual([decideAnswer(money, "$34.99").ok, decideAnswer(money, "$34.99").tier], [true, "regex"]);
  assert.equal(decideAnswer(money, "Thirty-four  ninety-nine").tier, "exact");
  assert.equal(decideAnswer(money, "It costs 34.99 dollars").tier, "number");
  const wrong = decideAnswer(money, "It costs $35.99");
  assert.deepEqual([wrong.ok, wrong.tier], [false, "number"], "one number stated, not the expected one: decided");
  const range = decideAnswer(money, "Between 30 and 40");
  assert.deepEqual([range.ok, range.tier], [false, "number"], "several numbers, none the expected one: decided");
  assert.equal(decideAnswer(money, "cheap").tier, "llm");
  assert.deepEqual(
    decideAnswer(spec({ number: 4, llm: false }), "four").ok,
    false,
    "llm: false fails what is undecided",
  );
  const day = spec({ date: "2026-04-08" });
  assert.equal(decideAnswer(day, "Check-in is on April 8, 2026").ok, true);
  assert.equal(decideAnswer(day, "2026-04-09").ok, false);
  assert.equal(decideAnswer(day, "next Wednesday").ok, null);
  assert.deepEqual([decideAnswer(money, "  ").ok, decideAnswer(money, null).reason], [false, "no answer"]);
});

Deno.test("gradeHuman() decides failing checks without the LLM tier", async () => {
  const judge = fakeJudge(true);
  const g = await gradeHuman(task(), idle, "It does not swivel.", { qa: judge });
  assert.equal(g.ok, false);
  assert.equal(g.detail, "search: visited: no page visit matched (no page visits)");
  assert.equal(judge.asked.length, 0);
  assert.equal(g.gradeError, undefined);
  const noAnswer = await gradeHuman(task(), searched, null, { qa: judge });
  assert.deepEqual([noAnswer.ok, noAnswer.detail], [false, "answer_question: answer no answer (none tier)"]);
  assert.equal(judge.asked.length, 0);
});

Deno.test("gradeHuman() without an LLM tier records a grade error for an answer that needs it", async () => {
  const g = await gradeHuman(task(), searched, "It cannot swivel.");
  assert.equal(g.ok, false);
  assert.equal(g.gradeError, true);
  assert.match(g.detail, /answer_question needs the LLM tier and no judge endpoint is set \(WEBMIX_JUDGE_BASE_URL\)/);
  assert.equal(g.macros.search.ok, true);
  assert.equal(g.macros.answer_question.ok, null);
  // A rule tier that decides needs no judge.
  const ruled = await gradeHuman(task(spec({ expected: "24", number: 24 })), searched, "24 seats");
  assert.deepEqual([ruled.ok, ruled.gradeError, ruled.detail], [true, undefined, ""]);
});

Deno.test("gradeHuman() asks the LLM tier with the question, the reference and the rubric", async () => {
  const judge = fakeJudge(false);
  const t = task(spec({ expected: "It only tilts.", rubric: "Must say it cannot swivel." }));
  const g = await gradeHuman(t, searched, "It is very sharp.", { qa: judge });
  assert.equal(g.ok, false);
  assert.match(g.detail, /^answer_question: answer "It is very sharp\." rejected \(llm tier\): because$/);
  assert.deepEqual(judge.asked, [{
    question: t.instruction,
    expected: "It only tilts.",
    answer: "It is very sharp.",
    rubric: "Must say it cannot swivel.",
  }]);
  const failing = await gradeHuman(t, searched, "x", { qa: fakeJudge(new Error("socket hang up")) });
  assert.equal(failing.gradeError, true);
  assert.match(failing.detail, /^grade error: the LLM tier failed for answer_question: Error: socket hang up/);
});
