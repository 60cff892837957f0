/**
 * report.ts end to end, as a user runs it: over real runs of eval.ts (replay passes every task, noop fails every
 * one, a copy of the replay run stands in for its sharded-and-merged twin), over a hand-written run folder with
 * repeats, a regrade and model steps, and over folders that are not runs. Expected numbers are worked out by hand
 * in the comments (z = 1.959964, z² = 3.841459).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { manifestJson, parseReportJson } from "../lib/run_folder/mod.ts";
import { manifestFixture } from "../lib/run_folder/_testdata.ts";
import { readResults, runCli } from "./support/cli.ts";
import { section } from "./support/markdown.ts";

const TASKS = ["shop_paginate_page3", "mail_search_lisbon", "bookings_filter_video_rooms"];

async function evalRun(arm: string, out: string): Promise<void> {
  const args = ["--arm", arm, "--out", out, "--task-ids", TASKS.join(","), "--workers", "1", "--no-step-screenshots"];
  const r = await runCli("eval.ts", args);
  assert.equal(r.code, 0, r.stderr);
}

Deno.test("report.ts compares a replay run, a noop run and a merged copy of the replay run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-report-" });
  const [replay, noop, merged] = ["replay", "noop", "merged"].map((n) => join(dir, n));
  await evalRun("replay", replay);
  await evalRun("noop", noop);
  // The same episodes in another order, with the shards a merge lists: what a sharded-and-merged run looks like.
  await Deno.mkdir(merged);
  const lines = (await Deno.readTextFile(join(replay, "results.jsonl"))).trim().split("\n").reverse();
  await Deno.writeTextFile(join(merged, "results.jsonl"), lines.join("\n") + "\n");
  const manifest = JSON.parse(await Deno.readTextFile(join(replay, "run.json")));
  await Deno.writeTextFile(
    join(merged, "run.json"),
    JSON.stringify({
      ...manifest,
      shards: [{ dir: "s0", index: 0, count: 2, episodes: 2 }, { dir: "s1", index: 1, count: 2, episodes: 1 }],
    }),
  );

  // A hand-written task is a cluster of its own.
  assert.deepEqual((await readResults(replay)).map((l) => l.cluster).sort(), [...TASKS].sort());
  const r = await runCli("report.ts", [replay, noop, merged]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    r.stdout.trim().split("\n"),
    ["report.md", "report.html", "report.json"].map((f) => join(replay, f)),
  );
  const md = await Deno.readTextFile(join(replay, "report.md"));

  assert.match(md, /\| merged \| \S+merged \| replay \| 3 \| 3 \| 1 \| results\.jsonl \| merged from 2 shards \|/);
  assert.match(md, /- merged: shards: s0 \(2 episode\(s\)\); s1 \(1 episode\(s\)\)\./);
  // 3/3: Wilson lower n/(n + z²) = 3/6.841459 = 43.9 %; 0/3: upper z²/(n + z²) = 56.1 %.
  const overall = section(md, "### Overall");
  assert.match(overall, /\| replay \| 100\.0 % \| 43\.9 % – 100\.0 % \| 3\/3 \| 0 \| 0 \| 0 \| 0 \|/);
  assert.match(overall, /\| noop \| 0\.0 % \| 0\.0 % – 56\.1 % \| 0\/3 \| 3 \| 0 \| 0 \| 0 \|/);
  // One task a family here: 1/1 is [1/(1 + z²), 1] = [20.7 %, 100 %].
  assert.match(section(md, "### By family"), /\| Navigation \| replay \| 100\.0 % \| 20\.7 % – 100\.0 % \| 1\/1 \|/);
  // Which rules failed noop's episodes is lib/grading's to say; that all 3 failures are counted, in noop's column, is
  // the report's.
  const reasons = section(md, "## Failures by reason");
  assert.match(reasons, /\| reason \| replay: replay \| noop: noop \| merged: replay \| total \|/);
  assert.match(reasons, /\| all failures \| 0 \| 3 \| 0 \| 3 \|/);

  const vsNoop = section(md, "### noop against replay");
  assert.match(
    vsNoop,
    /Identical results set: no \(3 key\(s\) with another status, 0 only in replay, 0 only in noop\)/,
  );
  for (const id of TASKS) assert.match(vsNoop, new RegExp(`- ${id}: passed in replay, failed in noop`));
  const flipped = /Flipped pass → fail \(3\): (.*)\./.exec(vsNoop)?.[1].split(", ").sort();
  assert.deepEqual(flipped, [...TASKS].sort());
  assert.match(vsNoop, /Flipped fail → pass \(0\): none\./);
  // b = 3, c = 0: 2 · C(3,0) / 2³ = 0.25.
  assert.match(vsNoop, /McNemar exact two-sided p = 0\.25 \(binomial test on the 3 discordant pair\(s\)\)/);
  // Newcombe, every pair flipped (phi = 0): upper -1 + √(2 · 0.561497²) = -0.2059.
  assert.match(vsNoop, /noop - replay: -100\.0 percentage points, 95 % CI -100\.0 to -20\.6 \(Newcombe's method 10/);
  // Power: at ψ = 1 the largest difference is δ = 1, and Φ((√3 − 1.96) / 0) = 0 < 80 %: 3 pairs cannot tell.
  assert.match(vsNoop, /Power: 3 pairs with 3 discordant cannot detect any difference .*too few to conclude/);
  // Per family: one pair in one cluster (few), p = 1 and Holm's p = 1 (3 · 1, capped), D 1, no ICC (a cluster of one),
  // 1 effective pair, the same power figure.
  assert.match(
    vsNoop,
    /\| Navigation \| 1 \| 1 \(few\) \| 1 \| -100\.0 \| [^|]+ \| 1 \| 1 \| 1\.00 \| – \| 1\.0 \| none: too few pairs \|/,
  );
  // Three hand-written tasks are three clusters of one: the numbers above are the independent ones, said plainly.
  assert.match(
    vsNoop,
    /Clusters \(by template\): 3, one pair each: the pairs count as independent \(design effect 1\)\./,
  );
  assert.match(vsNoop, /Warning: this comparison rests on 3 cluster\(s\) \(by template\), fewer than 10\./);

  const vsMerged = section(md, "### merged against replay");
  assert.match(vsMerged, /Identical results set: yes \(3 \(task_id, repeat\) keys/);
  assert.match(vsMerged, /Both pass: 3\. Both fail: 0\./);
  assert.match(vsMerged, /McNemar exact two-sided p = 1 /);
  assert.match(vsMerged, /Power: no pair is discordant, so the smallest detectable difference cannot be estimated/);

  // report.json holds the same figures, and reads back through its schema.
  const json = parseReportJson(await Deno.readTextFile(join(replay, "report.json")), "report.json");
  assert.deepEqual(json.runs.map((run) => [run.label, run.pass_rate.passed, run.pass_rate.graded]), [
    ["replay", 3, 3],
    ["noop", 0, 3],
    ["merged", 3, 3],
  ]);
  assert.ok(Math.abs(json.runs[1].pass_rate.ci!.hi - 0.561497) < 1e-6);
  const noopJson = json.comparisons[0].paired!;
  assert.deepEqual([noopJson.method, noopJson.p, noopJson.a_only, noopJson.clusters], ["mcnemar_exact", 0.25, 3, 3]);
  assert.ok(Math.abs(noopJson.ci.hi - -0.2059) < 1e-4);
  assert.equal(json.comparisons[1].identical, true);
  const html = await Deno.readTextFile(join(replay, "report.html"));
  assert.match(html, /^<!doctype html>/);
  assert.equal((html.match(/<svg /g) ?? []).length, 2, "a chart by family and one by site");
  assert.doesNotMatch(html, /https?:\/\//, "the page refers to nothing outside itself");
  assert.doesNotMatch(html, /<(script|link|img|iframe)\b/);
  assert.match(html, /<title>Navigation, noop: 0\/1 passed/);
  await Deno.remove(dir, { recursive: true });
});

const line = (o: Record<string, unknown>) => JSON.stringify({ duration_s: 1, arm: "oracle", ...o });
const A = { task_id: "t_a", macro: "paginate", site: "shop" };
const B = { task_id: "t_b", macro: "set_slider", site: "tracker" };
const C = { task_id: "t_c", macro: "answer_question", site: "mail" };
const ep = (t: { task_id: string }, repeat: number) => ({ ...t, repeat, episode: `${t.task_id}~r${repeat}` });

/**
 * An oracle run with 3 repeats, lines without status or family (a run from before them): t_a passes 2 of 3; t_b
 * fails, hits a harness error, then fails again but passes on regrade; t_c is pending. An earlier t_a~r1 line is
 * superseded. t_a~r0 has a steps.jsonl, t_b~r0 only a trace.json.
 */
