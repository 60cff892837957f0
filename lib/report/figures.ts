/**
 * report.json's figures: the same numbers report.md prints (pass rates with their intervals and clusters, each
 * comparison's test, interval, design effect and power, per family and per style), from the same computations.
 * @module
 */
import type { PairedJson, RateJson, ReportJson } from "../run_folder/mod.ts";
import { FAMILIES, OTHER_FAMILY } from "../protocol/mod.ts";
import { type Comparison, type GroupComparison, identical, type Tally, tally, tallyBy } from "./aggregate.ts";
import type { ClusteredComparison, ClusterEffect } from "./cluster.ts";
import type { ReportResult, RunData } from "./load.ts";

const effectJson = (e: ClusterEffect) => ({
  clusters: e.clusters,
  largest_cluster: e.largest,
  design_effect: e.designEffect,
  icc: e.icc,
  effective_n: e.effectiveN,
});

function rateJson(t: Tally): RateJson {
  return {
    ...t.counts,
    graded: t.graded,
    rate: t.rate ?? null,
    ci: t.ci ?? null,
    method: t.clustered.method,
    ...effectJson(t.clustered),
  };
}

function pairedJson(t: ClusteredComparison): PairedJson {
  const d = t.difference;
  return {
    pairs: t.pairs,
    both: t.counts.both,
    a_only: t.counts.aOnly,
    b_only: t.counts.bOnly,
    neither: t.counts.neither,
    difference: d.estimate,
    ci: { lo: d.lo, hi: d.hi },
    p: t.p,
    method: t.method,
    min_detectable: t.minDetectable,
    few_clusters: t.fewClusters,
    ...effectJson(t),
  };
}

const groupsJson = (groups: readonly GroupComparison[]) =>
  groups.map((g) => ({ group: g.group, ...pairedJson(g.test), p_holm: g.holmP }));

const byJson = (
  results: readonly ReportResult[],
  key: (r: ReportResult) => string | undefined,
  order = [] as string[],
) =>
  [...tallyBy(results.filter((r) => key(r) !== undefined), (r) => key(r)!, order)].map(([group, t]) => ({
    group,
    ...rateJson(t),
  }));

/** report.json of `runs` (labelled), `compared[j]` being run j + 1 against the first, clusters by `clusterBy`. */
export function reportFigures(
  runs: readonly RunData[],
  labels: readonly string[],
  compared: readonly Comparison[],
  clusterBy: string,
): ReportJson {
  return {
    written: new Date().toISOString(),
    cluster_by: clusterBy,
    runs: runs.map((run, i) => ({
      label: labels[i],
      dir: run.dir,
      arms: [...new Set(run.results.map((r) => r.arm))].sort(),
      episodes: run.results.length,
      tasks: new Set(run.results.map((r) => r.task_id)).size,
      regraded: run.regraded,
      pass_rate: rateJson(tally(run.results)),
      by_arm: byJson(run.results, (r) => r.arm),
      by_family: byJson(run.results, (r) => r.family, [...FAMILIES, OTHER_FAMILY]),
      by_macro: byJson(run.results, (r) => r.macro),
      by_site: byJson(run.results, (r) => r.site),
      by_style: byJson(run.results, (r) => typeof r.style === "string" ? r.style : undefined),
    })),
    comparisons: compared.map((c, j) => ({
      a: labels[0],
      b: labels[j + 1],
      identical: identical(c),
      shared: c.shared,
      only_a: c.onlyA.length,
      only_b: c.onlyB.length,
      status_differs: c.statusDiffers.length,
      paired: c.test.pairs ? pairedJson(c.test) : null,
      by_family: groupsJson(c.byFamily),
      by_style: groupsJson(c.byStyle),
    })),
  };
}
