/**
 * Grading human episodes: the QA tier chain (regex, exact, precise, then the LLM tier), checks before answers, and
 * the LLM tier asked only for what the rule tiers leave open (a grade error without one). The LLM tier over HTTP
 * and regrading from saved inputs: tests/human_verifier_test.ts.
 */
import assert from "node:assert/strict";
import { decideAnswer } from "./qa.ts";
import { fakeJudge, idle, searched, searchTask as task, spec } from "./_verifier_testdata.ts";
import { gradeHuman, type VerifiedTask } from "./verifier.ts";
import type { ChangeEntry, ExpectedRow } from "../protocol/mod.ts";
import { humanTrajectory } from "./trajectory.ts";

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
  assert.equal(decideAnswer(spec({ number: 4 }), "four").ok, true, "a number word is the number");
  assert.deepEqual(
    decideAnswer(spec({ number: 4, llm: false }), "a few").ok,
    false,
    "llm: false fails an answer no tier accepts",
  );
  const day = spec({ date: "2026-04-08" });
  // Every word accounted for: "check-in" is the task's own word; without the instruction the LLM tier decides.
  assert.equal(decideAnswer(day, "Check-in is on April 8, 2026", "When is check-in at the hotel?").ok, true);
  assert.equal(decideAnswer(day, "Check-in is on April 8, 2026").ok, null);
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

