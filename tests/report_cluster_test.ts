/**
 * report.ts over clustered episodes, as a user runs it, on run folders in the real format (results lines written
 * through lib/run_folder's writer, a run.json): the issue's two-runs example over 100 generated instances of the
 * bundled set (10 templates × 10). Flipping every instance of 2 templates (20 discordant pairs, all one way) is not
 * reported as a difference; the same 20 flips spread 2 per template over all 10 are. report.json holds the figures
 * and reads back through its schema; lines without `cluster` still report; --cluster-by changes the unit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type EpisodeResult, manifestJson, parseReportJson, resultLine } from "../lib/run_folder/mod.ts";
import { manifestFixture } from "../lib/run_folder/_testdata.ts";
import { familyOf, type Macro } from "../lib/protocol/mod.ts";
import { readResults, ROOT, runCli } from "./support/cli.ts";
import { section } from "./support/markdown.ts";

interface Instance {
  task_id: string;
  macro: Macro;
  site: string;
  template: string;
}

/** 10 templates of the bundled set with 10 instances each (every 9th, so that the apps differ), 10 of each. */
async function instances(): Promise<Instance[][]> {
  const text = await Deno.readTextFile(join(ROOT, "fixtures/valgen/val.jsonl"));
  const lines = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const byTemplate = Map.groupBy(
    lines.map((l): Instance => ({ task_id: l.task_id, macro: l.macro, site: l.site, template: l.gen.template })),
    (i) => i.template,
  );
  const full = [...byTemplate.values()].filter((is) => is.length >= 10).filter((_, i) => i % 9 === 0).slice(0, 10)
    .map((is) => is.slice(0, 10));
  assert.equal(full.length, 10);
  return full;
}

/** A run folder whose instance j of template k passed when `passed(k, j)`; `cluster: false` writes lines without it. */
async function run(
  dir: string,
  arm: string,
  set: Instance[][],
  passed: (k: number, j: number) => boolean,
  cluster = true,
) {
  await Deno.mkdir(dir, { recursive: true });
  const lines = set.flatMap((is, k) =>
    is.map((t, j) => {
      const ok = passed(k, j);
      const r: EpisodeResult = {
        task_id: t.task_id,
        episode: t.task_id,
        macro: t.macro,
        site: t.site,
        arm,
        family: familyOf(t.macro),
        ...(cluster ? { cluster: t.template } : {}),
        style: j % 2 ? "chatty" : "terse",
        status: ok ? "passed" : "failed",
        ok,
        duration_s: 1,
        repeat: 0,
      };
      return resultLine(r);
    })
  );
  await Deno.writeTextFile(join(dir, "results.jsonl"), lines.join(""));
  const ids = set.flat().map((t) => t.task_id);
  await Deno.writeTextFile(join(dir, "run.json"), manifestJson(manifestFixture({ arm }, { count: ids.length, ids })));
  return dir;
}

/** The baseline passes instances 0-4 of every template and all of templates 0 and 1. */
const base = (k: number, j: number) => k < 2 || j < 5;
/** Every instance of templates 0 and 1 flipped to a failure. */
const twoTemplates = (k: number, j: number) => k >= 2 && j < 5;
/** Instances 0 and 1 of every template flipped to a failure. */
const spread = (k: number, j: number) => base(k, j) && j >= 2;

