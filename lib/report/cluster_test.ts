/**
 * The clustered statistics: with clusters of one they give the numbers the report gave before clusters (figures
 * written down from that implementation, and its functions over every small table); on the two-runs example
 * they tell two flipped templates from a difference spread over ten; and a seeded simulation of 1,000 runs (50
 * clusters × 10, ICC 0.5) holds the clustered test to its α where McNemar's test on the pooled pairs rejects far more,
 * and shows it keeps its power under a difference spread over all clusters.
 */
import assert from "node:assert/strict";
import { Rng } from "../gen/rng.ts";
import { clusteredPaired, clusteredRate } from "./cluster.ts";
import {
  holm,
  mcnemarExact,
  minDetectableDifference,
  type PairedCounts,
  pairedDifference,
  t975,
  tTwoSided,
  wilson,
} from "./stats.ts";

const near = (actual: number, expected: number, what: string, eps = 1e-9) =>
  assert.ok(Math.abs(actual - expected) < eps, `${what}: ${actual} is not ${expected}`);

/** The 2×2 table as one cluster per pair. */
function singletons(t: PairedCounts): PairedCounts[] {
  const one = (cell: keyof PairedCounts, k: number) =>
    Array.from({ length: k }, () => ({ both: 0, aOnly: 0, bOnly: 0, neither: 0, [cell]: 1 }));
  return [...one("both", t.both), ...one("aOnly", t.aOnly), ...one("bOnly", t.bOnly), ...one("neither", t.neither)];
}

Deno.test("clusteredPaired() over clusters of one gives the numbers of the report before clusters", () => {
  // Written down from lib/report/stats.ts at e553352 (McNemar exact p, Newcombe's interval, the power figure).
  const before: [PairedCounts, number, number, number, number | null][] = [
    [
      { both: 30, aOnly: 7, bOnly: 15, neither: 10 },
      0.13380050659179688,
      -0.02003140534085815,
      0.2701671300193246,
      0.20793989587621012,
    ],
    [
      { both: 40, aOnly: 20, bOnly: 0, neither: 40 },
      0.0000019073486328125,
      -0.27625017959038606,
      -0.11752288677913493,
      0.12381933148441376,
    ],
    [{ both: 2, aOnly: 1, bOnly: 3, neither: 0 }, 0.625, -0.2715966641188081, 0.7262927849609899, null],
  ];
  for (const [t, p, lo, hi, mdd] of before) {
    const c = clusteredPaired(singletons(t));
    assert.equal(c.method, "mcnemar_exact");
    assert.equal(c.designEffect, 1);
    assert.equal(c.icc, null);
    assert.equal(c.p, p);
    assert.equal(c.difference.lo, lo);
    assert.equal(c.difference.hi, hi);
    assert.equal(c.minDetectable, mdd);
  }
});

Deno.test("clusteredPaired() and clusteredRate() over clusters of one equal the independent functions on every small table", () => {
  for (let n = 1; n <= 12; n++) {
    for (let both = 0; both <= n; both++) {
      for (let aOnly = 0; both + aOnly <= n; aOnly++) {
        for (let bOnly = 0; both + aOnly + bOnly <= n; bOnly++) {
          const t = { both, aOnly, bOnly, neither: n - both - aOnly - bOnly };
          const c = clusteredPaired(singletons(t));
          assert.equal(c.p, mcnemarExact(aOnly, bOnly));
          assert.deepEqual(c.difference, pairedDifference(t));
          assert.equal(c.minDetectable, minDetectableDifference(n, aOnly + bOnly));
        }
      }
    }
    for (let k = 0; k <= n; k++) {
      const r = clusteredRate(Array.from({ length: n }, (_, i) => ({ passed: i < k ? 1 : 0, graded: 1 })));
      assert.deepEqual(r.ci, wilson(k, n));
      assert.equal(r.method, "wilson");
    }
  }
});

const EMPTY: PairedCounts = { both: 0, aOnly: 0, bOnly: 0, neither: 0 };

