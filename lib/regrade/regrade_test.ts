import assert from "node:assert/strict";
import { join } from "node:path";
import { RunFolderError, UsageError } from "../errors/mod.ts";
import { type EpisodeResult, resultLine } from "../run_folder/mod.ts";
import { regradeRun } from "./regrade.ts";

const head = (task_id: string, more: Partial<EpisodeResult> = {}): EpisodeResult => ({
  task_id,
  episode: task_id,
  macro: "paginate",
  site: "shop",
  arm: "replay",
  ok: true,
  status: "passed",
  detail: "passed",
  duration_s: 1,
  repeat: 0,
  ...more,
});

/** A run folder whose results.jsonl holds `lines` (each episode folder created empty). */
async function runFolder(lines: EpisodeResult[]): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "webmix-regrade-" });
  await Deno.writeTextFile(join(out, "results.jsonl"), lines.map(resultLine).join(""));
  for (const r of lines) await Deno.mkdir(join(out, r.episode), { recursive: true });
  return out;
}

Deno.test("regradeRun() names a folder without results.jsonl, and refuses a line naming a folder outside the run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-regrade-" });
  try {
    const out = join(dir, "run");
    await Deno.mkdir(out);
    await assert.rejects(
      regradeRun(out),
      (e: unknown) =>
        e instanceof UsageError && e.message === `"${out}" holds no results.jsonl (expected a run's output folder)`,
    );
    // A line whose episode would lead out of the run: nothing is read from there, and the file is named.
    await Deno.mkdir(join(dir, "elsewhere"));
    await Deno.writeTextFile(join(dir, "elsewhere", "grade_inputs.json"), "{}");
    const line = { ...head("t"), episode: "../elsewhere" };
    await Deno.writeTextFile(join(out, "results.jsonl"), JSON.stringify(line) + "\n");
    await assert.rejects(regradeRun(out), (e: unknown) => {
      assert.ok(e instanceof RunFolderError, String(e));
      assert.match(
        e.message,
        /results\.jsonl line 1: episode: cannot name an episode's folder: "\.\.\/elsewhere" holds "\/"/,
      );
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("regradeRun() makes a pass whose grade_inputs.json is missing or cut short a grade error, never a kept pass", async () => {
  const out = await runFolder([
    head("gone"),
    head("cut"),
    head("crashed", { ok: false, status: "error", error: "HarnessError: x" }),
  ]);
  try {
    await Deno.writeTextFile(join(out, "cut", "grade_inputs.json"), '{"kind": "datagen", "base": "http://127.0');
    const s = await regradeRun(out);
    const by = Object.fromEntries(s.results.map((r) => [r.task_id, r]));
    assert.deepEqual([by.gone.status, by.gone.ok, by.gone.grade_error], ["grade_error", false, true]);
    assert.match(String(by.gone.detail), /^grade error: .*gone\/grade_inputs\.json is missing/);
    assert.deepEqual([by.cut.status, by.cut.ok], ["grade_error", false]);
    assert.match(String(by.cut.detail), /cut\/grade_inputs\.json: not JSON \(cut short or damaged\)/);
    assert.equal(by.crashed.status, "error", "a harness error saved nothing to regrade: its line stands");
    assert.deepEqual([s.ok, s.gradeErrors, s.ungraded, s.changed], [0, 2, 1, 2]);
    const written = (await Deno.readTextFile(join(out, "results_regraded.jsonl"))).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(written.map((r) => r.status), ["grade_error", "grade_error", "error"]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("regradeRun() makes an episode whose saved task has a malformed check a grade error naming the file and the field", async () => {
  const out = await runFolder([head("shop_copy_cancelled_order_number")]);
  try {
    const fixture = new URL(
      "../../fixtures/run_folders/v1_demo/shop_copy_cancelled_order_number/grade_inputs.json",
      import.meta.url,
    );
    const saved = JSON.parse(await Deno.readTextFile(fixture));
    saved.task.check = { all: [{ clipboard: { exact: "SO-10243" } }, { no_such_condition: true }] };
    await Deno.writeTextFile(join(out, "shop_copy_cancelled_order_number", "grade_inputs.json"), JSON.stringify(saved));
    const s = await regradeRun(out);
    const [r] = s.results;
    assert.deepEqual([r.status, r.ok, r.grade_error], ["grade_error", false, true]);
    assert.match(
      String(r.detail),
      /^grade error: .*shop_copy_cancelled_order_number\/grade_inputs\.json: task\.check\.all\[1\]: /,
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
