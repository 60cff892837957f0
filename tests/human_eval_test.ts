/**
 * Human-written and proposed tasks through eval.ts and regrade.ts, as a user runs them: the replay arm passes a
 * sample of the bundled human tasks (the first of each app, and one whose answer only the LLM tier decides, answered
 * by a fixture judge server over HTTP) and noop fails each (shipped_tasks_test.ts holds every human task to both), a
 * grade that needs the missing LLM tier is recorded pending and regrade decides it, the split and macro filters
 * select the right tasks, and proposed tasks are graded "pending" and leave rows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadHumanTasks } from "../lib/tasks/mod.ts";
import { DEFAULT_JUDGE_MODEL } from "../lib/llm/judge.ts";
import { type FixtureEpisode, startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, ROOT, runCli } from "./support/cli.ts";

const ANNOTATIONS = join(ROOT, "fixtures/annotations");
const ALL = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
const NEEDS_LLM = [
  "bookings_h_kestrel_rules",
  "mail_h_q2_meeting_bring",
  "shop_h_monitor_stand",
  "tracker_h_why_web9_blocked",
];

/** The first task of each app, and the first whose answer needs the LLM tier. */
const SAMPLE = [
  ...ALL.filter((t, i) => !NEEDS_LLM.includes(t.task_id) && !ALL.slice(0, i).some((u) => u.site === t.site)),
  ALL.find((t) => t.task_id === NEEDS_LLM[0])!,
];
const SAMPLE_IDS = ["--task-ids", SAMPLE.map((t) => t.task_id).join(",")];

/** A judge that finds the replayed answer of each free-text task correct. */
function startJudge() {
  const episodes: FixtureEpisode[] = ALL.filter((t) => NEEDS_LLM.includes(t.task_id)).map((t) => ({
    marker: t.instruction,
    steps: [{ reply: { verdict: "correct", reason: "says what the reference says" } }],
  }));
  return startFixtureModelServer({ models: [DEFAULT_JUDGE_MODEL], episodes, checks: { image: false } });
}
const judgeEnv = (url: string) => ({ env: { WEBMIX_JUDGE_BASE_URL: url, WEBMIX_JUDGE_API_KEY: "test" } });

Deno.test("eval.ts --human --arm replay passes a sample of the human tasks, and --arm noop fails each", async () => {
  await using judge = startJudge();
  const out = await Deno.makeTempDir({ prefix: "webmix-human-" });
  // Two runs side by side: they share nothing but the task sample.
  const [replay, noop] = await Promise.all([
    runCli(
      "eval.ts",
      [
        "--arm",
        "replay",
        "--human",
        "--human-split",
        "all",
        ...SAMPLE_IDS,
        "--out",
        join(out, "replay"),
        "--workers",
        "2",
      ],
      judgeEnv(judge.url),
    ),
    runCli("eval.ts", [
      "--arm",
      "noop",
      "--human",
      "--human-split",
      "all",
      ...SAMPLE_IDS,
      "--out",
      join(out, "noop"),
      "--workers",
      "2",
      "--no-step-screenshots",
    ]),
  ]);
  assert.equal(replay.code, 0, replay.stderr);
  const results = await readResults(join(out, "replay"));
  assert.deepEqual(results.map((r) => r.task_id).sort(), SAMPLE.map((t) => t.task_id).sort());
  const failed = results.filter((r) => !r.ok).map((r) => `${r.task_id}: ${r.error ?? r.detail}`);
  assert.deepEqual(failed, []);
  const inputs = JSON.parse(await Deno.readTextFile(join(out, "replay", NEEDS_LLM[0], "grade_inputs.json")));
  assert.equal(inputs.kind, "human");
  assert.ok(inputs.traj.some((e: { type: string }) => e.type === "network"), "the request log is merged in");
  assert.equal(noop.code, 0, noop.stderr);
  const noops = await readResults(join(out, "noop"));
  assert.equal(noops.length, SAMPLE.length);
  assert.deepEqual(noops.filter((r) => r.ok).map((r) => r.task_id), []);
  assert.deepEqual(noops.filter((r) => r.grade_error || r.error).map((r) => r.task_id), []);
  await Deno.remove(out, { recursive: true });
});