Deno.test("clusteredPaired() on the issue's example: 20 flips in 2 of 10 templates are not a difference; spread over 10 they are", () => {
  // 10 templates × 10 instances; A passes templates 0 and 1 whole and 5 of 10 elsewhere; B fails every instance of
  // templates 0 and 1. Net flips per cluster: -10, -10, 0 × 8, so D = 200 / 20 = 10 and z² = 400 / 200 = 2: t = √2 on
  // 9 df, p = 0.1909.
  const two = Array.from({ length: 10 }, (_, k) => k < 2 ? { ...EMPTY, aOnly: 10 } : { ...EMPTY, both: 5, neither: 5 });
  const c = clusteredPaired(two);
  assert.equal(c.method, "clustered_mcnemar");
  assert.equal(c.clusters, 10);
  assert.equal(c.designEffect, 10);
  near(c.icc!, 1, "every pair of a flipped template flips with it");
  near(c.effectiveN, 10, "n / D");
  near(c.p, 0.190947, "p", 1e-6);
  assert.ok(c.difference.lo < 0 && c.difference.hi > 0, `the interval holds 0: ${JSON.stringify(c.difference)}`);
  near(c.difference.estimate, -0.2, "the difference");
  // The same 20 flips, 2 in every template: D = 10·4 / 20 = 2, z² = 400 / 40 = 10, t = 3.162 on 9 df: p = 0.01151.
  const spread = Array.from({ length: 10 }, () => ({ ...EMPTY, both: 3, aOnly: 2, neither: 5 }));
  const s = clusteredPaired(spread);
  assert.equal(s.designEffect, 2);
  near(s.p, 0.011508, "p", 1e-6);
  assert.ok(s.difference.hi < 0, `the interval excludes 0: ${JSON.stringify(s.difference)}`);
  assert.ok(s.minDetectable !== null && s.minDetectable > minDetectableDifference(100, 20)!, "power counts D");
});

Deno.test("clusteredPaired() makes no claim when every pair is in one cluster", () => {
  // One template, all 10 instances flipped: McNemar's exact test would say p = 0.002; across clusters there is no test.
  const c = clusteredPaired([{ ...EMPTY, aOnly: 10 }]);
  assert.equal(c.method, "one_cluster");
  assert.equal(c.p, 1);
  assert.deepEqual(c.difference, { estimate: -1, lo: -1, hi: 1 });
  assert.equal(c.minDetectable, null);
  assert.equal(c.icc, null);
  assert.ok(c.fewClusters);
});

Deno.test("clusteredRate() widens a rate's interval by the design effect, and says when it cannot measure one", () => {
  // 4 clusters of 5: 5, 5, 0, 0 passed. p = 0.5; Σ (y - p·m)² = 4 · 2.5² = 25 over n·p(1 - p) = 5: D = 5,
  // m̄ = 5, ICC = (5 - 1) / (5 - 1) = 1; effective n = 4, Wilson at p = 0.5, n = 4 with t on 3 df (3.182).
  const r = clusteredRate([5, 5, 0, 0].map((passed) => ({ passed, graded: 5 })));
  assert.equal(r.method, "wilson_design_effect");
  assert.equal(r.designEffect, 5);
  assert.equal(r.icc, 1);
  assert.equal(r.effectiveN, 4);
  const z = 3.182446, z2 = z * z, half = (z / (1 + z2 / 4)) * Math.sqrt(0.25 / 4 + z2 / 64);
  near(r.ci!.lo, 0.5 - half, "lower", 1e-6);
  // Every cluster at the pooled rate: no variance over clusters beyond the binomial's, D is held at 1.
  assert.equal(clusteredRate([2, 2, 2].map((passed) => ({ passed, graded: 4 }))).designEffect, 1);
  // All passed: nothing to measure D from (D = 1), but still two clusters: Wilson's at n = 6 with t on 1 df.
  const all = clusteredRate([3, 3].map((passed) => ({ passed, graded: 3 })));
  assert.equal(all.designEffect, 1);
  assert.deepEqual(all.ci, wilson(6, 6, t975(1)));
});

Deno.test("tTwoSided(), t975() and holm() match the tables", () => {
  near(t975(1), 12.7062, "t(1)", 1e-4);
  near(t975(9), 2.2622, "t(9)", 1e-4);
  near(t975(49), 2.0096, "t(49)", 1e-4);
  near(tTwoSided(2, 30), 0.054625, "P(|T30| > 2)", 1e-5);
  near(tTwoSided(0, 5), 1, "t = 0");
  // 0.01·4, 0.03·3, max(0.04·2, 0.09), 0.5.
  assert.deepEqual(holm([0.01, 0.04, 0.03, 0.5]).map((p) => Number(p.toFixed(10))), [0.04, 0.09, 0.09, 0.5]);
});

