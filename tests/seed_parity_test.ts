/**
 * Where eval.ts follows the seed script (miniwebagent.evaluate): the model is told its coordinate system (the
 * 0-1000 grid by default, as the seed turns it on), --resume reruns only what the harness failed (a timeout stays a
 * recorded failure unless --retry-timeouts), --timeout covers the arm's run only (a slow judge is waited for, with an
 * outer safety bound), and --verifier-only / --max-steps 0 mean what the seed's flags mean. Each runs eval.ts (or
 * runEval) for real: Chromium, the sandbox, fixture model and judge servers over HTTP.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnswerJudge } from "../lib/grading/mod.ts";
import { DEFAULT_JUDGE_MODEL } from "../lib/llm/judge.ts";
import { BUNDLED, runConfig, runEval } from "../lib/run/mod.ts";
import { filterTasks, loadHumanTasks } from "../lib/tasks/mod.ts";
import { agentReply, type FixtureEpisode, startFixtureModelServer } from "./fixture_model_server.ts";
import { labTask, readResults, runCli, taskFile } from "./support/cli.ts";
import { startLab } from "./support/lab.ts";

const PAGINATE = "shop_paginate_page3";
const PAGINATE_MARKER = "In the shop's product list, go to page 3.";
const BOARD = "tracker_board_mob15_to_in_progress_via_menu";
const BOARD_MARKER = "switch to the Mobile App board with the project switcher";
/** A human task whose answer only the LLM tier of its verifier can grade. */
const NEEDS_JUDGE = "shop_h_monitor_stand";

const paginate = (faults: FixtureEpisode["steps"][number]["faults"] = []): FixtureEpisode => ({
  marker: PAGINATE_MARKER,
  steps: [
    { reply: agentReply({ navigate: { url: "/shop/products?page=3" } }), faults },
    { reply: agentReply({ done: { text: "on page 3", success: true } }) },
  ],
});

/** The bodies of the chat requests a fixture server received, in order. */
function chatBodies(server: { requests: { path: string; body?: unknown }[] }) {
  return server.requests.filter((q) => q.path.endsWith("/chat/completions")).map((q) =>
    q.body as { max_tokens?: number; messages: { role: string; content: unknown }[] }
  );
}

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

const NORMALIZED = "Coordinates in click and drag actions are on a 0-1000 grid over the viewport: (0,0) is the top " +
  "left corner, (1000,1000) the bottom right.";
const PIXELS = "Coordinates in click and drag actions are CSS pixels of the viewport, which is 1280x720: (0,0) is " +
  "the top left corner, (1280,720) the bottom right.";

/** The out folder of the --resume test's runs, and their flags. */
const RESUME_OUT = await Deno.makeTempDir({ prefix: "webmix-parity-" });
const resumeArgs = (url: string, ...more: string[]) => [
  ...["--arm", "base", "--task-ids", `${PAGINATE},${BOARD}`, "--vllm", url, "--out", RESUME_OUT, "--workers", "2"],
  // 8 s: the retried episode (two model turns) must end within it on a loaded machine too.
  ...["--timeout", "8", "--no-step-screenshots", ...more],
];

/** Told of each model request of the --resume test's first run: which episode (marker) asked. */
let modelAsked: (marker: string | undefined) => void = () => {};
/** Resolves once both of the first run's episodes have asked their model (or the run ended): it only waits then. */
const firstResumeRunWaits = new Promise<void>((resolve) => {
  const asked = new Set<string | undefined>();
  modelAsked = (marker) => {
    asked.add(marker);
    if (asked.has(PAGINATE_MARKER) && asked.has(BOARD_MARKER)) resolve();
  };
});
/**
 * The --resume test's first run, started as the file loads: PAGINATE's model answers after the arm's --timeout, so
 * the run takes that long however fast the machine is, and the tests before that one run meanwhile (two that time
 * nothing, then the safety bound's, which waits for `firstResumeRunWaits` first). BOARD's model answers garbage (not
 * retried by the client).
 */
const firstResumeRun = (async () => {
  await using first = startFixtureModelServer({
    episodes: [paginate([{ delayMs: 20_000 }]), {
      marker: BOARD_MARKER,
      steps: [{ reply: agentReply({ done: { text: "x", success: false } }), faults: [{ garbage: "<html>502" }] }],
    }],
    onAttempt: (r) => modelAsked(r.episode),
  });
  return await runCli("eval.ts", resumeArgs(first.url));
})();
// Awaited by its test; no unhandled rejection when a --filter leaves that test out.
firstResumeRun.catch(() => {});

