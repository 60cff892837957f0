/**
 * Statistics over clustered episodes: the instances of one template (or the repeats of one task) succeed and fail
 * together, so they count as less than that many independent episodes. The design effect D is measured from the
 * clusters (cluster-robust variance over the variance independent episodes would have), the counts are divided by it
 * (the effective sample), and the usual intervals are computed on the effective counts with Student's t on G - 1
 * degrees of freedom for G clusters. The paired test is Durkalski et al.'s clustered McNemar (Statist. Med.
 * 2003, 22:2417): (Σ_k (c_k - b_k))² / Σ_k (c_k - b_k)², McNemar's statistic divided by D. With every cluster of one
 * episode D is exactly 1 and the numbers are Wilson's, McNemar's exact test and Newcombe's interval, as before.
 * docs/output-layout.md ("Report: clusters") says why this method and how it behaves with few clusters.
 * @module
 */
import {
  type Difference,
  type Interval,
  mcnemarExact,
  minDetectableDifference,
  type PairedCounts,
  pairedDifference,
  scoreInterval,
  t975,
  tTwoSided,
  Z80,
  Z95,
} from "./stats.ts";

/** Below this many clusters a comparison's test and interval rest on too few units to trust; the report says so. */
export const FEW_CLUSTERS = 10;

/** How a pass rate's interval was computed. */
export type RateMethod =
  /** Every cluster holds one episode (or there is one cluster): Wilson's interval over independent episodes. */
  | "wilson"
  /** Wilson's interval over the effective sample (n / D) with t on G - 1 degrees of freedom. */
  | "wilson_design_effect";

/** What clustering does to a sample: the design effect (at least 1), the ICC it implies, the effective size. */
export interface ClusterEffect {
  /** How many clusters hold at least one observation. */
  clusters: number;
  /** The largest number of observations in one cluster. */
  largest: number;
  /** Variance over the clusters / variance of independent observations, at least 1 (1 when it cannot be measured). */
  designEffect: number;
  /** The intra-cluster correlation D implies, (D - 1) / (m̄ - 1), m̄ the size-weighted mean cluster size; null when
   * D cannot be measured (every cluster holds one observation, one cluster, no variance). */
  icc: number | null;
  /** The observations divided by the design effect. */
  effectiveN: number;
}

/** A pass rate over clusters with its interval. */
export interface ClusteredRate extends ClusterEffect {
  passed: number;
  graded: number;
  /** passed / graded; undefined when nothing was graded. */
  rate?: number;
  ci?: Interval;
  method: RateMethod;
}

/** One cluster's graded episodes. */
export interface ClusterTally {
  passed: number;
  graded: number;
}

/** D from the sum of squared cluster deviations and what independent observations would give; m̄ for the ICC. */
function effect(sizes: readonly number[], clusteredVariance: number, independentVariance: number): ClusterEffect {
  const used = sizes.filter((m) => m > 0);
  const n = used.reduce((a, m) => a + m, 0);
  const largest = Math.max(0, ...used);
  const measurable = largest > 1 && used.length > 1 && independentVariance > 0;
  const designEffect = measurable ? Math.max(1, clusteredVariance / independentVariance) : 1;
  const meanSize = n ? used.reduce((a, m) => a + m * m, 0) / n : 1;
  return {
    clusters: used.length,
    largest,
    designEffect,
    icc: measurable && meanSize > 1 ? (designEffect - 1) / (meanSize - 1) : null,
    effectiveN: n / designEffect,
  };
}

/** Whether the clusters call for the design-effect methods: some cluster holds more than one, and there are two. */
const clustered = (e: ClusterEffect) => e.largest > 1 && e.clusters > 1;

/** The critical value of a two-sided 95 % interval: z for independent observations, t on G - 1 df for clusters. */
const critical = (e: ClusterEffect) => clustered(e) ? t975(e.clusters - 1) : Z95;

/**
 * The pass rate of episodes in clusters with its 95 % interval: Wilson's on the effective sample with t on G - 1
 * df; Wilson's as before when every cluster holds one episode or there is one cluster. A rate of 0 or 1 has no
 * variance to measure D from: D = 1, still with t on G - 1 df.
 */
export function clusteredRate(clusters: readonly ClusterTally[]): ClusteredRate {
  const passed = clusters.reduce((a, c) => a + c.passed, 0);
  const graded = clusters.reduce((a, c) => a + c.graded, 0);
  const p = graded ? passed / graded : 0;
  const deviations = clusters.reduce((a, c) => a + (c.passed - p * c.graded) ** 2, 0);
  const e = effect(clusters.map((c) => c.graded), deviations, graded * p * (1 - p));
  if (graded === 0) return { ...e, passed, graded, method: "wilson" };
  const method: RateMethod = clustered(e) ? "wilson_design_effect" : "wilson";
  return { ...e, passed, graded, rate: p, ci: scoreInterval(p, e.effectiveN, critical(e)), method };
}