/** A Beta(½, ½) draw (arcsine law: sin² of a uniform angle): a cluster's pass probability with ICC 1 / (½ + ½ + 1). */
const arcsine = (rng: Rng) => Math.sin((Math.PI / 2) * rng.next()) ** 2;

/**
 * One simulated pair of runs: 50 templates × 10 instances. Under the null each arm draws its own template pass
 * probability from Beta(½, ½) (ICC 0.5: a template favours one arm or the other, neither on average); under a
 * difference B's is A's + `shift` in every template. Outcomes are independent given their template's probability.
 */
function simulate(rng: Rng, shift: number | null): PairedCounts[] {
  return Array.from({ length: 50 }, () => {
    const pa = arcsine(rng), pb = shift === null ? arcsine(rng) : Math.min(1, pa + shift);
    const t = { ...EMPTY };
    for (let i = 0; i < 10; i++) {
      const a = rng.next() < pa, b = rng.next() < pb;
      t[a ? (b ? "both" : "aOnly") : (b ? "bOnly" : "neither")]++;
    }
    return t;
  });
}

/** How often, over 1,000 seeded simulations, the clustered test and McNemar's on the pooled pairs reject at 0.05. */
function rejections(shift: number | null): { clustered: number; naive: number } {
  const rng = new Rng(`cluster-sim:${shift}`);
  let clustered = 0, naive = 0;
  for (let i = 0; i < 1000; i++) {
    const c = clusteredPaired(simulate(rng, shift));
    if (c.p < 0.05) clustered++;
    if (mcnemarExact(c.counts.aOnly, c.counts.bOnly) < 0.05) naive++;
  }
  return { clustered: clustered / 1000, naive: naive / 1000 };
}

Deno.test("clusteredPaired() holds α under clustered nulls where the pooled McNemar does not, and keeps its power", () => {
  const none = rejections(null);
  assert.ok(Math.abs(none.clustered - 0.05) <= 0.02, `clustered test rejects ${none.clustered} of true nulls`);
  assert.ok(none.naive > 0.25, `McNemar on the pooled pairs rejects ${none.naive} of true nulls`);
  // A true 10-point difference in every template: the clustered test finds it nearly as often as the naive one.
  const some = rejections(0.1);
  assert.ok(some.clustered >= 0.85, `clustered power ${some.clustered}`);
  assert.ok(some.clustered >= some.naive - 0.05, `clustered ${some.clustered} against naive ${some.naive}`);
});

Deno.test("the README's power table follows from the bundled set's clusters", async () => {
  const root = new URL("../../", import.meta.url);
  const text = await Deno.readTextFile(new URL("fixtures/valgen/val.jsonl", root));
  const templates = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l).gen.template as string);
  const sizes = [...Map.groupBy(templates, (t) => t).values()].map((ts) => ts.length);
  const n = templates.length, g = sizes.length, mBar = sizes.reduce((a, m) => a + m * m, 0) / n;
  assert.deepEqual([n, g, mBar.toFixed(2)], [1097, 111, "9.93"]);
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const detectable = (d: number, psi: number, z?: number) => {
    const m = minDetectableDifference(n / d, (psi * n) / d, undefined, z);
    return m === null ? "none" : (100 * m).toFixed(1);
  };
  for (const icc of [0, 0.1, 0.3, 1]) {
    // D = 1 + (m̄ - 1)·ICC; t on G - 1 df once the instances are clustered.
    const d = 1 + (mBar - 1) * icc, z = icc === 0 ? undefined : t975(g - 1);
    const row = new RegExp(
      `\\| ${icc}[^|]*\\| ${d.toFixed(2)} \\| ${Math.round(n / d)} +\\| ${detectable(d, 0.2, z)}( points)? +\\| ` +
        `${detectable(d, 0.1, z)} +\\|`,
    );
    assert.match(readme, row, `ICC ${icc}`);
  }
});
