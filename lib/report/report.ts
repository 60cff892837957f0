/**
 * The run report: what each run folder holds, pass rates by arm, family, macro and site, the failures by reason code,
 * the model requests, the routing, pass@k over repeats and, for two runs or more, each run paired with the first.
 * Built once as blocks (doc.ts) and written as report.md and report.html, with every figure in report.json.
 * @module
 */
import { basename, join } from "node:path";
import { writeFileAtomic } from "../io/mod.ts";
import { reportJson } from "../run_folder/mod.ts";
import { FAMILIES, OTHER_FAMILY } from "../protocol/mod.ts";
import { compareRuns, modelStats, NO_PLAN, repeatStats, routing, type Tally, tally, tallyBy } from "./aggregate.ts";
import { rateChart } from "./chart.ts";
import { clusterRuns } from "./cluster_by.ts";
import { comparisons } from "./comparison.ts";
import { type Block, toHtml, toMarkdown } from "./doc.ts";
import { reportFigures } from "./figures.ts";
import { capped, int, ms, pct } from "./format.ts";
import type { ReportResult, RunData } from "./load.ts";
import { failuresByReason } from "./reasons.ts";

/** Each run's name in the report: its folder's name, or the path as given when two runs share a name. */
function runLabels(runs: readonly RunData[]): string[] {
  const names = runs.map((r) => basename(r.dir.replace(/\/+$/, "")) || r.dir);
  return names.map((n, i) => names.filter((m) => m === n).length > 1 ? runs[i].dir : n);
}

/** The title, the runs' table and what to know about their inputs. */
function header(runs: readonly RunData[], labels: string[]): Block[] {
  const rows = runs.map((run, i) => {
    const arms = [...new Set(run.results.map((r) => r.arm))].sort().join(", ");
    const tasks = new Set(run.results.map((r) => r.task_id)).size;
    const listed = run.manifest?.taskCount;
    const repeats = run.manifest?.repeats ?? Math.max(0, ...run.results.map((r) => r.repeat + 1));
    const shards = run.manifest?.shards;
    return [
      labels[i],
      run.dir,
      run.manifest?.arm ?? (arms || "–"),
      int(run.results.length),
      listed !== undefined && listed !== tasks ? `${tasks} (run.json: ${listed})` : String(tasks),
      String(repeats),
      run.regraded ? "results_regraded.jsonl (regraded)" : "results.jsonl",
      shards ? `merged from ${shards.length} shards` : "–",
    ];
  });
  const notes = runs.flatMap((run, i) => [
    ...run.notes.map((n) => `${labels[i]}: ${n}.`),
    ...(run.manifest?.shards?.length ? [`${labels[i]}: shards: ${run.manifest.shards.map(describe).join("; ")}.`] : []),
  ]);
  return [
    { kind: "heading", level: 1, text: "Run report" },
    {
      kind: "paragraph",
      text: `${runs.length} run folder(s), written ${new Date().toISOString()}. A pass rate counts graded episodes ` +
        "only (passed and failed); harness errors, grade errors and pending episodes have their own columns.",
    },
    {
      kind: "table",
      head: ["run", "folder", "arm", "episodes", "tasks", "repeats", "grades from", "shards"],
      rows,
      numeric: [false, false, false, true, true, true, false, false],
    },
    ...(notes.length ? [{ kind: "list", items: notes } as Block] : []),
  ];
}

/** A shard as run.json lists it (merge.ts: {dir, index, count, episodes}): its folder and episodes, else its JSON. */
function describe(shard: unknown): string {
  const s = shard as { dir?: unknown; episodes?: unknown } | null;
  if (typeof s?.dir !== "string") return JSON.stringify(shard);
  return typeof s.episodes === "number" ? `${s.dir} (${s.episodes} episode(s))` : s.dir;
}

/** A pass-rate table: one row per group and run. */
function rateTable(name: string, groups: string[], labels: string[], tallies: Map<string, Tally>[]): Block {
  const many = labels.length > 1;
  const rows = groups.flatMap((g) =>
    tallies.flatMap((byGroup, i) => {
      const t = byGroup.get(g);
      if (!t) return [];
      const c = t.counts;
      return [[
        g,
        ...(many ? [labels[i]] : []),
        pct(t.rate),
        t.ci ? `${pct(t.ci.lo)} – ${pct(t.ci.hi)}` : "–",
        `${c.passed}/${t.graded}`,
        String(c.failed),
        String(c.error),
        String(c.grade_error),
        String(c.pending),
        String(t.clustered.clusters),
        t.clustered.designEffect.toFixed(2),
      ]];
    })
  );
  const head = [name, ...(many ? ["run"] : []), "pass rate", "95 % CI", "passed/graded", "failed", "error"];
  return {
    kind: "table",
    head: [...head, "grade error", "pending", "clusters", "design effect"],
    rows,
    numeric: head.map((_, i) => i >= (many ? 2 : 1)).concat(true, true, true, true),
  };
}

