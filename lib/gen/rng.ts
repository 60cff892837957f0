/**
 * A seeded random number generator for the task generator: the same seed gives the same draws on every machine
 * and Deno version (no Math.random, no engine-dependent ordering), so a generated set is reproducible byte for
 * byte.
 */

/** A 32-bit FNV-1a hash of a string: the seed of a named stream (`"1:shop.paginate"`), and short stable ids. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32 over a 32-bit state: small, fast and good enough to sample parameters. */
export class Rng {
  #state: number;

  /** A stream seeded by a number or by a string (hashed). */
  constructor(seed: number | string) {
    this.#state = (typeof seed === "string" ? hash32(seed) : seed) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)];
  }

  /** `k` distinct items of `items` (all of them when k ≥ length), in draw order: a partial Fisher-Yates shuffle. */
  sample<T>(items: readonly T[], k: number): T[] {
    const a = [...items];
    const n = Math.min(k, a.length);
    for (let i = 0; i < n; i++) {
      const j = i + this.int(a.length - i);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a.slice(0, n);
  }
}