async function repeatsRun(): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "webmix-report-repeats-" });
  const recorded = [
    line({ ...ep(A, 1), ok: false, error: "HarnessError: the browser died" }),
    line({ ...ep(A, 0), ok: true }),
    line({ ...ep(A, 1), ok: false, detail: "wrong page" }),
    line({ ...ep(A, 2), ok: true }),
    line({ ...ep(B, 0), ok: false }),
    line({ ...ep(B, 1), ok: false, error: "ModelReplyError: 500" }),
    line({ ...ep(B, 2), ok: false }),
    line({ ...ep(C, 0), ok: false, detail: "pending: the judge decides" }),
  ];
  await Deno.writeTextFile(join(out, "results.jsonl"), recorded.join("\n") + "\n");
  const regraded = recorded.slice(1).map((l) => l.includes('"t_b~r2"') ? l.replace('"ok":false', '"ok":true') : l);
  await Deno.writeTextFile(join(out, "results_regraded.jsonl"), regraded.join("\n") + "\n");
  await Deno.writeTextFile(
    join(out, "run.json"),
    manifestJson(manifestFixture({ arm: "oracle", repeats: 3 }, { count: 3, ids: ["t_a", "t_b", "t_c"] })),
  );
  const step = (n: number, extra: Record<string, unknown>) =>
    JSON.stringify({
      kind: "agent",
      step: n,
      model: "rest",
      family: "Navigation",
      url: "http://127.0.0.1:1/shop/",
      title: "Shop",
      request: null,
      reply: "{}",
      parsed: {},
      actions: [],
      start: n,
      end: n + 1,
      ...extra,
    });
  await Deno.mkdir(join(out, "t_a~r0"));
  await Deno.writeTextFile(
    join(out, "t_a~r0", "steps.jsonl"),
    step(1, { usage: { prompt_tokens: 1000, completion_tokens: 50 }, latency_ms: 400 }) + "\n" +
      step(2, { usage: { prompt_tokens: 1200, completion_tokens: 60 }, latency_ms: 600, gated: true, note: "left" }) +
      "\n",
  );
  await Deno.mkdir(join(out, "t_b~r0"));
  const trace = [{ model: "drag", action: [], usage: { prompt_tokens: 900, completion_tokens: 40 }, latency_ms: 800 }];
  await Deno.writeTextFile(join(out, "t_b~r0", "trace.json"), JSON.stringify(trace));
  return out;
}