async function report(args: string[], out: string) {
  const r = await runCli("report.ts", [...args, "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split("\n"), ["report.md", "report.html", "report.json"].map((f) => join(out, f)));
  const json = parseReportJson(await Deno.readTextFile(join(out, "report.json")), "report.json");
  return { md: await Deno.readTextFile(join(out, "report.md")), json };
}

Deno.test("report.ts: 20 flips inside 2 of 10 templates are no difference; the same 20 over all 10 are", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-report-cluster-" });
  const set = await instances();
  const a = await run(join(dir, "base"), "replay", set, base);
  const two = await run(join(dir, "two"), "scripted", set, twoTemplates);
  const wide = await run(join(dir, "spread"), "scripted", set, spread);
  const { md, json } = await report([a, two, wide], join(dir, "rep"));

  // Two templates: net flips -10, -10 and 0 × 8, D = 200 / 20 = 10; t = √(400 / 200) on 9 df, p = 0.191.
  const vsTwo = section(md, "### two against base");
  assert.match(
    vsTwo,
    /Clusters \(by template\): 10, up to 10 pairs in one; design effect 10\.00 .*effective pairs 10\.0 of 100/,
  );
  assert.match(vsTwo, /Clustered McNemar \(Durkalski et al\. 2003\) two-sided p = 0\.191 /);
  assert.doesNotMatch(vsTwo, /p < 0\.0001/, "the pooled McNemar's answer is gone");
  const [cTwo, cWide] = json.comparisons.map((c) => c.paired!);
  assert.equal(cTwo.pairs, 100);
  assert.equal(cTwo.a_only, 20);
  assert.equal(cTwo.method, "clustered_mcnemar");
  assert.ok(cTwo.p >= 0.05, `p ${cTwo.p}`);
  assert.ok(cTwo.ci.lo < 0 && cTwo.ci.hi > 0, `the interval holds 0: ${JSON.stringify(cTwo.ci)}`);
  assert.equal(cTwo.design_effect, 10);
  assert.equal(cTwo.clusters, 10);
  assert.match(vsTwo, new RegExp(`CI ${(cTwo.ci.lo * 100).toFixed(1)} to \\+${(cTwo.ci.hi * 100).toFixed(1)} `));

  // Spread: -2 in every template, D = 40 / 20 = 2; t = √(400 / 40) on 9 df, p = 0.0115.
  const vsWide = section(md, "### spread against base");
  assert.match(vsWide, /Clustered McNemar \(Durkalski et al\. 2003\) two-sided p = 0\.0115 /);
  assert.ok(cWide.p < 0.05, `p ${cWide.p}`);
  assert.ok(cWide.ci.hi < 0, `the interval excludes 0: ${JSON.stringify(cWide.ci)}`);
  assert.equal(cWide.design_effect, 2);
  assert.equal(cWide.effective_n, 50);
  assert.ok(cWide.min_detectable !== null && cWide.min_detectable > 0.1);
  assert.doesNotMatch(md, /Warning: this comparison rests on/, "10 clusters are enough not to warn");

  // Per family: several comparisons, Holm-adjusted, none of them below its own p.
  assert.ok(json.comparisons[1].by_family.length >= 2);
  for (const f of json.comparisons[1].by_family) assert.ok(f.p_holm >= f.p, `${f.group}: ${f.p_holm} < ${f.p}`);
  assert.match(vsWide, /Per family: \d+ comparisons, so each p-value is also given Holm-adjusted/);
  assert.match(vsWide, /\| Family \| Pairs \| Clusters \| Discordant \| Difference \| 95 % CI \| p \| Holm p \|/);

  // Per style: two comparisons, Holm-adjusted; each style's pairs in all 10 templates.
  assert.deepEqual(json.comparisons[1].by_style.map((x) => [x.group, x.pairs, x.clusters]), [
    ["terse", 50, 10],
    ["chatty", 50, 10],
  ]);
  assert.match(vsWide, /Per style: 2 comparisons/);
  // The baseline passes 5 + 5 in templates 0 and 1, and instances 0-4 elsewhere: 3 terse (0, 2, 4), 2 chatty, × 8.
  assert.deepEqual(json.runs[0].by_style.map((x) => [x.group, x.passed]), [["chatty", 26], ["terse", 34]]);

  // The pass rate counts the clusters too: 60/100 in 10 templates.
  const rate = json.runs[0].pass_rate;
  assert.equal(rate.passed, 60);
  assert.equal(rate.clusters, 10);
  assert.equal(rate.method, "wilson_design_effect");
  assert.ok(rate.design_effect > 1);
  assert.match(
    section(md, "### Overall"),
    /\| base \| 60\.0 % \| [\d.]+ % – [\d.]+ % \| 60\/100 \| 40 \| 0 \| 0 \| 0 \| 10 \| \d+\.\d\d \|/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval.ts writes a generated instance's template as its cluster, and the report counts it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-report-cluster-eval-" });
  const [first] = await instances();
  const ids = first.slice(0, 2).map((t) => t.task_id);
  const out = join(dir, "replay");
  const args = ["--arm", "replay", "--tasks", join(ROOT, "fixtures/valgen/val.jsonl"), "--task-ids", ids.join(",")];
  const r = await runCli("eval.ts", [...args, "--out", out, "--workers", "1", "--no-step-screenshots"]);
  assert.equal(r.code, 0, r.stderr);
  const lines = await readResults(out);
  assert.deepEqual(lines.map((l) => [l.task_id, l.cluster]).sort(), ids.map((id) => [id, first[0].template]).sort());
  const { json } = await report([out], join(dir, "rep"));
  assert.deepEqual([json.runs[0].pass_rate.passed, json.runs[0].pass_rate.clusters], [2, 1]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("report.ts derives old lines' clusters from their ids, and --cluster-by changes the unit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-report-cluster-by-" });
  const set = await instances();
  const a = await run(join(dir, "base"), "replay", set, base, false);
  const two = await run(join(dir, "two"), "scripted", set, twoTemplates, false);

  // Lines from before `cluster`: each generated id gives its template, and the notes say so.
  const old = await report([a, two], join(dir, "old"));
  assert.equal(old.json.comparisons[0].paired!.design_effect, 10);
  assert.match(
    old.md,
    /base: 100 line\(s\) carry no `cluster` \(written before it was\): each one's cluster is derived/,
  );

  // Each task its own cluster: the independent analysis, McNemar's exact test on the 20 flips.
  const byTask = await report([a, two, "--cluster-by", "task"], join(dir, "task"));
  const t = byTask.json.comparisons[0].paired!;
  assert.equal(byTask.json.cluster_by, "task");
  assert.equal(t.method, "mcnemar_exact");
  assert.equal(t.p, 2 / 2 ** 20);
  assert.match(byTask.md, /McNemar exact two-sided p < 0\.0001 \(binomial test on the 20 discordant pair\(s\)\)/);

  // By site: 4 apps, fewer than 10 clusters, and the report says so plainly.
  const bySite = await report([a, two, "--cluster-by", "site"], join(dir, "site"));
  assert.ok(bySite.json.comparisons[0].paired!.few_clusters);
  assert.match(bySite.md, /Warning: this comparison rests on [2-9] cluster\(s\) \(by site\), fewer than 10\./);

  // A field no line has is a usage error naming it; nothing is written.
  const r = await runCli("report.ts", [a, two, "--cluster-by", "nosuch", "--out", join(dir, "bad")]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--cluster-by "nosuch": no results line has a field "nosuch"/);
  await assert.rejects(() => Deno.stat(join(dir, "bad", "report.md")), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});
