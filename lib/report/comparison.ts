/**
 * The report's comparison section: each run after the first paired with it on (task_id, repeat): whether both hold
 * the same results, the flips, the clusters the pairs fall in, the paired test and the difference of pass rates with
 * its interval over those clusters (lib/report/cluster.ts), the power, and the same per family and per style.
 * @module
 */
import { episodeName } from "../run_folder/mod.ts";
import { type Comparison, type EpisodeKey, type GroupComparison, identical } from "./aggregate.ts";
import { type ClusteredComparison, FEW_CLUSTERS } from "./cluster.ts";
import type { Block } from "./doc.ts";
import { capped, pNumber, pValue, signed } from "./format.ts";
import type { RunData } from "./load.ts";

/**
 * Each run after the first, paired with the first on (task_id, repeat): `compared[j]` is run j + 1 against the
 * first; `by` names the clusters (--cluster-by).
 */
export function comparisons(runs: readonly RunData[], labels: string[], compared: Comparison[], by: string): Block[] {
  if (runs.length < 2) return [];
  const [first, ...rest] = runs;
  return [
    { kind: "heading", level: 2, text: "Comparison" },
    ...rest.flatMap((run, j) => {
      const c = compared[j];
      const repeated = [...first.results, ...run.results].some((r) => r.repeat > 0);
      const name = (k: EpisodeKey) => episodeName(k.task_id, k.repeat, repeated ? 2 : 1);
      const [a, b] = [labels[0], labels[j + 1]];
      return [
        { kind: "heading", level: 3, text: `${b} against ${a}` } as Block,
        ...sameResults(c, a, b, name),
        ...paired(c, a, b, name, by),
      ];
    }),
  ];
}

/** Whether both runs hold the same keys with the same statuses, and each difference. */
function sameResults(c: Comparison, a: string, b: string, name: (k: EpisodeKey) => string): Block[] {
  if (identical(c)) {
    const text = `Identical results set: yes (${c.shared} (task_id, repeat) keys, each with the same status in both).`;
    return [{ kind: "paragraph", text }];
  }
  const diffs = [
    ...c.statusDiffers.map((d) => `${name(d)}: ${d.a} in ${a}, ${d.b} in ${b}`),
    ...c.onlyA.map((k) => `${name(k)}: only in ${a}`),
    ...c.onlyB.map((k) => `${name(k)}: only in ${b}`),
  ];
  return [{
    kind: "paragraph",
    text: `Identical results set: no (${c.statusDiffers.length} key(s) with another status, ${c.onlyA.length} ` +
      `only in ${a}, ${c.onlyB.length} only in ${b}).`,
  }, { kind: "list", items: capped(diffs) }];
}

/** The keys graded in both runs: the 2×2 table, the flips, the clusters, the paired test and the interval. */
function paired(c: Comparison, a: string, b: string, name: (k: EpisodeKey) => string, by: string): Block[] {
  const p = c.paired, t = c.test;
  if (t.pairs === 0) {
    return [{ kind: "paragraph", text: "No (task_id, repeat) key is graded in both runs: nothing to pair." }];
  }
  const d = t.difference;
  const flips = (keys: EpisodeKey[]) => capped(keys.map(name)).join(", ") || "none";
  return [
    { kind: "paragraph", text: `Paired over the ${t.pairs} (task_id, repeat) key(s) graded in both runs:` },
    {
      kind: "table",
      head: ["", `${b} passed`, `${b} failed`],
      rows: [[`${a} passed`, String(p.both), String(p.aOnly)], [`${a} failed`, String(p.bOnly), String(p.neither)]],
      numeric: [false, true, true],
    },
    ...(t.fewClusters ? [{ kind: "paragraph", text: fewClustersWarning(t.clusters, by) } as Block] : []),
    {
      kind: "list",
      items: [
        `Both pass: ${p.both}. Both fail: ${p.neither}.`,
        `Flipped pass → fail (${p.aOnly}): ${flips(c.passToFail)}.`,
        `Flipped fail → pass (${p.bOnly}): ${flips(c.failToPass)}.`,
        clusterLine(t, by),
        testLine(t),
        `Pass-rate difference ${b} - ${a}: ${signed(d.estimate)} percentage points, 95 % CI ${signed(d.lo)} to ` +
        `${signed(d.hi)} ${intervalMethod(t)}.`,
        `Power: ${power(t)}`,
      ],
    },
    ...breakdownTable("family", c.byFamily),
    ...breakdownTable("style", c.byStyle),
  ];
}

/** The plain warning of a comparison on fewer than FEW_CLUSTERS clusters. */
function fewClustersWarning(clusters: number, by: string): string {
  return `Warning: this comparison rests on ${clusters} cluster(s) (by ${by}), fewer than ${FEW_CLUSTERS}. Episodes of ` +
    "one cluster succeed and fail together, so a difference confined to a few clusters cannot be told from those " +
    "clusters' own variation: read the p-value and the interval below as rough at best.";
}