Deno.test("a grade that needs the missing LLM tier is pending, and regrade.ts decides it with an endpoint", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-human-" });
  const ids = NEEDS_LLM.join(",");
  const run = await runCli("eval.ts", [
    "--arm",
    "replay",
    "--human",
    "--human-split",
    "all",
    "--task-ids",
    ids,
    "--out",
    out,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const before = await readResults(out);
  assert.equal(before.length, NEEDS_LLM.length);
  assert.ok(
    before.every((r) =>
      r.status === "pending" && r.reason === "answer_unaccounted" && r.ok === false && r.grade_error === undefined
    ),
    JSON.stringify(before),
  );
  await using judge = startJudge();
  const regrade = await runCli("regrade.ts", ["--out", out], judgeEnv(judge.url));
  assert.equal(regrade.code, 0, regrade.stderr);
  assert.match(regrade.stdout, /\{"ok":4,"fail":0\} \(4 changed\)/);
  const after = (await Deno.readTextFile(join(out, "results_regraded.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.ok(after.every((r) => r.ok === true && r.grade_error === undefined && r.regraded === true));
  await Deno.remove(out, { recursive: true });
});

Deno.test("--human-split and --human-macros select the tasks of those sites and macros", async () => {
  const count = async (args: string[]) => {
    const r = await runCli("eval.ts", ["--arm", "noop", "--human", "--out", "/tmp/unused-dry", "--dry-run", ...args]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).task_count as number;
  };
  const test = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "test" });
  const train = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "train" });
  const searches = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all", macros: ["search"] });
  assert.ok(test.length > 0 && train.length > 0 && test.length + train.length <= ALL.length);
  assert.ok(searches.length > 0 && searches.length < ALL.length);
  // Dry runs and a refused one: none writes anything, so they run side by side.
  const [byDefault, trainCount, allCount, searchCount, bad] = await Promise.all([
    count([]),
    count(["--human-split", "train"]),
    count(["--human-split", "all"]),
    count(["--human-split", "all", "--human-macros", "search"]),
    runCli("eval.ts", ["--arm", "noop", "--human", "--human-split", "dev", "--out", "/tmp/x"]),
  ]);
  assert.equal(byDefault, test.length, "test is the default split");
  assert.equal(trainCount, train.length);
  assert.equal(allCount, ALL.length);
  assert.equal(searchCount, searches.length);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--human-split "dev" is not one of: test, train, all/);
});

Deno.test("proposed tasks start logged in on start_path, are graded pending, and leave final.png and rows", async () => {
  const file = join(ROOT, "fixtures/proposed/tasks.jsonl");
  const [first] = (await Deno.readTextFile(file)).trim().split("\n").map((l) => JSON.parse(l));
  await using model = startFixtureModelServer({
    episodes: [{
      marker: first.instruction,
      steps: [{
        reply: { evaluation_previous_goal: "", memory: "", next_goal: "", action: [{ done: { text: "ok" } }] },
      }],
    }],
  });
  const out = await Deno.makeTempDir({ prefix: "webmix-proposed-" });
  const r = await runCli("eval.ts", [
    "--arm",
    "base",
    "--tasks",
    file,
    "--task-ids",
    first.task_id,
    "--vllm",
    model.url,
    "--record-rows",
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [res] = await readResults(out);
  assert.equal(res.ok, false);
  assert.match(String(res.detail), /^pending/);
  assert.equal(res.rows, 1);
  const dir = join(out, first.task_id);
  assert.ok((await Deno.stat(join(dir, "final.png"))).size > 0);
  const inputs = JSON.parse(await Deno.readTextFile(join(dir, "grade_inputs.json")));
  assert.equal(inputs.kind, "proposed");
  assert.ok(inputs.log[0].path.startsWith(first.start_path.split("?")[0]), "started on start_path");
  const rows = (await Deno.readTextFile(join(dir, "rows", "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(rows.length, 1);
  assert.equal(rows[0].op, "done");
  await Deno.stat(join(dir, "rows", "episode.json"));
  await Deno.remove(out, { recursive: true });
});
