/**
 * The macro judge over saved episodes: its input never holds the agent's claim of success, judgeRun() writes
 * judge.json beside each episode, and judge.ts (spawned) maps outcomes to exit codes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../errors/mod.ts";
import type { EpisodeJudge, EpisodeJudgeInput } from "../llm/mod.ts";
import { resultLine } from "../run_folder/mod.ts";
import { type JudgeView, parseGradeInputs } from "../tasks/mod.ts";
import { startFixtureModelServer } from "../../tests/fixture_model_server.ts";
import { judgeInput } from "./input.ts";
import { JUDGE_FILE, judgeRun } from "./run.ts";

const CLAIM = "I have successfully completed the task";

/** grade_inputs.json of a human episode whose agent claimed success without doing it. */
function humanInputs(question: boolean) {
  return {
    kind: "human",
    base: "http://127.0.0.1:1",
    task: {
      kind: "human",
      task_id: question ? "q1" : "a1",
      instruction: question ? "JUDGE-Q: how many seats?" : "JUDGE-A: add the jacket to your cart",
      macros: question ? ["open_detail", "answer_question"] : ["choose_radio"],
      subtasks: question ? null : [{ family: "Discrete selection", macro: "choose_radio", text: "size L" }],
      verifier: {
        macros: question
          ? { answer_question: { answer: { expected: "24", number: 24, llm: true } } }
          : { choose_radio: { check: { record: { action: "click", target: { contains: "size-l" } } } } },
      },
    },
    traj: [
      { type: "observation", kind: "page_load", url: "http://127.0.0.1:1/shop/products/33", title: "Jacket", t: 1 },
      { type: "action", action: "click", target: 'input#size-l[name=size] "L"', t: 2 },
      { type: "action", action: "scroll", target: "", value: 300, t: 3 },
      { type: "network", method: "GET", path: "/shop/products/33", query: {}, body: null, status: 200, t: 1 },
    ],
    answer: CLAIM,
    log: [],
    changes: [{ site: "shop", table: "settings", op: "update", key: 1, before: { a: 1, b: 2 }, after: { a: 1, b: 3 } }],
    clip: ["SO-1"],
    seen: ["first screen", "final screen text"],
    actions: [{ click: { index: 4 } }, { done: { text: CLAIM, success: true } }],
  };
}

/** What the episode's kind shows the judge of a saved grade_inputs.json. */
function view(inputs: unknown): JudgeView {
  const { kind, inputs: parsed } = parseGradeInputs(JSON.stringify(inputs), "out/e/grade_inputs.json");
  return kind.judgeView(parsed);
}

Deno.test("judgeInput() keeps the evidence and never the agent's claim of success", () => {
  const action = judgeInput(view(humanInputs(false)));
  const text = JSON.stringify(action);
  assert.equal(action.answer, undefined, "a task that asks no question: the answer is a claim, left out");
  assert.doesNotMatch(text, /successfully|"success"/);
  assert.deepEqual(action.macros, [{ macro: "choose_radio", subtask: "size L" }]);
  assert.deepEqual(action.evidence.requests, ["GET /shop/products/33 -> 200"]);
  assert.deepEqual(action.evidence.actions, [
    'page loaded: http://127.0.0.1:1/shop/products/33 "Jacket"',
    'click input#size-l[name=size] "L"',
  ]);
  assert.deepEqual(action.evidence.changes, ["shop.settings update key 1: b 2 -> 3"]);
  assert.deepEqual(action.evidence.clipboard, ['"SO-1"']);
  assert.equal(action.evidence.finalText, "final screen text");
  const question = judgeInput(view(humanInputs(true)), new Uint8Array([1]));
  assert.equal(question.answer, CLAIM, "a question's answer is its deliverable");
  assert.deepEqual(question.macros, [{ macro: "open_detail" }, { macro: "answer_question" }]);
  assert.deepEqual(question.screenshot, new Uint8Array([1]));
  // A datagen episode: its log and recorder stream, the prefix macro first.
  const datagen = judgeInput(view({
    task: {
      task_id: "t",
      site: "shop",
      macro: "switch_tab",
      instruction: "x",
      start: { url: "/shop/", prefix: { macro: "open_detail" } },
      check: { no_writes: true },
      solution: [],
    },
    base: "http://127.0.0.1:1",
    log: [{ method: "POST", path: "/a", query: { q: "1" }, body: { k: "v" }, status: 303 }],
    changes: [],
    record: [{ type: "action", action: "input", target: "input#q", value: "lamp" }],
  }));
  assert.deepEqual(datagen.macros.map((m) => m.macro), ["open_detail", "switch_tab"]);
  assert.deepEqual(datagen.evidence.requests, ['POST /a?q=1 {"k":"v"} -> 303']);
  assert.deepEqual(datagen.evidence.actions, ['input input#q = "lamp"']);
});

