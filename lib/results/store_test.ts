import assert from "node:assert/strict";
import { join } from "node:path";
import { HarnessError } from "../errors/mod.ts";
import { fillDisk, makeReadOnly, smallDisk, smallDiskProblem } from "../../tests/support/fs_faults.ts";
import { episodeName, type EpisodeResult, parseResults, resultLine } from "../run_folder/mod.ts";
import { isRetried, ResultsStore } from "./store.ts";

/** A results line as the store writes it (format_version first, the schema's order), without its newline. */
const lineOf = (r: EpisodeResult) => resultLine(r).trimEnd();
const fields = (task_id: string, repeat = 0, ok = true): EpisodeResult => ({
  task_id,
  episode: task_id,
  macro: "m",
  site: "s",
  arm: "replay",
  ok,
  duration_s: 1,
  repeat,
});
const line = (task_id: string, repeat = 0, ok = true) => lineOf(fields(task_id, repeat, ok));

/** A results file's lines as objects: what a rewrite must keep (the store writes lines in its schema's order). */
const linesOf = async (path: string) =>
  (await Deno.readTextFile(path)).trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const parsed = (...lines: string[]) => lines.map((l) => JSON.parse(l));

Deno.test("ResultsStore.open() cuts a partial last line left by a crash and keeps every whole line", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  await Deno.writeTextFile(path, `${line("a")}\n${line("b")}\n{"task_id": "c", "epi`);
  const store = await ResultsStore.open(path);
  assert.deepEqual(store.previous.map((r) => r.task_id), ["a", "b"]);
  assert.deepEqual(
    store.cut,
    { line: 3, bytes: `{"task_id": "c", "epi`.length },
    "what was cut is said, for --resume to report",
  );
  assert.equal(await Deno.readTextFile(path), `${line("a")}\n${line("b")}\n`);
  await store.append(fields("c"));
  const { results, cut } = parseResults(await Deno.readTextFile(path), path);
  assert.deepEqual(results.map((r) => r.task_id), ["a", "b", "c"]);
  assert.equal(cut, undefined);
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
    /RunFolderError: out\/results.jsonl line 2: not JSON/,
  );
});

Deno.test("episodeName() adds ~rK only when a run repeats tasks", () => {
  assert.equal(episodeName("shop_1", 0, 1), "shop_1");
  assert.equal(episodeName("shop_1", 2, 3), "shop_1~r2");
});

