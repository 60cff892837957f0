/**
 * The library a user scripts against (the root mod.ts), used as its module comment shows: a run's configuration and
 * its dry run, the tasks, a finished run folder read, regraded and reported. No Chromium: the dry run stops before.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  loadRun,
  loadTasks,
  regradeRun,
  runConfig,
  runEval,
  RunFolder,
  statusOf,
  UsageError,
  writeReport,
} from "../mod.ts";
import { ROOT } from "./support/cli.ts";

Deno.test("mod.ts: a dry run over a selection of the bundled tasks, then a run folder read, regraded and reported", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "webmix-library-" });
  try {
    const config = runConfig({ arm: "replay", out: join(tmp, "never"), dryRun: true, tasks: { limit: 5 } });
    const summary = await runEval(config);
    assert.equal(summary.dryRun?.task_count, 5);
    await assert.rejects(Deno.stat(join(tmp, "never")), Deno.errors.NotFound, "a dry run writes nothing");
    assert.equal((await loadTasks(join(ROOT, "fixtures/tasks.jsonl"))).length, 66);
    assert.throws(() => runConfig({ arm: "replay", out: "o", workers: 0 }), UsageError);

    const out = join(tmp, "demo");
    const copied = await new Deno.Command("cp", { args: ["-R", join(ROOT, "fixtures/run_folders/v1_demo"), out] })
      .output();
    assert.ok(copied.success);
    const folder = await RunFolder.open(out);
    assert.equal(folder.manifest?.settings.arm, "replay");
    const { results, regraded } = await folder.latest();
    assert.deepEqual([results.length, regraded], [62, false]);
    assert.ok(results.every((r) => statusOf(r) === "passed"));
    const regrade = await regradeRun(out);
    assert.deepEqual([regrade.ok, regrade.fail, regrade.changed], [62, 0, 0]);
    assert.equal((await folder.latest()).regraded, true);
    const [md] = await writeReport([await loadRun(out)], out);
    assert.match(await Deno.readTextFile(md), /\| 62\/62 \|/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
