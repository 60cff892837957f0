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
  return scoreInterval(k / n, n, z);
}

/**
 * The Wilson score interval of a proportion `p` over `n` observations, `n` any positive number: an effective sample
 * size (n divided by a design effect) is one. wilson() is this at n whole and p = k/n.
 */
export function scoreInterval(p: number, n: number, z: number = Z95): Interval {
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  // At p = 0 and p = 1 the bound is exactly 0 or 1; rounding must not move it.
  return { lo: p === 0 ? 0 : Math.max(0, centre - half), hi: p === 1 ? 1 : Math.min(1, centre + half) };
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
 * pair (phi, its numerator moved n/2 towards 0 as the method says). No pair at all gives NaN. The counts may be
 * effective ones (each divided by a design effect, lib/report/cluster.ts).
 */
export function pairedDifference(t: PairedCounts, z: number = Z95): Difference {
  const n = t.both + t.aOnly + t.bOnly + t.neither;
  if (n === 0) return { estimate: NaN, lo: NaN, hi: NaN };
  const passB = t.both + t.bOnly;
  const passA = t.both + t.aOnly;
  const p1 = passB / n;
  const p2 = passA / n;
  const w1 = scoreInterval(p1, n, z);
  const w2 = scoreInterval(p2, n, z);
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
 * the power (too few pairs), and null when no pair is discordant (the discordance cannot be estimated). `n` and
 * `discordant` may be effective counts (divided by a design effect), `zAlpha` a t quantile with few clusters.
 */
export function minDetectableDifference(
  n: number,
  discordant: number,
  zPower: number = Z80,
  zAlpha: number = Z95,
): number | null {
  if (n <= 0 || discordant <= 0) return null;
  const psi = discordant / n;
  const target = normalCdf(zPower);
  if (mcnemarPower(n, psi, psi, zAlpha) < target) return null;
  let lo = 0, hi = psi;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (mcnemarPower(n, psi, mid, zAlpha) >= target) hi = mid;
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

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993,
    676.5203681218851,
    -1259.1392167224028,
    771.32342877765313,
    -176.61502916214059,
    12.507343278686905,
    -0.13857109526572012,
    9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = c[0];
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes' betacf). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (
      const aa of [m * (b - m) * x / ((a + m2 - 1) * (a + m2)), -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))]
    ) {
      d = 1 + aa * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? front * betaFraction(a, b, x) / a : 1 - front * betaFraction(b, a, 1 - x) / b;
}

/** The two-sided p-value of a t statistic with `df` degrees of freedom (df > 0): P(|T| >= |t|). */
export function tTwoSided(t: number, df: number): number {
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The 0.975 quantile of Student's t with `df` degrees of freedom (df > 0): the t of a two-sided 95 % interval. */
export function t975(df: number): number {
  let lo = 0, hi = 1;
  while (tTwoSided(hi, df) > 0.05) hi *= 2;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (tTwoSided(mid, df) > 0.05) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Holm's step-down adjustment of p-values for a family of comparisons (Holm 1979): the i-th smallest times (m - i),
 * made monotone, capped at 1. Returned in the input's order.
 */
export function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    out[i] = running;
  });
  return out;
}
