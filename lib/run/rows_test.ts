/**
 * Training rows: the proposed kind's rows (rows/{rows.jsonl, step_*.png, episode.json}) in the seed's layout, and
 * rejection-sampling rows in the episode folder, whose images must not take the history's step_<n>.png names.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { KINDS, parseTaskLines, ROW_FAMILY } from "../tasks/mod.ts";
import { rowImageStem, writeRows } from "./rows.ts";
import { PROPOSED_TASK } from "../tasks/_testdata.ts";

const TASK = PROPOSED_TASK;

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

Deno.test("writeRows() with the proposed kind's spec writes rows/{rows.jsonl, step_*.png, episode.json}", async () => {
  const episodeDir = await Deno.makeTempDir({ prefix: "webmix-rows-" });
  const dir = join(episodeDir, "rows");
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
    const spec = KINDS.proposed.rows(TASK, false, { episode: TASK.task_id })!;
    const n = await writeRows(episodeDir, records, spec, [undefined, shot]);
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
    await Deno.remove(episodeDir, { recursive: true });
  }
});

Deno.test("writeRows() in the episode folder names images row_<i>.png, leaving the history's step_<n>.png alone", async () => {
  const episodeDir = await Deno.makeTempDir({ prefix: "webmix-rows-" });
  try {
    const [task] = parseTaskLines(
      (await Deno.readTextFile(new URL("../../fixtures/tasks.jsonl", import.meta.url))).split("\n")[0],
      "tasks.jsonl",
    );
    const spec = KINDS.datagen.rows(task, true, { episode: task.task_id })!;
    assert.equal(spec.dir, "", "rejection-sampling rows sit in the episode folder, beside step_<n>.png");
    assert.equal(rowImageStem(spec), "row");
    const history = new Uint8Array([7, 7, 7]);
    for (const n of [1, 2]) await Deno.writeFile(join(episodeDir, `step_${n}.png`), history);
    const reply = JSON.stringify({ action: [{ click: { index: 1 } }] });
    const n = await writeRows(episodeDir, [step(reply), step(reply, 2)], spec);
    assert.equal(n, 2);
    for (const k of [1, 2]) assert.deepEqual(await Deno.readFile(join(episodeDir, `step_${k}.png`)), history);
    const rows = (await Deno.readTextFile(join(episodeDir, "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
    const urls = rows.map((r) =>
      r.messages[1].content.filter((p: { type: string }) => p.type === "image_url").map((
        p: { image_url: { url: string } },
      ) => p.image_url.url)
    );
    assert.deepEqual(urls, [["row_0.png"], ["row_1.png", "row_1_1.png"]]);
    for (const name of urls.flat()) assert.equal((await Deno.readFile(join(episodeDir, name)))[1], 0x50, name);
    await assert.rejects(Deno.stat(join(episodeDir, "step_0.png")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(episodeDir, { recursive: true });
  }
});