async function savedRun(): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "webmix-judge-" });
  const line = (episode: string) => ({
    task_id: episode,
    episode,
    macro: "choose_radio",
    site: "shop",
    arm: "base",
    ok: false,
    duration_s: 1,
    repeat: 0,
  });
  // "empty" ran and saved no grade inputs (a failed start): not an episode to judge.
  await Deno.writeTextFile(join(out, "results.jsonl"), ["a1", "q1", "empty"].map((e) => resultLine(line(e))).join(""));
  for (const [episode, question] of [["a1", false], ["q1", true]] as const) {
    await Deno.mkdir(join(out, episode));
    await Deno.writeTextFile(join(out, episode, "grade_inputs.json"), JSON.stringify(humanInputs(question)));
    await Deno.writeTextFile(join(out, episode, "history.json"), JSON.stringify({ history: [CLAIM] }));
  }
  await Deno.writeFile(join(out, "q1", "final.png"), new Uint8Array([137, 80, 78, 71]));
  await Deno.mkdir(join(out, "empty"));
  return out;
}

function scriptedJudge(): EpisodeJudge & { seen: EpisodeJudgeInput[] } {
  const seen: EpisodeJudgeInput[] = [];
  return {
    seen,
    judgeEpisode(input) {
      seen.push(input);
      if (input.instruction.includes("JUDGE-Q")) return Promise.reject(new Error("endpoint down"));
      return Promise.resolve({ ok: true, reason: "done", macros: [{ macro: "choose_radio", ok: true, reason: "r" }] });
    },
  };
}

Deno.test("judgeRun() writes judge.json beside each episode, keeps failures retryable and skips judged ones", async () => {
  const out = await savedRun();
  try {
    const judge = scriptedJudge();
    const lines: string[] = [];
    const s = await judgeRun({ out, judge, model: "m", log: (l) => lines.push(l), workers: 2 });
    assert.deepEqual([s.judged, s.passed, s.skipped], [1, 1, 0]);
    assert.deepEqual(s.failed.map((f) => f.episode), ["q1"]);
    assert.match(s.failed[0].error, /Error: endpoint down/);
    const verdict = JSON.parse(await Deno.readTextFile(join(out, "a1", JUDGE_FILE)));
    assert.deepEqual([verdict.episode, verdict.task_id, verdict.model, verdict.ok], ["a1", "a1", "m", true]);
    await assert.rejects(Deno.stat(join(out, "q1", JUDGE_FILE)), Deno.errors.NotFound);
    assert.equal(judge.seen.find((i) => i.instruction.includes("JUDGE-Q"))?.screenshot?.length, 4);
    const again = await judgeRun({ out, judge: scriptedJudge(), model: "m", log: () => {} });
    assert.deepEqual([again.judged, again.skipped, again.failed.length], [0, 1, 1], "a1 skipped, q1 retried");
    await assert.rejects(judgeRun({ out, judge, model: "m", episodes: ["zz"] }), UsageError);
    await assert.rejects(judgeRun({ out: join(out, "nope"), judge, model: "m" }), /nope": no such folder/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

const JUDGE_TS = fileURLToPath(new URL("../../judge.ts", import.meta.url));

async function runJudge(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-read", "--allow-write", "--allow-env", JUDGE_TS, ...args],
    env: { NO_COLOR: "1", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("judge.ts judges a run over HTTP and exits by outcome", async () => {
  const out = await savedRun();
  await using server = startFixtureModelServer({
    models: ["flash"],
    checks: { image: false },
    episodes: [
      {
        marker: "JUDGE-A",
        steps: [{
          reply: {
            macros: [{ macro: "choose_radio", accomplished: true, reason: "size L" }],
            success: true,
            reason: "ok",
          },
        }],
      },
      { marker: "JUDGE-Q", steps: [{ reply: "not json" }] },
    ],
  });
  try {
    const help = await runJudge(["--help"], {});
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: deno task judge --out DIR/);
    const noEnv = await runJudge(["--out", out], {});
    assert.equal(noEnv.code, 2);
    assert.match(noEnv.stderr, /WEBMIX_JUDGE_BASE_URL is not set/);
    assert.equal((await runJudge(["--out", out, "--bogus"], {})).code, 2);
    const env = { WEBMIX_JUDGE_BASE_URL: server.url, WEBMIX_JUDGE_MODEL: "flash" };
    const dry = await runJudge(["--out", out, "--dry-run"], env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(JSON.parse(dry.stdout).episodes, ["a1", "q1"]);
    assert.equal(server.requests.length, 0, "a dry run calls nothing");
    const run = await runJudge(["--out", out], env);
    assert.equal(run.code, 1, "q1's reply is not a verdict: exit 1, a1 still written");
    assert.match(run.stderr, /judged 1 \(1 accomplished\), skipped 0, failed 1/);
    const verdict = JSON.parse(await Deno.readTextFile(join(out, "a1", JUDGE_FILE)));
    assert.deepEqual([verdict.ok, verdict.model, verdict.macros[0].reason], [true, "flash", "size L"]);
    const bodies = server.requests.map((r) => JSON.stringify((r.body as { messages: unknown }).messages));
    const action = bodies.find((b) => b.includes("JUDGE-A"))!;
    assert.doesNotMatch(action, /successfully completed|"success"/, "the agent's claim never reaches the judge");
    assert.match(bodies.find((b) => b.includes("JUDGE-Q"))!, /The agent's answer to the question/);
    const rerun = await runJudge(["--out", out, "--episodes", "a1"], env);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /judged 0 .*skipped 1, failed 0/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
