/**
 * Shards for Slurm arrays: `--shard K/N` runs the K-th of N parts of the selected tasks. The split is by position,
 * task i to shard i mod N, so every shard gets the same number of tasks give or take one, and all repeats of a task
 * stay in its shard. `unshardLists` puts the shards' task lists back in the selection's order.
 */
import { UsageError } from "../errors/mod.ts";

/** Part `index` (from 0) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** The most shards a selection is split into (a Slurm array's usual limit is far below). */
export const MAX_SHARDS = 10_000;

/**
 * `K/N` as a shard: whole numbers with 0 <= K < N <= MAX_SHARDS.
 * @throws UsageError naming `flag` and the value: `--shard "3/3": K must be from 0 to 2 (K/N, K from 0 to N-1)`.
 */
export function parseShard(text: string, flag = "--shard"): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const fail = (why: string) => new UsageError(`${flag} "${text}"${why} (K/N: part K of N, K from 0 to N-1)`);
  if (!m) throw fail(" is not K/N with whole numbers K and N");
  const [index, count] = [Number(m[1]), Number(m[2])];
  if (count < 1 || count > MAX_SHARDS) throw fail(`: N must be from 1 to ${MAX_SHARDS}`);
  if (index >= count) throw fail(`: K must be from 0 to ${count - 1}`);
  return { index, count };
}

/** The items of `shard`: those at positions index, index + count, index + 2·count, … of `items`. */
export function shardTasks<T>(items: readonly T[], shard: Shard): T[] {
  return items.filter((_, i) => i % shard.count === shard.index);
}

/**
 * The shards' lists interleaved back into the order they were split from: `lists[k]` is shard k's (undefined for a
 * shard that is missing, whose items are then left out). The inverse of shardTasks over every shard.
 */
export function unshardLists<T>(lists: readonly (readonly T[] | undefined)[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l?.length ?? 0));
  for (let j = 0; j < longest; j++) {
    for (const list of lists) if (list && j < list.length) out.push(list[j]);
  }
  return out;
}