/** The pass rates by arm, family, macro and site, with charts by family and site. */
function passRates(runs: readonly RunData[], labels: string[]): Block[] {
  const overall = new Map(runs.map((r, i) => [labels[i], tally(r.results)]));
  const blocks: Block[] = [
    { kind: "heading", level: 2, text: "Pass rate" },
    { kind: "heading", level: 3, text: "Overall" },
    rateTable("run", [...overall.keys()], [""], [overall]),
  ];
  const dims: [string, (r: ReportResult) => string, readonly string[], boolean][] = [
    ["arm", (r) => r.arm, [], false],
    ["family", (r) => r.family, [...FAMILIES, OTHER_FAMILY], true],
    ["macro", (r) => r.macro, [], false],
    ["site", (r) => r.site, [], true],
  ];
  // A task line may carry a phrasing `style`; a run whose lines do gets a breakdown by it.
  const styled = runs.flatMap((r) => r.results).filter((r) => typeof r.style === "string");
  if (styled.length) dims.push(["style", (r) => typeof r.style === "string" ? r.style : "(none)", [], false]);
  for (const [name, key, order, chart] of dims) {
    const tallies = runs.map((r) => tallyBy(r.results, key, order));
    const groups = [...tallyBy(runs.flatMap((r) => r.results), key, order).keys()];
    blocks.push({ kind: "heading", level: 3, text: `By ${name}` }, rateTable(name, groups, labels, tallies));
    if (!chart) continue;
    const series = runs.map((_, i) => ({ label: labels[i], tallies: groups.map((g) => tallies[i].get(g)) }));
    blocks.push({
      kind: "chart",
      title: `Pass rate by ${name} (bars: 95 % interval over clusters)`,
      svg: rateChart(groups, series),
    });
  }
  return blocks;
}

/** Steps, tokens and latency per model, then the routing, for each run. */
function modelsAndRouting(runs: readonly RunData[], labels: string[]): Block[] {
  const blocks: Block[] = [{ kind: "heading", level: 2, text: "Models" }];
  const rows = runs.flatMap((run, i) =>
    [...modelStats(run.steps)].map(([model, s]) => [
      model,
      ...(runs.length > 1 ? [labels[i]] : []),
      int(s.episodes),
      int(s.steps),
      int(s.promptTokens),
      int(s.completionTokens),
      ms(s.latencyMedianMs),
      ms(s.latencyP90Ms),
    ])
  );
  const head = ["model", ...(runs.length > 1 ? ["run"] : []), "episodes", "steps", "prompt tokens"];
  blocks.push({
    kind: "table",
    head: [...head, "completion tokens", "latency median", "latency p90"],
    rows,
    numeric: head.map((_, i) => i >= (runs.length > 1 ? 2 : 1)).concat(true, true, true),
  });
  blocks.push({
    kind: "list",
    items: runs.map((run, i) => {
      const s = run.stepSources;
      return `${labels[i]}: steps read from steps.jsonl for ${s.steps} episode(s), from trace.json for ${s.trace}` +
        (s.none ? `; ${s.none} episode(s) have neither` : "") + ".";
    }),
  });
  blocks.push({ kind: "heading", level: 2, text: "Routing" });
  runs.forEach((run, i) => {
    if (runs.length > 1) blocks.push({ kind: "heading", level: 3, text: labels[i] });
    if (!run.steps.some((s) => s.model !== null)) {
      blocks.push({ kind: "paragraph", text: "No model request: a model-free arm." });
      return;
    }
    const r = routing(run.steps);
    blocks.push({
      kind: "table",
      head: ["planned family", ...r.models],
      rows: [...r.matrix].map(([family, row]) => [family, ...r.models.map((m) => String(row.get(m) ?? 0))]),
      numeric: [false, ...r.models.map(() => true)],
    }, {
      kind: "paragraph",
      text: `Gates fired: ${r.gates} (in ${r.gatedEpisodes} episode(s)). Router notes: ` +
        (r.notes === undefined ? "not recorded (trace.json has none)." : `${r.notes} step(s) showed one.`) +
        ` "${NO_PLAN}" is a request the arm planned no family for.`,
    });
  });
  return blocks;
}

