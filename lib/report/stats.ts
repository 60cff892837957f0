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

/** The nearest-rank `q`-quantile (0 < q <= 1) of `values`: the smallest value with at least q of them at or below. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}
