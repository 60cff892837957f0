/**
 * What a run promises about its out folder and its evidence: one process per folder, --resume only continues the
 * same run, a reference that fails is a failed episode, and no secret is written anywhere. Each spawns eval.ts as a
 * user would, against a site server with test pages (tests/support/lab.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Hono } from "hono";
import { exists } from "../lib/io/mod.ts";
import { APPS, type SandboxEnv, startSites } from "../lib/sites/mod.ts";
import { startFixtureModelServer } from "./fixture_model_server.ts";
import { labTask, readResults, runCli, spawnCli, taskFile } from "./support/cli.ts";
import { labApp, startLab } from "./support/lab.ts";

const wait = (id: string, seconds: number) => labTask(id, "/lab/", [{ wait: { seconds } }]);

/**
 * Longest a request to /lab/gate is held (ms) while the gate is shut: under the 15 s a navigation may take, so that
 * every step of the holding task succeeds however slow the machine.
 */
const GATE_HOLD_MS = 8000;
/** Navigations to /lab/gate in the holding task: it holds its run up to GATE_STEPS × GATE_HOLD_MS unless opened. */
const GATE_STEPS = 6;

/**
 * The lab plus /lab/gate, a page that answers once the test opens the gate (or its client goes away): a run whose
 * task navigates there is held mid-episode, with its out folder locked, for as long as the test needs, and goes on
 * as soon as it is opened. `reached` resolves at the first request.
 */
async function startGatedLab() {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const opening = new AbortController();
  const routes = new Hono<SandboxEnv>({ strict: false });
  routes.get("/gate", async (c) => {
    reach();
    await new Promise<void>((resolve) => {
      const signals = [opening.signal, c.req.raw.signal];
      const done = () => {
        clearTimeout(timer);
        for (const s of signals) s.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, GATE_HOLD_MS);
      for (const s of signals) s.addEventListener("abort", done);
      if (signals.some((s) => s.aborted)) done();
    });
    return c.html("<!doctype html><title>Gate</title><h1>Gate</h1>");
  });
  routes.route("/", labApp.routes);
  const server = await startSites({ apps: [...APPS, { ...labApp, routes }], port: 0 });
  return {
    base: server.base,
    reached,
    open: () => opening.abort(),
    async [Symbol.asyncDispose]() {
      opening.abort();
      await server.close();
    },
  };
}

/** Every file under `dir`, recursively. */
async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* walk(path);
    else yield path;
  }
}

/**
 * A finished run of two lab tasks, m1 and m2, on a folder a killed run left locked, made once as the file loads: the
 * --resume tests below each work on a copy of its folder (`copyOfFinishedRun`).
 */
const FINISHED = await taskFile([wait("m1", 0), wait("m2", 0)]);
const finishedRun = (async () => {
  await using lab = await startLab();
  await Deno.mkdir(FINISHED.out, { recursive: true });
  // A pid that cannot be running: above the kernel's pid_max.
  const stale = { pid: 2 ** 30, host: Deno.hostname(), started: "2026-01-01T00:00:00Z" };
  await Deno.writeTextFile(join(FINISHED.out, "run.lock"), JSON.stringify(stale));
  return await runCli("eval.ts", [
    "--arm",
    "replay",
    "--tasks",
    FINISHED.tasks,
    "--out",
    FINISHED.out,
    "--bases",
    lab.base,
  ]);
})();
// Awaited by the tests; no unhandled rejection when a --filter leaves them out.
finishedRun.catch(() => {});

/** A folder of its own holding a copy of the finished run's folder (`out`), and the run's task file. */
async function copyOfFinishedRun(): Promise<{ dir: string; tasks: string; out: string }> {
  const r = await finishedRun;
  assert.equal(r.code, 0, r.stderr);
  const dir = await Deno.makeTempDir({ prefix: "webmix-run-" });
  const out = join(dir, "out");
  assert.ok((await new Deno.Command("cp", { args: ["-a", FINISHED.out, out] }).output()).success);
  return { dir, tasks: FINISHED.tasks, out };
}

