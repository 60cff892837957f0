/**
 * The suite runs from any folder: deno.json's tasks and a `deno bundle` of eval.ts find the bundled tasks and
 * prompts from the suite's own location while relative paths stay the current folder's; a model server and a judge
 * on another host (127.0.0.2) work through `deno task eval:remote` / `judge:remote` while the agent's browser still
 * reaches only the sites; and `--dry-run` prints the whole configuration without touching the disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { exists } from "../lib/io/mod.ts";
import { agentReply, startFixtureModelServer } from "./fixture_model_server.ts";
import { PERMS, readResults, ROOT, runTask } from "./support/cli.ts";

const BUNDLED_TASKS = join(ROOT, "fixtures/tasks.jsonl");
const bundledCount = async () => (await Deno.readTextFile(BUNDLED_TASKS)).split("\n").filter((l) => l.trim()).length;

const PAGINATE = "shop_paginate_page3";
const PAGINATE_MARKER = "In the shop's product list, go to page 3.";

/** Every file and folder under `dir`: its size and modification time, and a file's bytes. */
async function snapshot(dir: string, into: Record<string, string> = {}): Promise<Record<string, string>> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    const info = await Deno.lstat(path);
    const bytes = e.isFile ? [...await Deno.readFile(path)].join(",") : "";
    into[path] = `${info.size} ${info.mtime?.getTime()} ${bytes}`;
    if (e.isDirectory) await snapshot(path, into);
  }
  into[dir] = `dir ${(await Deno.stat(dir)).mtime?.getTime()}`;
  return into;
}

