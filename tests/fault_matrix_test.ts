/**
 * The fault matrix of a run (issue 10), through the real CLI, real Chromium and the real sandbox: Chromium killed
 * mid-episode, eval.ts interrupted or killed, the site server restarted under a running episode, an out folder that
 * is read-only or fills up. Each case counts results.jsonl against the episodes the run should hold (lines,
 * duplicates, lost) and says how each episode is labelled: ok, a failed verdict with its detail, or a harness
 * `error`, which --resume runs again. The model server's faults are in fault_matrix_model_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evalArgs, labTask, readResults, runCli, spawnCli, taskFile } from "./support/cli.ts";
import { allCases, ledger, Marks, once, reaped, startFaultSites, whole } from "./support/fault_sites.ts";
import { fillDisk, makeReadOnly, smallDisk, smallDiskProblem } from "./support/fs_faults.ts";
import { chromiumUnder, describePids, killBrowsersUnder, stillRunning, waitGone } from "./support/process_tree.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const replay = (tasks: string, out: string, base: string, ...more: string[]) =>
  evalArgs("replay", tasks, out, base, "--no-step-screenshots", ...more);
/**
 * A task that reports reaching its start page, then waits `seconds`; with `together`, its start page is held until
 * its whole group asked for theirs (FaultSites.together), so that the group's waits run at once.
 */
const waits = (id: string, seconds: number, together?: string) =>
  labTask(id, `/mark/${id}${together ? `?together=${together}` : ""}`, [{ wait: { seconds } }]);
/** Every file under `dir`, as paths relative to it. */
function fileNames(dir: string, prefix = ""): string[] {
  return [...Deno.readDirSync(dir)].flatMap((e) =>
    e.isDirectory ? fileNames(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]
  );
}
const byId = (results: Record<string, unknown>[]) => Object.fromEntries(results.map((r) => [r.task_id, r]));

