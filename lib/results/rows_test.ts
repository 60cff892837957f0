/**
 * Training rows from step records: the messages rebuilt as the agent loop sends them, the images copied byte for
 * byte from the files the records name, the kinds' layouts (rejection sampling in the episode folder with row_<i>
 * images, proposed rows in rows/ with step_<i>), and a step record that cannot give its row named with why.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { RunFolder, type StepRecord } from "../run_folder/mod.ts";
import { buildStepMessages, type StepMessagesInput } from "../agent/messages.ts";
import { HarnessError } from "../errors/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { imagePart } from "../llm/mod.ts";
import { parseTaskLines } from "../tasks/mod.ts";
import { ROW_FAMILY } from "../protocol/mod.ts";
import { KINDS } from "../tasks/kinds.ts";
import { PROPOSED_TASK } from "../tasks/_testdata.ts";
import { episodeRowSources, requestMessages, type RowSource, writeRows } from "./rows.ts";

const SYSTEM = "You are a web agent.\nReply in JSON.";
const SHOT_1 = new Uint8Array([137, 80, 78, 71, 1, 1]);
const SHOT_2 = new Uint8Array([137, 80, 78, 71, 2, 2, 2]);
const reply = (...action: Record<string, unknown>[]) => JSON.stringify({ memory: "", action });

/** A step record as lib/agent's loop writes it. */
function record(over: Partial<StepRecord> & { request: StepRecord["request"] }, sha: string): StepRecord {
  const request = over.request && { ...over.request, system_sha256: sha };
  return {
    kind: "agent",
    step: 1,
    model: "qwen35-4b",
    family: "Navigation",
    url: "http://127.0.0.1:1/shop/",
    title: "Shop",
    reply: reply({ click: { index: 1 } }),
    parsed: null,
    actions: [],
    start: 1,
    end: 2,
    ...over,
    request,
  };
}

/** A run folder with one episode whose steps.jsonl holds `records`, the screenshots and the system prompt. */
async function runFolder(records: (sha: string) => StepRecord[]) {
  const out = await Deno.makeTempDir({ prefix: "webmix-rows-" });
  const dir = join(out, "ep");
  const sha = await sha256Hex(SYSTEM);
  await Deno.mkdir(join(out, "prompts"), { recursive: true });
  await Deno.writeTextFile(join(out, "prompts", `${sha}.txt`), SYSTEM);
  await Deno.mkdir(dir);
  await Deno.writeFile(join(dir, "step_1.png"), SHOT_1);
  await Deno.writeFile(join(dir, "planner_1.png"), SHOT_2);
  const lines = records(sha).map((r) => JSON.stringify(r) + "\n").join("");
  await Deno.writeTextFile(join(dir, "steps.jsonl"), lines);
  const sources = () => episodeRowSources(RunFolder.ofRun(out), "ep");
  return { out, dir, sha, sources, [Symbol.asyncDispose]: () => Deno.remove(out, { recursive: true }) };
}

const request = (text: string, screenshot: string | null) => ({
  system_sha256: "",
  text,
  screenshot,
  ...(screenshot ? { screenshot_mime: "image/png" } : {}),
});

Deno.test("requestMessages() rebuilds the agent loop's request exactly, with or without its screenshot", () => {
  const input: StepMessagesInput = {
    systemPrompt: SYSTEM,
    task: "Go to page 3.",
    step: 1,
    maxSteps: 40,
    now: "2026-03-15T10:00:00Z",
    history: [],
    view: {
      url: "http://127.0.0.1:1/shop/",
      title: "Shop",
      tabs: [{ id: "AB12", url: "http://127.0.0.1:1/shop/", title: "Shop" }],
      currentTab: "AB12",
      elementsText: "[1]<a />",
      pixelsAbove: 0,
      pixelsBelow: 0,
      viewport: { width: 1280, height: 720 },
      screenshot: SHOT_1,
      screenshotMime: "image/png",
    },
  };
  const sent = buildStepMessages(input);
  const text = (sent[1].content as { text: string }[])[0].text;
  assert.deepEqual(requestMessages(SYSTEM, text, imagePart(SHOT_1).image_url.url), sent);
  const bare = buildStepMessages({ ...input, view: { ...input.view, screenshot: undefined } });
  assert.deepEqual(requestMessages(SYSTEM, text, null), bare);
});

