/**
 * The statistics of a run report: Wilson score intervals for a pass rate, the exact McNemar test and Newcombe's
 * interval for two runs paired on the same episodes, the unbiased pass@k estimator, nearest-rank percentiles.
 * Pure functions of counts.
 * @module
 */

/** The 0.975 quantile of the standard normal: the z of a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

/** A closed interval [lo, hi]. */
export interface Interval {
  lo: number;
  hi: number;
}

/**
 * The Wilson score interval of a proportion `k`/`n` (Wilson 1927): unlike the Wald interval it stays inside [0, 1]
 * and keeps its coverage at 0/n and n/n, which small task families often are.
 * @throws RangeError when n is not a positive whole number or k is not a whole number from 0 to n.
 */
export function wilson(k: number, n: number, z: number = Z95): Interval {
  if (!Number.isInteger(n) || n <= 0 || !Number.isInteger(k) || k < 0 || k > n) {
    throw new RangeError(`wilson(${k}, ${n}): expected whole numbers 0 <= k <= n, n > 0`);
  }
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  // At k = 0 and k = n the bound is exactly 0 or 1; rounding must not move it.
  return { lo: k === 0 ? 0 : Math.max(0, centre - half), hi: k === n ? 1 : Math.min(1, centre + half) };
}

/**
 * The exact two-sided McNemar p-value for `b` and `c` discordant pairs: the two-sided binomial test of
 * min(b, c) successes in b + c trials at probability 1/2 (1 when there is no discordant pair).
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  const lower = Math.min(b, c);
  // Sum C(n, i) / 2^n for i <= lower, each term built from the last (no factorials, no overflow).
  let term = Math.pow(0.5, n);
  let tail = term;
  for (let i = 1; i <= lower; i++) {
    term *= (n - i + 1) / i;
    tail += term;
  }
  return Math.min(1, 2 * tail);
}

/**
 * The unbiased pass@k of one task from `n` graded attempts of which `c` passed (Chen et al. 2021):
 * 1 - C(n-c, k) / C(n, k), the chance that k attempts drawn without replacement hold a pass.
 * @throws RangeError unless 0 <= c <= n and 1 <= k <= n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (c < 0 || c > n || k < 1 || k > n) throw new RangeError(`passAtK(${n}, ${c}, ${k}): expected c <= n, 1 <= k <= n`);
  if (n - c < k) return 1;
  // C(n-c, k) / C(n, k) = prod over i from n-c+1 to n of (1 - k/i): stable for any n.
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/** The four cells of two runs paired on the same episodes (A the baseline, B the run compared with it). */
export interface PairedCounts {
  /** Passed in both. */
  both: number;
  /** Passed in A only (a pass → fail flip). */
  aOnly: number;
  /** Passed in B only (a fail → pass flip). */
  bOnly: number;
  /** Failed in both. */
  neither: number;
}

/** A difference of two proportions and its interval. */
export interface Difference extends Interval {
  estimate: number;
}

/**
 * The difference of pass rates B - A over paired episodes with its interval by Newcombe's method 10 (Newcombe 1998,
 * Statist. Med. 17:2635): the Wilson intervals of both rates combined by square-and-add, with the correlation of the
 * pair (phi, its numerator moved n/2 towards 0 as the method says). No pair at all gives NaN.
 */
export function pairedDifference(t: PairedCounts, z: number = Z95): Difference {
  const n = t.both + t.aOnly + t.bOnly + t.neither;
  if (n === 0) return { estimate: NaN, lo: NaN, hi: NaN };
  const passB = t.both + t.bOnly;
  const passA = t.both + t.aOnly;
  const p1 = passB / n;
  const p2 = passA / n;
  const w1 = wilson(passB, n, z);
  const w2 = wilson(passA, n, z);
  const margins = passB * (n - passB) * passA * (n - passA);
  const cross = t.both * t.neither - t.aOnly * t.bOnly;
  const numerator = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross;
  const phi = margins === 0 ? 0 : numerator / Math.sqrt(margins);
  const d1l = p1 - w1.lo, d1u = w1.hi - p1, d2l = p2 - w2.lo, d2u = w2.hi - p2;
  const estimate = p1 - p2;
  return {
    estimate,
    lo: Math.max(-1, estimate - Math.sqrt(d1l * d1l + d2u * d2u - 2 * phi * d1l * d2u)),
    hi: Math.min(1, estimate + Math.sqrt(d2l * d2l + d1u * d1u - 2 * phi * d2l * d1u)),
  };
}

/** The 0.8 quantile of the standard normal: the z of 80 % power. */
export const Z80 = 0.8416212335729143;

/** The standard normal distribution function (erfc by Numerical Recipes' Chebyshev fit, error below 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + z / 2);
  const erfc = t * Math.exp(
    -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 +
                          t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
  );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/**
 * The power of McNemar's test (two-sided, normal approximation, Connor 1987, Biometrics 43:207) to detect a paired
 * difference `delta` over `n` pairs whose discordant share is `psi`: Φ((√n·δ − z_α·√ψ) / √(ψ − δ²)).
 */
export function mcnemarPower(n: number, psi: number, delta: number, zAlpha: number = Z95): number {
  if (delta <= 0 || psi <= 0) return 0;
  const spread = Math.sqrt(Math.max(psi - delta * delta, 1e-12));
  return normalCdf((Math.sqrt(n) * delta - zAlpha * Math.sqrt(psi)) / spread);
}

/**
 * The smallest difference of pass rates (a proportion) that `n` paired episodes with `discordant` of them discordant
 * could detect with McNemar's test at `power` (default 80 %) and two-sided α = 0.05: the observed discordance taken as
 * the true one. A paired difference cannot exceed the discordant share, so null when even that much would not reach
 * the power (too few pairs), and null when no pair is discordant (the discordance cannot be estimated).
 */
export function minDetectableDifference(n: number, discordant: number, zPower: number = Z80): number | null {
  if (n <= 0 || discordant <= 0) return null;
  const psi = discordant / n;
  const target = normalCdf(zPower);
  if (mcnemarPower(n, psi, psi) < target) return null;
  let lo = 0, hi = psi;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (mcnemarPower(n, psi, mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The nearest-rank `q`-quantile (0 < q <= 1) of `values`: the smallest value with at least q of them at or below. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}