Deno.test("a second run on a folder in use exits 2 naming the holder, and the folder keeps one line per episode", async () => {
  await using lab = await startGatedLab();
  const ids = ["l1", "l2", "l3"];
  // l1 waits at the gate until the second run has been refused: the first run holds the folder all along, however
  // long the second takes to start its Chromium (it does before it looks at the lock).
  const gated = labTask("l1", "/lab/", Array.from({ length: GATE_STEPS }, () => ({ navigate: { url: "/lab/gate" } })));
  const { dir, tasks, out } = await taskFile([gated, wait("l2", 0), wait("l3", 0)]);
  const args = [
    ...["--arm", "replay", "--tasks", tasks, "--out", out, "--workers", "1", "--bases", lab.base],
    "--no-step-screenshots",
  ];
  const first = spawnCli("eval.ts", args);
  try {
    const ended = first.child.status.then(() => "ended" as const);
    assert.equal(await Promise.race([lab.reached, ended]), undefined, "the first run reached its first episode");
    const second = await runCli("eval.ts", [...args, "--resume"]);
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, /is in use by another run \(pid \d+ on .+, since /);
  } finally {
    lab.open();
  }
  const firstDone = await first.done();
  assert.equal(firstDone.code, 0, firstDone.stderr);
  const results = await readResults(out);
  assert.deepEqual(results.map((r) => r.task_id).sort(), ids);
  // The lock goes with its run.
  assert.equal(await exists(join(out, "run.lock")), false);
  await Deno.remove(dir, { recursive: true });
});

