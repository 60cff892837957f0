/**
 * Grading human episodes with the LLM tier over HTTP: a fixture judge server accepts one answer and rejects
 * another; an unreachable endpoint is a grade error that regrading the saved grade inputs completes (the task-kind
 * registry's collect, parseGradeInputs and grade). The pure QA tier chain: lib/grading/verifier_test.ts.
 */
import assert from "node:assert/strict";
import { gradeHuman } from "../lib/grading/mod.ts";
import {
  fakeJudge,
  searched,
  searchedRecord,
  searchRequest,
  searchTask,
  spec,
} from "../lib/grading/_verifier_testdata.ts";
import { OpenAiJudge, OpenAiModelClient } from "../lib/llm/mod.ts";
import { DEFAULT_JUDGE_MODEL, loadJudgePrompts } from "../lib/llm/judge.ts";
import { type HumanTask, parseGradeInputs } from "../lib/tasks/mod.ts";
import { KINDS } from "../lib/tasks/kinds.ts";
import { startFixtureModelServer } from "./fixture_model_server.ts";

/** The verifier fixtures' search task as a resolved human task. */
function task(answer = spec({ expected: "The stand only tilts; it does not swivel." })): HumanTask {
  return {
    ...searchTask(answer),
    macros: ["search", "answer_question"],
    kind: "human",
    task_id: "t1",
    key: "shop/t1",
    dir: "/nowhere",
    site: "shop",
    sites: ["shop"],
    macro: "answer_question",
    subtasks: null,
    start_hint: "/shop/",
    needs_login: false,
    recording: null,
  };
}

Deno.test("gradeHuman() LLM tier over HTTP: a fixture judge server accepts one answer and rejects another", async () => {
  await using server = startFixtureModelServer({
    models: [DEFAULT_JUDGE_MODEL],
    checks: { image: false },
    episodes: [
      { marker: "It cannot swivel", steps: [{ reply: { verdict: "correct", reason: "same fact" } }] },
      {
        marker: "It is very sharp",
        steps: [{ reply: '```json\n{"verdict": "incorrect", "reason": "other fact"}\n```' }],
      },
    ],
  });
  const qa = new OpenAiJudge(
    new OpenAiModelClient({ baseURL: server.url, maxRetries: 0 }),
    DEFAULT_JUDGE_MODEL,
    await loadJudgePrompts(),
  );
  const pass = await gradeHuman(task(), searched, "It cannot swivel, it only tilts.", { qa });
  assert.deepEqual([pass.ok, pass.detail, pass.macros.answer_question.tier], [true, "", "llm"]);
  const fail = await gradeHuman(task(), searched, "It is very sharp.", { qa });
  assert.equal(fail.ok, false);
  assert.match(fail.detail, /rejected \(llm tier\): other fact$/);
  const body = server.requests[0].body as {
    temperature: number;
    model: string;
    messages: { role: string; content: string }[];
  };
  assert.equal(body.temperature, 0);
  assert.equal(body.model, DEFAULT_JUDGE_MODEL);
  assert.match(body.messages[0].content, /You grade one answer/);
  assert.match(body.messages[1].content, /## Reference answer\nThe stand only tilts; it does not swivel\./);
});

Deno.test("gradeHuman() with an unreachable judge endpoint is a grade error, and regrading completes it", async () => {
  const dead = new OpenAiJudge(
    new OpenAiModelClient({ baseURL: "http://127.0.0.1:9/v1", maxRetries: 0, timeoutMs: 2000 }),
    DEFAULT_JUDGE_MODEL,
    { qa: "grade", macro: "judge" },
  );
  const record = {
    base: "http://h",
    streams: {
      record: searchedRecord,
      log: [searchRequest],
      changes: [],
      clipboard: [],
    },
    trace: [{ action: [{ done: { text: "It cannot swivel.", success: true } }] }],
    answer: "It cannot swivel.",
    seen: ["..."],
    blocked: [],
    final: { url: "http://h/x", urls: ["http://h/x"], logged_in: true, start_logged_in: true },
    rules: {},
  };
  const human = KINDS.human;
  const inputs = human.collect(task(), record);
  const first = await human.grade(inputs, { qa: dead });
  assert.equal(first.gradeError, true);
  assert.match(first.detail, /ModelReplyError: cannot reach model server at http:\/\/127\.0\.0\.1:9\/v1/);
  // Saved, read back, regraded with a working tier.
  const saved = parseGradeInputs(JSON.stringify(inputs), "out/t1/grade_inputs.json");
  assert.equal(saved.kind, human);
  const again = await saved.kind.grade(saved.inputs, { qa: fakeJudge(true) });
  assert.deepEqual([again.ok, again.gradeError], [true, undefined]);
  assert.throws(
    () => parseGradeInputs({ ...inputs, traj: "x" }, "out/t1/grade_inputs.json"),
    /out\/t1\/grade_inputs\.json: traj: expected a list/,
  );
});
