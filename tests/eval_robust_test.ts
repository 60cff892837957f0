/**
 * A run survives what goes wrong on a cluster: a browser that crashes mid-episode, a page that never answers, an
 * interrupt followed by --resume; and the agent's browser reaches only the sandbox. Each case spawns eval.ts against
 * a site server of its own with test pages (tests/support/lab.ts). The cases are independent and mostly wait (on a
 * start page's 15 s navigation timeout, an episode's 6 s wait, the interrupted run's waits), so they run at once,
 * in one test that fails naming each case that failed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evalArgs, labTask, readResults, runCli, spawnCli, taskFile } from "./support/cli.ts";
import { allCases, reaped } from "./support/fault_sites.ts";
import { startLab } from "./support/lab.ts";
import { until } from "./browser_fixture.ts";

const wait = (id: string, seconds: number) => labTask(id, "/lab/", [{ wait: { seconds } }]);

/** A browser that crashes mid-episode is recorded on that episode and the run goes on. */
async function browserCrash(): Promise<void> {
  await using lab = await startLab();
  const { dir, tasks, out } = await taskFile([wait("first", 0), wait("crashes", 6), wait("after", 0)]);
  const run = spawnCli("eval.ts", evalArgs("replay", tasks, out, lab.base, "--workers", "1"));
  await using _run = reaped(run.child);
  await run.waitFor(/\[1\/3\]/);
  // The second episode is under way once its first step's screenshot is saved (its page open, its 6 s wait next).
  const first = join(out, "crashes", "step_1.png");
  assert.ok(await until(() => Deno.stat(first).then(() => true, () => false), 30_000), `${first} never came`);
  // Chromium is the eval process's child: kill it while the second episode runs (it waits 6 s).
  const kill = await new Deno.Command("pkill", { args: ["-KILL", "-P", String(run.child.pid)] }).output();
  assert.equal(kill.code, 0, "a Chromium child process was found and killed");
  const res = await run.done();
  assert.equal(res.code, 0, res.stderr);
  const byId = Object.fromEntries((await readResults(out)).map((r) => [r.task_id, r]));
  assert.deepEqual(Object.keys(byId).sort(), ["after", "crashes", "first"]);
  assert.equal(byId.first.ok, true);
  assert.equal(byId.crashes.ok, false);
  assert.ok(typeof byId.crashes.error === "string" && byId.crashes.error.length > 0, JSON.stringify(byId.crashes));
  assert.equal(byId.after.ok, true, `a fresh browser ran the next episode: ${JSON.stringify(byId.after)}`);
  await Deno.remove(dir, { recursive: true });
}

/** An arm stuck on a page that never answers is a timeout; a start page that never answers is a harness error. */
async function stuckPages(): Promise<void> {
  await using lab = await startLab();
  const { dir, tasks, out } = await taskFile([
    labTask("hangs", "/lab/", [{ navigate: { url: "/lab/hang" } }]),
    labTask("start_hangs", "/lab/hang", []),
    wait("next", 0),
  ]);
  const r = await runCli("eval.ts", evalArgs("replay", tasks, out, lab.base, "--workers", "2", "--timeout", "4"));
  assert.equal(r.code, 0, r.stderr);
  const byId = Object.fromEntries((await readResults(out)).map((r) => [r.task_id, r]));
  assert.equal(byId.hangs.ok, false);
  assert.equal(byId.hangs.error, "timeout", "--timeout is the arm's clock");
  assert.ok((byId.hangs.duration_s as number) < 12, `gave up in time: ${byId.hangs.duration_s}s`);
  // The start has its own bound (the navigation timeout): not the arm's failure, so --resume runs it again.
  assert.equal(byId.start_hangs.ok, false);
  assert.match(String(byId.start_hangs.error), /^BrowserTimeoutError: /, JSON.stringify(byId.start_hangs));
  assert.ok((byId.start_hangs.duration_s as number) < 30, `gave up in time: ${byId.start_hangs.duration_s}s`);
  assert.equal(byId.next.ok, true);
  await Deno.remove(dir, { recursive: true });
}

/** An interrupted run exits 130, and --resume finishes it with no line lost or duplicated. */
async function interruptAndResume(): Promise<void> {
  await using lab = await startLab();
  const ids = ["r1", "r2", "r3", "r4", "r5"];
  const { dir, tasks, out } = await taskFile(ids.map((id) => wait(id, 1)));
  const args = evalArgs("replay", tasks, out, lab.base, "--workers", "1");
  const run = spawnCli("eval.ts", args);
  await using _run = reaped(run.child);
  await run.waitFor(/\[2\/5\]/);
  run.child.kill("SIGINT");
  const first = await run.done();
  assert.equal(first.code, 130, first.stderr);
  const partial = await readResults(out);
  assert.ok(partial.length >= 2 && partial.length < 5, `recorded before the interrupt: ${partial.length}`);
  const resumed = await runCli("eval.ts", [...args, "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`resume: ${partial.length} episodes already in`));
  const all = await readResults(out);
  assert.deepEqual(all.map((r) => r.task_id).sort(), ids);
  assert.ok(all.every((r) => r.ok), JSON.stringify(all.filter((r) => !r.ok)));
  await Deno.remove(dir, { recursive: true });
}

/** The agent's browser reaches only the sandbox: off-origin requests are blocked and recorded. */
async function offOrigin(): Promise<void> {
  await using lab = await startLab();
  const note = labTask(
    "leaky_page",
    "/lab/leak",
    [{ input: { selector: "#note", text: "kept local" } }, { click: { selector: "#save" } }],
    { change: { site: "lab", table: "notes", op: "insert", after: { body: "kept local" } } },
  );
  const { dir, tasks, out } = await taskFile([note]);
  const r = await runCli("eval.ts", evalArgs("replay", tasks, out, lab.base));
  assert.equal(r.code, 0, r.stderr);
  const [result] = await readResults(out);
  assert.equal(result.ok, true, JSON.stringify(result));
  const inputs = JSON.parse(await Deno.readTextFile(join(out, "leaky_page", "grade_inputs.json")));
  const blocked: string[] = inputs.blocked;
  assert.ok(blocked.some((u) => u.startsWith("http://127.0.0.2:9/")), `image blocked: ${blocked}`);
  assert.ok(blocked.some((u) => u.startsWith("http://127.0.0.3:9/collect")), `fetch blocked: ${blocked}`);
  await Deno.remove(dir, { recursive: true });
}

Deno.test("a run survives a browser crash, pages that never answer and an interrupt, and reaches only the sandbox", () =>
  allCases({
    "a browser that crashes mid-episode is recorded on that episode and the run goes on": browserCrash,
    "an arm stuck on a page that never answers is a timeout; a start page that never answers is a harness error; the run goes on":
      stuckPages,
    "an interrupted run exits 130, and --resume finishes it with no line lost or duplicated": interruptAndResume,
    "the agent's browser reaches only the sandbox: off-origin requests are blocked and recorded": offOrigin,
  }));
