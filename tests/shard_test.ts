/**
 * eval.ts --shard and merge.ts end to end, as a Slurm array uses them: a selection of bundled tasks run whole and as
 * 3 shards (4 tasks: shard 0 runs tasks 0 and 3, the others one each), the shards merged; the merged folder holds the same episodes, grades and tasks as the whole run, regrades
 * and resumes as one run, and the shard folders are left as they were. merge.ts refuses shards that are not parts of
 * one run. merge.ts runs with the permissions of its deno.json task.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { exists } from "../lib/io/mod.ts";
import { readResults, ROOT, runCli } from "./support/cli.ts";

const IDS = [
  "shop_paginate_page3",
  "shop_switch_tab_monitor_specs",
  "mail_paginate_inbox_page3",
  "mail_copy_grace_address",
];
const RUN = [
  "--arm",
  "replay",
  "--task-ids",
  IDS.join(","),
  "--repeats",
  "2",
  "--workers",
  "2",
  "--no-step-screenshots",
];

/** The permissions of deno.json's merge task. */
const MERGE_PERMS: string[] = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks.merge
  .split(/\s+/).filter((w: string) => w.startsWith("--allow-"));

/** merge.ts with `args`, as `deno task merge` runs it. */
const merge = (...args: string[]) => runCli("merge.ts", args, { perms: MERGE_PERMS });

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

/** Every file and folder under `dir` with its size and modification time: what a write would change. */
async function snapshot(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, rel))) {
    const path = join(rel, e.name);
    const info = await Deno.lstat(join(dir, path));
    out.push(`${path} ${info.size} ${info.mtime?.getTime()}`);
    if (e.isDirectory) out.push(...await snapshot(dir, path));
  }
  return out.sort();
}

/** `task_id repeat status ok` of each line, sorted. */
const outcomes = (results: Record<string, unknown>[]) =>
  results.map((r) => `${r.task_id} ${r.repeat} ${r.status} ${r.ok}`).sort();

const root = await Deno.makeTempDir({ prefix: "webmix-shard-" });
const dirs = {
  whole: join(root, "whole"),
  shards: [0, 1, 2].map((k) => join(root, `s${k}`)),
  merged: join(root, "all"),
};

/** The whole run and its 3 shards (shards run side by side, as array tasks do), made once for every test here. */
const runs = (async () => {
  const whole = runCli("eval.ts", [...RUN, "--out", dirs.whole]);
  const shards = dirs.shards.map((out, k) => runCli("eval.ts", [...RUN, "--shard", `${k}/3`, "--out", out]));
  for (const r of await Promise.all([whole, ...shards])) assert.equal(r.code, 0, r.stderr);
})();

Deno.test("eval.ts --shard K/N runs tasks K, K+N, … with their repeats, and records the shard in run.json", async () => {
  await runs;
  for (const [k, out] of dirs.shards.entries()) {
    const manifest = await readJson(join(out, "run.json"));
    assert.deepEqual(manifest.settings.shard, { index: k, count: 3 });
    const ids = IDS.filter((_, i) => i % 3 === k);
    assert.deepEqual(manifest.tasks.ids, ids);
    const keys = (await readResults(out)).map((r) => `${r.task_id}~r${r.repeat}`).sort();
    assert.deepEqual(keys, ids.flatMap((id) => [`${id}~r0`, `${id}~r1`]).sort());
  }
  assert.equal((await readJson(join(dirs.whole, "run.json"))).settings.shard, null);
});