Deno.test("gradeHuman() without an LLM tier grades an answer that needs it pending, not a verdict", async () => {
  const g = await gradeHuman(task(), searched, "It cannot swivel.");
  assert.equal(g.ok, false);
  assert.equal(g.pending, true);
  assert.equal(g.gradeError, undefined);
  assert.equal(g.reason, "answer_unaccounted");
  assert.match(g.detail, /^pending: /);
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

/** A booking task of two macros on one endpoint, and its episode's log and changes. */
function bookingEpisode(requests: { slot: string; size: string }[], extra: ChangeEntry[] = []) {
  const log = requests.map((r, i) => ({
    seq: 10 * (i + 1),
    method: "POST",
    path: "/bookings/book",
    query: {},
    body: { slot: r.slot, attendees: r.size },
    status: 303,
  }));
  const changes: ChangeEntry[] = requests.map((r, i) => ({
    seq: 10 * (i + 1) - 1,
    site: "bookings",
    table: "bookings",
    op: "insert",
    key: 60 + i,
    before: null,
    after: { id: 60 + i, start_time: r.slot, attendees: Number(r.size) },
  }));
  const task: VerifiedTask = {
    instruction: "Book 14:00 for 4.",
    macros: ["choose_radio", "submit_form"],
    verifier: {
      macros: {
        choose_radio: { check: { request: { method: "POST", path: "/bookings/book", body: { slot: "14:00" } } } },
        submit_form: { check: { request: { method: "POST", path: "/bookings/book", body: { attendees: "4" } } } },
      },
    },
  };
  const rules = { bookings: { generated: { bookings: ["id"] } } };
  return { task, trajectory: humanTrajectory([], log), state: { changes: [...changes, ...extra], rules } };
}

Deno.test("gradeHuman() end state: one endpoint's conditions bind to one request; duplicates and undone writes fail", async () => {
  const ok = bookingEpisode([{ slot: "14:00", size: "4" }]);
  assert.equal((await gradeHuman(ok.task, ok.trajectory, "", { state: ok.state })).ok, true);
  // 14:00 for 5 and 15:00 for 4: each macro finds a request, no one request is the booking asked for.
  const split = bookingEpisode([{ slot: "14:00", size: "5" }, { slot: "15:00", size: "4" }]);
  const g = await gradeHuman(split.task, split.trajectory, "", { state: split.state });
  assert.match(g.detail, /^choose_radio \+ submit_form: no single request "POST" "\/bookings\/book" satisfies all/);
  // Without the end-state inputs the old grade passes it: the binding is what rejects it.
  assert.equal((await gradeHuman(split.task, split.trajectory, "")).ok, true);
  const twice = bookingEpisode([{ slot: "14:00", size: "4" }, { slot: "14:00", size: "4" }]);
  assert.match((await gradeHuman(twice.task, twice.trajectory, "", { state: twice.state })).detail, /duplicate: 2/);
  const cancelled = bookingEpisode([{ slot: "14:00", size: "4" }], [{
    seq: 30,
    site: "bookings",
    table: "bookings",
    op: "update",
    key: 60,
    before: { status: "confirmed" },
    after: { status: "cancelled" },
  }]);
  const c = await gradeHuman(cancelled.task, cancelled.trajectory, "", { state: cancelled.state });
  assert.match(c.detail, /^overwritten: bookings\.bookings\.60/);
});

Deno.test("gradeHuman() end state: the reference's rows and final page", async () => {
  const ep = bookingEpisode([{ slot: "14:00", size: "4" }]);
  const row = {
    site: "bookings",
    table: "bookings",
    op: "insert" as const,
    fields: { start_time: "14:00", attendees: 4 },
  };
  const withRef = (end_state: ExpectedRow[], end_page?: string) => ({
    ...ep.task,
    verifier: { ...ep.task.verifier, end_state, ...(end_page ? { end_page } : {}) },
  });
  const state = (url: string) => ({
    ...ep.state,
    final: { url, urls: [url], logged_in: true, start_logged_in: true },
  });
  assert.equal((await gradeHuman(withRef([row]), ep.trajectory, "", { state: ep.state })).ok, true);
  // A field no macro names (the form's `slot` is not the row's `start_time`) must have the reference's value, free
  // text or not; one a macro's condition names (`attendees`) is the macro's to judge.
  const other = { ...row, fields: { start_time: "15:00", attendees: 4 } };
  const mismatch = await gradeHuman(withRef([other]), ep.trajectory, "", { state: ep.state });
  assert.equal(mismatch.reason, "field_mismatch");
  assert.match(mismatch.detail, /start_time = "14:00", the reference's is "15:00" \(no macro names start_time\)/);
  const named = { ...row, fields: { start_time: "14:00", attendees: 5 } };
  assert.equal((await gradeHuman(withRef([named]), ep.trajectory, "", { state: ep.state })).ok, true);
  // Declared free by the task's author, and no macro accounts for it in full: the judge reads it, else pending.
  const declared = { ...withRef([other]), verifier: { ...withRef([other]).verifier, free: ["bookings.start_time"] } };
  const pending = await gradeHuman(declared, ep.trajectory, "", { state: ep.state });
  assert.deepEqual([pending.ok, pending.pending, pending.reason], [false, true, "text_unaccounted"]);
  assert.match(pending.detail, /^pending: bookings\.start_time "14:00" is free text/);
  const judge = fakeJudge(true);
  assert.equal((await gradeHuman(declared, ep.trajectory, "", { state: ep.state, qa: judge })).ok, true);
  assert.deepEqual(judge.asked.map((q) => [q.expected, q.answer]), [["15:00", "14:00"]]);
  const rejected = await gradeHuman(declared, ep.trajectory, "", { state: ep.state, qa: fakeJudge(false) });
  assert.equal(rejected.reason, "judge_rejected");
  assert.match((await gradeHuman(withRef([]), ep.trajectory, "", { state: ep.state })).detail, /unexpected write/);
  const page = withRef([row], "/bookings/rooms/6/schedule");
  const there = await gradeHuman(page, ep.trajectory, "", { state: state("http://h:1/bookings/rooms/6/schedule") });
  assert.equal(there.ok, true, there.detail);
  const past = await gradeHuman(page, ep.trajectory, "", { state: state("http://h:1/bookings/rooms/6/rules") });
  assert.match(past.detail, /^final page "\/bookings\/rooms\/6\/rules" is not the one the task ends on/);
});

Deno.test("gradeHuman() end state: a text the instruction asks for exactly keeps its case and final period", async () => {
  const asked = "Quarterly review with Harbor Print Co.";
  const episode = (purpose: string, instruction: string) => {
    const ep = bookingEpisode([{ slot: "14:00", size: "4" }]);
    ep.state.changes[0].after = { ...ep.state.changes[0].after, purpose };
    const row = {
      site: "bookings",
      table: "bookings",
      op: "insert" as const,
      fields: { start_time: "14:00", attendees: 4, purpose: asked },
    };
    return { ...ep, task: { ...ep.task, instruction, verifier: { ...ep.task.verifier, end_state: [row] } } };
  };
  const exactly = `Book 14:00 for 4, with the purpose written exactly: ${asked}`;
  const right = episode(asked, exactly);
  const ok = await gradeHuman(right.task, right.trajectory, "", { state: right.state });
  assert.equal(ok.ok, true, ok.detail);
  for (const near of [asked.toLowerCase(), asked.slice(0, -1)]) {
    const ep = episode(near, exactly);
    const g = await gradeHuman(ep.task, ep.trajectory, "", { state: ep.state });
    assert.equal(g.reason, "field_mismatch", near);
    assert.match(g.detail, /purpose = ".*", the reference's is "Quarterly review with Harbor Print Co\."/);
  }
  // Not asked for exactly: free text compares up to case and a final full stop.
  const loose = episode(asked.toLowerCase().slice(0, -1), `Book 14:00 for 4 for a ${asked}`);
  assert.equal((await gradeHuman(loose.task, loose.trajectory, "", { state: loose.state })).ok, true);
});
