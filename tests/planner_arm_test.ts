/**
 * The agent_planner arm end to end: eval.ts → the real openai client over HTTP → a fixture model server replaying the
 * planner's and the specialists' scripted replies → actions in real Chromium on the real sandbox. The server checks
 * the model name of every request (expectModel), so each test states which model each request must reach. Tests
 * whose flags agree share one run, each test's episode on a task of its own (support/shared_run.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertBrowserUseHistory } from "./support/browser_use_history.ts";
import { agentReply, type FixtureStep, startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, runCli, spawnCli } from "./support/cli.ts";
import { instructionOf, resultOf, sharedRun } from "./support/shared_run.ts";
import { FAMILIES } from "../lib/protocol/mod.ts";

const PAGINATE = "shop_paginate_page3";
const PAGINATE_MARKER = "In the shop's product list, go to page 3.";
const BOARD = "tracker_board_mob15_to_in_progress_via_menu";
const BOARD_MARKER = "switch to the Mobile App board with the project switcher";
const MODELS = ["qwen35-4b", "planner-x", "pooled", "drag", "io", "select", "rest", "reasoning"];

type Plan = { family: string; subtask: string }[];

/** A planner turn's reply. */
const planner = (plan: Plan, move: { step: number } | { answer: string }): FixtureStep => ({
  reply: {
    thinking: "",
    plan,
    next: "step" in move ? "delegate" : "finish",
    step: "step" in move ? move.step : 0,
    answer: "answer" in move ? move.answer : "",
  },
  expectModel: "planner-x",
});
const step = (model: string, ...action: Record<string, unknown>[]): FixtureStep => ({
  reply: agentReply(...action),
  expectModel: model,
});
const done = (model: string, text = "did it"): FixtureStep => step(model, { done: { text, success: true } });

const PAGE3_PLAN: Plan = [
  { family: "Navigation", subtask: "Go to page 3 of the shop's product list" },
  { family: "Reasoning base", subtask: "Report which page is shown" },
];

/** A fixture server that serves MODELS and scripts the shop_paginate_page3 episode with `steps`. */
const page3Server = (steps: FixtureStep[], options: { oldXgrammar?: boolean } = {}) =>
  startFixtureModelServer({ models: MODELS, ...options, episodes: [{ marker: PAGINATE_MARKER, steps }] });

/**
 * v1 on shop_paginate_page3, rest served: plan, Navigation on rest (2 steps), Reasoning on `reasoning` (the reasoning
 * adapter when served, else the base), finish.
 */
const v1Page3 = (reasoning: string): FixtureStep[] => [
  planner(PAGE3_PLAN, { step: 1 }),
  step("rest", { navigate: { url: "/shop/products?page=3" } }),
  done("rest", "on page 3"),
  done(reasoning, "page 3"),
  planner(PAGE3_PLAN, { answer: "page 3" }),
];

async function evalRun(url: string, args: string[], { screenshots = false, workers = 1 } = {}) {
  const out = await Deno.makeTempDir({ prefix: "webmix-planner-" });
  const r = await runCli("eval.ts", [
    "--out",
    out,
    "--vllm",
    url,
    "--workers",
    String(workers),
    "--arm",
    "agent_planner",
    "--planner-name",
    "planner-x",
    ...(screenshots ? [] : ["--no-step-screenshots"]),
    ...args,
  ]);
  return { ...r, out, results: await readResults(out) };
}

type Received = { path: string; model?: string; status: number; episode?: string };

/**
 * A run over these tasks' episodes, each scripted apart (its marker the task's instruction), two at a time
 * (--workers 2): the episodes of several tests when their flags agree. The server is closed once the run ended, its
 * requests kept.
 */
async function runEpisodes(
  episodes: { task: string; steps: FixtureStep[] }[],
  args: string[],
  screenshots = false,
) {
  await using server = startFixtureModelServer({
    models: MODELS,
    episodes: episodes.map((e) => ({ marker: instructionOf(e.task), steps: e.steps })),
  });
  const tasks = episodes.map((e) => e.task).join(",");
  const r = await evalRun(server.url, [...args, "--task-ids", tasks], { screenshots, workers: 2 });
  return { ...r, requests: server.requests, served: server.served };
}