/** pass@k and per-task variance of each run that repeats tasks; nothing when none does. */
function repeats(runs: readonly RunData[], labels: string[]): Block[] {
  const stats = runs.map((r) => repeatStats(r.results));
  if (stats.every((s) => !s)) return [];
  const blocks: Block[] = [{ kind: "heading", level: 2, text: "Repeats" }];
  stats.forEach((s, i) => {
    if (!s) return;
    blocks.push(
      { kind: "heading", level: 3, text: labels[i] },
      {
        kind: "table",
        head: ["k", "pass@k", "tasks with k graded"],
        rows: s.passAtK.map((p) => [String(p.k), pct(p.value), String(p.tasks)]),
        numeric: [true, true, true],
      },
      {
        kind: "paragraph",
        text: `Tasks with mixed outcomes: ${s.mixed.length} of ${s.tasks}. Mean per-task Bernoulli variance ` +
          `p(1 - p): ${s.meanVariance.toFixed(4)}.`,
      },
    );
    if (s.mixed.length) blocks.push({ kind: "list", items: capped(s.mixed.map(([id, c, n]) => `${id}: ${c}/${n}`)) });
  });
  return blocks;
}

/** The report's methods, clusters by `by`. */
const methods = (by: string): Block[] => [
  { kind: "heading", level: 2, text: "Methods" },
  {
    kind: "list",
    items: [
      "Each (task_id, repeat) counts once: its last line; results_regraded.jsonl, when present, replaces the grade.",
      `Clusters (--cluster-by ${by}): episodes of one cluster are not independent (the instances of one generated ` +
      "template, the repeats of one task), so intervals and tests count clusters, not episodes. The design effect " +
      "D is the variance measured over the clusters divided by the variance independent episodes would have (at " +
      "least 1); the ICC is what D implies, (D - 1) / (m̄ - 1) with m̄ the size-weighted mean cluster size; the " +
      "effective sample is n / D. With G clusters the critical value is Student's t with G - 1 df. With every " +
      "cluster of one episode D = 1 and every number is the independent one below.",
      "Pass rate: passed / (passed + failed); 95 % interval: Wilson score (z = 1.96) over independent episodes, " +
      "else over the effective sample with t on G - 1 df.",
      "pass@k: the unbiased estimator 1 - C(n-c, k) / C(n, k) per task (n graded episodes, c passed), averaged " +
      "over the tasks with at least k graded episodes.",
      "Paired comparison: keys graded in both runs; McNemar's exact test and the difference's interval by " +
      "Newcombe's method 10 (Newcombe 1998) over independent pairs; over clusters, the clustered McNemar of " +
      "Durkalski et al. (2003), McNemar's statistic divided by D against t on G - 1 df, and Newcombe's interval on " +
      "the counts divided by D with that t. Per family and per style, each p-value also Holm-adjusted (Holm 1979).",
      "Power: the smallest difference McNemar's test detects at 80 % power and two-sided α = 0.05 (Connor 1987) " +
      "over the effective pairs, the observed discordance taken as the true one.",
      "Latency: nearest-rank median and 90th percentile over the requests that recorded one.",
    ],
  },
];

/** The report's blocks for `runs` (the first is the baseline of every comparison), and report.json's figures. */
function buildReport(loaded: readonly RunData[], clusterBy: string): { blocks: Block[]; json: string } {
  const runs = clusterRuns(loaded, clusterBy);
  const labels = runLabels(runs);
  const compared = runs.slice(1).map((run) => compareRuns(runs[0].results, run.results));
  const blocks: Block[] = [
    ...header(runs, labels),
    ...passRates(runs, labels),
    ...failuresByReason(runs, labels),
    ...modelsAndRouting(runs, labels),
    ...repeats(runs, labels),
    ...comparisons(runs, labels, compared, clusterBy),
    ...methods(clusterBy),
  ];
  return { blocks, json: reportJson(reportFigures(runs, labels, compared, clusterBy)) };
}

/** What writeReport takes besides the runs. */
export interface ReportOptions {
  /** What makes a cluster (--cluster-by): template (default), task, site, macro or a results-line field. */
  clusterBy?: string;
}

/**
 * Writes report.md, report.html and report.json for `runs` into `outDir` (created); returns their paths.
 * @throws UsageError when `clusterBy` names a field no results line has
 */
export async function writeReport(
  runs: readonly RunData[],
  outDir: string,
  options: ReportOptions = {},
): Promise<string[]> {
  const { blocks, json } = buildReport(runs, options.clusterBy ?? "template");
  const md = join(outDir, "report.md"), html = join(outDir, "report.html"), data = join(outDir, "report.json");
  await writeFileAtomic(md, toMarkdown(blocks));
  await writeFileAtomic(html, toHtml(`Run report: ${runLabels(runs).join(", ")}`, blocks));
  await writeFileAtomic(data, json);
  return [md, html, data];
}