/** How a paired comparison was tested. */
export type PairedMethod =
  /** McNemar's exact test, Newcombe's interval: every cluster holds one pair. */
  | "mcnemar_exact"
  /** Durkalski's clustered McNemar with t on G - 1 df; Newcombe's interval on the effective counts. */
  | "clustered_mcnemar"
  /** Every pair in one cluster (of more than one pair): no test across clusters exists; p is 1, the interval [-1, 1]. */
  | "one_cluster";

/** Two runs paired over clustered keys. */
export interface ClusteredComparison extends ClusterEffect {
  /** The 2×2 table summed over the clusters. */
  counts: PairedCounts;
  pairs: number;
  method: PairedMethod;
  /** The two-sided p-value. */
  p: number;
  /** B's pass rate minus A's, with its 95 % interval. */
  difference: Difference;
  /** The smallest difference detectable at 80 % power with this design effect (null: none can be, or no
   * discordant pair to estimate it from). */
  minDetectable: number | null;
  /** Fewer than FEW_CLUSTERS clusters hold the pairs. */
  fewClusters: boolean;
}

const sum = (cells: readonly PairedCounts[]): PairedCounts =>
  cells.reduce(
    (t, c) => ({
      both: t.both + c.both,
      aOnly: t.aOnly + c.aOnly,
      bOnly: t.bOnly + c.bOnly,
      neither: t.neither + c.neither,
    }),
    { both: 0, aOnly: 0, bOnly: 0, neither: 0 },
  );

const pairsIn = (c: PairedCounts) => c.both + c.aOnly + c.bOnly + c.neither;

/** The 2×2 table with every cell divided by `d`: the effective counts. */
const scaled = (t: PairedCounts, d: number): PairedCounts => ({
  both: t.both / d,
  aOnly: t.aOnly / d,
  bOnly: t.bOnly / d,
  neither: t.neither / d,
});

/**
 * Run B against run A over pairs in clusters, one 2×2 table a cluster. D is Σ_k (c_k - b_k)² / (b + c) (the variance
 * of the net flips over the clusters against McNemar's), at least 1; the test is McNemar's statistic over D against
 * t on G - 1 df (Durkalski's clustered McNemar with a small-sample reference), and the interval Newcombe's on the
 * counts over D with the same t. Every cluster one pair: McNemar's exact test and Newcombe's interval, today's
 * numbers. Every pair in one cluster: no test across clusters exists (p = 1, the interval [-1, 1]).
 */
export function clusteredPaired(cells: readonly PairedCounts[]): ClusteredComparison {
  const counts = sum(cells);
  const pairs = pairsIn(counts), discordant = counts.aOnly + counts.bOnly;
  const net = cells.reduce((a, c) => a + (c.bOnly - c.aOnly) ** 2, 0);
  const e = effect(cells.map(pairsIn), net, discordant);
  const common = { ...e, counts, pairs, fewClusters: e.clusters < FEW_CLUSTERS };
  if (e.clusters === 1 && e.largest > 1) {
    // Every pair in one cluster: nothing varies across clusters to test against. No claim either way.
    const estimate = (counts.bOnly - counts.aOnly) / pairs;
    return { ...common, method: "one_cluster", p: 1, difference: { estimate, lo: -1, hi: 1 }, minDetectable: null };
  }
  if (!clustered(e)) {
    return {
      ...common,
      method: "mcnemar_exact",
      p: mcnemarExact(counts.aOnly, counts.bOnly),
      difference: pairedDifference(counts),
      minDetectable: minDetectableDifference(pairs, discordant),
    };
  }
  const z = critical(e);
  const statistic = discordant ? (counts.bOnly - counts.aOnly) / Math.sqrt(e.designEffect * discordant) : 0;
  return {
    ...common,
    method: "clustered_mcnemar",
    p: tTwoSided(statistic, e.clusters - 1),
    // The estimate from the counts themselves (the effective ones give it too, up to rounding).
    difference: {
      ...pairedDifference(scaled(counts, e.designEffect), z),
      estimate: (counts.bOnly - counts.aOnly) / pairs,
    },
    minDetectable: minDetectableDifference(e.effectiveN, discordant / e.designEffect, Z80, z),
  };
}
