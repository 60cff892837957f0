/**
 * A small sample that exercises everything a large one does: the items that together hold every trait of the
 * whole, for tests that run a covering sample under `deno task test` and the whole under `deno task test:full`.
 */

/** Whether the whole runs (`deno task test:full`, WEBMIX_LIVE=1) rather than a covering sample. */
export const WHOLE = Deno.env.get("WEBMIX_LIVE") === "1";

/**
 * Nodes the exact search may visit before it settles for the cheapest cover found so far (a cover all the same;
 * the suite's samples take a few thousand at most).
 */
const SEARCH_BUDGET = 1_000_000;

/** What a cover starts from and what it minimises. */
export interface CoverOptions<T> {
  /** Items the caller runs anyway: their traits need no other item, and they lead the result. */
  given?: readonly T[];
  /** What running an item costs (default 1: the fewest items); a positive number. */
  cost?: (item: T) => number;
}

/**
 * The items of `items` that together hold every trait any of them holds (and `given` does not), at the least total
 * cost: an exact minimum set cover (the fewest items by default), the first the search finds among equals. The
 * result is `given` followed by the picked items in input order; `given` and all of `items` when {@link WHOLE}.
 */
export function covering<T>(
  items: readonly T[],
  traits: (item: T) => readonly string[],
  options: CoverOptions<T> = {},
): T[] {
  const given = options.given ?? [];
  if (WHOLE) return [...new Set([...given, ...items])];
  const held = new Set(given.flatMap(traits));
  const ids = new Map<string, number>();
  for (const x of items.flatMap(traits)) if (!held.has(x) && !ids.has(x)) ids.set(x, ids.size);
  // Each item's traits not yet held, as indexes, and its cost.
  const sets = items.map((t) => [...new Set(traits(t).filter((x) => ids.has(x)).map((x) => ids.get(x)!))]);
  const costs = items.map((t) => options.cost?.(t) ?? 1);
  const whole = costs.every(Number.isInteger);
  // An item whose new traits an item of no greater cost also holds can be swapped for that one in any cover: only
  // the others compete (of items alike in both, the first).
  const within = (a: number[], b: number[]) => a.every((x) => b.includes(x));
  const beats = (j: number, i: number) =>
    within(sets[i], sets[j]) && costs[j] <= costs[i] &&
    (sets[j].length > sets[i].length || costs[j] < costs[i] || j < i);
  const candidates = sets.map((_, i) => i).filter((i) =>
    sets[i].length > 0 && !sets.some((_, j) => j !== i && beats(j, i))
  );
  const holders = [...ids.values()].map((x) => candidates.filter((i) => sets[i].includes(x)));
  const left = new Array<boolean>(ids.size).fill(true);
  let leftCount = ids.size;
  const gain = (i: number) => sets[i].filter((x) => left[x]).length;
  const take = (i: number) => {
    const taken = sets[i].filter((x) => left[x]);
    for (const x of taken) left[x] = false;
    leftCount -= taken.length;
    return taken;
  };
  const untake = (taken: number[]) => {
    for (const x of taken) left[x] = true;
    leftCount += taken.length;
  };
  const total = (picked: number[]) => picked.reduce((n, i) => n + costs[i], 0);
  // The greedy cover first (the item with the most new traits per cost, the earlier on a tie): the bound to beat.
  let best: number[] = [];
  const undo: number[][] = [];
  while (leftCount > 0) {
    const pick = candidates.reduce((a, b) => gain(b) / costs[b] > gain(a) / costs[a] ? b : a);
    best.push(pick);
    undo.push(take(pick));
  }
  for (const taken of undo) untake(taken);
  let bestCost = total(best);
  let nodes = 0;
  const picked: number[] = [];
  const search = (spent: number): void => {
    if (leftCount === 0) {
      if (spent < bestCost) [best, bestCost] = [[...picked], spent];
      return;
    }
    if (++nodes > SEARCH_BUDGET) return;
    // Each trait left costs at least the cheapest price per new trait of an item holding it: no cover cheaper than
    // the best can come of this branch when even that does not fit. Meanwhile, the trait the fewest hold.
    let bound = 0;
    let options: number[] | undefined;
    for (let x = 0; x < left.length; x++) {
      if (!left[x]) continue;
      bound += Math.min(...holders[x].map((i) => costs[i] / gain(i)));
      if (!options || holders[x].length < options.length) options = holders[x];
    }
    if (whole) bound = Math.ceil(bound - 1e-9);
    if (spent + bound >= bestCost - 1e-9) return;
    // One of the holders of that trait is in every cover.
    for (const i of options!) {
      const taken = take(i);
      picked.push(i);
      search(spent + costs[i]);
      picked.pop();
      untake(taken);
    }
  };
  search(0);
  return [...given, ...best.sort((a, b) => a - b).map((i) => items[i])];
}
