import assert from "node:assert/strict";
import { join } from "node:path";
import { episodeName, parseResults, ResultsStore } from "./store.ts";

const line = (task_id: string, repeat = 0, ok = true) =>
  JSON.stringify({ task_id, episode: task_id, macro: "m", site: "s", arm: "replay", ok, duration_s: 1, repeat });

Deno.test("ResultsStore.open() cuts a partial last line left by a crash and keeps every whole line", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  await Deno.writeTextFile(path, `${line("a")}\n${line("b")}\n{"task_id": "c", "epi`);
  const store = await ResultsStore.open(path);
  assert.deepEqual(store.previous.map((r) => r.task_id), ["a", "b"]);
  assert.equal(await Deno.readTextFile(path), `${line("a")}\n${line("b")}\n`);
  await store.append({ ...JSON.parse(line("c")) });
  const { results, partialTail } = parseResults(await Deno.readTextFile(path), path);
  assert.deepEqual(results.map((r) => r.task_id), ["a", "b", "c"]);
  assert.equal(partialTail, 0);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ResultsStore.doneKeys() tells repeats apart", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  await Deno.writeTextFile(path, `${line("a", 0)}\n${line("a", 1)}\n`);
  const keys = (await ResultsStore.open(path)).doneKeys();
  assert.equal(keys.size, 2);
  assert.ok(keys.has(`a\u00000`) && keys.has(`a\u00001`) && !keys.has(`a\u00002`));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("parseResults() names the file and line of a malformed middle line", () => {
  assert.throws(
    () => parseResults(`${line("a")}\nnot json\n${line("b")}\n`, "out/results.jsonl"),
    /cannot read out\/results.jsonl line 2/,
  );
});

Deno.test("episodeName() adds ~rK only when a run repeats tasks", () => {
  assert.equal(episodeName("shop_1", 0, 1), "shop_1");
  assert.equal(episodeName("shop_1", 2, 3), "shop_1~r2");
});

Deno.test("ResultsStore.open() with retryErrors moves harness failures to retried.jsonl so they run again", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  const failed = JSON.stringify({ ...JSON.parse(line("b")), ok: false, error: "ModelReplyError: 503" });
  await Deno.writeTextFile(path, `${line("a")}\n${failed}\n${line("c")}\n`);
  const store = await ResultsStore.open(path, { retryErrors: true });
  assert.deepEqual([...store.doneKeys()].map((k) => k.split("\u0000")[0]), ["a", "c"]);
  assert.equal(await Deno.readTextFile(path), `${line("a")}\n${line("c")}\n`);
  assert.equal(await Deno.readTextFile(join(dir, "retried.jsonl")), failed + "\n");
  const untouched = await ResultsStore.open(path);
  assert.equal(untouched.previous.length, 2);
  await Deno.remove(dir, { recursive: true });
});