/** Chromium is killed (SIGKILL) `kills` times, each time while a `crash_K` episode waits. */
async function chromiumKills(kills: number): Promise<void> {
  await using sites = await startFaultSites();
  const ids = Array.from({ length: kills }, (_, k) => [`ok_${k}`, `crash_${k}`]).flat().concat("last");
  const { dir, tasks, out } = await taskFile(ids.map((id) => waits(id, id.startsWith("crash") ? 3 : 0)));
  const args = replay(tasks, out, sites.base, "--workers", "1");
  const run = spawnCli("eval.ts", args);
  await using _run = reaped(run.child);
  const killed: number[] = [];
  for (let k = 0; k < kills; k++) {
    await sites.reached(`crash_${k}`);
    await sleep(500); // inside its wait
    const pids = await killBrowsersUnder(run.child.pid);
    assert.equal(pids.length, 1, `one Chromium under eval.ts at kill ${k + 1}: ${pids}`);
    killed.push(...pids);
  }
  const res = await run.done();
  assert.equal(res.code, 0, res.stderr);
  const results = await readResults(out);
  assert.deepEqual(ledger(results, once(ids)), whole(once(ids)));
  const r = byId(results);
  for (const id of ids) {
    if (id.startsWith("crash")) {
      assert.equal(r[id].ok, false, id);
      assert.match(String(r[id].error), /^\w+Error: .*(browser|Chromium)/i, `${id} is a harness error: ${r[id].error}`);
    } else {
      assert.equal(r[id].ok, true, `${id} ran on a fresh Chromium: ${JSON.stringify(r[id])}`);
      assert.equal(r[id].error, undefined, id);
    }
  }
  assert.equal(new Set(killed).size, kills, "each kill hit another Chromium (relaunched after the last one died)");
  // The crashed episodes run again side by side (--workers is no setting --resume compares): their waits overlap.
  const resumed = await runCli("eval.ts", [...replay(tasks, out, sites.base, "--workers", String(kills)), "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`resume: ${ids.length - kills} episodes already in .*, ${kills} to run`));
  const retried = (await Deno.readTextFile(join(out, "retried.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(retried.map((x) => x.task_id).sort(), ids.filter((id) => id.startsWith("crash")).sort());
  const after = await readResults(out);
  assert.deepEqual(ledger(after, once(ids)), whole(once(ids)));
  assert.ok(after.every((x) => x.ok && !x.error), JSON.stringify(after.filter((x) => !x.ok)));
  await Deno.remove(dir, { recursive: true });
}

/** A Chromium shared by two workers killed: only its two episodes fail, the other browser's pass. */
async function sharedChromiumKilled(): Promise<void> {
  await using sites = await startFaultSites();
  // Four workers, two to a Chromium, all four inside their waits when one Chromium is killed; e and f come after.
  // Which two waiting episodes share the killed browser depends on which worker was ready first, so the test
  // counts: exactly two fail, as harness errors naming the browser, and the other two pass. Their start pages are
  // held until all four asked, so that the four waits run at once however late the second Chromium launched.
  const waiting = ["wait_a", "wait_b", "wait_c", "wait_d"];
  const ids = [...waiting, "after_e", "after_f"];
  sites.together("shared", waiting.length);
  const { dir, tasks, out } = await taskFile(
    ids.map((id) => waiting.includes(id) ? waits(id, 4, "shared") : waits(id, 0)),
  );
  const args = replay(tasks, out, sites.base, "--workers", "4", "--workers-per-browser", "2");
  const run = spawnCli("eval.ts", args);
  await using _run = reaped(run.child);
  await Promise.all(waiting.map((id) => sites.reached(id)));
  await sleep(500); // inside their waits
  const { roots } = await chromiumUnder(run.child.pid);
  assert.equal(roots.length, 2, `two Chromiums for four workers: ${roots}`);
  Deno.kill(roots[0], "SIGKILL");
  const res = await run.done();
  assert.equal(res.code, 0, res.stderr);
  const results = await readResults(out);
  assert.deepEqual(ledger(results, once(ids)), whole(once(ids)));
  const r = byId(results);
  const failed = waiting.filter((id) => !r[id].ok);
  assert.equal(failed.length, 2, `the killed browser's two episodes, and only they, failed: ${failed}`);
  for (const id of failed) {
    assert.match(String(r[id].error), /^\w+Error: .*(browser|Chromium)/i, `${id} is a harness error: ${r[id].error}`);
  }
  for (const id of [...waiting.filter((id) => !failed.includes(id)), "after_e", "after_f"]) {
    assert.equal(r[id].ok, true, `${id}: ${JSON.stringify(r[id])}`);
  }
  const resumed = await runCli("eval.ts", [...args, "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resume: 4 episodes already in .*, 2 to run/);
  const retried = (await Deno.readTextFile(join(out, "retried.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(retried.map((x) => x.task_id).sort(), failed.sort(), "--resume reran exactly the killed browser's");
  const after = await readResults(out);
  assert.ok(
    after.every((x) => x.ok),
    `after --resume every episode passed: ${JSON.stringify(after.filter((x) => !x.ok))}`,
  );
  await Deno.remove(dir, { recursive: true });
}

/** A Chromium frozen (SIGSTOP) past --timeout: its episodes are harness errors, it is relaunched, --resume reruns them. */
async function frozenChromium(): Promise<void> {
  await using sites = await startFaultSites();
  // Four workers on one Chromium, all four inside their waits when it is stopped (their start pages held until all
  // four asked, so that the waits run at once); e and f come after.
  const frozen = ["frozen_a", "frozen_b", "frozen_c", "frozen_d"];
  const ids = [...frozen, "after_e", "after_f"];
  sites.together("frozen", frozen.length);
  const { dir, tasks, out } = await taskFile(
    ids.map((id) => id.startsWith("frozen") ? waits(id, 3, "frozen") : waits(id, 0)),
  );
  const args = replay(tasks, out, sites.base, "--workers", "4", "--workers-per-browser", "4", "--timeout", "4");
  const run = spawnCli("eval.ts", [...args, "--browser-ping-timeout", "2"]);
  await using _run = reaped(run.child);
  await Promise.all(frozen.map((id) => sites.reached(id)));
  await sleep(500); // inside their waits
  const { roots } = await chromiumUnder(run.child.pid);
  assert.equal(roots.length, 1, `one Chromium for four workers: ${roots}`);
  const [stopped] = roots;
  Deno.kill(-stopped, "SIGSTOP"); // the whole browser, renderers too, as a suspended job is
  try {
    // The harness notices the unanswered ping (2 s) before the episodes' --timeout 4, and kills the browser.
    assert.deepEqual(await waitGone([stopped], 20_000), [], "the frozen Chromium was killed");
  } finally {
    try {
      Deno.kill(-stopped, "SIGCONT");
    } catch { /* killed meanwhile, as it should be */ }
  }
  const res = await run.done();
  assert.equal(res.code, 0, res.stderr);
  const results = await readResults(out);
  assert.deepEqual(ledger(results, once(ids)), whole(once(ids)));
  const r = byId(results);
  for (const id of frozen) {
    assert.equal(r[id].ok, false, id);
    assert.match(
      String(r[id].error),
      new RegExp(`^HarnessError: .*Chromium \\(pid ${stopped}\\) is unresponsive`),
      `${id} is a harness error naming the browser: ${r[id].error}`,
    );
  }
  for (const id of ["after_e", "after_f"]) {
    assert.equal(r[id].ok, true, `${id} ran on a relaunched Chromium: ${JSON.stringify(r[id])}`);
  }
  const resumed = await runCli("eval.ts", [...args, "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resume: 2 episodes already in .*, 4 to run/);
  const retried = (await Deno.readTextFile(join(out, "retried.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(retried.map((x) => x.task_id).sort(), frozen);
  const after = await readResults(out);
  assert.ok(
    after.every((x) => x.ok),
    `after --resume every episode passed: ${JSON.stringify(after.filter((x) => !x.ok))}`,
  );
  await Deno.remove(dir, { recursive: true });
}

/** eval.ts gets `signal` while its third of six episodes runs, then --resume finishes the run. */
async function interruptThenResume(signal: Deno.Signal): Promise<void> {
  await using sites = await startFaultSites();
  const ids = ["s_a", "s_b", "s_c"];
  // s_a's two episodes only come first: only the third episode's wait (s_b~0's) is what the signal lands in.
  const { dir, tasks, out } = await taskFile(ids.map((id) => waits(id, id === "s_a" ? 0 : 1)));
  const expected = ids.flatMap((id) => [`${id}~0`, `${id}~1`]);
  const args = replay(tasks, out, sites.base, "--workers", "1", "--repeats", "2");
  const run = spawnCli("eval.ts", args);
  await using _run = reaped(run.child);
  await sites.reached("s_b"); // the third episode (s_b~0, one worker) has opened its start page
  const browsers = (await chromiumUnder(run.child.pid)).all;
  assert.ok(browsers.length > 0, "Chromium runs under eval.ts");
  run.child.kill(signal);
  const first = await run.done();
  const status = await run.child.status;
  try {
    if (signal === "SIGKILL") {
      assert.equal(status.signal, "SIGKILL");
      const left = await waitGone(browsers, 15_000);
      assert.deepEqual(left, [], `Chromium outlived a SIGKILLed eval.ts:\n${await describePids(left)}`);
    } else {
      assert.equal(first.code, 130, `${signal}: ${first.stderr}`);
      const left = await waitGone(browsers, 15_000);
      assert.deepEqual(left, [], `${signal}: Chromium outlived eval.ts's exit:\n${await describePids(left)}`);
    }
  } finally {
    for (const p of await stillRunning(browsers)) Deno.kill(p, "SIGKILL");
  }
  const partial = await readResults(out);
  const cut = ledger(partial, expected);
  assert.ok(cut.lines >= 2 && cut.lines < 6, `${signal}: recorded before it: ${cut.lines}`);
  assert.deepEqual([cut.duplicates, cut.extra], [[], []], signal);
  // The episodes left run side by side (--workers is no setting --resume compares).
  const resumed = await runCli("eval.ts", [
    ...replay(tasks, out, sites.base, "--workers", "4", "--repeats", "2"),
    "--resume",
  ]);
  assert.equal(resumed.code, 0, `${signal}: ${resumed.stderr}`);
  const all = await readResults(out);
  assert.deepEqual(ledger(all, expected), whole(expected), signal);
  assert.ok(all.every((r) => r.ok), `${signal}: ${JSON.stringify(all.filter((r) => !r.ok))}`);
  await Deno.remove(dir, { recursive: true });
}

/** A site server restarted under running episodes: they are harness errors, never agent verdicts. */
async function siteServerRestarted(): Promise<void> {
  const marks = new Marks();
  let sites = await startFaultSites(0, marks);
  const port = sites.port;
  // r_write's mark page (its note saved) and r_read's start page are held until both asked, so that both episodes
  // are inside their waits when the server restarts, however far apart they got there.
  marks.together("restart", 2);
  const note = (id: string) =>
    labTask(
      id,
      "/lab/leak",
      [
        { input: { selector: "#note", text: `note ${id}` } },
        { click: { selector: "#save" } },
        { navigate: { url: `/mark/${id}?together=restart` } },
        { wait: { seconds: 4 } },
      ],
      { change: { site: "lab", table: "notes", op: "insert", after: { body: `note ${id}` } } },
    );
  const ids = ["r_write", "r_read", "r_after"];
  const { dir, tasks, out } = await taskFile([note("r_write"), waits("r_read", 4, "restart"), waits("r_after", 0)]);
  const args = replay(tasks, out, sites.base, "--workers", "2");
  try {
    const run = spawnCli("eval.ts", args);
    await using _run = reaped(run.child);
    await Promise.all([marks.reached("r_write"), marks.reached("r_read")]);
    await sites.close();
    sites = await startFaultSites(port, marks);
    const res = await run.done();
    assert.equal(res.code, 0, res.stderr);
    const results = await readResults(out);
    assert.deepEqual(ledger(results, once(ids)), whole(once(ids)));
    const r = byId(results);
    for (const id of ["r_write", "r_read"]) {
      assert.equal(r[id].ok, false, `${id} cannot pass on evidence of another server: ${JSON.stringify(r[id])}`);
      assert.match(String(r[id].error), /^SiteProtocolError: .*session/, `${id} is a harness error: ${r[id].error}`);
      assert.doesNotMatch(String(r[id].detail ?? ""), /no change matched/, id);
    }
    assert.equal(r.r_after.ok, true, `the next episode runs on the new server: ${JSON.stringify(r.r_after)}`);
    const resumed = await runCli("eval.ts", [...args, "--resume"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /resume: 1 episodes already in .*, 2 to run/);
    const after = await readResults(out);
    assert.deepEqual(ledger(after, once(ids)), whole(once(ids)));
    assert.ok(after.every((x) => x.ok), JSON.stringify(after.filter((x) => !x.ok)));
  } finally {
    await sites.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** A read-only out folder stops the run with a clear error before any episode, nothing written. */
async function readOnlyOut(): Promise<void> {
  await using sites = await startFaultSites();
  const { dir, tasks, out } = await taskFile([waits("ro_a", 0)]);
  await Deno.mkdir(out);
  const earlier = `${JSON.stringify({ task_id: "ro_a", episode: "ro_a", ok: false, error: "timeout", repeat: 0 })}\n`;
  for (const resume of [false, true]) {
    if (resume) await Deno.writeTextFile(join(out, "results.jsonl"), earlier);
    const before = [...Deno.readDirSync(out)].map((e) => e.name).sort();
    let how: string;
    let res;
    {
      await using ro = await makeReadOnly(out);
      how = ro.how;
      res = await runCli("eval.ts", replay(tasks, out, sites.base, ...(resume ? ["--resume"] : [])));
    }
    const label = `${how}${resume ? ", --resume" : ""}`;
    assert.ok(res.code === 1 || res.code === 2, `${label}: exit ${res.code}\n${res.stderr}`);
    assert.match(res.stderr, new RegExp(`eval\\.ts: .*${out.replaceAll("/", "\\/")}`), `${label}: names the folder`);
    assert.match(res.stderr, /[Rr]ead-only|[Pp]ermission denied|[Oo]peration not permitted/, label);
    assert.doesNotMatch(res.stderr, /\[\d+\/\d+\]|interrupted/, `${label}: no episode ran`);
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name).sort(), before, `${label}: nothing written`);
    if (resume) assert.equal(await Deno.readTextFile(join(out, "results.jsonl")), earlier, label);
  }
  await Deno.remove(dir, { recursive: true });
}

/** An out folder that fills up mid-run: recorded lines stay whole, exit 1 naming the folder, --resume finishes. */
async function outFillsUp(): Promise<void> {
  const disk = await smallDisk(2048);
  if (typeof disk === "string") throw new Error(disk);
  await using d = disk;
  await using sites = await startFaultSites();
  const ids = ["full_a", "full_b", "full_c"];
  const { dir, tasks } = await taskFile(ids.map((id) => waits(id, 1)));
  const out = join(d.dir, "out");
  const args = replay(tasks, out, sites.base, "--workers", "1");
  const run = spawnCli("eval.ts", args);
  await using _run = reaped(run.child);
  await sites.reached("full_b");
  const recorded = await Deno.readTextFile(join(out, "results.jsonl"));
  await fillDisk(join(d.dir, "filler"));
  const res = await run.done();
  // Every expectation is checked and the failed ones reported together: this case has several independent parts.
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => ok || problems.push(what);
  const text = await Deno.readTextFile(join(out, "results.jsonl"));
  expect(text.startsWith(recorded), `the recorded lines are intact: ${JSON.stringify(text.slice(0, 200))}`);
  expect(text.endsWith("\n"), `no partial last line: ${JSON.stringify(text.slice(-80))}`);
  expect(JSON.parse(text.split("\n")[0]).ok === true, "full_a's line says it passed");
  const temps = fileNames(out).filter((n) => /\.tmp-/.test(n));
  expect(temps.length === 0, `no temporary file left behind: ${temps.join(", ")}`);
  expect(res.code === 1, `exit 1, got ${res.code}`);
  const named = new RegExp(`eval\\.ts: .*${out.replaceAll("/", "\\/")}.*No space left on device`);
  expect(named.test(res.stderr), "stderr names the out folder and the full disk");
  await Deno.remove(join(d.dir, "filler"));
  // The episodes left run side by side (--workers is no setting --resume compares).
  const resumed = await runCli("eval.ts", [...replay(tasks, out, sites.base, "--workers", "2"), "--resume"]);
  expect(resumed.code === 0, `--resume once there is room: exit ${resumed.code}: ${resumed.stderr}`);
  const after = await readResults(out);
  const count = ledger(after, once(ids));
  expect(JSON.stringify(count) === JSON.stringify(whole(once(ids))), `after --resume: ${JSON.stringify(count)}`);
  expect(after.every((x) => x.ok), `after --resume: ${JSON.stringify(after.filter((x) => !x.ok))}`);
  await Deno.remove(dir, { recursive: true });
  assert.deepEqual(problems, [], `eval.ts's stderr:\n${res.stderr}`);
}

// The cases are independent (each has its own site server, task file and run) and mostly wait: on episodes' waits,
// on --timeout, on Chromium's relaunch. A test below runs several at once and fails naming each case that failed; a
// case's spawned eval.ts is killed when the case fails (reaped), so none outlives its test. The cases whose fault must
// land while several episodes wait hold those episodes' pages until all of them asked (together), so that their
// waits overlap however unevenly a loaded machine starts them.

Deno.test("Chromium killed once, twice, and shared by two workers; a read-only out folder (the cases at once)", () =>
  allCases({
    "Chromium killed once, and twice, mid-episode: harness errors, the run goes on, --resume reruns them": () =>
      allCases({ once: () => chromiumKills(1), twice: () => chromiumKills(2) }),
    "a Chromium shared by two workers killed: only its two episodes fail, the other browser's pass":
      sharedChromiumKilled,
    "a read-only out folder stops the run with a clear error before any episode, nothing written": readOnlyOut,
  }));

// Alone: its --resume reruns four 3 s waits in one Chromium within --timeout 4, which leaves little room for a
// machine that other cases load as well.
Deno.test(
  "a Chromium frozen (SIGSTOP) past --timeout: its episodes are harness errors, it is relaunched, --resume reruns exactly them",
  frozenChromium,
);

// A full disk is a small tmpfs, which takes root (the case is left out, with the reason printed, without it).
const noTmpfs = await smallDiskProblem();
const FULL =
  "an out folder that fills up mid-run: recorded lines stay whole, exit 1 naming the folder, --resume finishes";
if (noTmpfs) {
  console.error(`fault_matrix_test: the full out folder test is ignored: ${noTmpfs}`);
  Deno.test({ name: FULL, ignore: true, fn() {} });
}

Deno.test("eval.ts interrupted, the site server restarted, the out folder full (the cases at once)", () =>
  allCases({
    "SIGINT, SIGTERM, SIGKILL of eval.ts mid-run, then --resume: one line per (task, repeat)": () =>
      allCases({
        SIGINT: () => interruptThenResume("SIGINT"),
        SIGTERM: () => interruptThenResume("SIGTERM"),
        SIGKILL: () => interruptThenResume("SIGKILL"),
      }),
    "a site server restarted under running episodes: they are harness errors, never agent verdicts":
      siteServerRestarted,
    ...(noTmpfs === undefined ? { [FULL]: outFillsUp } : {}),
  }));
