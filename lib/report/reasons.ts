/**
 * Failures by reason: the rule that failed each failed episode (its results line's `reason`, a reason code of
 * lib/grading's REASONS), counted per arm and per family for the report, and named for the viewer's filter and badges.
 * A failed line without a code is an arm failure (the arm could not play its part: no grade decided it) or a line
 * written before reason codes were.
 * @module
 */
import { FAMILIES, OTHER_FAMILY, REASON_CODES, REASONS } from "../protocol/mod.ts";
import type { Block } from "./doc.ts";
import type { ReportResult, RunData } from "./load.ts";

/** The reason of a failed line written before reason codes were. */
export const NO_REASON = "(none)";
/** The reason of a failed line whose arm could not play its part (`arm_failure`): no grade rule failed it. */
export const ARM_FAILURE = "(arm failure)";

/**
 * What an episode counts under: a failed episode its reason code, else ARM_FAILURE or NO_REASON; a pending one its
 * code when it carries one (`answer_unaccounted`: the judge decides); undefined for the others (passed, a harness
 * error, a grade error), which no rule failed.
 */
export function reasonOf(r: Pick<ReportResult, "status" | "reason" | "arm_failure">): string | undefined {
  const code = typeof r.reason === "string" && r.reason !== "" ? r.reason : undefined;
  if (r.status === "pending") return code;
  if (r.status !== "failed") return undefined;
  if (r.arm_failure !== undefined) return ARM_FAILURE;
  return code ?? NO_REASON;
}

/**
 * Reasons in the order the report and the viewer list them: lib/grading's codes in REASONS' order, then codes it does
 * not know (a newer run's) by name, then ARM_FAILURE and NO_REASON.
 */
export function orderReasons(reasons: Iterable<string>): string[] {
  const last = [ARM_FAILURE, NO_REASON];
  const rank = (r: string) => {
    const known = (REASON_CODES as readonly string[]).indexOf(r);
    if (known >= 0) return known;
    return last.includes(r) ? REASON_CODES.length + 1 + last.indexOf(r) : REASON_CODES.length;
  };
  return [...new Set(reasons)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** What a reason means (REASONS' text, or the bucket's), for a tooltip; undefined for a code lib/grading does not know. */
export function reasonMeaning(reason: string): string | undefined {
  if (reason === ARM_FAILURE) {
    return "the arm could not play its part (a reference step failed): no grade rule failed it";
  }
  if (reason === NO_REASON) return "a line written before reason codes were";
  return Object.hasOwn(REASONS, reason) ? REASONS[reason as keyof typeof REASONS] : undefined;
}

/** One column of the reason tables: a run's arm. */
interface Column {
  head: string;
  results: ReportResult[];
}

/** The columns: each run's arms by name (headed `run: arm` when there are two runs or more). */
function columns(runs: readonly RunData[], labels: string[]): Column[] {
  return runs.flatMap((run, i) =>
    [...Map.groupBy(run.results, (r) => r.arm)].sort(([a], [b]) => a.localeCompare(b)).map(([arm, results]) => ({
      head: runs.length > 1 ? `${labels[i]}: ${arm}` : arm,
      results,
    }))
  );
}

/** Failed episodes by reason: reason → count. */
function countReasons(results: readonly ReportResult[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of results) {
    if (r.status !== "failed") continue;
    const reason = reasonOf(r)!;
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return counts;
}

/**
 * The report's "Failures by reason" section: failed episodes per reason code (rows) and arm (columns, each run's
 * arms with two runs or more), with the total across them; then the same per family, a row per family and reason that
 * failed any episode; then the pending episodes that carry a reason, which are not failures.
 */
export function failuresByReason(runs: readonly RunData[], labels: string[]): Block[] {
  const cols = columns(runs, labels);
  const counts = cols.map((c) => countReasons(c.results));
  const reasons = orderReasons(counts.flatMap((c) => [...c.keys()]));
  const blocks: Block[] = [{ kind: "heading", level: 2, text: "Failures by reason" }];
  if (reasons.length === 0) {
    blocks.push({ kind: "paragraph", text: "No failed episode." });
  } else {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const row = (name: string[], cells: number[]) => [...name, ...cells.map(String), String(sum(cells))];
    const numeric = (named: number) => [...Array(named).fill(false), ...cols.map(() => true), true];
    blocks.push(
      {
        kind: "paragraph",
        text: `Failed episodes by the rule that failed them (docs/grading.md, "Reason codes").` +
          (reasons.includes(ARM_FAILURE) ? ` ${ARM_FAILURE}: the arm could not play its part, no rule decided.` : "") +
          (reasons.includes(NO_REASON) ? ` ${NO_REASON}: a line written before reason codes.` : ""),
      },
      {
        kind: "table",
        head: ["reason", ...cols.map((c) => c.head), "total"],
        rows: [
          ...reasons.map((reason) => row([reason], counts.map((c) => c.get(reason) ?? 0))),
          row(["all failures"], counts.map((c) => sum([...c.values()]))),
        ],
        numeric: numeric(1),
      },
      { kind: "heading", level: 3, text: "Failures by reason and family" },
    );
    const families = [...new Set(cols.flatMap((c) => c.results.map((r) => r.family)))];
    const order = [...FAMILIES, OTHER_FAMILY] as string[];
    const rank = (f: string) => order.includes(f) ? order.indexOf(f) : order.length;
    families.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    const byFamily = cols.map((c) => Map.groupBy(c.results, (r) => r.family));
    const rows = families.flatMap((family) => {
      const fc = byFamily.map((g) => countReasons(g.get(family) ?? []));
      return orderReasons(fc.flatMap((c) => [...c.keys()])).map((reason) =>
        row([family, reason], fc.map((c) => c.get(reason) ?? 0))
      );
    });
    blocks.push({
      kind: "table",
      head: ["family", "reason", ...cols.map((c) => c.head), "total"],
      rows,
      numeric: numeric(2),
    });
  }
  const pending = cols.flatMap((c) => c.results.filter((r) => r.status === "pending" && reasonOf(r) !== undefined));
  if (pending.length) {
    const by = Map.groupBy(pending, (r) => reasonOf(r)!);
    const listed = orderReasons(by.keys()).map((reason) => `${reason} ${by.get(reason)!.length}`).join(", ");
    blocks.push({
      kind: "paragraph",
      text: `Pending episodes are not failures, and not counted here: ${pending.length} carry a reason (${listed}); ` +
        "the judge decides them.",
    });
  }
  return blocks;
}