Deno.test("merge.ts joins 3 shards into the whole run's results, episodes and tasks; regrade and resume take it", async () => {
  await runs;
  const before = await Promise.all(dirs.shards.map((d) => snapshot(d)));
  const r = await merge(...dirs.shards, "--out", dirs.merged);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^merged 3 of 3 shards into .*: 8 results, 8 episode folders/);
  const whole = await readResults(dirs.whole), merged = await readResults(dirs.merged);
  assert.deepEqual(outcomes(merged), outcomes(whole));
  for (const m of merged) {
    const info = await Deno.stat(join(dirs.merged, String(m.episode), "grade_inputs.json"));
    assert.ok(info.size > 0, `${m.episode}/grade_inputs.json`);
  }
  const [manifest, wholeManifest] = await Promise.all([dirs.merged, dirs.whole].map((d) => readJson(`${d}/run.json`)));
  assert.deepEqual(manifest.tasks, wholeManifest.tasks, "the union of the shards' tasks is the whole selection");
  const { shard, ...common } = wholeManifest.settings;
  assert.equal(shard, null);
  assert.deepEqual(manifest.settings, common);
  assert.deepEqual(
    manifest.shards.map((s: Record<string, unknown>) => [s.dir, s.index, s.count, s.episodes]),
    [[dirs.shards[0], 0, 3, 4], [dirs.shards[1], 1, 3, 2], [dirs.shards[2], 2, 3, 2]],
  );

  const regrade = await runCli("regrade.ts", ["--out", dirs.merged]);
  assert.equal(regrade.code, 0, regrade.stderr);
  assert.match(regrade.stdout, /\{"ok":8,"fail":0\} \(0 changed\)/);
  const regraded = (await Deno.readTextFile(join(dirs.merged, "results_regraded.jsonl"))).trim().split("\n");
  assert.deepEqual(outcomes(regraded.map((l) => JSON.parse(l))), outcomes(whole));

  // The report compares the merged run with the unsplit one: the same results set, and it says it was merged.
  const report = await runCli("report.ts", [dirs.merged, dirs.whole], { perms: ["--allow-read", "--allow-write"] });
  assert.equal(report.code, 0, report.stderr);
  const md = await Deno.readTextFile(join(dirs.merged, "report.md"));
  assert.match(md, /merged from 3 shards/);
  assert.match(md, /Identical results set: yes \(8 \(task_id, repeat\) keys/);

  // The merged folder is one run: --resume without --shard finds every episode done.
  const resumed = await runCli("eval.ts", [...RUN, "--out", dirs.merged, "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stdout, /\(8 already done\)/);
  assert.deepEqual(await Promise.all(dirs.shards.map((d) => snapshot(d))), before, "the shards are left as they were");
});

Deno.test("eval.ts --resume refuses a shard's folder with another --shard; a bad --shard is exit 2", async () => {
  // A bad --shard needs no run: it is refused beside the other.
  const badShard = runCli("eval.ts", ["--arm", "replay", "--shard", "3/3", "--out", join(root, "bad")]);
  await runs;
  const r = await runCli("eval.ts", [...RUN, "--shard", "1/3", "--out", dirs.shards[0], "--resume"]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /shard: \{"index":0,"count":3\} → \{"index":1,"count":3\}/);
  // lib/run/config_test.ts has the other refusals (a/b, 1/0); here, the exit code and the message of eval.ts.
  const bad = await badShard;
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /^eval\.ts: --shard "3\/3": K must be from 0 to 2/);
  assert.equal(await exists(join(root, "bad")), false, "nothing written");
});

Deno.test("merge.ts refuses other settings, another selection, one K twice or missing, a shard in use, a run in --out", async () => {
  await runs;
  const [s0, s1, s2] = dirs.shards;
  const cp = async (from: string, to: string) =>
    assert.ok((await new Deno.Command("cp", { args: ["-a", from, to] }).output()).success);
  // Shard 2 of the same tasks cut by --limit 3: the same settings, another selection. Its run goes on while the
  // refusals that need no run are made.
  const limited = join(root, "s2-limit");
  const cutRun = runCli("eval.ts", [...RUN, "--limit", "3", "--shard", "2/3", "--out", limited]);

  // Each refusal below on folders of its own, side by side.
  const otherSettings = (async () => {
    // Shard 2 as a run with --max-steps 7 would have left it (its run.json the only difference that matters here).
    const other = join(root, "s2-max-steps");
    await cp(s2, other);
    const manifest = await readJson(join(other, "run.json"));
    await Deno.writeTextFile(
      join(other, "run.json"),
      JSON.stringify({ ...manifest, settings: { ...manifest.settings, max_steps: 7 } }),
    );
    const settings = await merge(s0, s1, other, "--out", join(root, "m1"));
    assert.equal(settings.code, 2, settings.stderr);
    assert.match(settings.stderr, /not parts of one run:\n {2}max_steps: 40 in .*s0, 7 in .*s2-max-steps\n/);
  })();

  const sameKTwice = (async () => {
    const copy = join(root, "s0-copy");
    await cp(s0, copy);
    const twice = await merge(s0, s1, s2, copy, "--out", join(root, "m2"));
    assert.equal(twice.code, 2, twice.stderr);
    assert.match(twice.stderr, /s0 and .*s0-copy are both shard 0\/3/);
  })();

  const inUse = (async () => {
    const held = join(root, "s0-held");
    await cp(s0, held);
    const lock = { pid: Deno.pid, host: Deno.hostname(), started: new Date().toISOString() };
    await Deno.writeTextFile(join(held, "run.lock"), JSON.stringify(lock));
    const refused = await merge(held, s1, s2, "--out", join(root, "m3"));
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, new RegExp(`s0-held is still in use by a run \\(pid ${Deno.pid} on `));
  })();

  const partialThenWhole = (async () => {
    const partial = join(root, "m4");
    const missing = await merge(s0, s1, "--out", partial);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /no shard 2 of 3: a merge takes every part 0 to 2 of the run/);
    assert.equal(await exists(partial), false, "nothing merged");
    assert.equal((await merge(s0, s1, s2, "--out", partial)).code, 0);
    const again = await merge(s0, s1, s2, "--out", partial);
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, /already holds a run: --overwrite replaces it/);
    const replaced = await merge(s0, s1, s2, "--out", partial, "--overwrite");
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal((await readResults(partial)).length, 8);
  })();

  const otherSelection = (async () => {
    const cut = await cutRun;
    assert.equal(cut.code, 0, cut.stderr);
    const otherTasks = await merge(s0, s1, limited, "--out", join(root, "m0"));
    assert.equal(otherTasks.code, 2, otherTasks.stderr);
    assert.match(
      otherTasks.stderr,
      /tasks: .*s0 is part of a selection of 4 tasks \(sha256 [0-9a-f]{12}…\), .*s2-limit of 3/,
    );
  })();

  const outcomes = await Promise.allSettled([otherSettings, sameKTwice, inUse, partialThenWhole, otherSelection]);
  for (const o of outcomes) if (o.status === "rejected") throw o.reason;
  await Deno.remove(root, { recursive: true });
});