/** How many clusters hold the pairs and what they do to the sample. */
function clusterLine(t: ClusteredComparison, by: string): string {
  if (t.largest <= 1) {
    return `Clusters (by ${by}): ${t.clusters}, one pair each: the pairs count as independent (design effect 1).`;
  }
  const icc = t.icc === null ? "–" : t.icc.toFixed(2);
  return `Clusters (by ${by}): ${t.clusters}, up to ${t.largest} pairs in one; design effect ${
    t.designEffect.toFixed(2)
  }` +
    ` (ICC of the paired difference ${icc}), effective pairs ${t.effectiveN.toFixed(1)} of ${t.pairs}.`;
}

/** The paired test and its p-value, in words. */
function testLine(t: ClusteredComparison): string {
  const discordant = t.counts.aOnly + t.counts.bOnly;
  if (t.method === "mcnemar_exact") {
    return `McNemar exact two-sided ${pValue(t.p)} (binomial test on the ${discordant} discordant pair(s)).`;
  }
  if (t.method === "one_cluster") {
    return `No test: every pair is in one cluster, so nothing varies across clusters to test the ${discordant} ` +
      "discordant pair(s) against (p taken as 1; `--cluster-by episode` treats the pairs as independent).";
  }
  return `Clustered McNemar (Durkalski et al. 2003) two-sided ${pValue(t.p)} (McNemar's statistic on the ` +
    `${discordant} discordant pair(s) divided by the design effect, against t with ${t.clusters - 1} df).`;
}

/** How the difference's interval was computed. */
function intervalMethod(t: ClusteredComparison): string {
  if (t.method === "mcnemar_exact") {
    return "(Newcombe's method 10: Wilson score intervals of both rates, square-and-add with the paired correlation)";
  }
  if (t.method === "one_cluster") return "(one cluster: no interval narrower than every possible difference)";
  return "(Newcombe's method 10 on the counts divided by the design effect, t with " +
    `${t.clusters - 1} df in place of z)`;
}

/** The smallest difference the pairs could detect at 80 % power, in words. */
function power(t: ClusteredComparison): string {
  const n = t.pairs, discordant = t.counts.aOnly + t.counts.bOnly;
  const how = t.method === "mcnemar_exact"
    ? "(McNemar, two-sided α = 0.05, 80 % power, the observed discordance taken as the true one)"
    : `(McNemar on the ${t.effectiveN.toFixed(1)} effective pairs, design effect ${t.designEffect.toFixed(2)}, ` +
      "two-sided α = 0.05 with t, 80 % power, the observed discordance taken as the true one)";
  if (discordant === 0) {
    return `no pair is discordant, so the smallest detectable difference cannot be estimated ${how}.`;
  }
  if (t.minDetectable === null) {
    return `${n} pairs with ${discordant} discordant cannot detect any difference ${how}: too few to conclude.`;
  }
  return `with ${discordant} of ${n} pairs discordant, this set could detect a difference of ` +
    `${(t.minDetectable * 100).toFixed(1)} percentage points or more ${how}; a smaller true difference would likely ` +
    "go unseen.";
}

/** A breakdown's table (per family, per style): each group's test over its clusters, Holm-adjusted. */
function breakdownTable(name: string, groups: readonly GroupComparison[]): Block[] {
  if (groups.length < 2) return [];
  const rows = groups.map(({ group, test: t, holmP }) => {
    const discordant = t.counts.aOnly + t.counts.bOnly;
    const mdd = t.minDetectable === null
      ? (discordant ? "none: too few pairs" : "n/a: no discordant pair")
      : `±${(t.minDetectable * 100).toFixed(1)}`;
    const d = t.difference;
    return [
      group,
      String(t.pairs),
      String(t.clusters) + (t.fewClusters ? " (few)" : ""),
      String(discordant),
      signed(d.estimate),
      `${signed(d.lo)} to ${signed(d.hi)}`,
      pNumber(t.p),
      pNumber(holmP),
      t.designEffect.toFixed(2),
      t.icc === null ? "–" : t.icc.toFixed(2),
      t.effectiveN.toFixed(1),
      mdd,
    ];
  });
  return [
    {
      kind: "paragraph",
      text: `Per ${name}: ${groups.length} comparisons, so each p-value is also given Holm-adjusted for the ` +
        `${groups.length} (read that one when asking whether any ${name} differs). Smallest detectable: at 80 % ` +
        `power with the ${name}'s design effect, in percentage points; "(few)": fewer than ${FEW_CLUSTERS} clusters.`,
    },
    {
      kind: "table",
      head: [
        name[0].toUpperCase() + name.slice(1),
        "Pairs",
        "Clusters",
        "Discordant",
        "Difference",
        "95 % CI",
        "p",
        "Holm p",
        "Design effect",
        "ICC",
        "Effective pairs",
        "Smallest detectable",
      ],
      rows,
      numeric: [false, ...Array<boolean>(11).fill(true)],
    },
  ];
}
