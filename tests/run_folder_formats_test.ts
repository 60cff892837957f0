/**
 * The run folder as one contract, through the offline tools a user runs (report, viewer, regrade, rows, merge, the
 * judge), each spawned with its deno.json permissions: folders written before the formats had one owner (format 1,
 * fixtures/run_folders) are read; a record claiming a newer format_version is refused by every tool with the same
 * message; damaged and assembled folders are named, never read past or followed out of.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { resultLine } from "../lib/run_folder/mod.ts";
import { type CliResult, ROOT, runCli } from "./support/cli.ts";

const FIXTURES = join(ROOT, "fixtures/run_folders");

/** The permissions of each offline tool's deno.json task. */
const TASKS: Record<string, string> = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks;
const permsOf = (task: string) => TASKS[task].split(/\s+/).filter((w) => w.startsWith("--allow-"));

/** An offline tool as its deno.json task runs it. */
const tool = (task: string, script: string) => (...args: string[]) => runCli(script, args, { perms: permsOf(task) });
const report = tool("report", "report.ts");
const viewer = tool("viewer", "viewer.ts");
const regrade = tool("regrade", "regrade.ts");
const rows = tool("rows", "record_rows.ts");
const merge = tool("merge", "merge.ts");

/** A copy of a fixture folder in a temporary one (the fixtures are never written to). */
async function copy(fixture: string, into: string): Promise<string> {
  const to = join(into, fixture.replaceAll("/", "_"));
  const out = await new Deno.Command("cp", { args: ["-R", join(FIXTURES, fixture), to] }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return to;
}

/** A temporary folder, removed with everything in it when the test's scope ends. */
async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "webmix-formats-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

const ok = (r: CliResult) => assert.equal(r.code, 0, `exit ${r.code}\n${r.stderr}`);

Deno.test("a run folder of format 1 (the demo's, written before the formats had one owner) is read by every tool", async () => {
  await using scratch = await tempDir();
  const tmp = scratch.path;
  const demo = await copy("v1_demo", tmp);
  ok(await report(demo));
  assert.match(
    await Deno.readTextFile(join(demo, "report.md")),
    /\| v1_demo \| 100\.0 % \| 94\.2 % – 100\.0 % \| 62\/62 \|/,
  );
  ok(await viewer(demo));
  const r = await regrade("--out", demo);
  ok(r);
  assert.match(r.stdout, /\{"ok":62,"fail":0\} \(0 changed\)/);
  const regraded = (await Deno.readTextFile(join(demo, "results_regraded.jsonl"))).trim().split("\n");
  assert.equal(regraded.length, 62);
  assert.ok(regraded.every((l) => JSON.parse(l).format_version === 2), "the regrade writes today's format");
  const exported = await rows(demo, "--out", join(tmp, "rows"));
  ok(exported);
  assert.match(exported.stdout, /^wrote 0 rows of 0 episodes/, "replay asks no model: no rows, and no error");
});

Deno.test("format-1 shards merge into the whole selection: its tasks as the unsplit run recorded them", async () => {
  await using scratch = await tempDir();
  const tmp = scratch.path;
  const out = join(tmp, "merged");
  const r = await merge(join(FIXTURES, "v1_shards/s0"), join(FIXTURES, "v1_shards/s1"), "--out", out);
  ok(r);
  const merged = JSON.parse(await Deno.readTextFile(join(out, "run.json")));
  const whole = JSON.parse(await Deno.readTextFile(join(FIXTURES, "v1_shards/whole_run.json")));
  assert.equal(merged.format_version, 2);
  assert.deepEqual([merged.tasks.count, merged.tasks.sha256, merged.tasks.ids], [
    whole.tasks.count,
    whole.tasks.sha256,
    whole.tasks.ids,
  ]);
  ok(await report(out));
});

/** The words every tool refuses a newer record with (lib/run_folder/format.ts). */
const NEWER =
  "line 1: format_version 99 is newer than this webmix-eval reads (results line version 2): read it with the " +
  "webmix-eval that wrote it, or a newer one";

Deno.test("a results line claiming a newer format_version is refused by report, regrade, rows and merge, in the same words", async () => {
  await using scratch = await tempDir();
  const tmp = scratch.path;
  const future = async (dir: string) => {
    const file = join(dir, "results.jsonl");
    const [first, ...rest] = (await Deno.readTextFile(file)).split("\n");
    await Deno.writeTextFile(
      file,
      [JSON.stringify({ ...JSON.parse(first), format_version: 99 }), ...rest].join("\n"),
    );
  };
  const demo = await copy("v1_demo", tmp);
  await future(demo);
  const s0 = await copy("v1_shards/s0", tmp);
  await future(s0);
  const refusals = [
    await report(demo),
    await regrade("--out", demo),
    await rows(demo, "--out", join(tmp, "rows")),
    await viewer(demo),
    await merge(s0, join(FIXTURES, "v1_shards/s1"), "--out", join(tmp, "merged")),
  ];
  for (const r of refusals) {
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stderr.includes(`results.jsonl ${NEWER}`), r.stderr);
  }
  await assert.rejects(Deno.stat(join(demo, "results_regraded.jsonl")), Deno.errors.NotFound, "nothing written");
  await assert.rejects(Deno.stat(join(tmp, "merged")), Deno.errors.NotFound);
});

