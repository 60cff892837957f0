/** Proposed tasks: the bundled file, loader errors, grade inputs, and the training rows' layout. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TaskFormatError } from "../lib/errors/mod.ts";
import {
  loadProposedTasks,
  PROPOSED_PENDING,
  proposedGradeInputs,
  type ProposedTask,
  ROW_FAMILY,
  writeProposedRows,
} from "../lib/human/mod.ts";

const BUNDLED = fileURLToPath(new URL("../fixtures/proposed/tasks.jsonl", import.meta.url));

Deno.test("loadProposedTasks() reads the bundled proposed tasks", async () => {
  const tasks = await loadProposedTasks(BUNDLED);
  assert.ok(tasks.length >= 3 && tasks.length <= 5, `${tasks.length} tasks`);
  for (const t of tasks) {
    assert.equal(t.kind, "proposed");
    assert.match(t.start_path, new RegExp(`^/${t.site}/`));
  }
  assert.deepEqual(tasks[2].option, { issue: "API-17", column: "Done" });
  assert.equal(tasks[0].option, null);
});

async function loadText(text: string): Promise<TaskFormatError> {
  const file = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(file, text);
    await loadProposedTasks(file);
  } catch (err) {
    assert.ok(err instanceof TaskFormatError, String(err));
    assert.equal(err.file, file);
    return err;
  } finally {
    await Deno.remove(file);
  }
  throw new Error("accepted a malformed proposed task");
}

Deno.test("loadProposedTasks() errors name the file, the line and the field", async () => {
  const good = {
    kind: "proposed",
    task_id: "p1",
    site: "shop",
    macro: "search",
    instruction: "x",
    start_path: "/shop/",
  };
  let e = await loadText(`\n${JSON.stringify({ ...good, start_path: "shop/" })}\n`);
  assert.match(e.message, /\.jsonl line 2: task "p1": start_path: must be a path starting with \//);
  assert.equal(e.line, 2);
  e = await loadText(JSON.stringify({ ...good, kind: "human" }));
  assert.match(e.message, /line 1: task "p1": kind: /);
  e = await loadText(JSON.stringify({ ...good, macro: "serch" }));
  assert.match(e.message, /macro: "serch" is not a macro \(did you mean "search"\?\)/);
  e = await loadText(`${JSON.stringify(good)}\n${JSON.stringify(good)}`);
  assert.match(e.message, /line 2: task "p1": duplicate task_id/);
  e = await loadText("{oops");
  assert.match(e.message, /line 1: not JSON/);
});

const TASK: ProposedTask = {
  kind: "proposed",
  task_id: "prop_1",
  site: "shop",
  macro: "choose_radio",
  instruction: "Add two beanies.",
  start_path: "/shop/products/38",
  option: null,
};

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function step(reply: string, images = 1) {
  return {
    model: "qwen35-4b",
    messages: [
      { role: "system", content: "You are a web agent." },
      {
        role: "user",
        content: [
          { type: "text", text: "state" },
          ...Array.from({ length: images }, () => ({
            type: "image_url",
            image_url: { url: `data:image/png;base64,${PNG}` },
          })),
        ],
      },
    ],
    text: reply,
  };
}

Deno.test("writeProposedRows() writes rows.jsonl, step_*.png and episode.json in the seed's layout", async () => {
  const dir = join(await Deno.makeTempDir({ prefix: "webmix-rows-" }), "rows");
  try {
    const first = step(
      JSON.stringify({ memory: "", action: [{ input: { index: 3, text: "2" } }, { click: { index: 4 } }] }),
    );
    const records = [
      first,
      step("<think>not an agent step</think>"),
      step(JSON.stringify({ action: [{ drag: { source_index: 1, target_index: 2 } }] }), 2),
      { model: "m", messages: [{ role: "user", content: "no image" }], content: JSON.stringify({ action: [] }) },
      step(JSON.stringify({ action: [{ done: { text: "ok", success: true } }] })),
    ];
    const shot = new Uint8Array([1, 2, 3]);
    const n = await writeProposedRows(dir, TASK, records, [undefined, shot]);
    assert.equal(n, 4, "the reply that is not JSON is no row");
    const rows = (await Deno.readTextFile(join(dir, "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
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
    assert.deepEqual([rows[0].task_id, rows[0].segment, rows[0].macro], ["prop_1", 0, null]);
    assert.equal(rows[0].target, first.text);
    assert.equal(rows[0].messages[1].content[1].image_url.url, "step_0.png");
    assert.deepEqual(rows[1].messages[1].content.slice(1).map((p: { image_url: { url: string } }) => p.image_url.url), [
      "step_1.png",
      "step_1_1.png",
    ]);
    assert.deepEqual(await Deno.readFile(join(dir, "step_1.png")), shot, "a given screenshot wins");
    assert.equal((await Deno.readFile(join(dir, "step_0.png")))[1], 0x50, "the inline PNG decoded");
    assert.match(JSON.stringify(first.messages), /data:image\/png;base64,/, "the records are not modified");
    const episode = JSON.parse(await Deno.readTextFile(join(dir, "episode.json")));
    assert.deepEqual(episode, {
      task_id: "prop_1",
      instruction: "Add two beanies.",
      site: "shop",
      start_path: "/shop/products/38",
      steps: 4,
      source: "taskgen",
    });
  } finally {
    await Deno.remove(dir.replace(/\/rows$/, ""), { recursive: true });
  }
});

Deno.test("proposedGradeInputs() keeps the session's evidence for the judge; the grade is pending", () => {
  const inputs = proposedGradeInputs(TASK, {
    base: "http://h",
    record: [{ type: "action", action: "click" }],
    log: [],
    changes: [],
    clip: [{ seq: 4, text: "SO-1", url: "http://h/x" }],
    seen: [],
    answer: null,
    actions: [],
  });
  assert.deepEqual([inputs.kind, inputs.task.task_id, inputs.clip, inputs.record.length], ["proposed", "prop_1", [
    "SO-1",
  ], 1]);
  assert.deepEqual(PROPOSED_PENDING, { ok: false, detail: "pending: judge.ts decides" });
});