Deno.test("episodeRowSources() and writeRows() turn step records into rows: one per answered request, images copied", async () => {
  await using run = await runFolder((sha) => [
    record(
      { request: request("planner turn 1", "planner_1.png"), kind: "planner", step: 0, row_family: "Planner" },
      sha,
    ),
    record({ request: request("step 1 text", "step_1.png"), row_family: "Text entry" }, sha),
    record({ request: request("step 2 failed", "step_1.png"), step: 2, reply: null, error: "request failed" }, sha),
    record({ request: null, kind: "replay", step: 3, model: null }, sha),
    record({ request: request("step 4 no image", null), step: 4, model: "rest", reply: "not JSON" }, sha),
  ]);
  const sources = await run.sources();
  assert.deepEqual(sources?.map((s) => [s.text, s.model, s.family, s.image?.path]), [
    ["planner turn 1", "qwen35-4b", "Planner", join(run.dir, "planner_1.png")],
    ["step 1 text", "qwen35-4b", "Text entry", join(run.dir, "step_1.png")],
    ["step 4 no image", "rest", undefined, undefined],
  ], "a request without a reply and a model-free step are no rows");
  assert.ok(sources!.every((s) => s.system === SYSTEM));

  const [task] = parseTaskLines(
    (await Deno.readTextFile(new URL("../../fixtures/tasks.jsonl", import.meta.url))).split("\n")[0],
    "tasks.jsonl",
  );
  const spec = KINDS.datagen.rows(task, true, { episode: "ep" })!;
  assert.equal(await writeRows(run.dir, sources!, spec), 3);
  const rows = (await Deno.readTextFile(join(run.dir, "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => [r.task_id, r.step, r.family, r.source, r.model]), [
    ["ep", 0, "Planner", "rejection_sampling", "qwen35-4b"],
    ["ep", 1, "Text entry", "rejection_sampling", "qwen35-4b"],
    ["ep", 2, "Navigation", "rejection_sampling", "rest"],
  ]);
  assert.deepEqual(Object.keys(rows[0]), ["task_id", "step", "family", "source", "model", "messages", "target"]);
  assert.deepEqual(rows[1].messages, requestMessages(SYSTEM, "step 1 text", "row_1.png"));
  assert.deepEqual(rows[2].messages, requestMessages(SYSTEM, "step 4 no image", null));
  assert.equal(rows[1].target, reply({ click: { index: 1 } }));
  assert.equal(rows[2].target, "not JSON", "rejection sampling keeps every request");
  assert.deepEqual(await Deno.readFile(join(run.dir, "row_0.png")), SHOT_2);
  assert.deepEqual(await Deno.readFile(join(run.dir, "row_1.png")), SHOT_1);
  assert.deepEqual(await Deno.readFile(join(run.dir, "step_1.png")), SHOT_1, "the step's own screenshot stays");
  await assert.rejects(Deno.stat(join(run.dir, "row_2.png")), Deno.errors.NotFound);
  const episode = JSON.parse(await Deno.readTextFile(join(run.dir, "episode.json")));
  assert.deepEqual(episode, {
    task_id: "ep",
    instruction: task.instruction,
    macros: null,
    variant: "rejection_sampling",
    steps: 3,
  });
});

Deno.test("writeRows() with the proposed kind's spec writes rows/{rows.jsonl, step_*.png, episode.json}, agent steps only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-rows-" });
  try {
    const shot = join(dir, "step_1.png");
    await Deno.writeFile(shot, SHOT_1);
    const source = (target: string, image = true): RowSource => ({
      model: "qwen35-4b",
      system: SYSTEM,
      text: "state",
      image: image ? { path: shot, mime: "image/png" } : null,
      target,
    });
    const first = reply({ input: { index: 3, text: "2" } }, { click: { index: 4 } });
    const sources = [
      source(first),
      source("<think>not an agent step</think>"),
      source(reply({ drag: { source_index: 1, target_index: 2 } })),
      source(JSON.stringify({ action: [] }), false),
      source(reply({ done: { text: "ok", success: true } })),
    ];
    const spec = KINDS.proposed.rows(PROPOSED_TASK, false, { episode: PROPOSED_TASK.task_id })!;
    assert.equal(await writeRows(dir, sources, spec), 4, "the reply that is not JSON is no row");
    const rows = (await Deno.readTextFile(join(dir, "rows", "rows.jsonl"))).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(rows.map((r) => [r.step, r.op, r.family]), [
      [0, "input", "Text entry"],
      [1, "drag", "Drag & gesture"],
      [2, "", "Navigation"],
      [3, "done", ROW_FAMILY.done],
    ]);
    assert.deepEqual(Object.keys(rows[0]), [
      "task_id",
      "step",
      "segment",
      "macro",
      "op",
      "family",
      "messages",
      "target",
    ]);
    assert.deepEqual([rows[0].task_id, rows[0].segment, rows[0].macro, rows[0].target], ["prop_1", 0, null, first]);
    assert.equal(rows[1].messages[1].content[1].image_url.url, "step_1.png");
    assert.deepEqual(await Deno.readFile(join(dir, "rows", "step_1.png")), SHOT_1);
    await assert.rejects(Deno.stat(join(dir, "rows", "step_2.png")), Deno.errors.NotFound);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(dir, "rows", "episode.json"))), {
      task_id: "prop_1",
      instruction: "Add two beanies.",
      site: "shop",
      start_path: "/shop/products/38",
      steps: 4,
      source: "taskgen",
    });
    assert.equal(await writeRows(join(dir, "none"), [], spec), undefined, "no model request, no rows");
    await assert.rejects(Deno.stat(join(dir, "none")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("episodeRowSources() names what keeps a step record from its row", async (t) => {
  const fails = async (records: (sha: string) => StepRecord[], pattern: RegExp, edit?: (out: string) => unknown) => {
    await using run = await runFolder(records);
    await edit?.(run.out);
    await assert.rejects(run.sources(), (err: Error) => {
      assert.ok(err instanceof HarnessError, String(err));
      assert.match(err.message, pattern);
      return true;
    });
  };
  await t.step("an image the run did not save", () =>
    fails(
      (sha) => [record({ request: { ...request("t", null), screenshot_mime: "image/png" } }, sha)],
      /steps\.jsonl: step 1's request carried an image that the run did not save \(it ran with --no-step-screenshots\)/,
    ));
  await t.step(
    "an image file that is gone",
    () =>
      fails((sha) => [record({ request: request("t", "step_9.png") }, sha)], /step 1's image .*step_9\.png is missing/),
  );
  await t.step(
    "an image outside the episode folder",
    () =>
      fails(
        (sha) => [record({ request: request("t", "../x.png") }, sha)],
        /steps\.jsonl line 1: request\.screenshot: must be the plain name of a file in the episode folder/,
      ),
  );
  await t.step("a system prompt that is gone", () =>
    fails(
      (sha) => [record({ request: request("t", "step_1.png") }, sha)],
      /the system prompt .*prompts\/[0-9a-f]{64}\.txt is missing/,
      (out) => Deno.remove(join(out, "prompts"), { recursive: true }),
    ));
  await t.step("a system prompt that was changed", () =>
    fails(
      (sha) => [record({ request: request("t", "step_1.png") }, sha)],
      /\.txt does not hash to its name/,
      async (out) => {
        for await (const e of Deno.readDir(join(out, "prompts"))) {
          await Deno.writeTextFile(join(out, "prompts", e.name), SYSTEM + "\n");
        }
      },
    ));
  await t.step("a malformed line", () =>
    fails(
      (sha) => [record({ request: request("t", "step_1.png") }, sha), { reply: 3 } as unknown as StepRecord],
      /steps\.jsonl line 2: .*kind/,
    ));
  await t.step("no steps.jsonl: null, the caller says why", async () => {
    await using run = await runFolder(() => []);
    await Deno.remove(join(run.dir, "steps.jsonl"));
    assert.equal(await run.sources(), null);
  });
});