Deno.test("report, viewer and rows say which results line a crash cut short; none drops it silently", async () => {
  await using scratch = await tempDir();
  const tmp = scratch.path;
  const demo = await copy("v1_demo", tmp);
  const file = join(demo, "results.jsonl");
  const text = await Deno.readTextFile(file);
  const last = text.trimEnd().split("\n").at(-1)!;
  // The last episode's line, written again by a run that died half-way through it.
  await Deno.writeTextFile(file, text + last.slice(0, 40));
  const cut =
    /results\.jsonl line 63 was cut short \(a crash mid-write, 40 bytes without their newline\): that episode is not counted, and --resume runs it again/;
  const rep = await report(demo);
  ok(rep);
  assert.match(rep.stderr, cut);
  assert.match(await Deno.readTextFile(join(demo, "report.md")), cut);
  const view = await viewer(demo);
  ok(view);
  assert.match(view.stderr, cut);
  assert.match(await Deno.readTextFile(join(demo, "viewer.html")), /line 63 was cut short/);
  const exported = await rows(demo, "--out", join(tmp, "rows"));
  ok(exported);
  assert.match(exported.stderr, cut);
});

Deno.test("merge refuses a shard whose results name a folder outside it, and writes nothing there", async () => {
  await using scratch = await tempDir();
  const tmp = scratch.path;
  const s0 = await copy("v1_shards/s0", tmp);
  const victim = join(tmp, "victim");
  await Deno.mkdir(victim);
  await Deno.writeTextFile(join(victim, "secret.txt"), "not the run's");
  const file = join(s0, "results.jsonl");
  const [first, ...rest] = (await Deno.readTextFile(file)).split("\n");
  await Deno.writeTextFile(
    file,
    [JSON.stringify({ ...JSON.parse(first), episode: "../victim" }), ...rest].join("\n"),
  );
  const out = join(tmp, "merged");
  const r = await merge(s0, join(FIXTURES, "v1_shards/s1"), "--out", out);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    /s0\/results\.jsonl line 1: episode: cannot name an episode's folder: "\.\.\/victim" holds "\/"/,
  );
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  assert.equal((await Deno.stat(join(victim, "secret.txt"))).nlink, 1, "never hard-linked into a merge");
});