Deno.test("report.ts reads a regraded run with repeats: pass@k, variance, status columns, models and routing", async () => {
  const out = await repeatsRun();
  const r = await runCli("report.ts", [out, "--out", join(out, "rep")]);
  assert.equal(r.code, 0, r.stderr);
  const md = await Deno.readTextFile(join(out, "rep", "report.md"));
  assert.match(md, /\| oracle \| 7 \| 3 \| 3 \| results_regraded\.jsonl \(regraded\) \| – \|/);
  assert.match(md, /1 earlier line\(s\) of an episode in results\.jsonl: the last one of each is used/);
  // Passed t_a r0, r2, t_b r2 (regraded); failed t_a r1, t_b r0; error t_b r1; pending t_c. 3/5, but in 2 clusters
  // (a task's repeats are one): Wilson with t on 1 df (12.706205, t² = 161.449649) in place of z. D: t_a 2 - 0.6·3 =
  // 0.2, t_b 1 - 0.6·2 = -0.2, 0.08 / (5·0.24) < 1, so 1. Centre (0.6 + 16.144965) / 33.289930 = 0.503004, half
  // (12.706205 / 33.289930)·√(0.048 + 1.614496) = 0.492140: [1.1 %, 99.5 %].
  assert.match(
    section(md, "### Overall"),
    /\| 60\.0 % \| 1\.1 % – 99\.5 % \| 3\/5 \| 2 \| 1 \| 0 \| 1 \| 2 \| 1\.00 \|/,
  );
  const family = section(md, "### By family");
  // One task a family, so one cluster: Wilson over its repeats as before. t_b: 1/2, [9.5 %, 90.5 %]; t_c graded
  // nothing.
  assert.match(family, /\| Drag & gesture \| 50\.0 % \| 9\.5 % – 90\.5 % \| 1\/2 \| 1 \| 1 \| 0 \| 0 \|/);
  assert.match(family, /\| Navigation \| 66\.7 % \| 20\.8 % – 93\.9 % \| 2\/3 \| 1 \| 0 \| 0 \| 0 \|/);
  assert.match(family, /\| Reasoning base \| – \| – \| 0\/0 \| 0 \| 0 \| 0 \| 1 \|/);
  // Lines from before reason codes: both failures (t_a~r1, t_b~r0) are "(none)"; the error and the pending one are
  // not failures.
  assert.match(
    section(md, "## Failures by reason"),
    /\| reason \| oracle \| total \|\n\| --- \| ---: \| ---: \|\n\| \(none\) \| 2 \| 2 \|\n\| all failures \| 2 \| 2 \|\n/,
  );
  assert.match(
    section(md, "### Failures by reason and family"),
    /\| Drag & gesture \| \(none\) \| 1 \| 1 \|\n\| Navigation \| \(none\) \| 1 \| 1 \|\n$/,
  );

  // pass@1: t_a 1 - C(1,1)/C(3,1) = 2/3, t_b 1 - C(1,1)/C(2,1) = 1/2: mean 58.3 %. pass@2: both 1. pass@3: t_a only.
  const repeats = section(md, "## Repeats");
  assert.match(repeats, /\| 1 \| 58\.3 % \| 2 \|\n\| 2 \| 100\.0 % \| 2 \|\n\| 3 \| 100\.0 % \| 1 \|/);
  // Variance: t_a (2/3)(1/3) = 0.2222, t_b 0.25: mean 0.2361.
  assert.match(repeats, /Tasks with mixed outcomes: 2 of 2\. Mean per-task Bernoulli variance p\(1 - p\): 0\.2361\./);
  assert.match(repeats, /- t_a: 2\/3\n- t_b: 1\/2/);

  // Nearest rank over 400 and 600 ms: the median is 400, p90 600.
  const models = section(md, "## Models");
  assert.match(models, /\| rest \| 1 \| 2 \| 2,200 \| 110 \| 400 ms \| 600 ms \|/);
  assert.match(models, /\| drag \| 1 \| 1 \| 900 \| 40 \| 800 ms \| 800 ms \|/);
  assert.match(models, /steps\.jsonl for 1 episode\(s\), from trace\.json for 1; 5 episode\(s\) have neither/);
  const routing = section(md, "## Routing");
  assert.match(
    routing,
    /\| planned family \| rest \| drag \|\n\| --- \| ---: \| ---: \|\n\| Navigation \| 2 \| 0 \|\n/,
  );
  assert.match(routing, /\| \(none\) \| 0 \| 1 \|/);
  assert.match(routing, /Gates fired: 1 \(in 1 episode\(s\)\)\. Router notes: 1 step\(s\) showed one\./);
  assert.doesNotMatch(md, /## Comparison/);
  await Deno.remove(out, { recursive: true });
});

const D = { task_id: "t_d", macro: "paginate", site: "shop" };

/** A run folder holding `lines` as its results.jsonl (no run.json, no episode folders). */
async function resultsRun(dir: string, lines: Record<string, unknown>[]): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "results.jsonl"), lines.map(line).join("\n") + "\n");
  return dir;
}

