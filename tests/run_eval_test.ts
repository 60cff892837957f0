/**
 * runEval as a library caller uses it: the guarantees eval.ts gives (a dry run writes nothing, --overwrite deletes
 * only a run, a shard runs only its part) hold without eval.ts. Real sandbox, real Chromium, the noop arm.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../lib/errors/mod.ts";
import { BUNDLED, runConfig, runEval } from "../lib/run/mod.ts";
import { loadTasks } from "../lib/tasks/mod.ts";
import { readResults } from "./support/cli.ts";

const quiet = { log: () => {} };

/** Every path under `dir`, sorted (an empty list for a folder that does not exist). */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, prefix: string): Promise<void> => {
    for await (const e of Deno.readDir(d)) {
      out.push(prefix + e.name);
      if (e.isDirectory) await walk(join(d, e.name), `${prefix}${e.name}/`);
    }
  };
  await walk(dir, "").catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  return out.sort();
}

Deno.test("runEval() with dryRun returns the dry run's report and writes, locks and deletes nothing", async () => {
  const root = await Deno.makeTempDir({ prefix: "webmix-run-eval-" });
  const out = join(root, "dry");
  const tasks = (await loadTasks(BUNDLED.tasks)).slice(0, 3);
  const given = await runEval(runConfig({ arm: "noop", out, dryRun: true, workers: 1 }), { tasks, ...quiet });
  assert.equal(given.dryRun?.task_count, 3);
  assert.equal(given.ran, 0);
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound, "a dry run creates no out folder");
  // Without tasks: those config.tasks names, selected by its limit.
  const named = await runEval(runConfig({ arm: "noop", out, dryRun: true, tasks: { limit: 2 } }), quiet);
  assert.equal(named.dryRun?.task_count, 2);
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  // An earlier run's folder with --overwrite is left as it was.
  const earlier = join(root, "earlier");
  await Deno.mkdir(join(earlier, "t1"), { recursive: true });
  await Deno.writeTextFile(join(earlier, "results.jsonl"), "");
  await Deno.writeTextFile(join(earlier, "t1", "final.png"), "png");
  const before = await listing(earlier);
  await runEval(runConfig({ arm: "noop", out: earlier, dryRun: true, overwrite: true, tasks: { limit: 1 } }), quiet);
  assert.deepEqual(await listing(earlier), before);
  await Deno.remove(root, { recursive: true });
});

Deno.test("runEval() with overwrite refuses a folder that holds files but no run, and deletes none of them", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-run-eval-" });
  await Deno.writeTextFile(join(out, "notes.txt"), "mine");
  await Deno.mkdir(join(out, "drafts"));
  await Deno.writeTextFile(join(out, "drafts", "a.md"), "draft");
  const before = await listing(out);
  const tasks = (await loadTasks(BUNDLED.tasks)).slice(0, 1);
  const config = runConfig({ arm: "noop", out, overwrite: true, workers: 1, stepScreenshots: false });
  await assert.rejects(runEval(config, { tasks, ...quiet }), (e: Error) => {
    assert.ok(e instanceof UsageError, String(e));
    assert.match(e.message, /holds files but no earlier run/);
    return true;
  });
  assert.deepEqual(await listing(out), before);
  assert.equal(await Deno.readTextFile(join(out, "notes.txt")), "mine");
  await Deno.remove(out, { recursive: true });
});

Deno.test("runEval() with a shard runs only that part of the selected tasks: 1, 4, 7 of 3", async () => {
  const root = await Deno.makeTempDir({ prefix: "webmix-run-eval-" });
  const out = join(root, "s1");
  const tasks = (await loadTasks(BUNDLED.tasks)).slice(0, 8);
  const config = runConfig({ arm: "noop", out, shard: { index: 1, count: 3 }, workers: 3, stepScreenshots: false });
  const summary = await runEval(config, { tasks, ...quiet });
  const expected = [1, 4, 7].map((i) => tasks[i].task_id);
  assert.equal(summary.ran, 3);
  assert.deepEqual((await readResults(out)).map((r) => r.task_id).sort(), [...expected].sort());
  await Deno.remove(root, { recursive: true });
});
