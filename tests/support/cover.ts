/**
 * A small sample that exercises everything a large one does: the items that together hold every trait of the
 * whole, for tests that run a covering sample under `deno task test` and the whole under `deno task test:full`.
 */

/** Whether the whole runs (`deno task test:full`, WEBMIX_LIVE=1) rather than a covering sample. */
export const WHOLE = Deno.env.get("WEBMIX_LIVE") === "1";

/**
 * The items of `items` that together hold every trait any of them holds, picked greedily: the item with the most
 * traits not yet held, the earlier on a tie. All of `items` when {@link WHOLE}.
 */
export function covering<T>(items: readonly T[], traits: (item: T) => readonly string[]): T[] {
  if (WHOLE) return [...items];
  const left = new Set(items.flatMap(traits));
  const picked: T[] = [];
  while (left.size) {
    const gain = (t: T) => new Set(traits(t).filter((x) => left.has(x))).size;
    const best = items.reduce((a, b) => gain(b) > gain(a) ? b : a);
    picked.push(best);
    for (const x of traits(best)) left.delete(x);
  }
  return picked;
}