const readJson = async (...path: string[]) => JSON.parse(await Deno.readTextFile(join(...path)));
/** The models of the chat requests answered, those of one task's episode when given. */
const chatModels = (requests: Received[], task?: string) =>
  requests.filter((q) =>
    q.path.endsWith("/chat/completions") && q.status === 200 &&
    (task === undefined || q.episode === instructionOf(task))
  ).map((q) => q.model);

/** The plan that names every family once; each specialist answers done at once. */
const ALL_FAMILIES: Plan = FAMILIES.map((family) => ({ family, subtask: `a ${family} step` }));
const allFamilies = (expect: string[]): FixtureStep[] => [
  planner(ALL_FAMILIES, { step: 1 }),
  ...expect.map((m) => done(m)),
  planner(ALL_FAMILIES, { answer: "done" }),
];

/** Each family's step, by the flags of a run: its adapter, else the fallback, reasoning to the base. */
const FAMILY_CASES: { args: string[]; expect: string[]; task: string }[] = [
  // Every adapter served.
  {
    args: ["--adapters", "drag,io,select,rest,reasoning"],
    expect: ["drag", "io", "select", "rest", "rest", "rest", "reasoning"],
    task: "shop_switch_tab_monitor_specs",
  },
  // None served, no fallback: the base model throughout.
  { args: [], expect: Array(7).fill("qwen35-4b"), task: "shop_search_merino" },
  // Some served, a fallback: the others go to it, reasoning to the base.
  {
    args: ["--adapters", "drag,select", "--fallback", "pooled"],
    expect: ["drag", "pooled", "select", "pooled", "pooled", "pooled", "qwen35-4b"],
    task: PAGINATE,
  },
  // --reasoning-to-fallback: reasoning goes to the fallback too.
  {
    args: ["--adapters", "io", "--fallback", "pooled", "--reasoning-to-fallback"],
    expect: ["pooled", "io", "pooled", "pooled", "pooled", "pooled", "pooled"],
    task: PAGINATE,
  },
];

/** Planner replies that cannot be used, each on a task of its own, and why each ends its episode. */
const UNUSABLE: { task: string; first: FixtureStep; why: RegExp }[] = [
  {
    task: PAGINATE,
    first: { reply: "I will plan now", expectModel: "planner-x" },
    why: /planner turn 1: planner reply holds no JSON object/,
  },
  {
    task: "mail_paginate_inbox_page3",
    first: planner(PAGE3_PLAN, { step: 5 }),
    why: /planner turn 1: planner reply delegates step 5, which is not in its plan of 2/,
  },
  {
    task: "mail_search_lisbon",
    first: {
      reply: { thinking: "", plan: [{ family: "Cooking", subtask: "x" }], next: "delegate", step: 1, answer: "" },
    },
    why: /planner turn 1: .*plan\.0\.family/,
  },
];

/** v1 with every adapter served (--record-rows, step screenshots): the v1 test's episode and the first family case's. */
const v1Run = sharedRun(() =>
  runEpisodes(
    [
      { task: PAGINATE, steps: v1Page3("reasoning") },
      { task: FAMILY_CASES[0].task, steps: allFamilies(FAMILY_CASES[0].expect) },
    ],
    [...FAMILY_CASES[0].args, "--record-rows"],
    true,
  )
);

/** No adapter served: the second family case's episode and the unusable planner replies'. */
const baseRun = sharedRun(() =>
  runEpisodes([
    { task: FAMILY_CASES[1].task, steps: allFamilies(FAMILY_CASES[1].expect) },
    ...UNUSABLE.map((u) => ({ task: u.task, steps: [u.first] })),
  ], FAMILY_CASES[1].args)
);

const TURNS_TASK = "shop_search_merino";

/**
 * v2, rest served, --planner-turns 3: the v2 test's episode (its three turns) and the --planner-turns test's (whose
 * fourth turn is never asked).
 */
