/**
 * The report's comparison section: each run after the first paired with it on (task_id, repeat): whether both hold
 * the same results, the flips, McNemar's exact test and the difference of pass rates with Newcombe's interval.
 * @module
 */
import { episodeName } from "../run_folder/mod.ts";
import { compareRuns, type Comparison, type EpisodeKey, identical } from "./aggregate.ts";
import type { Block } from "./doc.ts";
import { capped, pValue, signed } from "./format.ts";
import type { RunData } from "./load.ts";
import { minDetectableDifference, type PairedCounts } from "./stats.ts";

/** Each run after the first, paired with the first on (task_id, repeat). */
export function comparisons(runs: readonly RunData[], labels: string[]): Block[] {
  if (runs.length < 2) return [];
  const [first, ...rest] = runs;
  return [
    { kind: "heading", level: 2, text: "Comparison" },
    ...rest.flatMap((run, j) => {
      const c = compareRuns(first.results, run.results);
      const repeated = [...first.results, ...run.results].some((r) => r.repeat > 0);
      const name = (k: EpisodeKey) => episodeName(k.task_id, k.repeat, repeated ? 2 : 1);
      const [a, b] = [labels[0], labels[j + 1]];
      return [
        { kind: "heading", level: 3, text: `${b} against ${a}` } as Block,
        ...sameResults(c, a, b, name),
        ...paired(c, a, b, name),
      ];
    }),
  ];
}

/** Whether both runs hold the same keys with the same statuses, and each difference. */
function sameResults(c: Comparison, a: string, b: string, name: (k: EpisodeKey) => string): Block[] {
  if (identical(c)) {
    const text = `Identical results set: yes (${c.shared} (task_id, repeat) keys, each with the same status in both).`;
    return [{ kind: "paragraph", text }];
  }
  const diffs = [
    ...c.statusDiffers.map((d) => `${name(d)}: ${d.a} in ${a}, ${d.b} in ${b}`),
    ...c.onlyA.map((k) => `${name(k)}: only in ${a}`),
    ...c.onlyB.map((k) => `${name(k)}: only in ${b}`),
  ];
  return [{
    kind: "paragraph",
    text: `Identical results set: no (${c.statusDiffers.length} key(s) with another status, ${c.onlyA.length} ` +
      `only in ${a}, ${c.onlyB.length} only in ${b}).`,
  }, { kind: "list", items: capped(diffs) }];
}

/** The keys graded in both runs: the 2×2 table, the flips, McNemar's test and the difference's interval. */
function paired(c: Comparison, a: string, b: string, name: (k: EpisodeKey) => string): Block[] {
  const p = c.paired;
  const n = p.both + p.aOnly + p.bOnly + p.neither;
  if (n === 0) {
    return [{ kind: "paragraph", text: "No (task_id, repeat) key is graded in both runs: nothing to pair." }];
  }
  const d = c.difference;
  const flips = (keys: EpisodeKey[]) => capped(keys.map(name)).join(", ") || "none";
  return [
    { kind: "paragraph", text: `Paired over the ${n} (task_id, repeat) key(s) graded in both runs:` },
    {
      kind: "table",
      head: ["", `${b} passed`, `${b} failed`],
      rows: [[`${a} passed`, String(p.both), String(p.aOnly)], [`${a} failed`, String(p.bOnly), String(p.neither)]],
      numeric: [false, true, true],
    },
    {
      kind: "list",
      items: [
        `Both pass: ${p.both}. Both fail: ${p.neither}.`,
        `Flipped pass → fail (${p.aOnly}): ${flips(c.passToFail)}.`,
        `Flipped fail → pass (${p.bOnly}): ${flips(c.failToPass)}.`,
        `McNemar exact two-sided ${pValue(c.mcnemarP)} (binomial test on the ${p.aOnly + p.bOnly} discordant ` +
        "pair(s)).",
        `Pass-rate difference ${b} - ${a}: ${signed(d.estimate)} percentage points, 95 % CI ${signed(d.lo)} to ` +
        `${signed(d.hi)} (Newcombe's method 10: Wilson score intervals of both rates, square-and-add with the ` +
        "paired correlation).",
        `Power: ${power(p)}`,
      ],
    },
    ...familyPower(c),
  ];
}

const pairsOf = (p: PairedCounts) => p.both + p.aOnly + p.bOnly + p.neither;

/** The smallest difference the pairs could detect at 80 % power, in words. */
function power(p: PairedCounts): string {
  const n = pairsOf(p), discordant = p.aOnly + p.bOnly;
  const mdd = minDetectableDifference(n, discordant);
  const how = "(McNemar, two-sided α = 0.05, 80 % power, the observed discordance taken as the true one)";
  if (discordant === 0) {
    return `no pair is discordant, so the smallest detectable difference cannot be estimated ${how}.`;
  }
  if (mdd === null) {
    return `${n} pairs with ${discordant} discordant cannot detect any difference ${how}: too few to conclude.`;
  }
  return `with ${discordant} of ${n} pairs discordant, this set could detect a difference of ` +
    `${(mdd * 100).toFixed(1)} percentage points or more ${how}; a smaller true difference would likely go unseen.`;
}

/** Per family: pairs, discordant pairs, the observed difference and the smallest detectable one. */
function familyPower(c: Comparison): Block[] {
  if (c.byFamily.size < 2) return [];
  const rows = [...c.byFamily].map(([family, p]) => {
    const n = pairsOf(p), mdd = minDetectableDifference(n, p.aOnly + p.bOnly);
    const diff = n ? signed((p.bOnly - p.aOnly) / n) : "n/a";
    const cell = mdd === null
      ? (p.aOnly + p.bOnly ? "none: too few pairs" : "n/a: no discordant pair")
      : `±${(mdd * 100).toFixed(1)}`;
    return [family, String(n), String(p.aOnly + p.bOnly), diff, cell];
  });
  return [
    { kind: "paragraph", text: "Per family (smallest difference detectable at 80 % power, in percentage points):" },
    {
      kind: "table",
      head: ["Family", "Pairs", "Discordant", "Difference", "Smallest detectable"],
      rows,
      numeric: [false, true, true, true, true],
    },
  ];
}