Deno.test("ResultsStore.open() with retryErrors moves harness failures to retried.jsonl so they run again", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  const failed = lineOf({ ...fields("b"), ok: false, error: "ModelReplyError: 503" });
  await Deno.writeTextFile(path, `${line("a")}\n${failed}\n${line("c")}\n`);
  const store = await ResultsStore.open(path, { retryErrors: true });
  assert.deepEqual([...store.doneKeys()].map((k) => k.split("\u0000")[0]), ["a", "c"]);
  // Nothing is moved until the run goes ahead (a refused --resume leaves the file as it was).
  assert.equal(await Deno.readTextFile(path), `${line("a")}\n${failed}\n${line("c")}\n`);
  await store.setAsideRetries();
  assert.deepEqual(await linesOf(path), parsed(line("a"), line("c")));
  assert.deepEqual(await linesOf(join(dir, "retried.jsonl")), parsed(failed));
  const untouched = await ResultsStore.open(path);
  assert.equal(untouched.previous.length, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ResultsStore.open() with retryErrors keeps timeouts and agent failures: only the harness's failures run again", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  const timeout = lineOf({ ...fields("t", 0, false), error: "timeout", detail: "timeout after 600s" });
  const agent = lineOf({ ...fields("agent", 0, false), detail: "the cart holds 1 item, not 2" });
  const crash = lineOf({ ...fields("crash", 0, false), error: "HarnessError: browser closed" });
  await Deno.writeTextFile(path, `${timeout}\n${agent}\n${crash}\n`);
  const store = await ResultsStore.open(path, { retryErrors: true });
  await store.setAsideRetries();
  assert.deepEqual(store.previous.map((r) => r.task_id), ["t", "agent"]);
  assert.deepEqual(await linesOf(path), parsed(timeout, agent));
  assert.deepEqual(await linesOf(join(dir, "retried.jsonl")), parsed(crash));
  assert.deepEqual(store.retriedFrom("crash", 0), { error: "HarnessError: browser closed", count: 1 });
  assert.equal(store.retriedFrom("t", 0), undefined, "a kept timeout is not run again");
  assert.equal(store.retriedFrom("crash", 1), undefined, "another repeat");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ResultsStore.open() with retryTimeouts runs timeouts again too, and counts the runs before", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  const timeout = lineOf({ ...fields("t", 0, false), error: "timeout" });
  const again = lineOf({
    ...fields("m", 0, false),
    error: "ModelReplyError: 503",
    retried: { error: "HarnessError: browser closed", count: 1 },
  });
  await Deno.writeTextFile(path, `${timeout}\n${again}\n${line("a")}\n`);
  const store = await ResultsStore.open(path, { retryErrors: true, retryTimeouts: true });
  await store.setAsideRetries();
  assert.deepEqual(store.previous.map((r) => r.task_id), ["a"]);
  assert.deepEqual(store.retriedFrom("t", 0), { error: "timeout", count: 1 });
  assert.deepEqual(store.retriedFrom("m", 0), { error: "ModelReplyError: 503", count: 2 });
  assert.equal((await Deno.readTextFile(join(dir, "retried.jsonl"))).trim().split("\n").length, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("isRetried() reruns errors only with retryErrors, timeouts only with retryTimeouts, verdicts never", () => {
  const r = (more: Partial<EpisodeResult>) => ({ ...fields("x", 0, false), ...more });
  assert.equal(isRetried(r({ error: "ModelReplyError: 500" }), {}), false, "not resuming");
  assert.equal(isRetried(r({ error: "ModelReplyError: 500" }), { retryErrors: true }), true);
  assert.equal(isRetried(r({ error: "timeout" }), { retryErrors: true }), false);
  assert.equal(isRetried(r({ error: "timeout" }), { retryErrors: true, retryTimeouts: true }), true);
  assert.equal(isRetried(r({ detail: "wrong answer" }), { retryErrors: true, retryTimeouts: true }), false);
  assert.equal(isRetried(r({ arm_failure: "step 2 failed" }), { retryErrors: true }), false);
});

Deno.test("ResultsStore.append() keeps concurrent appends whole and in call order", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  const store = await ResultsStore.open(path);
  const ids = Array.from({ length: 20 }, (_, i) => `t${i}`);
  await Promise.all(ids.map((id) => store.append({ ...fields(id), answer: "x".repeat(50_000) })));
  const { results, cut } = parseResults(await Deno.readTextFile(path), path);
  assert.deepEqual(results.map((r) => r.task_id), ids);
  assert.equal(cut, undefined);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ResultsStore.open() refuses a read-only folder before anything is written, naming the file", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "results.jsonl");
  await Deno.writeTextFile(path, `${line("a")}\n{"task_id": "b", "cut`);
  {
    await using _ro = await makeReadOnly(dir);
    await assert.rejects(ResultsStore.open(path), (err: Error) => {
      assert.ok(err instanceof HarnessError, String(err));
      assert.match(err.message, new RegExp(`^cannot write ${path}: `));
      return true;
    });
  }
  assert.equal(await Deno.readTextFile(path), `${line("a")}\n{"task_id": "b", "cut`, "left as it was");
  await Deno.remove(dir, { recursive: true });
});

// A full disk is a small tmpfs, which takes root (the test is left out, with the reason printed, without it).
const noTmpfs = await smallDiskProblem();
if (noTmpfs) console.error(`store_test: the full-disk test is ignored: ${noTmpfs}`);
Deno.test({
  name: "ResultsStore.append() on a full disk fails naming the file and leaves no partial line",
  ignore: noTmpfs !== undefined,
  async fn() {
    const disk = await smallDisk(64);
    if (typeof disk === "string") throw new Error(disk);
    await using d = disk;
    const path = join(d.dir, "results.jsonl");
    const store = await ResultsStore.open(path);
    await store.append(fields("a"));
    const before = await Deno.readTextFile(path);
    // The line's first page-worth fits where results.jsonl's last page has room; the rest cannot.
    await fillDisk(join(d.dir, "filler"));
    const big = { ...fields("b"), answer: "y".repeat(20_000) };
    await assert.rejects(store.append(big), (err: Error) => {
      assert.ok(err instanceof HarnessError, String(err));
      assert.match(err.message, new RegExp(`^cannot append the line of episode "b" to ${path}: .*No space left`));
      return true;
    });
    assert.equal(await Deno.readTextFile(path), before, "whole lines only");
    await Deno.remove(join(d.dir, "filler"));
    await store.append(big);
    const { results, cut } = parseResults(await Deno.readTextFile(path), path);
    assert.deepEqual([results.map((r) => r.task_id), cut], [["a", "b"], undefined]);
  },
});
