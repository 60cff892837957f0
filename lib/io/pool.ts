/** A fixed number of workers taking items from one queue; a worker's failure on an item never stops the others. */

/**
 * Runs `work(item, worker)` for every item with `workers` workers. `work` must not throw for an item's own
 * failure (it records it); a throw is a harness failure: the queue stops feeding and the error is rethrown after
 * the running items finish. `signal` stops feeding new items.
 */
export async function runPool<T>(
  items: T[],
  workers: number,
  work: (item: T, worker: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failure: unknown;
  const loop = async (w: number) => {
    while (next < items.length && failure === undefined && !signal?.aborted) {
      const item = items[next++];
      try {
        await work(item, w);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, (_, w) => loop(w)));
  if (failure !== undefined) throw failure;
}