Deno.test("a merged run resumes like any other, even when a shard's episode failed before it saved its grade inputs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-shard-start-" });
  try {
    // Two tasks, one to a shard; the second's start cannot be set up (its setup clicks what the page does not
    // have): a harness error before grading, so its episode saves no grade_inputs.json.
    const lines = (await Deno.readTextFile(join(ROOT, "fixtures/tasks.jsonl"))).split("\n").slice(0, 2).map((l) =>
      JSON.parse(l)
    );
    lines[1].start.setup = [{ click: { selector: "#no-such-control" } }];
    const tasks = join(dir, "tasks.jsonl");
    await Deno.writeTextFile(tasks, lines.map((t) => JSON.stringify(t)).join("\n") + "\n");
    const run = ["--arm", "replay", "--tasks", tasks, "--workers", "1", "--no-step-screenshots"];
    // Side by side, as array tasks run.
    const shards = await Promise.all(
      [0, 1].map((k) => runCli("eval.ts", [...run, "--shard", `${k}/2`, "--out", join(dir, `s${k}`)])),
    );
    // Shard 1's only episode is a harness error: that run exits 1.
    assert.deepEqual(shards.map((r) => r.code), [0, 1], shards.map((r) => r.stderr).join("\n"));
    const failed = (await readResults(join(dir, "s1")))[0];
    assert.match(String(failed.error), /setup action 1 failed/);
    assert.equal(await exists(join(dir, "s1", String(failed.episode), "grade_inputs.json")), false);
    const merged = join(dir, "all");
    const m = await merge(join(dir, "s0"), join(dir, "s1"), "--out", merged);
    assert.equal(m.code, 0, m.stderr);
    assert.match((await readJson(join(merged, "run.json"))).tasks.sha256, /^[0-9a-f]{64}$/);
    // Not refused (exit 2) for its tasks: the harness error runs again, and fails again (so the run exits 1).
    const resumed = await runCli("eval.ts", [...run, "--out", merged, "--resume"]);
    assert.equal(resumed.code, 1, resumed.stderr);
    assert.doesNotMatch(resumed.stderr, /other settings/);
    assert.match(
      resumed.stdout,
      /replay: 1 episodes: 0 passed, 0 failed \(none graded\); 1 error, .*\(1 already done\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
