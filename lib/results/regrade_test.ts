import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../errors/mod.ts";
import { regradeRun } from "./regrade.ts";

Deno.test("regradeRun() names a folder without results.jsonl, and reads nothing outside the run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-regrade-" });
  try {
    const out = join(dir, "run");
    await Deno.mkdir(out);
    await assert.rejects(
      regradeRun(out),
      (e: unknown) =>
        e instanceof UsageError && e.message === `"${out}" holds no results.jsonl (expected a run's output folder)`,
    );
    // A line whose episode would lead out of the run: its grade inputs are not read from there.
    await Deno.mkdir(join(dir, "elsewhere"));
    await Deno.writeTextFile(join(dir, "elsewhere", "grade_inputs.json"), "{}");
    const line = { task_id: "t", episode: "../elsewhere", macro: "m", site: "s", arm: "replay", ok: true, repeat: 0 };
    await Deno.writeTextFile(join(out, "results.jsonl"), JSON.stringify({ ...line, duration_s: 1 }) + "\n");
    const s = await regradeRun(out);
    assert.equal(s.missing, 1);
    assert.match(
      String(s.results[0].regrade_error),
      /"\.\.\/elsewhere" cannot name a folder inside .*: it holds a path/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
