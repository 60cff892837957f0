/**
 * What a run checks and says about itself, end to end: Chromium is checked before anything is written, a run in
 * which the harness failed every episode exits 1 with its lines written, and run.json records the served models
 * and the versions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, runCli } from "./support/cli.ts";

const PAGINATE = "shop_paginate_page3";
const BOARD = "tracker_board_mob15_to_in_progress_via_menu";

/** Every file under `dir`, with its content. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) files[e.name] = await Deno.readTextFile(join(dir, e.name));
  return files;
}

Deno.test("a Chromium that cannot start stops the run before anything is written or deleted: exit 1 naming the path and CHROME_PATH", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-checks-" });
  const env = { CHROME_PATH: join(dir, "no-chromium") };
  const fresh = join(dir, "fresh");
  const run = await runCli("eval.ts", ["--arm", "replay", "--task-ids", PAGINATE, "--out", fresh], { env });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /^eval\.ts: no episode can run: Chromium is missing: nothing at ".*\/no-chromium"/m);
  assert.match(run.stderr, /set CHROME_PATH to a Chromium/);
  assert.equal(run.stdout, "");
  await assert.rejects(Deno.stat(fresh), Deno.errors.NotFound, "--out is not even created");

  const earlier = join(dir, "earlier");
  await Deno.mkdir(earlier);
  await Deno.writeTextFile(join(earlier, "results.jsonl"), '{"task_id": "kept"}\n');
  const again = await runCli("eval.ts", ["--arm", "replay", "--task-ids", PAGINATE, "--out", earlier, "--overwrite"], {
    env,
  });
  assert.equal(again.code, 1, again.stderr);
  assert.deepEqual(
    await snapshot(earlier),
    { "results.jsonl": '{"task_id": "kept"}\n' },
    "--overwrite deleted nothing",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a run whose every episode hit a harness error exits 1 with its lines written; run.json has the served models and versions", async () => {
  // A model server that serves the name but answers no chat request (400: no episode of its script matches).
  await using server = startFixtureModelServer({ models: ["qwen35-4b", "extra"] });
  const out = join(await Deno.makeTempDir({ prefix: "webmix-checks-" }), "out");
  const args = ["--arm", "base", "--task-ids", `${PAGINATE},${BOARD}`, "--vllm", server.url, "--out", out];
  const run = await runCli("eval.ts", [...args, "--workers", "1", "--no-step-screenshots"]);
  assert.equal(run.code, 1, run.stderr);
  const results = await readResults(out);
  assert.deepEqual(results.map((r) => r.status), ["error", "error"], JSON.stringify(results));
  assert.match(String(results[0].error), /^ModelReplyError: /);
  assert.match(
    run.stderr,
    /every episode \(2\) hit a harness error, e\.g\. ModelReplyError: .*--resume runs them again/,
  );
  assert.equal(run.stdout, "base: 2 episodes: 0 passed, 0 failed (none graded); 2 errors, 0 grade errors, 0 pending\n");
  const manifest = JSON.parse(await Deno.readTextFile(join(out, "run.json")));
  assert.deepEqual(manifest.served_models, ["qwen35-4b", "extra"], "the names /v1/models listed");
  assert.match(manifest.versions.chromium, /Chrome\/\d+\./);
  assert.equal(manifest.versions.deno, Deno.version.deno);
  assert.equal(manifest.settings.family_models.Navigation, "qwen35-4b");
  await Deno.remove(join(out, ".."), { recursive: true });
});
