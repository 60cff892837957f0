/**
 * The report's numbers from loaded runs: pass rates by group over graded episodes, the model requests by model,
 * the routing counts, pass@k over repeats, and two runs paired on their (task_id, repeat) keys.
 * @module
 */
import { type EpisodeStatus, isGraded, resultKey } from "../run_folder/mod.ts";
import type { ReportResult, StepLine } from "./load.ts";
import { type ClusteredComparison, clusteredPaired, type ClusteredRate, clusteredRate } from "./cluster.ts";
import { holm, type Interval, type PairedCounts, passAtK, quantile } from "./stats.ts";

/** Episodes of one group by status, and the pass rate over the graded ones (passed + failed). */
export interface Tally {
  counts: Record<EpisodeStatus, number>;
  graded: number;
  /** passed / graded; undefined when nothing was graded. */
  rate?: number;
  /** The rate's 95 % interval over the episodes' clusters (Wilson's when each cluster holds one). */
  ci?: Interval;
  /** The clusters of the graded episodes, the design effect and the interval's method. */
  clustered: ClusteredRate;
}

/** The tally of `results`, its interval over their clusters (`cluster`). */
export function tally(results: readonly ReportResult[]): Tally {
  const counts: Record<EpisodeStatus, number> = { passed: 0, failed: 0, error: 0, grade_error: 0, pending: 0 };
  for (const r of results) counts[r.status]++;
  const graded = counts.passed + counts.failed;
  const byCluster = Map.groupBy(results.filter((r) => isGraded(r.status)), (r) => r.cluster);
  const clustered = clusteredRate(
    [...byCluster.values()].map((rs) => ({
      passed: rs.filter((r) => r.status === "passed").length,
      graded: rs.length,
    })),
  );
  if (graded === 0) return { counts, graded, clustered };
  return { counts, graded, rate: counts.passed / graded, ci: clustered.ci, clustered };
}