Deno.test("the model is told its coordinate system: pixels with --pixel-coords, in a prompt of the user's own too", async () => {
  // The 0-1000 grid by default: the --resume test below asserts it on its runs' requests (the bundled prompt).
  const dir = await Deno.makeTempDir({ prefix: "webmix-parity-" });
  const own = join(dir, "own_prompt.md");
  await Deno.writeTextFile(own, "You are a web agent. Answer with one JSON object.\n");
  await using server = startFixtureModelServer({ episodes: [paginate()] });
  const r = await runCli("eval.ts", [
    ...["--arm", "base", "--task-ids", PAGINATE, "--vllm", server.url, "--out", join(dir, "pixels"), "--workers", "1"],
    ...["--no-step-screenshots", "--pixel-coords", "--system-prompt", own],
  ]);
  assert.equal(r.code, 0, r.stderr);
  const system = String(chatBodies(server)[0].messages[0].content);
  assert.equal(system, `You are a web agent. Answer with one JSON object.\n\n${PIXELS}\n`, "appended when missing");
  assert.equal((await readJson(join(dir, "pixels", "run.json"))).settings.normalized_coords, false);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("--verifier-only is recorded in run.json and changes nothing; --max-steps 0 is the default 40", async () => {
  const out = join(await Deno.makeTempDir({ prefix: "webmix-parity-" }), "out");
  const args = ["--arm", "noop", "--task-ids", PAGINATE, "--out", out, "--no-step-screenshots", "--max-steps", "0"];
  // The dry run is a process of its own, beside the run (it writes nothing).
  const dryRun = runCli("eval.ts", ["--arm", "noop", "--out", join(out, "..", "dry"), "--dry-run", "--max-steps", "0"]);
  const r = await runCli("eval.ts", [...args, "--verifier-only"]);
  assert.equal(r.code, 0, r.stderr);
  const { settings } = await readJson(join(out, "run.json"));
  assert.deepEqual([settings.verifier_only, settings.max_steps], [true, 40]);
  const [res] = await readResults(out);
  assert.equal(res.ok, false, "noop fails as ever");
  const resumed = await runCli("eval.ts", [...args, "--resume"]);
  assert.equal(resumed.code, 0, `a recorded intent is no difference for --resume: ${resumed.stderr}`);
  assert.match(resumed.stderr, /resume: 1 episodes already in/);
  const dry = await dryRun;
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual([JSON.parse(dry.stdout).maxSteps, JSON.parse(dry.stdout).workers], [40, 8]);
  await Deno.remove(join(out, ".."), { recursive: true });
});

Deno.test("an episode past its safety bound (--timeout + the margin for start and grading) is a harness error, not a timeout", async () => {
  const out = join(await Deno.makeTempDir({ prefix: "webmix-parity-" }), "out");
  const config = runConfig({
    arm: "replay",
    out,
    // The replay must end within --timeout 5 on a loaded machine too (with 2 it did not, the suite beside other work:
    // the arm's own timeout came first).
    timeoutS: 5,
    workers: 1,
    stepScreenshots: false,
    tasks: { human: true, humanSplit: "all", taskIds: [NEEDS_JUDGE] },
  });
  const tasks = filterTasks(await loadHumanTasks({ annotationsDir: BUNDLED.annotations, split: "all" }), {
    taskIds: [NEEDS_JUDGE],
  });
  // The replay below must end within its --timeout: not while the --resume test's first run (started as the file
  // loads) is still starting, only once it just waits for its model.
  await Promise.race([firstResumeRunWaits, firstResumeRun]);
  // A judge that never answers (it only lets go when the episode is stopped).
  const hanging: AnswerJudge = {
    judgeAnswer: (_q, options) =>
      new Promise((_, reject) => options?.signal?.addEventListener("abort", () => reject(options.signal!.reason))),
  };
  const t0 = performance.now();
  const summary = await runEval(config, { tasks, qa: hanging, safetyMarginS: 2, log: () => {} });
  const [res] = summary.results;
  assert.match(String(res.error), /ran past its safety bound \(--timeout 5s \+ 2s for start, evidence and grading\)/);
  assert.notEqual(res.error, "timeout");
  assert.ok(performance.now() - t0 < 23_000, "given up at the bound");
  const line = JSON.parse((await Deno.readTextFile(join(out, "results.jsonl"))).trim());
  assert.equal(line.error, res.error);
  await Deno.remove(join(out, ".."), { recursive: true });
});

Deno.test("--resume reruns only the harness's failures; a timeout stays unless --retry-timeouts; a rerun line says what it retried; the bundled prompt tells the 0-1000 grid", async () => {
  const out = RESUME_OUT;
  const args = resumeArgs;
  const r = await firstResumeRun;
  assert.equal(r.code, 0, r.stderr);
  const byId = async () => Object.fromEntries((await readResults(out)).map((x) => [x.task_id, x]));
  const before = await byId();
  assert.equal(before[PAGINATE].error, "timeout");
  assert.match(String(before[BOARD].error), /^ModelReplyError: /);

  await using second = startFixtureModelServer({
    episodes: [paginate(), {
      marker: BOARD_MARKER,
      steps: [{ reply: agentReply({ done: { text: "gave up", success: false } }) }],
    }],
  });
  const resumed = await runCli("eval.ts", args(second.url, "--resume"));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resume: 1 episodes already in .*, 1 to run/);
  assert.equal(second.served(PAGINATE_MARKER), 0, "the timeout was not run again");
  const after = await byId();
  assert.equal(after[PAGINATE].error, "timeout", "a timeout stays a recorded failure");
  assert.equal(after[BOARD].error, undefined, JSON.stringify(after[BOARD]));
  assert.deepEqual(after[BOARD].retried, { error: before[BOARD].error, count: 1 });
  const retried = (await Deno.readTextFile(join(out, "retried.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(retried.map((x) => [x.task_id, x.error]), [[BOARD, before[BOARD].error]]);

  const again = await runCli("eval.ts", args(second.url, "--resume", "--retry-timeouts"));
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /resume: 1 episodes already in .*, 1 to run/);
  const last = await byId();
  assert.equal(last[PAGINATE].ok, true, JSON.stringify(last[PAGINATE]));
  assert.deepEqual(last[PAGINATE].retried, { error: "timeout", count: 1 });
  assert.deepEqual(last[BOARD].retried, after[BOARD].retried, "the other line is kept as it was");
  assert.equal((await readResults(out)).length, 2, "one line per episode");
  assert.equal((await Deno.readTextFile(join(out, "retried.jsonl"))).trim().split("\n").length, 2);

  // The model is told its coordinate system: the 0-1000 grid by default (these runs give no coordinate flag).
  const [first] = chatBodies(second);
  const system = String(first.messages[0].content);
  assert.ok(system.includes(NORMALIZED), "the bundled prompt names the 0-1000 grid");
  assert.doesNotMatch(system, /\{coordinates\}|\{max_actions\}/, "every placeholder filled");
  assert.equal(first.max_tokens, 1024, "the seed's --max-tokens default");
  assert.equal((await readJson(join(out, "run.json"))).settings.normalized_coords, true);
  await Deno.remove(out, { recursive: true });
});

/**
 * How long the fixture judge takes to answer (ms): longer than the replay's --timeout 5 (it is asked only once the
 * arm has ended, so it answers more than 5 s after the arm started, whatever the load).
 */
const JUDGE_DELAY_MS = 6000;

Deno.test("--timeout covers the arm's run only: a judge slower than it is waited for and graded; an arm past it is a timeout", async () => {
  const [task] = filterTasks(await loadHumanTasks({ annotationsDir: BUNDLED.annotations, split: "all" }), {
    taskIds: [NEEDS_JUDGE],
  });
  let asked!: () => void;
  const judgeAsked = new Promise<void>((resolve) => (asked = resolve));
  await using judge = startFixtureModelServer({
    models: [DEFAULT_JUDGE_MODEL],
    checks: { image: false },
    // The judge answers JUDGE_DELAY_MS after it is asked, which is after the arm ended: past the arm's --timeout
    // from its start, however fast or slow the machine.
    episodes: [{
      marker: task.instruction,
      steps: [{ reply: { verdict: "correct", reason: "fixture judge" }, faults: [{ delayMs: JUDGE_DELAY_MS }] }],
    }],
    onAttempt: () => asked(),
  });
  const out = await Deno.makeTempDir({ prefix: "webmix-parity-" });
  const grading = runCli(
    "eval.ts",
    // The replay must end within --timeout 5 on a loaded machine too; the judge takes longer than that.
    ["--arm", "replay", "--human", "--human-split", "all", "--task-ids", NEEDS_JUDGE, "--timeout", "5", "--out", out],
    { env: { WEBMIX_JUDGE_BASE_URL: judge.url, WEBMIX_JUDGE_API_KEY: "test" } },
  );
  // The arm past its --timeout runs while the judge keeps the first run waiting: only once that run's replay has
  // ended (the judge was asked), so that the two never compete for the machine within a --timeout.
  await Promise.race([judgeAsked, grading]);

  await using lab = await startLab();
  const slow = labTask("slow_arm", "/lab/", [{ navigate: { url: "/lab/hang" } }]);
  const { dir, tasks, out: labOut } = await taskFile([slow]);
  const r = await runCli("eval.ts", [
    "--arm",
    "replay",
    "--tasks",
    tasks,
    "--bases",
    lab.base,
    "--timeout",
    "2",
    "--out",
    labOut,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [timedOut] = await readResults(labOut);
  assert.equal(timedOut.error, "timeout", JSON.stringify(timedOut));
  assert.ok((timedOut.duration_s as number) < 12, `gave up in time: ${timedOut.duration_s}s`);
  await Deno.remove(dir, { recursive: true });

  const graded = await grading;
  assert.equal(graded.code, 0, graded.stderr);
  const [res] = await readResults(out);
  assert.equal(res.error, undefined, JSON.stringify(res));
  assert.equal(res.ok, true, JSON.stringify(res));
  const timing = res.timing as Record<string, number>;
  assert.deepEqual(Object.keys(timing), ["context_ms", "setup_ms", "agent_ms", "finish_ms"]);
  assert.ok(timing.finish_ms >= JUDGE_DELAY_MS, `grading waited for the judge: ${JSON.stringify(timing)}`);
  await Deno.remove(out, { recursive: true });
});
