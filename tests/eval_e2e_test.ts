/**
 * eval.ts and regrade.ts end to end, as a user runs them: real Chromium, the real sandbox server, the bundled
 * tasks. The replay arm must pass every bundled task and the noop arm must fail every one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadTasks } from "../lib/tasks/mod.ts";
import { readResults, ROOT, runCli } from "./support/cli.ts";

const BUNDLED = await loadTasks(join(ROOT, "fixtures/tasks.jsonl"));

Deno.test("eval.ts --arm replay passes every bundled task, and regrade.ts agrees offline", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-replay-" });
  const run = await runCli("eval.ts", ["--arm", "replay", "--out", out, "--workers", "2", "--overwrite"]);
  assert.equal(run.code, 0, run.stderr);
  const results = await readResults(out);
  assert.equal(results.length, BUNDLED.length);
  const failed = results.filter((r) => !r.ok).map((r) => `${r.task_id}: ${r.error ?? r.detail}`);
  assert.deepEqual(failed, [], `replay failed:\n${failed.join("\n")}`);
  assert.deepEqual(new Set(results.map((r) => r.task_id)), new Set(BUNDLED.map((t) => t.task_id)));
  assert.match(run.stdout, new RegExp(`replay: \\{"ok":${BUNDLED.length},"fail":0\\}`));
  for (const r of results.slice(0, 3)) {
    const dir = join(out, String(r.episode));
    for (const f of ["grade_inputs.json", "history.json", "trace.json", "final.png", "step_1.png"]) {
      assert.ok((await Deno.stat(join(dir, f))).size > 0, `${dir}/${f}`);
    }
  }
  const regrade = await runCli("regrade.ts", ["--out", out]);
  assert.equal(regrade.code, 0, regrade.stderr);
  assert.match(regrade.stdout, new RegExp(`\\{"ok":${BUNDLED.length},"fail":0\\} \\(0 changed\\)`));
  await Deno.remove(out, { recursive: true });
});

Deno.test("eval.ts --arm noop fails every bundled task", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-noop-" });
  const run = await runCli("eval.ts", ["--arm", "noop", "--out", out, "--workers", "2", "--no-step-screenshots"]);
  assert.equal(run.code, 0, run.stderr);
  const results = await readResults(out);
  assert.equal(results.length, BUNDLED.length);
  const passed = results.filter((r) => r.ok).map((r) => r.task_id);
  assert.deepEqual(passed, [], `noop passed: ${passed}`);
  assert.ok(results.every((r) => !r.error), "noop episodes fail on their grade, not on a harness error");
  await Deno.remove(out, { recursive: true });
});