const v2Run = sharedRun(() =>
  runEpisodes([
    {
      task: PAGINATE,
      steps: [
        planner(PAGE3_PLAN, { step: 1 }),
        done("rest", "on page 3"),
        planner(PAGE3_PLAN, { step: 2 }),
        done("qwen35-4b", "page 3"),
        planner(PAGE3_PLAN, { answer: "page 3" }),
      ],
    },
    {
      task: TURNS_TASK,
      steps: [
        planner(PAGE3_PLAN, { step: 1 }),
        done("rest"),
        planner(PAGE3_PLAN, { step: 1 }),
        done("rest"),
        planner(PAGE3_PLAN, { step: 1 }),
        done("rest"),
        planner(PAGE3_PLAN, { answer: "never asked" }),
      ],
    },
  ], ["--adapters", "rest", "--agent-version", "v2", "--planner-turns", "3"])
);

Deno.test("v1 plans once, runs the plan's steps with their specialists, and writes the planner's files", async () => {
  const r = await v1Run();
  assert.equal(r.code, 0, r.stderr);
  const res = resultOf(r.results, PAGINATE);
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(res.answer, "page 3");
  assert.equal(res.done, true);
  assert.equal(res.steps, 3);
  assert.deepEqual(res.models, ["rest", "reasoning"]);
  assert.deepEqual(res.subtasks, [
    ["Navigation", "Go to page 3 of the shop's product list", 2],
    ["Reasoning base", "Report which page is shown", 1],
  ]);
  assert.deepEqual(chatModels(r.requests, PAGINATE), ["planner-x", "rest", "rest", "reasoning", "planner-x"]);
  const dir = join(r.out, PAGINATE);
  const ph = await readJson(dir, "planner_history.json");
  assert.equal(ph.version, "v1");
  assert.equal(ph.turns.length, 2);
  assert.match(ph.turns[0].text, /<task>\nIn the shop's product list, go to page 3\./);
  assert.match(ph.turns[1].text, /Ended: done after 2 steps\nReport: on page 3/);
  assert.equal(ph.turns[1].reply.answer, "page 3");
  for (const t of ph.turns) await Deno.stat(join(dir, t.screenshot_path));
  const subtasks = await readJson(dir, "subtasks.json");
  assert.deepEqual(subtasks.plans, [{ turn: 1, plan: PAGE3_PLAN }]);
  assert.deepEqual(
    subtasks.trace.map((t: { model: string; end: string; first_step: number }) => [t.model, t.end, t.first_step]),
    [
      ["rest", "done", 1],
      ["reasoning", "done", 3],
    ],
  );
  const h0 = (await readJson(dir, "history_0.json")).history;
  const h1 = (await readJson(dir, "history_1.json")).history;
  assert.deepEqual(h0.map((h: { state: { screenshot_path: string } }) => h.state.screenshot_path), [
    "step_1.png",
    "step_2.png",
  ]);
  assert.deepEqual(h1.map((h: { metadata: { step_number: number } }) => h.metadata.step_number), [3]);
  const history = await readJson(dir, "history.json");
  assert.equal(history.history.length, 3);
  assertBrowserUseHistory(history, join(dir, "history.json"));
  // steps.jsonl: the planner's turns and the specialists' steps in the order they ran, each with its family.
  const steps = (await Deno.readTextFile(join(dir, "steps.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(
    steps.map((s) => [s.kind, s.kind === "planner" ? s.turn : s.step, s.family, s.delegated ?? null]),
    [
      ["planner", 1, "Planner", null],
      ["agent", 1, "Navigation", 1],
      ["agent", 2, "Navigation", 1],
      ["agent", 3, "Reasoning base", 2],
      ["planner", 2, "Planner", null],
    ],
  );
  // Grading reads the specialists' actions (trace.json): the navigate is there, labelled with its family.
  const trace = await readJson(dir, "trace.json");
  assert.deepEqual(trace[0].action, [{ navigate: { url: "/shop/products?page=3" } }]);
  assert.equal(trace[0].family, "Navigation");
  // The specialist's task is its subtask, with the whole task as context.
  const specialist = r.requests.find((q) => q.model === "rest" && q.episode === PAGINATE_MARKER)!.body as {
    messages: { content: unknown }[];
  };
  const text = JSON.stringify(specialist.messages[1].content);
  assert.match(text, /<user_request>\\nGo to page 3 of the shop's product list\\n\\nThis is one step of a larger task/);
  // --record-rows: the planner's rows carry a family of their own, the specialists' theirs.
  const rows = (await Deno.readTextFile(join(dir, "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((x) => [x.model, x.family]), [
    ["planner-x", "Planner"],
    ["rest", "Navigation"],
    ["rest", "Navigation"],
    ["reasoning", "Reasoning base"],
    ["planner-x", "Planner"],
  ]);
});

Deno.test("v2 asks the planner again after every step, where v1 goes on with its plan", async () => {
  const r = await v2Run();
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(chatModels(r.requests, PAGINATE), ["planner-x", "rest", "planner-x", "qwen35-4b", "planner-x"]);
  assert.equal(resultOf(r.results, PAGINATE).answer, "page 3");
  const ph = await readJson(r.out, PAGINATE, "planner_history.json");
  assert.equal(ph.version, "v2");
  assert.equal(ph.turns.length, 3);
});

Deno.test("each family's step reaches its specialist: its adapter, else the fallback, reasoning to the base", async () => {
  // The first two cases run in the v1 test's and the unusable replies' runs, the others in runs of their own, side
  // by side.
  const own = (c: typeof FAMILY_CASES[number]) => runEpisodes([{ task: c.task, steps: allFamilies(c.expect) }], c.args);
  const runs = await Promise.all([v1Run(), baseRun(), own(FAMILY_CASES[2]), own(FAMILY_CASES[3])]);
  for (const [i, c] of FAMILY_CASES.entries()) {
    const r = runs[i];
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(resultOf(r.results, c.task).models, c.expect, c.args.join(" "));
    assert.deepEqual(chatModels(r.requests, c.task), ["planner-x", ...c.expect, "planner-x"], c.args.join(" "));
  }
  for (const r of runs.slice(2)) await Deno.remove(r.out, { recursive: true });
});

Deno.test("--sub-cap ends a delegated step that does not finish, and the v1 planner is asked again", async () => {
  const wander = (model: string) => step(model, { scroll: { down: true } });
  await using server = page3Server([
    planner(PAGE3_PLAN, { step: 1 }),
    wander("rest"),
    wander("rest"),
    planner(PAGE3_PLAN, { step: 1 }),
    // --max-steps 3: two steps used, so this delegated step gets one.
    wander("rest"),
    planner(PAGE3_PLAN, { step: 1 }),
  ]);
  const r = await evalRun(server.url, [
    "--adapters",
    "rest",
    "--task-ids",
    PAGINATE,
    "--sub-cap",
    "2",
    "--max-steps",
    "3",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [res] = r.results;
  assert.equal(res.ok, false);
  assert.equal(res.steps, 3);
  assert.equal(res.done, false);
  assert.deepEqual((res.subtasks as unknown[][]).map((s) => s[2]), [2, 1]);
  assert.match(String(res.errors), /the episode's 3 steps \(--max-steps\) are used up/);
  const subtasks = await readJson(r.out, PAGINATE, "subtasks.json");
  assert.deepEqual(subtasks.trace.map((t: { end: string; cap: number }) => [t.end, t.cap]), [["cap", 2], ["cap", 1]]);
  const ph = await readJson(r.out, PAGINATE, "planner_history.json");
  assert.match(ph.turns[1].text, /Ended: stopped at its cap of 2 steps/);
  assert.match(ph.turns[1].text, /1\. \[Navigation\] Go to page 3 of the shop's product list \(hit its cap\)/);
  assert.equal(server.served(PAGINATE_MARKER), 6, "no request after the steps ran out");
  await Deno.remove(r.out, { recursive: true });
});

Deno.test("--planner-turns caps the planner's own requests", async () => {
  const r = await v2Run();
  assert.equal(r.code, 0, r.stderr);
  const res = resultOf(r.results, TURNS_TASK);
  assert.equal(res.done, false);
  assert.equal(res.answer, null);
  assert.match(String(res.errors), /its 3 turns \(--planner-turns\) ran out/);
  assert.equal(r.served(instructionOf(TURNS_TASK)), 6);
});

Deno.test("a planner reply that cannot be used ends the episode as the arm's failure, naming the turn", async () => {
  const r = await baseRun();
  assert.equal(r.code, 0, r.stderr);
  for (const { task, why } of UNUSABLE) {
    const res = resultOf(r.results, task);
    assert.equal(res.ok, false);
    assert.equal(res.error, undefined, "the agent's failure, not the harness's: --resume keeps it");
    assert.match(String(res.arm_failure), why);
    const ph = await readJson(r.out, task, "planner_history.json");
    assert.equal(ph.turns[0].reply, null);
    assert.equal(typeof ph.turns[0].raw, "string");
  }
});

Deno.test("--resume finishes a planner run the model server's death interrupted", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-planner-" });
  const paginate = {
    marker: PAGINATE_MARKER,
    // v1 runs the plan's second step once the first did its part, then asks the planner again.
    steps: [
      planner(PAGE3_PLAN, { step: 1 }),
      done("qwen35-4b", "on page 3"),
      done("qwen35-4b", "page 3"),
      planner(PAGE3_PLAN, { answer: "page 3" }),
    ],
  };
  const first = startFixtureModelServer({ models: MODELS, episodes: [paginate] });
  const args = [
    "--arm",
    "agent_planner",
    "--planner-name",
    "planner-x",
    "--task-ids",
    `${PAGINATE},${BOARD}`,
    "--out",
    out,
    "--workers",
    "1",
    "--no-step-screenshots",
  ];
  const run = spawnCli("eval.ts", [...args, "--vllm", first.url, "--model-timeout", "5"]);
  await run.waitFor(/\[1\/2\]/);
  await first.close();
  assert.equal((await run.done()).code, 0);
  const broken = (await readResults(out)).find((x) => x.task_id === BOARD)!;
  assert.match(String(broken.error), /^ModelReplyError: /);
  const finished = (await readResults(out)).find((x) => x.task_id === PAGINATE)!;
  assert.equal(finished.error, undefined, JSON.stringify(finished));
  const boardPlan: Plan = [{ family: "Navigation", subtask: "Open the Mobile App board" }];
  await using second = startFixtureModelServer({
    models: MODELS,
    episodes: [{
      marker: BOARD_MARKER,
      steps: [planner(boardPlan, { step: 1 }), done("qwen35-4b"), planner(boardPlan, { answer: "" })],
    }],
  });
  const resumed = await runCli("eval.ts", [...args, "--vllm", second.url, "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  const all = await readResults(out);
  assert.deepEqual(all.map((x) => x.task_id).sort(), [BOARD, PAGINATE].sort());
  const board = all.find((x) => x.task_id === BOARD)!;
  assert.equal(board.error, undefined, JSON.stringify(board));
  assert.deepEqual(board.subtasks, [["Navigation", "Open the Mobile App board", 1]]);
  await Deno.stat(join(out, BOARD, "subtasks.json"));
  await Deno.remove(out, { recursive: true });
});

Deno.test("on an old vLLM server the planner's schema passes as is, the specialists' falls back once, and results say so", async () => {
  await using server = page3Server(v1Page3("qwen35-4b"), { oldXgrammar: true });
  const r = await evalRun(server.url, ["--adapters", "rest", "--task-ids", PAGINATE]);
  assert.equal(r.code, 0, r.stderr);
  const [res] = r.results;
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(res.schema_fallback, true);
  const refused = server.requests.filter((q) => q.status === 400);
  assert.deepEqual(refused.map((q) => [q.model, q.fault]), [["rest", "old xgrammar"]]);
  const trace = await readJson(r.out, PAGINATE, "trace.json");
  assert.deepEqual(trace.map((t: { schema_fallback?: boolean }) => t.schema_fallback), [true, true, true]);
  await Deno.remove(r.out, { recursive: true });
});