/**
 * Two runs whose failures carry reason codes. base: t_a fails twice on final_page and passes once; t_b fails on
 * field_mismatch and once in a line from before reason codes; t_c fails on answer_wrong, then is pending on
 * answer_unaccounted; t_d's arm fails, then a harness error. pooled: final_page, unclaimed_write, field_mismatch, a
 * code this version does not know, and a timeout graded not_visited.
 */
const REASON_RUNS: Record<string, Record<string, unknown>[]> = {
  base: [
    { ...ep(A, 0), ok: false, status: "failed", family: "Navigation", reason: "final_page" },
    { ...ep(A, 1), ok: false, status: "failed", family: "Navigation", reason: "final_page" },
    { ...ep(A, 2), ok: true, status: "passed", family: "Navigation" },
    { ...ep(B, 0), ok: false, status: "failed", family: "Drag & gesture", reason: "field_mismatch" },
    { ...ep(B, 1), ok: false, detail: "the slider is at 40" },
    { ...ep(C, 0), ok: false, status: "failed", family: "Reasoning base", reason: "answer_wrong" },
    { ...ep(C, 1), ok: false, status: "pending", reason: "answer_unaccounted", detail: "pending: the judge decides" },
    { ...ep(D, 0), ok: false, status: "failed", arm_failure: "reference step 2 failed" },
    { ...ep(D, 1), ok: false, status: "error", error: "HarnessError: the browser died" },
  ].map((l) => ({ ...l, arm: "base" })),
  pooled: [
    { ...ep(A, 0), ok: false, status: "failed", reason: "final_page" },
    { ...ep(A, 1), ok: true, status: "passed" },
    { ...ep(B, 0), ok: false, status: "failed", reason: "unclaimed_write" },
    { ...ep(B, 1), ok: false, status: "failed", reason: "field_mismatch" },
    { ...ep(C, 0), ok: false, status: "failed", reason: "zz_newer_rule" },
    { ...ep(D, 0), ok: false, status: "failed", error: "timeout", reason: "not_visited" },
  ].map((l) => ({ ...l, arm: "pooled" })),
};