// A lock left by a killed run, and a refused --resume leaving results.jsonl as it was, are shown on the finished run
// the other refusals here are made on.
Deno.test("a lock left by a killed run is taken over; --resume refuses a folder run with another arm or another task file, naming each difference, and leaves results.jsonl as it was", async () => {
  const first = await finishedRun;
  assert.equal(first.code, 0, first.stderr);
  assert.equal((await readResults(FINISHED.out)).length, 2, "the killed run's lock was taken over: the run ran");
  assert.equal(await exists(join(FINISHED.out, "run.lock")), false, "and released");
  await using lab = await startLab();
  const { dir, tasks, out } = await copyOfFinishedRun();
  const base = ["--tasks", tasks, "--out", out, "--bases", lab.base];
  const manifest = JSON.parse(await Deno.readTextFile(join(out, "run.json")));
  assert.equal(manifest.settings.arm, "replay");
  assert.deepEqual(manifest.tasks.ids, ["m1", "m2"]);

  // m2 as if the harness had failed it: a --resume of the same run would run it again. A refused --resume leaves
  // results.jsonl as it was: no harness-errored line is set aside yet.
  const results = join(out, "results.jsonl");
  const ran = await Deno.readTextFile(results);
  const lines = (await readResults(out)).map((r) => r.task_id === "m2" ? { ...r, error: "HarnessError: gone" } : r);
  const before = lines.map((r) => JSON.stringify(r) + "\n").join("");
  await Deno.writeTextFile(results, before);

  const otherArm = await runCli("eval.ts", ["--arm", "noop", ...base, "--resume"]);
  assert.equal(otherArm.code, 2, otherArm.stderr);
  assert.match(otherArm.stderr, /arm: "replay" → "noop"/);
  assert.equal(await Deno.readTextFile(results), before);
  await assert.rejects(Deno.stat(join(out, "retried.jsonl")), Deno.errors.NotFound);

  const other = join(dir, "other.jsonl");
  await Deno.writeTextFile(other, [wait("m1", 0), wait("m3", 0)].join("\n") + "\n");
  const otherTasks = await runCli("eval.ts", ["--arm", "replay", ...base, "--tasks", other, "--resume"]);
  assert.equal(otherTasks.code, 2, otherTasks.stderr);
  assert.match(otherTasks.stderr, /tasks: 2 → 2 tasks, 1 added, 1 gone/);
  // Refused before anything was written: the folder holds the first run only.
  assert.equal(await Deno.readTextFile(results), before);
  assert.deepEqual((await readResults(out)).map((r) => `${r.task_id} ${r.arm}`).sort(), ["m1 replay", "m2 replay"]);

  // The first run's lines as it wrote them again, for a --force-resume of it.
  await Deno.writeTextFile(results, ran);
  const forced = await runCli("eval.ts", ["--arm", "replay", ...base, "--tasks", other, "--resume", "--force-resume"]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.deepEqual((await readResults(out)).map((r) => r.task_id).sort(), ["m1", "m2", "m3"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("--resume refuses a run.json a crash cut short, naming it, and rewrites nothing; a cut results line is said", async () => {
  await using lab = await startLab();
  const { dir, tasks, out } = await copyOfFinishedRun();
  const base = ["--arm", "replay", "--tasks", tasks, "--out", out, "--bases", lab.base];
  const file = join(out, "run.json");
  const cut = (await Deno.readTextFile(file)).slice(0, 80);
  await Deno.writeTextFile(file, cut);
  const refused = await runCli("eval.ts", [...base, "--resume"]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /--resume: .*run\.json: not JSON \(cut short or damaged\).*cannot be checked; --force-resume/,
  );
  assert.equal(await Deno.readTextFile(file), cut, "left as it was, never taken for a folder without one");
  // A results line cut short by the same crash: --force-resume runs its episode again and says so.
  const results = join(out, "results.jsonl");
  const [first, second] = (await Deno.readTextFile(results)).trim().split("\n");
  await Deno.writeTextFile(results, `${first}\n${second.slice(0, 30)}`);
  const forced = await runCli("eval.ts", [...base, "--resume", "--force-resume"]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stderr, /resume: .*results\.jsonl line 2 was cut short \(a crash mid-write, 30 bytes/);
  assert.match(forced.stderr, /--force-resume: .*run\.json: not JSON .*: replaced with this run's run\.json/);
  assert.equal(JSON.parse(await Deno.readTextFile(file)).format_version, 2);
  assert.deepEqual((await readResults(out)).map((r) => r.task_id).sort(), ["m1", "m2"]);
  await Deno.remove(dir, { recursive: true });
  // The last test on the finished run.
  await Deno.remove(FINISHED.dir, { recursive: true });
});

// The erase task runs in the same run as the failing references: each asserts on its own episode.
Deno.test("a reference step that fails, or that leaves the sandbox, is a failed episode, never a pass; an agent cannot erase its evidence: the harness's reset is out of the page's reach", async () => {
  await using lab = await startLab();
  const { dir, tasks, out } = await taskFile([
    labTask("missing_target", "/lab/", [{ click: { selector: "#does-not-exist" } }]),
    labTask("off_sandbox", "/lab/", [{ navigate: { url: "http://127.0.0.2:9/elsewhere" } }]),
    labTask("fine", "/lab/", [{ wait: { seconds: 0 } }]),
    // Writes a note, then follows a link to the session reset: without the block, no_writes would pass.
    labTask("erase", "/lab/admin-link", [
      { input: { selector: "#note", text: "kept" } },
      { click: { selector: "#save" } },
      { click: { selector: "#reset" } },
    ]),
  ]);
  const r = await runCli("eval.ts", ["--arm", "replay", "--tasks", tasks, "--out", out, "--bases", lab.base]);
  assert.equal(r.code, 0, r.stderr);
  const byId = new Map((await readResults(out)).map((x) => [x.task_id, x]));
  for (const id of ["missing_target", "off_sandbox"]) {
    const x = byId.get(id)!;
    assert.equal(x.ok, false, JSON.stringify(x));
    assert.equal(x.error, undefined, "a failed reference is a verdict, not a harness error");
    assert.match(String(x.arm_failure), /^reference step 1 (click|navigate): /);
    assert.match(String(x.detail), /the grade said: passed/);
  }
  assert.equal(byId.get("fine")!.ok, true);
  // The agent's reset was blocked: its write stays in the evidence and fails no_writes.
  const erase = byId.get("erase")!;
  assert.equal(erase.ok, false, JSON.stringify(erase));
  assert.match(String(erase.detail), /lab\.notes insert/);
  const inputs = JSON.parse(await Deno.readTextFile(join(out, "erase", "grade_inputs.json")));
  // Only the page's own attempt: Chromium's background requests (autofill queries) are not the page's.
  assert.deepEqual(inputs.blocked, [`${lab.base}/_admin/session-flags`]);
  assert.equal(inputs.changes.length, 1, JSON.stringify(inputs.changes));
  // A regrade keeps them failed: the grade inputs alone would pass the failed references.
  // The seed's regrade line carries --arm and --out: taken when they agree with the run, refused when not.
  const [wrongArm, elsewhere] = await Promise.all([
    runCli("eval.ts", ["--regrade", out, "--arm", "noop", "--out", out]),
    runCli("eval.ts", ["--regrade", out, "--arm", "replay", "--out", join(dir, "other")]),
  ]);
  assert.equal(wrongArm.code, 2);
  assert.match(wrongArm.stderr, /--arm noop: the run in ".*" ran replay/);
  assert.equal(elsewhere.code, 2);
  assert.match(elsewhere.stderr, /--out ".*other" is not the run --regrade names/);
  const regrade = await runCli("eval.ts", ["--regrade", out, "--arm", "replay", "--out", out]);
  assert.equal(regrade.code, 0, regrade.stderr);
  const regraded = (await Deno.readTextFile(join(out, "results_regraded.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(regraded.map((x) => `${x.task_id} ${x.ok}`).sort(), [
    "erase false",
    "fine true",
    "missing_target false",
    "off_sandbox false",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("credentials in --vllm and the API key are written nowhere: results, artifacts, messages", async () => {
  const password = "Hunter2-PaSs";
  const key = "sk-test-KEY-98765";
  const marker = "In the shop's product list, go to page 3.";
  // Every attempt fails: the episode's error carries the server's URL.
  await using server = startFixtureModelServer({
    episodes: [{ marker, steps: [{ reply: "{}", faults: Array.from({ length: 20 }, () => ({ status: 500 })) }] }],
  });
  const withCreds = (url: string) => url.replace("http://", `http://alex:${password}@`);
  const out = await Deno.makeTempDir({ prefix: "webmix-folder-" });
  const env = { env: { WEBMIX_VLLM_API_KEY: key } };
  const common = ["--arm", "base", "--task-ids", "shop_paginate_page3", "--model-timeout", "2", "--workers", "1"];
  // Three runs of their own, side by side (each its own out folder).
  const runs = await Promise.all([
    // A server that answers: the episode runs and fails on the model's 500s (its only episode a harness error: exit 1).
    runCli("eval.ts", [...common, "--out", join(out, "a"), "--vllm", withCreds(server.url)], env),
    // Port 9 (discard): nothing answers, so the model server check fails and its message carries the URL.
    runCli("eval.ts", [...common, "--out", join(out, "b"), "--vllm", withCreds("http://127.0.0.1:9/v1")], env),
    runCli("eval.ts", [...common, "--out", join(out, "c"), "--vllm", withCreds(server.url), "--dry-run"], env),
  ]);
  assert.equal(runs[0].code, 1, runs[0].stderr);
  const [episode] = await readResults(join(out, "a"));
  assert.match(String(episode.error), /\*\*\*@127\.0\.0\.1/, JSON.stringify(episode));
  assert.equal(runs[1].code, 1, runs[1].stderr);
  assert.match(runs[1].stderr, /127\.0\.0\.1:9/);
  assert.equal(runs[2].code, 0, runs[2].stderr);
  const texts = runs.flatMap((r) => [r.stdout, r.stderr]);
  for await (const f of walk(out)) if (!f.endsWith(".png")) texts.push(await Deno.readTextFile(f));
  assert.ok(texts.length >= 8, `files read: ${texts.length}`);
  for (const t of texts) {
    for (const secret of [password, key]) assert.ok(!t.includes(secret), `${secret} written: ${t}`);
  }
  await Deno.remove(out, { recursive: true });
});
