/**
 * The model arms end to end: eval.ts → the real openai client over HTTP → a fixture model server replaying
 * scripted replies (tests/fixture_model_server.ts) → actions in real Chromium on the real sandbox. Tests whose flags
 * agree share one run, each test's episode on a task of its own (support/shared_run.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentReply, type FixtureEpisode, startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, runCli, spawnCli } from "./support/cli.ts";
import { instructionOf, resultOf, sharedRun } from "./support/shared_run.ts";
import { assertBrowserUseHistory } from "./support/browser_use_history.ts";
import type { StepRecord } from "../lib/agent/mod.ts";

/** An episode folder's steps.jsonl. */
async function readSteps(dir: string): Promise<StepRecord[]> {
  const text = await Deno.readTextFile(join(dir, "steps.jsonl"));
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

const PAGINATE = "shop_paginate_page3";
const PAGINATE_MARKER = "In the shop's product list, go to page 3.";
const BOARD = "tracker_board_mob15_to_in_progress_via_menu";
const BOARD_MARKER = "switch to the Mobile App board with the project switcher";
const ADAPTERS = ["qwen35-4b", "pooled", "drag", "io", "select", "rest", "reasoning"];

const reply = agentReply;
const paginate = (model?: string): FixtureEpisode => ({
  marker: PAGINATE_MARKER,
  steps: [
    { reply: reply({ navigate: { url: "/shop/products?page=3" } }), expectModel: model },
    { reply: reply({ done: { text: "on page 3", success: true } }), expectModel: model },
  ],
});

async function evalRun(url: string, args: string[], workers = 1) {
  const out = await Deno.makeTempDir({ prefix: "webmix-model-" });
  const r = await runCli("eval.ts", [
    ...["--out", out, "--vllm", url, "--workers", String(workers), "--no-step-screenshots", ...args],
  ]);
  return { ...r, out, results: await readResults(out) };
}

/** The task of the three unusable replies' episode. */
const UNUSABLE = "mail_search_lisbon";

/**
 * The base arm with --record-rows, two episodes at a time: shop_paginate_page3 on the base model (the base test's
 * episode and the --record-rows test's), and the three unusable replies' episode.
 */
const baseRun = sharedRun(async () => {
  await using server = startFixtureModelServer({
    models: ADAPTERS,
    episodes: [paginate("qwen35-4b"), {
      marker: instructionOf(UNUSABLE),
      steps: [{ reply: "I think I should click" }, { reply: "{not json" }, { reply: '{"action": []}' }],
    }],
  });
  return await evalRun(server.url, ["--arm", "base", "--task-ids", `${PAGINATE},${UNUSABLE}`, "--record-rows"], 2);
});

Deno.test("oracle asks the prefix macro's adapter first and switches at macro_done; requests carry a screenshot", async () => {
  await using server = startFixtureModelServer({
    models: ADAPTERS,
    episodes: [paginate("rest"), {
      marker: BOARD_MARKER,
      steps: [
        { reply: reply({ navigate: { url: "/tracker/projects/MOB/board" } }, { macro_done: {} }), expectModel: "rest" },
        { reply: reply({ done: { text: "moved", success: true } }), expectModel: "drag" },
      ],
    }],
  });
  const r = await evalRun(server.url, [
    "--arm",
    "oracle",
    "--adapters",
    "drag,io,select,rest",
    "--task-ids",
    `${PAGINATE},${BOARD}`,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const byId = Object.fromEntries(r.results.map((x) => [x.task_id, x]));
  assert.deepEqual(byId[PAGINATE].models, ["rest", "rest"]);
  assert.equal(byId[PAGINATE].ok, true, JSON.stringify(byId[PAGINATE]));
  assert.equal(byId[PAGINATE].answer, "on page 3");
  assert.deepEqual(byId[BOARD].models, ["rest", "drag"]);
  assert.equal(byId[BOARD].ok, false, "the card was never dragged");
  assert.deepEqual(server.requests.filter((q) => q.path.endsWith("/chat/completions")).map((q) => q.status), [
    200,
    200,
    200,
    200,
  ]);
  const historyFile = join(r.out, PAGINATE, "history.json");
  const saved = JSON.parse(await Deno.readTextFile(historyFile));
  assertBrowserUseHistory(saved, historyFile);
  const history = saved.history;
  assert.deepEqual(history[0].model_output.action, [{ navigate: { url: "/shop/products?page=3" } }]);
  assert.equal(history[1].result[0].is_done, true);
  assert.match(history[0].state.tabs[0].tab_id, /^\w{4}$/);
  // The step record: what the model was shown (element list included), the reply, the executed actions.
  const boardSteps = await readSteps(join(r.out, BOARD));
  assert.deepEqual(boardSteps.map((s) => [s.kind, s.step, s.model, s.family]), [
    ["agent", 1, "rest", "Navigation"],
    ["agent", 2, "drag", "Drag & gesture"],
  ]);
  const [first] = boardSteps;
  assert.ok(first.request!.text.includes(BOARD_MARKER), first.request!.text.slice(0, 300));
  assert.match(first.request!.text, /Interactive elements from top layer[\s\S]*\[\d+\]</);
  const system = await Deno.readTextFile(join(r.out, "prompts", `${first.request!.system_sha256}.txt`));
  assert.match(system, /browser/i);
  assert.deepEqual(JSON.parse(first.reply!).action, [{ navigate: { url: "/tracker/projects/MOB/board" } }, {
    macro_done: {},
  }]);
  assert.equal((first.parsed as { next_goal?: string }).next_goal, JSON.parse(first.reply!).next_goal);
  // The page changed under the step: browser-use stops its action sequence there, and the record says so.
  assert.deepEqual(first.actions.map((a) => [Object.keys(a.action)[0], a.ok]), [["navigate", true]]);
  assert.equal(first.request!.screenshot, null, "--no-step-screenshots keeps no file to point to");
  await Deno.remove(r.out, { recursive: true });
});

Deno.test("base and pooled ask one served name at every step", async () => {
  // The base arm's episode is the shared base run's; the pooled arm's runs beside it.
  const pooled = async () => {
    await using server = startFixtureModelServer({ models: ADAPTERS, episodes: [paginate("pooled")] });
    return await evalRun(server.url, ["--arm", "pooled", "--task-ids", PAGINATE]);
  };
  const runs = await Promise.all([baseRun(), pooled()]);
  for (const [i, [arm, name]] of [["base", "qwen35-4b"], ["pooled", "pooled"]].entries()) {
    const r = runs[i];
    assert.equal(r.code, 0, r.stderr);
    const res = resultOf(r.results, PAGINATE);
    assert.deepEqual(res.models, [name, name], arm);
    assert.equal(res.ok, true, arm);
  }
  await Deno.remove(runs[1].out, { recursive: true });
});

Deno.test("--gate-note turns a premature done into macro_done and tells the next step what is left", async () => {
  await using server = startFixtureModelServer({
    models: ADAPTERS,
    episodes: [{
      marker: BOARD_MARKER,
      steps: [
        { reply: reply({ done: { text: "finished", success: true } }), expectModel: "rest" },
        { reply: reply({ done: { text: "finished", success: true } }), expectModel: "drag" },
        { reply: reply({ done: { text: "finished", success: true } }), expectModel: "drag" },
      ],
    }],
  });
  const r = await evalRun(server.url, [
    "--arm",
    "oracle",
    "--adapters",
    "drag,rest",
    "--gate-note",
    "--task-ids",
    BOARD,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const trace = JSON.parse(await Deno.readTextFile(join(r.out, BOARD, "trace.json")));
  assert.deepEqual(trace.map((t: { gated?: boolean }) => Boolean(t.gated)), [true, true, false]);
  assert.deepEqual(trace[0].action, [{ macro_done: {} }]);
  assert.ok(trace.every((t: { latency_ms?: number; usage?: unknown }) => t.latency_ms! >= 0 && t.usage), "per call");
  const userText = (i: number) => {
    const body = server.requests.filter((q) => q.path.endsWith("/chat/completions"))[i].body as {
      messages: { role: string; content: { type: string; text?: string }[] }[];
    };
    return body.messages[1].content.find((p) => p.type === "text")!.text!;
  };
  assert.doesNotMatch(userText(0), /<router_note>/);
  assert.match(userText(1), /<router_note>\nThe task is not finished yet\./);
  assert.equal(r.results[0].done, true);
  await Deno.remove(r.out, { recursive: true });
});

Deno.test("three unusable replies in a row end the episode as the agent's failure, not the harness's", async () => {
  const r = await baseRun();
  assert.equal(r.code, 0, r.stderr);
  const res = resultOf(r.results, UNUSABLE);
  assert.equal(res.ok, false);
  assert.equal(res.steps, 3);
  assert.equal(res.error, undefined);
  assert.equal((res.errors as string[]).length, 3);
  assert.match((res.errors as string[])[0], /step 1: /);
});

Deno.test("an unknown model or an unreachable server stops the run at start, and nothing is written", async () => {
  await using server = startFixtureModelServer({ models: ["qwen35-4b", "rest"] });
  const out = await Deno.makeTempDir({ prefix: "webmix-model-" });
  // Side by side: each stops before it writes anything.
  const [unknown, gone] = await Promise.all([
    runCli("eval.ts", [
      ...["--arm", "oracle", "--adapters", "drag,rest", "--task-ids", BOARD, "--vllm", server.url, "--out", out],
    ]),
    runCli("eval.ts", ["--arm", "base", "--vllm", "http://127.0.0.1:9/v1", "--out", out]),
  ]);
  assert.equal(unknown.code, 1, unknown.stderr);
  assert.match(unknown.stderr, /drag/);
  assert.match(unknown.stderr, /qwen35-4b/);
  assert.equal(gone.code, 1, gone.stderr);
  assert.match(gone.stderr, /cannot reach model server at http:\/\/127\.0\.0\.1:9\/v1/);
  assert.deepEqual(await readResults(out), []);
  await Deno.remove(out, { recursive: true });
});

Deno.test("a model server that goes away mid-run leaves the episode recorded with its error, and --resume finishes it", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-model-" });
  const first = startFixtureModelServer({ episodes: [paginate()] });
  const args = ["--arm", "base", "--task-ids", `${PAGINATE},${BOARD}`, "--out", out, "--workers", "1"];
  const run = spawnCli("eval.ts", [...args, "--vllm", first.url, "--model-timeout", "5"]);
  await run.waitFor(/\[1\/2\]/);
  await first.close();
  const res = await run.done();
  assert.equal(res.code, 0, res.stderr);
  const broken = (await readResults(out)).find((x) => x.task_id === BOARD)!;
  assert.match(String(broken.error), /^ModelReplyError: /);
  assert.equal(broken.status, "error");
  // The errored episode keeps its step record up to the failure: the request it was making, and why it failed.
  const steps = await readSteps(join(out, BOARD));
  assert.equal(steps.length, 1);
  assert.equal(steps[0].reply, null);
  assert.match(String(steps[0].error), /^request failed: /);
  assert.ok(steps[0].request!.text.includes(BOARD_MARKER));
  assert.equal(steps[0].request!.screenshot, "step_1.png");
  const historyFile = join(out, BOARD, "history.json");
  const history = JSON.parse(await Deno.readTextFile(historyFile));
  assertBrowserUseHistory(history, historyFile);
  assert.equal(history.history.length, 1);
  await using second = startFixtureModelServer({
    episodes: [{ marker: BOARD_MARKER, steps: [{ reply: reply({ done: { text: "gave up", success: false } }) }] }],
  });
  const resumed = await runCli("eval.ts", [...args, "--vllm", second.url, "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  const all = await readResults(out);
  assert.deepEqual(all.map((x) => x.task_id).sort(), [BOARD, PAGINATE].sort());
  assert.ok(all.every((x) => !x.error), JSON.stringify(all));
  const retried = (await Deno.readTextFile(join(out, "retried.jsonl"))).trim().split("\n");
  assert.equal(retried.length, 1);
  await Deno.remove(out, { recursive: true });
});

Deno.test("--record-rows writes a passing episode's exact requests and replies as training rows", async () => {
  const r = await baseRun();
  assert.equal(r.code, 0, r.stderr);
  assert.equal(resultOf(r.results, PAGINATE).rows, 2);
  const dir = join(r.out, PAGINATE);
  const rows = (await Deno.readTextFile(join(dir, "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((x) => [x.step, x.model, x.family, x.source]), [
    [0, "qwen35-4b", "Navigation", "rejection_sampling"],
    [1, "qwen35-4b", "Navigation", "rejection_sampling"],
  ]);
  assert.deepEqual(JSON.parse(rows[0].target).action, [{ navigate: { url: "/shop/products?page=3" } }]);
  const image = rows[0].messages[1].content.find((p: { type: string }) => p.type === "image_url");
  assert.equal(image.image_url.url, "row_0.png");
  const png = await Deno.readFile(join(dir, "row_0.png"));
  assert.deepEqual([...png.slice(1, 4)], [0x50, 0x4e, 0x47], "a PNG file");
  assert.equal(JSON.parse(await Deno.readTextFile(join(dir, "episode.json"))).steps, 2);
});

Deno.test("--record-rows with step screenshots: each step_<n>.png stays that step's picture, rows have their own; --max-tokens and --record-family reach requests and rows", async () => {
  await using server = startFixtureModelServer({ episodes: [paginate()] });
  const out = await Deno.makeTempDir({ prefix: "webmix-model-" });
  const r = await runCli("eval.ts", [
    ...["--arm", "base", "--task-ids", PAGINATE, "--vllm", server.url, "--out", out, "--workers", "1"],
    ...["--record-rows", "--record-family", "Drag & gesture", "--max-tokens", "300"],
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [res] = await readResults(out);
  assert.equal(res.rows, 2, JSON.stringify(res));
  const bodies = server.requests.filter((q) => q.path.endsWith("/chat/completions")).map((q) =>
    q.body as { max_tokens: number; messages: { content: { type: string; image_url?: { url: string } }[] }[] }
  );
  assert.deepEqual(bodies.map((b) => b.max_tokens), [300, 300], "--max-tokens is each request's reply budget");
  const sent = bodies.map((b) => {
    const url = b.messages[1].content.find((p) => p.type === "image_url")!.image_url!.url;
    return Uint8Array.fromBase64(url.slice(url.indexOf(",") + 1));
  });
  // Compared as a flag: a failing deepEqual would diff two screenshots byte by byte, for minutes.
  const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
  assert.ok(!same(sent[0], sent[1]), "two different pages");
  const dir = join(out, PAGINATE);
  const history = JSON.parse(await Deno.readTextFile(join(dir, "history.json"))).history;
  assert.deepEqual(history.map((h: { state: { screenshot_path: string } }) => h.state.screenshot_path), [
    "step_1.png",
    "step_2.png",
  ]);
  for (const [i, h] of history.entries()) {
    const file = await Deno.readFile(join(dir, h.state.screenshot_path));
    assert.ok(same(file, sent[i]), `${h.state.screenshot_path} is the picture the model saw at step ${i + 1}`);
  }
  const rows = (await Deno.readTextFile(join(dir, "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((x) => x.family), ["Drag & gesture", "Drag & gesture"], "--record-family labels rows");
  for (const [i, row] of rows.entries()) {
    const images = row.messages[1].content.filter((p: { type: string }) => p.type === "image_url");
    assert.equal(images.length, 1);
    assert.ok(same(await Deno.readFile(join(dir, images[0].image_url.url)), sent[i]), `row ${i}'s image`);
  }
  await Deno.remove(out, { recursive: true });
});
