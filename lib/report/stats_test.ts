/**
 * The report's statistics against values worked out by hand from the textbook formulas (each test shows the
 * arithmetic), never computed by the code under test.
 */
import assert from "node:assert/strict";
import {
  mcnemarExact,
  mcnemarPower,
  minDetectableDifference,
  normalCdf,
  pairedDifference,
  passAtK,
  quantile,
  wilson,
  Z95,
} from "./stats.ts";

const near = (actual: number, expected: number, what: string, eps = 5e-6) =>
  assert.ok(Math.abs(actual - expected) < eps, `${what}: ${actual} is not ${expected}`);

Deno.test("wilson() matches the closed form at 0/10, 5/10 and 10/10", () => {
  // z² = 1.959964² = 3.841459. Bounds: (2k + z² ± z·√(z² + 4k(1 - k/n))) / (2(n + z²)), 2(n + z²) = 27.682918.
  // 0/10: (3.841459 ± 3.841459) / 27.682918 → 0 and 7.682918 / 27.682918 = 0.277533.
  let w = wilson(0, 10);
  assert.equal(w.lo, 0);
  near(w.hi, 0.277533, "0/10 upper");
  // 5/10: √(3.841459 + 10) = 3.720411, × z = 7.291872; (13.841459 ∓ 7.291872) / 27.682918.
  w = wilson(5, 10);
  near(w.lo, 0.236593, "5/10 lower");
  near(w.hi, 0.763407, "5/10 upper");
  // 10/10: mirrors 0/10.
  w = wilson(10, 10);
  near(w.lo, 0.722467, "10/10 lower");
  assert.equal(w.hi, 1);
  near(Z95, 1.959964, "z", 1e-6);
});

Deno.test("wilson() refuses an empty or impossible count", () => {
  assert.throws(() => wilson(0, 0), RangeError);
  assert.throws(() => wilson(4, 3), RangeError);
  assert.throws(() => wilson(1.5, 3), RangeError);
});

Deno.test("mcnemarExact() is the two-sided binomial test on the discordant pairs", () => {
  // b=1, c=6: 2·(C(7,0) + C(7,1)) / 2^7 = 2·8/128 = 0.125.
  assert.equal(mcnemarExact(1, 6), 0.125);
  assert.equal(mcnemarExact(6, 1), 0.125);
  // No discordant pair: nothing against the null.
  assert.equal(mcnemarExact(0, 0), 1);
  // b=3, c=0: 2·C(3,0)/2^3 = 0.25.
  assert.equal(mcnemarExact(3, 0), 0.25);
  // b=2, c=7: 2·(1 + 9 + 36)/512 = 92/512 = 0.1796875.
  assert.equal(mcnemarExact(2, 7), 0.1796875);
  // b=c: the doubled tail passes 1 and is capped there.
  assert.equal(mcnemarExact(2, 2), 1);
});

Deno.test("passAtK() is 1 - C(n-c, k)/C(n, k)", () => {
  // n=5, c=2: C(5,k) = 5, 10, 10, 5; C(3,k) = 3, 3, 1, 0.
  near(passAtK(5, 2, 1), 1 - 3 / 5, "k=1");
  near(passAtK(5, 2, 2), 1 - 3 / 10, "k=2");
  near(passAtK(5, 2, 3), 1 - 1 / 10, "k=3");
  assert.equal(passAtK(5, 2, 4), 1);
  assert.equal(passAtK(4, 0, 2), 0);
  assert.equal(passAtK(4, 4, 1), 1);
  // A large n stays finite: n=200, c=1, k=1 is 1/200.
  near(passAtK(200, 1, 1), 0.005, "n=200");
  assert.throws(() => passAtK(3, 1, 4), RangeError);
});

Deno.test("pairedDifference() is Newcombe's method 10 (Altman et al. 2000, table 6.2)", () => {
  // A (rows) against B (columns): both 14, A only 5, B only 0, neither 22; n = 41. pA = 19/41, pB = 14/41.
  // Wilson: 19/41 → [0.320562, 0.612535]; 14/41 → [0.215588, 0.494502].
  // phi: ad - bc = 308 > n/2, so (308 - 20.5) / √(19·22·14·27) = 287.5 / 397.4972 = 0.723276.
  // Newcombe's pA - pB = 5/41 = 0.121951 in [0.011483, 0.226493]; B - A is its mirror.
  const d = pairedDifference({ both: 14, aOnly: 5, bOnly: 0, neither: 22 });
  near(d.estimate, -0.121951, "estimate");
  near(d.lo, -0.226493, "lower");
  near(d.hi, -0.011483, "upper");
});

Deno.test("pairedDifference() at every pair flipped and with no pair", () => {
  // 3 pairs, all A only: margins hold a 0, so phi = 0; pB = 0 with Wilson [0, 0.561497], pA = 1 with
  // [0.438503, 1]. Lower: -1 - √(0 + 0) = -1; upper: -1 + √(0.561497² + 0.561497²) = -1 + 0.794077 = -0.205923.
  const d = pairedDifference({ both: 0, aOnly: 3, bOnly: 0, neither: 0 });
  assert.equal(d.estimate, -1);
  assert.equal(d.lo, -1);
  near(d.hi, -0.205923, "upper");
  assert.ok(Number.isNaN(pairedDifference({ both: 0, aOnly: 0, bOnly: 0, neither: 0 }).estimate));
});

Deno.test("quantile() is the nearest rank", () => {
  const xs = [50, 10, 40, 20, 30, 60, 70, 80, 90, 100];
  assert.equal(quantile(xs, 0.5), 50);
  assert.equal(quantile(xs, 0.9), 90);
  assert.equal(quantile([7], 0.9), 7);
  assert.equal(quantile([1, 2, 3], 0.5), 2);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});

Deno.test("normalCdf() gives the table's values", () => {
  near(normalCdf(0), 0.5, "Φ(0)", 1e-7);
  near(normalCdf(Z95), 0.975, "Φ(1.96)", 1e-7);
  near(normalCdf(-1), 0.158655254, "Φ(-1)", 1e-7);
  near(normalCdf(0.8416212335729143), 0.8, "Φ(z80)", 1e-7);
});

Deno.test("minDetectableDifference() inverts Connor's sample size for McNemar's test", () => {
  // Connor (1987): n = [z_α·√ψ + z_β·√(ψ − δ²)]² / δ². With ψ = 0.2 and δ = 0.1:
  // [1.95996·0.44721 + 0.84162·0.43589]² / 0.01 = (0.87651 + 0.36685)² / 0.01 = 154.59 pairs.
  near(mcnemarPower(154.59, 0.2, 0.1), 0.8, "power at Connor's n", 1e-4);
  const d = minDetectableDifference(155, 31)!; // ψ = 0.2 exactly
  assert.ok(d > 0.0995 && d < 0.1, `155 pairs, 31 discordant: ${d}`);
  // ψ = 0.2 and δ = 0.05: (0.87651 + 0.84162·√0.1975 = 0.37402)² / 0.0025 = 625.3: the "about 600 tasks".
  const d625 = minDetectableDifference(626, 125)!; // ψ = 0.1997
  assert.ok(Math.abs(d625 - 0.05) < 0.0015, `626 pairs at ψ ≈ 0.2: ${d625}`);
  assert.equal(minDetectableDifference(40, 0), null, "no discordant pair: the discordance is not estimable");
  assert.equal(minDetectableDifference(3, 1), null, "3 pairs cannot reach 80 % power whatever the difference");
});
