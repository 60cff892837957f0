/**
 * Shards for Slurm arrays: `--shard K/N` runs the K-th of N parts of the selected tasks. The split is by position,
 * task i to shard i mod N, so every shard gets the same number of tasks give or take one, and all repeats of a task
 * stay in its shard.
 */

import type { Shard } from "../run_folder/mod.ts";

/** Part `index` (from 0) of `count`: run.json's format owns the type. */
export type { Shard };

/** The most shards a selection is split into (a Slurm array's usual limit is far below). */
export const MAX_SHARDS = 10_000;

/** The items of `shard`: those at positions index, index + count, index + 2·count, … of `items`. */
export function shardTasks<T>(items: readonly T[], shard: Shard): T[] {
  return items.filter((_, i) => i % shard.count === shard.index);
}
