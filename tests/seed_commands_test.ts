/**
 * The seed's own command lines (its docstring's examples and its flags), adapted only in their paths, run unchanged
 * against the fixture model server: base and oracle over a task file, agent_planner, --human on annotations written
 * the seed's way (extra keys, a macro outside the vocabulary, a folder without verifier.json: warnings, and
 * --strict refuses them), --regrade with the --arm and --out the seed's parser requires, and --ports, which starts
 * the sandbox where nothing listens and uses the server that does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createSandbox } from "../lib/sites/mod.ts";
import { APPS } from "../lib/sites/apps/mod.ts";
import { agentReply, type FixtureEpisode, startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, ROOT, runCli } from "./support/cli.ts";

const MODELS = ["qwen35-4b", "pooled", "drag", "io", "select", "rest", "reasoning"];
const PAGINATE_MARKER = "In the shop's product list, go to page 3.";
const BOARD_MARKER = "switch to the Mobile App board with the project switcher";
const done = (model?: string) => ({ reply: agentReply({ done: { text: "done", success: true } }), expectModel: model });
const macroDone = (model: string) => ({ reply: agentReply({ macro_done: {} }), expectModel: model });

/** A task file of the seed's layout (data/webmix/valgen/runs/val1/tasks.jsonl): two bundled tasks, one a chain. */
async function valTasks(dir: string): Promise<string> {
  const lines = (await Deno.readTextFile(join(ROOT, "fixtures/tasks.jsonl"))).split("\n").filter((l) =>
    l.includes('"shop_paginate_page3"') || l.includes('"tracker_board_mob15_to_in_progress_via_menu"')
  );
  const file = join(dir, "data/webmix/valgen/runs/val1/tasks.jsonl");
  await Deno.mkdir(join(dir, "data/webmix/valgen/runs/val1"), { recursive: true });
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  return file;
}

const run = (args: string[]) => runCli("eval.ts", ["--workers", "1", "--no-step-screenshots", ...args]);

/** Waits for every one of `parts` (run side by side), then throws the first failure. */
async function settled(...parts: Promise<unknown>[]): Promise<void> {
  for (const o of await Promise.allSettled(parts)) if (o.status === "rejected") throw o.reason;
}