Deno.test("report.ts counts failures by reason code per arm and family, old lines as (none)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-report-reasons-" });
  const base = await resultsRun(join(dir, "base"), REASON_RUNS.base);
  const pooled = await resultsRun(join(dir, "pooled"), REASON_RUNS.pooled);
  const r = await runCli("report.ts", [base, pooled, "--out", join(dir, "rep")]);
  assert.equal(r.code, 0, r.stderr);
  const md = await Deno.readTextFile(join(dir, "rep", "report.md"));
  // Rows in REASONS' order (lib/grading), then a code it does not know, then (arm failure) and (none).
  const byReason = section(md, "## Failures by reason").split("\n").filter((l) => l.startsWith("|"));
  assert.deepEqual(byReason.slice(0, 12), [
    "| reason | base: base | pooled: pooled | total |",
    "| --- | ---: | ---: | ---: |",
    "| unclaimed_write | 0 | 1 | 1 |",
    "| field_mismatch | 1 | 1 | 2 |",
    "| not_visited | 0 | 1 | 1 |",
    "| final_page | 2 | 1 | 3 |",
    "| answer_wrong | 1 | 0 | 1 |",
    "| zz_newer_rule | 0 | 1 | 1 |",
    "| (arm failure) | 1 | 0 | 1 |",
    "| (none) | 1 | 0 | 1 |",
    "| all failures | 6 | 5 | 11 |",
    "| family | reason | base: base | pooled: pooled | total |",
  ]);
  assert.deepEqual(section(md, "### Failures by reason and family").split("\n").filter((l) => l.startsWith("| ")), [
    "| family | reason | base: base | pooled: pooled | total |",
    "| --- | --- | ---: | ---: | ---: |",
    "| Drag & gesture | unclaimed_write | 0 | 1 | 1 |",
    "| Drag & gesture | field_mismatch | 1 | 1 | 2 |",
    "| Drag & gesture | (none) | 1 | 0 | 1 |",
    "| Navigation | not_visited | 0 | 1 | 1 |",
    "| Navigation | final_page | 2 | 1 | 3 |",
    "| Navigation | (arm failure) | 1 | 0 | 1 |",
    "| Reasoning base | answer_wrong | 1 | 0 | 1 |",
    "| Reasoning base | zz_newer_rule | 0 | 1 | 1 |",
  ]);
  assert.match(
    section(md, "### Failures by reason and family"),
    /Pending episodes are not failures, and not counted here: 1 carry a reason \(answer_unaccounted 1\)/,
  );
  // The section sits between the pass rates and the models, in the HTML page too.
  assert.ok(md.indexOf("## Pass rate") < md.indexOf("## Failures by reason"));
  assert.ok(md.indexOf("## Failures by reason") < md.indexOf("## Models"));
  const html = await Deno.readTextFile(join(dir, "rep", "report.html"));
  assert.match(html, /<h2>Failures by reason<\/h2>/);
  assert.match(html, /<tr><td>final_page<\/td><td class="n">2<\/td><td class="n">1<\/td><td class="n">3<\/td><\/tr>/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("report.ts refuses a folder that is not a run (exit 2) and names an unreadable file (exit 1)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-report-bad-" });
  const run = join(dir, "run");
  await Deno.mkdir(join(run, "t_a"), { recursive: true });
  await Deno.writeTextFile(join(run, "results.jsonl"), line({ ...A, repeat: 0, episode: "t_a", ok: true }) + "\n");
  const empty = join(dir, "empty");
  await Deno.mkdir(empty);

  let r = await runCli("report.ts", [run, empty]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(`report\\.ts: "${empty}" holds no results\\.jsonl \\(expected a run's output folder\\)`),
  );
  assert.equal(r.stdout, "");
  r = await runCli("report.ts", [join(dir, "gone")]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /"\S+gone": no such folder/);
  r = await runCli("report.ts", [run, "--bogus"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--bogus/);
  r = await runCli("report.ts", []);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /name at least one run folder/);
  await assert.rejects(Deno.stat(join(run, "report.md")), Deno.errors.NotFound, "nothing written");

  await Deno.writeTextFile(join(run, "t_a", "steps.jsonl"), `{"model": "rest"}\nnot json\n{"model": "rest"}\n`);
  r = await runCli("report.ts", [run]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /report\.ts: RunFolderError: \S+t_a\/steps\.jsonl line 2: not JSON/);
  await Deno.remove(dir, { recursive: true });
});
