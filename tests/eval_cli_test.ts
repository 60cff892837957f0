/** eval.ts's command line: usage errors, malformed task files, dry runs; each spawns the real script. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "./support/cli.ts";

Deno.test("eval.ts --help prints usage with examples to stdout and exits 0", async () => {
  const r = await runCli("eval.ts", ["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage: deno task eval --arm ARM --out DIR/);
  assert.match(r.stdout, /Examples:/);
  assert.match(
    r.stdout,
    /agent_planner +a planner model \(--planner-name\) delegates each step to its family's specialist/,
  );
  for (
    const flag of ["planner-name", "sub-cap", "planner-turns", "agent-version", "fallback", "reasoning-to-fallback"]
  ) {
    assert.match(r.stdout, new RegExp(`--${flag}\\b.*agent_planner: `), flag);
  }
  for (const flag of ["pixel-coords", "retry-timeouts", "verifier-only"]) {
    assert.match(r.stdout, new RegExp(`--${flag}`));
  }
  assert.match(r.stdout, /--workers N .*\(default 8\)/);
  // Defaults are the configuration's, the arms the registry's.
  assert.match(r.stdout, /--vllm URL .*\(default http:\/\/127\.0\.0\.1:8400\/v1;/);
  assert.match(r.stdout, /--sub-cap N .*\(default 15\)/);
  assert.match(r.stdout, /--arm ARM +one of: replay, noop, base, pooled, oracle, agent_planner \(required\)/);
  assert.equal(r.stderr, "");
});

Deno.test("eval.ts refuses an unknown flag, an unknown arm and a missing --out with exit 2 on stderr", async () => {
  for (
    const [args, message] of [
      [["--arm", "replay", "--out", "x", "--wrokers", "2"], /Unknown option '--wrokers'/],
      [["--arm", "magic", "--out", "x"], /--arm "magic" is not one of: replay, noop/],
      [["--arm", "replay"], /--out is required/],
      [["--arm", "replay", "--out", "x", "--workers", "0"], /--workers "0" is not a whole number from 1 to 256/],
    ] as const
  ) {
    const r = await runCli("eval.ts", [...args]);
    assert.equal(r.code, 2, `${args}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, "");
  }
});

Deno.test("eval.ts stops on a malformed task file with its path, line and field, exit 2, nothing written", async () => {
  const dir = await Deno.makeTempDir();
  const tasks = join(dir, "tasks.jsonl");
  const good = (await Deno.readTextFile("fixtures/tasks.jsonl")).split("\n")[0];
  const bad = JSON.parse(good);
  bad.task_id = "broken_task";
  delete bad.start.url;
  await Deno.writeTextFile(tasks, `${good}\n\n${JSON.stringify(bad)}\n`);
  const out = join(dir, "out");
  const r = await runCli("eval.ts", ["--arm", "replay", "--tasks", tasks, "--out", out]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`${tasks.replaceAll("/", "\\/")} line 3: task "broken_task": start\\.url`));
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval.ts will not append to an earlier run's results without --resume or --overwrite", async () => {
  const out = await Deno.makeTempDir();
  const line = { task_id: "t", episode: "t", macro: "m", site: "s", arm: "replay", ok: true, duration_s: 1, repeat: 0 };
  await Deno.writeTextFile(join(out, "results.jsonl"), JSON.stringify(line) + "\n");
  const r = await runCli("eval.ts", ["--arm", "replay", "--out", out, "--dry-run"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /already holds 1 episodes: pass --resume/);
  assert.equal((await Deno.readTextFile(join(out, "results.jsonl"))).trim(), JSON.stringify(line));
  await Deno.remove(out, { recursive: true });
});

Deno.test("eval.ts --dry-run prints the resolved options and the task count and runs nothing", async () => {
  const out = join(await Deno.makeTempDir(), "dry");
  const r = await runCli("eval.ts", ["--arm", "noop", "--out", out, "--limit", "3", "--dry-run"]);
  assert.equal(r.code, 0, r.stderr);
  const options = JSON.parse(r.stdout);
  assert.equal(options.task_count, 3);
  assert.equal(options.arm, "noop");
  assert.equal(options.workers, 8, "the seed's default");
  assert.equal(options.model.normalizedCoords, true, "the seed's coordinates");
  assert.equal(options.planner, null, "the planner's settings are agent_planner's only");
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
});

Deno.test("eval.ts --dry-run of agent_planner shows the planner's settings in their own block", async () => {
  const out = join(await Deno.makeTempDir(), "dry");
  const args = ["--arm", "agent_planner", "--out", out, "--sub-cap", "3", "--fallback", "pooled", "--dry-run"];
  const r = await runCli("eval.ts", args);
  assert.equal(r.code, 0, r.stderr);
  const options = JSON.parse(r.stdout);
  assert.deepEqual(options.planner, {
    plannerName: "qwen35-4b",
    subCap: 3,
    plannerTurns: 12,
    agentVersion: "v1",
    fallback: "pooled",
    reasoningToFallback: false,
  });
  assert.equal(options.model.subCap, undefined);
  assert.equal(options.models.planner, "qwen35-4b");
  assert.ok(options.models.needed.includes("pooled"), "the fallback is a name the server must serve");
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
});