Deno.test("merge refuses shards of different selections, a bad shard index, and a missing part", async () => {
  await using scratch = await tempDir();
  const tmp = scratch.path;
  const [s0, s1] = [await copy("v1_shards/s0", tmp), await copy("v1_shards/s1", tmp)];
  // A run.json as JSON, edited by hand as a user might.
  // deno-lint-ignore no-explicit-any
  const edit = async (dir: string, patch: (m: Record<string, any>) => void) => {
    const m = JSON.parse(await Deno.readTextFile(join(dir, "run.json")));
    patch(m);
    await Deno.writeTextFile(join(dir, "run.json"), JSON.stringify(m));
  };
  const sha = (c: string) => c.repeat(64);
  // Format 2: each part names its selection. s1 from a selection cut by --limit 4.
  await edit(s0, (m) => m.tasks.selection = { count: 5, sha256: sha("a") });
  await edit(s1, (m) => m.tasks.selection = { count: 4, sha256: sha("b") });
  const out = join(tmp, "merged");
  const other = await merge(s0, s1, "--out", out);
  assert.equal(other.code, 2, other.stderr);
  assert.match(
    other.stderr,
    /the shards are not parts of one run:\n {2}tasks: .*s0 is part of a selection of 5 tasks \(sha256 aaaaaaaaaaaa…\), .*s1 of 4 \(bbbbbbbbbbbb…\)/,
  );
  // The same selection, but s0 holds another part's share of it.
  await edit(s1, (m) => m.tasks.selection = { count: 5, sha256: sha("a") });
  await edit(s0, (m) => m.tasks.count = (m.tasks.ids = m.tasks.ids.slice(0, 2)).length);
  const share = await merge(s0, s1, "--out", out);
  assert.equal(share.code, 2, share.stderr);
  assert.match(share.stderr, /s0 holds 2 tasks, where part 0 of a selection of 5 has 3/);
  for (
    const [index, count, why] of [[-1, 2, /shard\.index: must be >= 0/], [
      0.5,
      2,
      /shard\.index: expected an integer/,
    ], [2, 2, /shard: index must be from 0 to count - 1/]] as const
  ) {
    await edit(s0, (m) => m.settings.shard = { index, count });
    const bad = await merge(s0, s1, "--out", out);
    assert.equal(bad.code, 1, bad.stderr);
    assert.match(bad.stderr, new RegExp(`s0/run\\.json: settings\\.${why.source}`));
  }
  await edit(s0, (m) => m.settings.shard = { index: 0, count: 2 });
  // --out naming a file: refused by flag, as eval.ts refuses it, not a raw file-system error.
  await Deno.writeTextFile(join(tmp, "a_file"), "");
  const file = await merge(s0, s1, "--out", join(tmp, "a_file"));
  assert.equal(file.code, 2, file.stderr);
  assert.match(file.stderr, /--out ".*a_file" is a file, not a folder/);
  const missing = await merge(s1, "--out", out);
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /no shard 0 of 2: a merge takes every part 0 to 1 of the run/);
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound, "nothing merged");
});

Deno.test("regrade turns a pass whose grade_inputs.json is missing or cut short into a grade error the report counts", async () => {
  await using scratch = await tempDir();
  const tmp = scratch.path;
  const demo = await copy("v1_demo", tmp);
  await Deno.remove(join(demo, "shop_paginate_page3", "grade_inputs.json"));
  const cut = join(demo, "mail_search_lisbon", "grade_inputs.json");
  await Deno.writeTextFile(cut, (await Deno.readTextFile(cut)).slice(0, 100));
  const r = await regrade("--out", demo);
  ok(r);
  assert.match(r.stdout, /\{"ok":60,"fail":2\} \(2 changed, 2 grade errors: grade inputs missing or unreadable\)/);
  ok(await report(demo));
  assert.match(
    await Deno.readTextFile(join(demo, "report.md")),
    /\| v1_demo \| 100\.0 % \| [^|]+ \| 60\/60 \| 0 \| 0 \| 2 \| 0 \|/,
  );
  const lines = (await Deno.readTextFile(join(demo, "results_regraded.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const gone = lines.find((l) => l.task_id === "shop_paginate_page3");
  assert.deepEqual([gone.status, gone.ok], ["grade_error", false]);
  assert.match(gone.detail, /shop_paginate_page3\/grade_inputs\.json is missing/);
});

// resultLine is the writer every tool shares: a line it writes is one the readers above take.
Deno.test("resultLine() writes format_version first and refuses a line no reader would take", () => {
  const line = resultLine({
    task_id: "t",
    episode: "t",
    macro: "paginate",
    site: "shop",
    arm: "replay",
    ok: true,
    duration_s: 1,
    repeat: 0,
  });
  assert.match(line, /^\{"format_version":2,"task_id":"t",/);
  assert.throws(
    () =>
      resultLine({
        task_id: "t",
        episode: "../t",
        macro: "m",
        site: "s",
        arm: "a",
        ok: true,
        duration_s: 1,
        repeat: 0,
      }),
    /cannot write the line of episode "\.\.\/t": episode: cannot name an episode's folder/,
  );
});
