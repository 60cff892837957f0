/**
 * --cluster-by: which key makes a cluster of episodes in the report's intervals and tests. `template` (the default)
 * is each line's `cluster` (a generated task's template, a hand-written task's own id); `task`, `site` and `macro`
 * are those fields; any other name is that field of the results line.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { ReportResult, RunData } from "./load.ts";

/** The named keys of --cluster-by (any other value names a results-line field). */
const CLUSTER_KEYS = ["template", "task", "site", "macro"] as const;

/** What --cluster-by takes, in messages. */
const EXPECTED = `${CLUSTER_KEYS.join(", ")} or a results-line field`;

/** What --cluster-by says, resolved: its name and each result's cluster. */
interface ClusterRule {
  name: string;
  of(r: ReportResult): string | undefined;
}

function rule(by: string): ClusterRule {
  switch (by) {
    case "template":
      return { name: by, of: (r) => r.cluster };
    case "task":
      return { name: by, of: (r) => r.task_id };
    case "site":
    case "macro":
      return { name: by, of: (r) => r[by] };
    default:
      return {
        name: by,
        of: (r) => typeof r[by] === "string" || typeof r[by] === "number" ? String(r[by]) : undefined,
      };
  }
}

/**
 * The runs with each result's `cluster` set by `by`. A line without the field is its own task's cluster, and the
 * run's notes say how many.
 * @throws UsageError when `by` is empty, or a field no results line of any run has
 */
export function clusterRuns(runs: readonly RunData[], by: string): RunData[] {
  if (by === "") throw new UsageError(`--cluster-by: give ${EXPECTED}`);
  const r = rule(by);
  const all = runs.flatMap((run) => run.results);
  if (all.length && all.every((x) => r.of(x) === undefined)) {
    throw new UsageError(
      `--cluster-by "${by}": no results line has a field "${by}" (give ${EXPECTED} the lines hold)`,
    );
  }
  return runs.map((run) => {
    const missing = run.results.filter((x) => r.of(x) === undefined).length;
    const notes = missing
      ? [...run.notes, `${missing} line(s) have no "${by}": each is its own task's cluster`]
      : run.notes;
    return { ...run, notes, results: run.results.map((x) => ({ ...x, cluster: r.of(x) ?? x.task_id })) };
  });
}