/** `results` grouped by `key`, each group tallied, groups in `order` first then by name. */
export function tallyBy(
  results: readonly ReportResult[],
  key: (r: ReportResult) => string,
  order: readonly string[] = [],
): Map<string, Tally> {
  const groups = Map.groupBy(results, key);
  const rank = (g: string) => order.includes(g) ? order.indexOf(g) : order.length;
  const names = [...groups.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return new Map(names.map((g) => [g, tally(groups.get(g)!)]));
}

/** The requests of one model. */
interface ModelStats {
  steps: number;
  episodes: number;
  promptTokens: number;
  completionTokens: number;
  /** Over the requests that recorded a latency; NaN when none did. */
  latencyMedianMs: number;
  latencyP90Ms: number;
}

/** What a step's model is called in the report when it had none. */
const NO_MODEL = "(no model)";

/** The steps by model name (NO_MODEL for a model-free step), in order of first use. */
export function modelStats(steps: readonly StepLine[]): Map<string, ModelStats> {
  const by = Map.groupBy(steps, (s) => s.model ?? NO_MODEL);
  const sum = (xs: StepLine[], f: (s: StepLine) => number | undefined) => xs.reduce((n, s) => n + (f(s) ?? 0), 0);
  return new Map([...by].map(([model, xs]) => {
    const latencies = xs.flatMap((s) => s.latencyMs === undefined ? [] : [s.latencyMs]);
    return [model, {
      steps: xs.length,
      episodes: new Set(xs.map((s) => s.episode)).size,
      promptTokens: sum(xs, (s) => s.promptTokens),
      completionTokens: sum(xs, (s) => s.completionTokens),
      latencyMedianMs: quantile(latencies, 0.5),
      latencyP90Ms: quantile(latencies, 0.9),
    }];
  }));
}

/** Planned family against the model asked, the gates fired and the router notes shown. */
interface Routing {
  /** Planned family (NO_PLAN when none) → model (NO_MODEL when none) → requests. */
  matrix: Map<string, Map<string, number>>;
  models: string[];
  gates: number;
  gatedEpisodes: number;
  /** Steps that showed a router note; undefined when no step's source records notes (trace.json only). */
  notes?: number;
}

/** What a step's planned family is called in the report when the arm planned none. */
export const NO_PLAN = "(none)";

/** The routing counts of `steps`. */
export function routing(steps: readonly StepLine[]): Routing {
  const matrix = new Map<string, Map<string, number>>();
  const models = new Set<string>();
  for (const s of steps) {
    const family = s.family ?? NO_PLAN, model = s.model ?? NO_MODEL;
    models.add(model);
    const row = matrix.get(family) ?? new Map<string, number>();
    row.set(model, (row.get(model) ?? 0) + 1);
    matrix.set(family, row);
  }
  const gated = steps.filter((s) => s.gated);
  const withNotes = steps.filter((s) => s.note !== undefined);
  return {
    matrix,
    models: [...models],
    gates: gated.length,
    gatedEpisodes: new Set(gated.map((s) => s.episode)).size,
    notes: withNotes.length ? withNotes.filter((s) => s.note).length : undefined,
  };
}

/** pass@k over tasks with repeats, and how much each task's outcome varies. */
interface RepeatStats {
  /** k → mean pass@k over the tasks with at least k graded episodes, and how many tasks that is. */
  passAtK: { k: number; value: number; tasks: number }[];
  /** Tasks with at least one graded episode. */
  tasks: number;
  /** Tasks whose graded episodes both passed and failed: [task_id, passed, graded]. */
  mixed: [string, number, number][];
  /** The mean over tasks of p(1 - p), p a task's pass fraction: 0 when every task always does the same. */
  meanVariance: number;
}

/** pass@k and per-task variance from the graded episodes of `results`; undefined when no task has a repeat. */
export function repeatStats(results: readonly ReportResult[]): RepeatStats | undefined {
  const per = new Map<string, { n: number; c: number }>();
  for (const r of results.filter((r) => isGraded(r.status))) {
    const t = per.get(r.task_id) ?? { n: 0, c: 0 };
    t.n++;
    if (r.status === "passed") t.c++;
    per.set(r.task_id, t);
  }
  const tasks = [...per.values()];
  const maxN = Math.max(0, ...tasks.map((t) => t.n));
  if (maxN < 2) return undefined;
  const out: RepeatStats["passAtK"] = [];
  for (let k = 1; k <= maxN; k++) {
    const counted = tasks.filter((t) => t.n >= k);
    out.push({ k, value: mean(counted.map((t) => passAtK(t.n, t.c, k))), tasks: counted.length });
  }
  return {
    passAtK: out,
    tasks: tasks.length,
    mixed: [...per].filter(([, t]) => t.c > 0 && t.c < t.n).map(([id, t]) => [id, t.c, t.n]),
    meanVariance: mean(tasks.map((t) => (t.c / t.n) * (1 - t.c / t.n))),
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One (task_id, repeat) key. */
export interface EpisodeKey {
  task_id: string;
  repeat: number;
}

/** A breakdown's comparison: one group's pairs, tested over their clusters, with the Holm-adjusted p. */
export interface GroupComparison {
  group: string;
  test: ClusteredComparison;
  /** The p-value adjusted for the breakdown's several comparisons (Holm), over the groups with a pair. */
  holmP: number;
}

/** Run B against baseline run A. */
export interface Comparison {
  /** Keys graded in both runs, as the 2×2 table of outcomes. */
  paired: PairedCounts;
  passToFail: EpisodeKey[];
  failToPass: EpisodeKey[];
  /** The paired test and the difference's interval over the pairs' clusters (A's cluster of the key). */
  test: ClusteredComparison;
  /** Each family's (A's family of the key), in first-seen order. */
  byFamily: GroupComparison[];
  /** Each style's (A's line's `style`), when some line has one. */
  byStyle: GroupComparison[];
  /** How many keys both runs hold. */
  shared: number;
  /** Keys in A only, in B only, and keys in both whose status differs (A's status, B's). */
  onlyA: EpisodeKey[];
  onlyB: EpisodeKey[];
  statusDiffers: (EpisodeKey & { a: EpisodeStatus; b: EpisodeStatus })[];
}

/** Whether two runs hold the same keys with the same status each. */
export const identical = (c: Comparison): boolean =>
  c.onlyA.length === 0 && c.onlyB.length === 0 && c.statusDiffers.length === 0;

/** One pair graded in both runs: A's line and which cell of the 2×2 table it falls in. */
interface Pair {
  a: ReportResult;
  cell: keyof PairedCounts;
}

/** The pairs' 2×2 table of each cluster. */
function clusterCells(pairs: readonly Pair[]): PairedCounts[] {
  return [...Map.groupBy(pairs, (p) => p.a.cluster).values()].map((ps) => {
    const t: PairedCounts = { both: 0, aOnly: 0, bOnly: 0, neither: 0 };
    for (const p of ps) t[p.cell]++;
    return t;
  });
}

/** Each group's comparison over its clusters, the p-values Holm-adjusted across the groups. */
function breakdown(pairs: readonly Pair[], key: (r: ReportResult) => string | undefined): GroupComparison[] {
  const groups = [...Map.groupBy(pairs.filter((p) => key(p.a) !== undefined), (p) => key(p.a)!)];
  const tests = groups.map(([group, ps]) => ({ group, test: clusteredPaired(clusterCells(ps)) }));
  const adjusted = holm(tests.map((t) => t.test.p));
  return tests.map((t, i) => ({ ...t, holmP: adjusted[i] }));
}

const styleOf = (r: ReportResult) => typeof r.style === "string" ? r.style : undefined;

/** Compares run B with run A on the keys both hold. */
export function compareRuns(a: readonly ReportResult[], b: readonly ReportResult[]): Comparison {
  const byKey = (rs: readonly ReportResult[]) => new Map(rs.map((r) => [resultKey(r.task_id, r.repeat), r]));
  const ka = byKey(a), kb = byKey(b);
  const key = (r: ReportResult): EpisodeKey => ({ task_id: r.task_id, repeat: r.repeat });
  const pairs: Pair[] = [];
  const c: Omit<Comparison, "test" | "byFamily" | "byStyle"> = {
    paired: { both: 0, aOnly: 0, bOnly: 0, neither: 0 },
    passToFail: [],
    failToPass: [],
    onlyA: a.filter((r) => !kb.has(resultKey(r.task_id, r.repeat))).map(key),
    onlyB: b.filter((r) => !ka.has(resultKey(r.task_id, r.repeat))).map(key),
    shared: 0,
    statusDiffers: [],
  };
  for (const [k, ra] of ka) {
    const rb = kb.get(k);
    if (!rb) continue;
    c.shared++;
    if (ra.status !== rb.status) c.statusDiffers.push({ ...key(ra), a: ra.status, b: rb.status });
    if (!isGraded(ra.status) || !isGraded(rb.status)) continue;
    const pa = ra.status === "passed", pb = rb.status === "passed";
    const cell = pa ? (pb ? "both" : "aOnly") : (pb ? "bOnly" : "neither");
    pairs.push({ a: ra, cell });
    c.paired[cell]++;
    if (cell === "aOnly") c.passToFail.push(key(ra));
    if (cell === "bOnly") c.failToPass.push(key(ra));
  }
  return {
    ...c,
    test: clusteredPaired(clusterCells(pairs)),
    byFamily: breakdown(pairs, (r) => r.family),
    byStyle: breakdown(pairs, styleOf),
  };
}
