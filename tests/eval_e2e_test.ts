/**
 * eval.ts and regrade.ts end to end, as a user runs them: real Chromium, the real sandbox server, a sample of the
 * bundled tasks (the first two of each app). The replay arm must pass each and the noop arm fail each;
 * shipped_tasks_test.ts holds every bundled task to both, through the same harness. The noop run goes on beside the
 * replay test's runs (it shares nothing with them); its own test asserts on it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertBrowserUseHistory } from "./support/browser_use_history.ts";
import { loadTasks } from "../lib/tasks/mod.ts";
import { readResults, ROOT, runCli } from "./support/cli.ts";
import { sharedRun } from "./support/shared_run.ts";

const ALL = await loadTasks(join(ROOT, "fixtures/tasks.jsonl"));
/** The first two tasks of each app, in the file's order. */
const BUNDLED = ALL.filter((t, i) => ALL.slice(0, i).filter((u) => u.site === t.site).length < 2);
const SAMPLE = ["--task-ids", BUNDLED.map((t) => t.task_id).join(",")];

/** eval.ts --arm noop over the sample: started by the first test, asserted on by its own. */
const noopRun = sharedRun(async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-noop-" });
  const run = await runCli("eval.ts", [
    "--arm",
    "noop",
    ...SAMPLE,
    "--out",
    out,
    "--workers",
    "2",
    "--no-step-screenshots",
  ]);
  return { ...run, out };
});

Deno.test("eval.ts --arm replay passes every bundled task, and regrade.ts agrees offline", async () => {
  const noop = noopRun();
  try {
    await replayAndRegrade();
  } finally {
    // Ended within this test, whatever it found.
    await noop.catch(() => {});
  }
});

async function replayAndRegrade() {
  const out = await Deno.makeTempDir({ prefix: "webmix-replay-" });
  const run = await runCli("eval.ts", ["--arm", "replay", ...SAMPLE, "--out", out, "--workers", "2", "--overwrite"]);
  assert.equal(run.code, 0, run.stderr);
  const results = await readResults(out);
  assert.equal(results.length, BUNDLED.length);
  const failed = results.filter((r) => !r.ok).map((r) => `${r.task_id}: ${r.error ?? r.detail}`);
  assert.deepEqual(failed, [], `replay failed:\n${failed.join("\n")}`);
  assert.deepEqual(new Set(results.map((r) => r.task_id)), new Set(BUNDLED.map((t) => t.task_id)));
  const n = BUNDLED.length;
  const summary = `${n} passed, 0 failed \\(100\\.0% of ${n} graded\\); 0 errors, 0 grade errors, 0 pending`;
  assert.match(run.stdout, new RegExp(`^replay: ${n} episodes: ${summary}$`, "m"));
  // stderr is no terminal: a line per episode and a summary at the end (every 25 episodes or 60 s between: progress_test).
  assert.equal(run.stderr.match(/^\[\d+\/\d+\] OK {2}/gm)?.length, n);
  assert.match(run.stderr, new RegExp(`^progress: ${n}/${n} episodes, \\S+ elapsed; ${summary}$`, "m"));
  for (const r of results.slice(0, 3)) {
    const dir = join(out, String(r.episode));
    for (const f of ["grade_inputs.json", "history.json", "trace.json", "final.png", "step_1.png", "steps.jsonl"]) {
      assert.ok((await Deno.stat(join(dir, f))).size > 0, `${dir}/${f}`);
    }
    assertBrowserUseHistory(JSON.parse(await Deno.readTextFile(join(dir, "history.json"))), `${dir}/history.json`);
    const steps = (await Deno.readTextFile(join(dir, "steps.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(steps.length, r.steps, `${dir}: one step record per step`);
    assert.ok(steps.every((s) => s.kind === "replay" && s.request === null && s.actions.length === 1));
  }
  // The run leaves its episode viewer; a regrade writes it again (tests/viewer_test.ts opens one in Chromium).
  assert.match(run.stderr, new RegExp(`^viewer: ${join(out, "viewer.html")}$`, "m"));
  const viewerBefore = await Deno.stat(join(out, "viewer.html"));
  const regrade = await runCli("regrade.ts", ["--out", out]);
  assert.equal(regrade.code, 0, regrade.stderr);
  assert.ok((await Deno.stat(join(out, "viewer.html"))).mtime! >= viewerBefore.mtime!);
  assert.match(regrade.stderr, /^viewer: /m);
  assert.match(regrade.stdout, new RegExp(`\\{"ok":${BUNDLED.length},"fail":0\\} \\(0 changed\\)`));
  await Deno.remove(out, { recursive: true });
}

Deno.test("eval.ts --arm noop fails every bundled task", async () => {
  const run = await noopRun();
  assert.equal(run.code, 0, run.stderr);
  const results = await readResults(run.out);
  assert.equal(results.length, BUNDLED.length);
  const passed = results.filter((r) => r.ok).map((r) => r.task_id);
  assert.deepEqual(passed, [], `noop passed: ${passed}`);
  assert.ok(results.every((r) => !r.error), "noop episodes fail on their grade, not on a harness error");
});