Deno.test("the seed's base, oracle and regrade lines run unchanged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-seed-lines-" });
  const tasks = await valTasks(dir);
  const out = join(dir, "data/webmix/eval/base");
  // The base and oracle lines side by side (each its own model server and out folder); the regrade after base's.
  const baseThenRegrade = (async () => {
    const episodes: FixtureEpisode[] = [PAGINATE_MARKER, BOARD_MARKER].map((marker) => ({
      marker,
      steps: [done("qwen35-4b")],
    }));
    {
      await using server = startFixtureModelServer({ models: MODELS, episodes });
      // python -m miniwebagent.evaluate --tasks data/webmix/valgen/runs/val1/tasks.jsonl --arm base --out data/webmix/eval/base
      const r = await run(["--tasks", tasks, "--arm", "base", "--out", out, "--vllm", server.url]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await readResults(out)).length, 2);
    }
    // The seed's parser requires --arm and --out on a regrade line too.
    const g = await runCli("eval.ts", ["--regrade", out, "--tasks", tasks, "--arm", "base", "--out", out]);
    assert.equal(g.code, 0, g.stderr);
    assert.match(g.stdout, /regraded .*base: \{"ok":\d+,"fail":\d+\}/);
  })();
  const oracle = (async () => {
    const episodes: FixtureEpisode[] = [
      { marker: PAGINATE_MARKER, steps: [done("rest")] },
      { marker: BOARD_MARKER, steps: [macroDone("rest"), done("drag")] },
    ];
    await using server = startFixtureModelServer({ models: MODELS, episodes });
    // python -m miniwebagent.evaluate --tasks ... --arm oracle --adapters drag,io,select,rest
    const o = join(dir, "data/webmix/eval/oracle");
    const r = await run([
      "--tasks",
      tasks,
      "--arm",
      "oracle",
      "--adapters",
      "drag,io,select,rest",
      "--out",
      o,
      "--vllm",
      server.url,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const models = Object.fromEntries((await readResults(o)).map((x) => [x.task_id, x.models]));
    assert.deepEqual(models.tracker_board_mob15_to_in_progress_via_menu, ["rest", "drag"]);
  })();
  await settled(baseThenRegrade, oracle);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the seed's agent_planner line runs unchanged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-seed-planner-" });
  const tasks = await valTasks(dir);
  const plan = [{ family: "Navigation", subtask: "Go to page 3" }];
  const planner = (move: { step: number } | { answer: string }) => ({
    reply: {
      thinking: "",
      plan,
      next: "step" in move ? "delegate" : "finish",
      step: "step" in move ? move.step : 0,
      answer: "answer" in move ? move.answer : "",
    },
    expectModel: "qwen35-4b",
  });
  await using server = startFixtureModelServer({
    models: MODELS,
    episodes: [{ marker: PAGINATE_MARKER, steps: [planner({ step: 1 }), done("rest"), planner({ answer: "page 3" })] }],
  });
  const out = join(dir, "data/webmix/eval/planner");
  const r = await run([
    ...["--tasks", tasks, "--task-ids", "shop_paginate_page3", "--arm", "agent_planner"],
    ...["--planner-name", "qwen35-4b", "--adapters", "drag,io,select,rest", "--out", out, "--vllm", server.url],
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [x] = await readResults(out);
  assert.equal(x.answer, "page 3");
  await Deno.remove(dir, { recursive: true });
});

/** Annotations written the seed's way: an extra task.json key, a macro outside the vocabulary, a draft folder. */
async function seedAnnotations(dir: string): Promise<string> {
  const ann = join(dir, "data/annotations");
  for (const id of ["shop_h_audio_cheapest", "shop_h_review_speakers"]) {
    const from = join(ROOT, "fixtures/annotations/shop", id);
    await Deno.mkdir(join(ann, "shop", id), { recursive: true });
    for await (const f of Deno.readDir(from)) await Deno.copyFile(join(from, f.name), join(ann, "shop", id, f.name));
  }
  await Deno.writeTextFile(join(ann, "site_split.json"), JSON.stringify({ train: ["shop"], test: ["mail"] }));
  const edit = async (id: string, change: (t: Record<string, unknown>) => void) => {
    const file = join(ann, "shop", id, "task.json");
    const t = JSON.parse(await Deno.readTextFile(file));
    change(t);
    await Deno.writeTextFile(file, JSON.stringify(t));
  };
  await edit("shop_h_audio_cheapest", (t) => Object.assign(t, { annotator: "kim", reviewed: true }));
  await edit("shop_h_review_speakers", (t) => (t.macros as string[]).unshift("hover_tooltip"));
  await Deno.mkdir(join(ann, "shop", "shop_h_draft"));
  await Deno.writeTextFile(join(ann, "shop", "shop_h_draft", "task.json"), "{}");
  return ann;
}

Deno.test("the seed's --human rejection-sampling line runs on seed-format annotations; --strict refuses them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-seed-human-" });
  const ann = await seedAnnotations(dir);
  const review = "Post a 5-star review of the Auralis Bookshelf Speakers";
  const cheapest = "tell me the price of the cheapest audio product";
  // The three lines side by side, each its own out folder (and model server).
  const sampling = (async () => {
    // Two repeats each: the fixture server counts an episode's steps by its marker, so each repeat takes one reply.
    await using server = startFixtureModelServer({
      models: MODELS,
      episodes: [review, cheapest].map((marker) => ({ marker, steps: [done("qwen35-4b"), done("qwen35-4b")] })),
    });
    const out = join(dir, "out/human");
    // --human --human-split train --repeats N --temperature 0.7 (the docstring's rejection sampling), with rows
    const r = await run([
      ...["--human", "--human-split", "train", "--repeats", "2", "--temperature", "0.7", "--record-rows"],
      ...["--arm", "base", "--annotations", ann, "--out", out, "--vllm", server.url],
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /shop_h_draft: skipped: task\.json but no verifier\.json/);
    assert.match(r.stderr, /shop_h_audio_cheapest\/task\.json: ignored unknown key\(s\) "annotator", "reviewed"/);
    assert.match(r.stderr, /shop_h_review_speakers\/task\.json: macro\(s\) "hover_tooltip" outside the vocabulary/);
    assert.equal((await readResults(out)).length, 4);
  })();
  const oracle = (async () => {
    // The oracle routes the unknown macro as the seed does: family "Other", the rest adapter.
    await using server = startFixtureModelServer({
      models: MODELS,
      episodes: [{ marker: review, steps: [macroDone("rest"), macroDone("rest"), macroDone("select"), done("rest")] }],
    });
    const out = join(dir, "out/oracle");
    const r = await run([
      ...["--human", "--human-split", "train", "--task-ids", "shop_h_review_speakers", "--arm", "oracle"],
      ...["--adapters", "drag,io,select,rest", "--annotations", ann, "--out", out, "--vllm", server.url],
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((await readResults(out))[0].models, ["rest", "rest", "select", "rest"]);
  })();
  const strict = (async () => {
    const r = await run([
      "--human",
      "--human-split",
      "train",
      "--strict",
      "--arm",
      "noop",
      "--annotations",
      ann,
      "--out",
      join(dir, "out/strict"),
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /shop_h_audio_cheapest\/task\.json: annotator: is not a known field \(nor "reviewed"\)/);
  })();
  await settled(sampling, oracle, strict);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("--ports 8318,8319 as the seed has it: the server listening on one is used, the sandbox started on the other", async () => {
  // A server already listening, counting the requests it answers.
  const sandbox = createSandbox({ apps: APPS });
  let answered = 0;
  await using listening = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req, info) => {
    answered++;
    return sandbox.fetch(req, { remoteAddr: info.remoteAddr as Deno.NetAddr });
  });
  const busy = listening.addr.port;
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const free = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const dir = await Deno.makeTempDir({ prefix: "webmix-seed-ports-" });
  const tasks = await valTasks(dir);
  const r = await run([
    "--tasks",
    tasks,
    "--arm",
    "replay",
    "--ports",
    `${busy},${free}`,
    "--out",
    join(dir, "out"),
    "--workers",
    "2",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await readResults(join(dir, "out"))).filter((x) => x.ok).length, 2);
  assert.ok(answered > 0, "the server already on its port ran an episode");
  await Deno.remove(dir, { recursive: true });
});