Deno.test("deno task eval from another folder finds the bundled tasks; a relative --out is that folder's", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "webmix-anywhere-" });
  try {
    // Side by side: the dry run's folder is not the run's.
    const [dry, run] = await Promise.all([
      runTask("eval", ["--arm", "noop", "--out", "dry/d", "--dry-run"], { cwd }),
      runTask(
        "eval",
        ["--arm", "replay", "--limit", "2", "--workers", "1", "--no-step-screenshots", "--out", "runs/r1"],
        { cwd },
      ),
    ]);
    assert.equal(dry.code, 0, dry.stderr);
    const shown = JSON.parse(dry.stdout);
    assert.equal(shown.task_count, await bundledCount());
    assert.equal(shown.tasks.file, BUNDLED_TASKS);
    assert.equal(shown.model.systemPromptFile, join(ROOT, "prompts/system_prompt.md"));
    assert.equal(shown.out, "dry/d");
    assert.equal(await exists(join(cwd, "dry")), false, "a dry run creates no folder");

    assert.equal(run.code, 0, run.stderr);
    const results = await readResults(join(cwd, "runs/r1"));
    assert.deepEqual(results.map((r) => r.ok), [true, true], JSON.stringify(results));
    assert.equal(await exists(join(ROOT, "runs")), false, "nothing written under the suite");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("eval.ts --dry-run --overwrite leaves an earlier run byte for byte and prints every setting", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "webmix-dry-" });
  try {
    const out = join(cwd, "earlier");
    await Deno.mkdir(join(out, PAGINATE), { recursive: true });
    await Deno.writeTextFile(join(out, "results.jsonl"), JSON.stringify({ task_id: PAGINATE, ok: true }) + "\n");
    await Deno.writeTextFile(join(out, "run.json"), '{"format":1}\n');
    await Deno.writeTextFile(join(out, PAGINATE, "history.json"), "{}\n");
    const before = await snapshot(cwd);
    const args = ["--arm", "oracle", "--adapters", "drag,io", "--out", "earlier", "--overwrite", "--dry-run"];
    const env = { WEBMIX_VLLM_API_KEY: "sk-dry-secret-77" };
    const vllm = "http://user:pw-secret-42@127.0.0.1:8400/v1";
    const r = await runTask("eval", [...args, "--vllm", vllm, "--limit", "3"], { cwd, env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await snapshot(cwd), before, "no deletion, no lock, no run.json, no mkdir");
    assert.doesNotMatch(r.stdout, /sk-dry-secret-77|pw-secret-42/);

    const shown = JSON.parse(r.stdout);
    for (const key of ["chromePath", "recordFamily", "shard"]) assert.equal(shown[key], null, key);
    assert.equal(shown.tasks.taskIds, null);
    assert.equal(shown.planner, null, "agent_planner's settings block: null for another arm");
    assert.equal(shown.model.apiKey, "***");
    assert.equal(shown.overwrite, true);
    assert.equal(shown.task_count, 3);
    assert.equal(shown.chromium, Deno.env.get("CHROME_PATH") || "/usr/bin/chromium");
    assert.deepEqual(shown.models.by_family, {
      "Drag & gesture": "drag",
      "Out-of-page I/O": "io",
      "Discrete selection": "qwen35-4b",
      "Text entry": "qwen35-4b",
      "Form transaction": "qwen35-4b",
      "Navigation": "qwen35-4b",
      "Reasoning base": "qwen35-4b",
    });
    assert.ok(shown.models.needed.includes("qwen35-4b"), shown.models.needed);

    const planner = await runTask(
      "eval",
      ["--arm", "agent_planner", "--adapters", "select", "--fallback", "pooled", "--out", "fresh/run", "--dry-run"],
      { cwd },
    );
    assert.equal(planner.code, 0, planner.stderr);
    assert.equal(JSON.parse(planner.stdout).planner.fallback, "pooled");
    const p = JSON.parse(planner.stdout).models;
    assert.equal(p.planner, "qwen35-4b");
    assert.equal(p.by_family["Discrete selection"], "select");
    assert.equal(p.by_family["Drag & gesture"], "pooled");
    assert.equal(p.by_family["Reasoning base"], "qwen35-4b", "reasoning goes to the base, not the fallback");
    assert.equal(await exists(join(cwd, "fresh")), false);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("a model server and a judge on another host: refused by eval/judge, run by eval:remote/judge:remote", async () => {
  await using judge = startFixtureModelServer({
    hostname: "127.0.0.2",
    models: ["judge-m"],
    checks: { image: false },
    episodes: [{
      marker: PAGINATE_MARKER,
      steps: [{
        reply: { macros: [{ macro: "paginate", accomplished: true, reason: "page 3" }], success: true, reason: "ok" },
      }],
    }],
  });
  // A server on the other host that the harness may reach: the agent is told to open it.
  const probe = `http://127.0.0.2:${judge.port}/browser-probe`;
  await using server = startFixtureModelServer({
    hostname: "127.0.0.2",
    episodes: [{
      marker: PAGINATE_MARKER,
      steps: [
        { reply: agentReply({ navigate: { url: probe } }), expectModel: "qwen35-4b" },
        { reply: agentReply({ navigate: { url: "/shop/products?page=3" } }), expectModel: "qwen35-4b" },
        { reply: agentReply({ done: { text: "on page 3", success: true } }), expectModel: "qwen35-4b" },
      ],
    }],
  });
  const cwd = await Deno.makeTempDir({ prefix: "webmix-remote-" });
  try {
    const args = ["--arm", "base", "--vllm", server.url, "--task-ids", PAGINATE, "--workers", "1", "--out", "r"];
    const refused = await runTask("eval", args, { cwd });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(`--vllm names 127\\.0\\.0\\.2:${server.port}, .*\\n(.*\\n)*.*deno task eval:remote`),
    );
    assert.equal(await exists(join(cwd, "r")), false);
    assert.equal(server.requests.length, 0);

    const run = await runTask("eval:remote", [...args, "--no-step-screenshots"], { cwd });
    assert.equal(run.code, 0, run.stderr);
    const [result] = await readResults(join(cwd, "r"));
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(result.models, ["qwen35-4b", "qwen35-4b", "qwen35-4b"]);
    // The harness reached 127.0.0.2; the agent's browser did not, though the model told it to go there.
    const inputs = JSON.parse(await Deno.readTextFile(join(cwd, "r", PAGINATE, "grade_inputs.json")));
    assert.ok(inputs.blocked.includes(probe), `blocked: ${inputs.blocked}`);
    assert.deepEqual(judge.requests, [], "the browser never reached the other host");

    const env = { WEBMIX_JUDGE_BASE_URL: judge.url, WEBMIX_JUDGE_MODEL: "judge-m" };
    // Side by side: the refused one touches nothing.
    const [judgeRefused, judged] = await Promise.all([
      runTask("judge", ["--out", "r"], { cwd, env }),
      runTask("judge:remote", ["--out", "r"], { cwd, env }),
    ]);
    assert.equal(judgeRefused.code, 2, judgeRefused.stderr);
    assert.match(judgeRefused.stderr, /deno task judge:remote/);
    assert.equal(judged.code, 0, judged.stderr);
    const verdict = JSON.parse(await Deno.readTextFile(join(cwd, "r", PAGINATE, "judge.json")));
    assert.deepEqual([verdict.ok, verdict.model], [true, "judge-m"]);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("a deno bundle of eval.ts finds prompts/ and fixtures/ two folders above it, from any folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-bundle-" });
  try {
    // The layout of `deno task bundle` (<suite>/.out/bundle/eval.js), here with the suite's data linked in.
    for (const data of ["prompts", "fixtures"]) await Deno.symlink(join(ROOT, data), join(dir, data));
    const bundle = join(dir, "bin", "bundle", "eval.js");
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--platform", "deno", "--output", bundle, join(ROOT, "eval.ts")],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
    // A copy without prompts/ (beside this one, the same layout otherwise).
    const bareBundle = join(dir, "bare", "bin", "bundle", "eval.js");
    await Deno.mkdir(join(dir, "bare", "bin", "bundle"), { recursive: true });
    await Deno.symlink(join(ROOT, "fixtures"), join(dir, "bare", "fixtures"));
    await Deno.copyFile(bundle, bareBundle);
    const cwd = await Deno.makeTempDir({ prefix: "webmix-bundle-cwd-" });
    const run = (...args: string[]) =>
      new Deno.Command(Deno.execPath(), { args: ["run", ...PERMS, bundle, ...args], cwd, stdout: "piped" }).output();
    // Three runs side by side: two dry runs write nothing, and the replay writes only its --out.
    const [dry, replay, bare] = await Promise.all([
      run("--arm", "noop", "--out", "d", "--dry-run"),
      run("--arm", "replay", "--task-ids", PAGINATE, "--workers", "1", "--out", "r"),
      new Deno.Command(Deno.execPath(), {
        args: ["run", ...PERMS, bareBundle, "--arm", "noop", "--out", "d2", "--dry-run"],
        cwd,
        stderr: "piped",
      }).output(),
    ]);
    assert.equal(dry.code, 0);
    const shown = JSON.parse(new TextDecoder().decode(dry.stdout));
    assert.equal(shown.task_count, await bundledCount());
    assert.equal(shown.tasks.file, join(dir, "fixtures/tasks.jsonl"));
    assert.equal(replay.code, 0);
    assert.deepEqual((await readResults(join(cwd, "r"))).map((r) => r.ok), [true]);
    // The copy without prompts/: the message says what is missing, not a flag the user never gave.
    assert.equal(bare.code, 2);
    const said = new TextDecoder().decode(bare.stderr);
    assert.match(
      said,
      /system prompt .*prompts\/system_prompt\.md is missing: this copy of the suite has no prompts\//,
    );
    assert.doesNotMatch(said, /--system-prompt "|Run with --help/);
    await Deno.remove(cwd, { recursive: true });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
