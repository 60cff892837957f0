/**
 * report.json: every figure report.md prints, machine-readable (docs/output-layout.md, "report.json"), so that a
 * user can plot and aggregate runs without parsing Markdown. Written by the report beside report.md, through this
 * schema; read back by anything with parseReportJson.
 * @module
 */
import { z } from "zod";
import { type FileFormat, fileFormat, LIMITS, parseJsonText, parseRecord, type Same, serialise } from "./format.ts";

const count = z.number().int().min(0);
const intervalSchema = z.strictObject({ lo: z.number(), hi: z.number() });

/** What clustering does to a sample (lib/report/cluster.ts). */
const clusterFields = {
  clusters: count,
  largest_cluster: count,
  design_effect: z.number().min(1),
  icc: z.number().nullable(),
  effective_n: z.number().min(0),
};

/** A pass rate: the episodes by status, the rate over the graded ones and its interval over their clusters. */
const rateObject = z.strictObject({
  passed: count,
  failed: count,
  error: count,
  grade_error: count,
  pending: count,
  graded: count,
  rate: z.number().min(0).max(1).nullable(),
  ci: intervalSchema.nullable(),
  method: z.enum(["wilson", "wilson_design_effect"]),
  ...clusterFields,
});

/** A paired comparison of two runs (or of one group of their pairs). */
const pairedObject = z.strictObject({
  pairs: count,
  both: count,
  a_only: count,
  b_only: count,
  neither: count,
  difference: z.number().min(-1).max(1),
  ci: intervalSchema,
  p: z.number().min(0).max(1),
  method: z.enum(["mcnemar_exact", "clustered_mcnemar", "one_cluster"]),
  min_detectable: z.number().nullable(),
  few_clusters: z.boolean(),
  ...clusterFields,
});

/** A pass rate's schema. */
export const rateJsonSchema: z.ZodType<RateJson> = rateObject;
/** A paired comparison's schema. */
export const pairedJsonSchema: z.ZodType<PairedJson> = pairedObject;

const groupRate = rateObject.extend({ group: z.string() });
const groupPaired = pairedObject.extend({ group: z.string(), p_holm: z.number().min(0).max(1) });

/** report.json's schema. */
export const reportJsonSchema: z.ZodType<ReportJson> = z.strictObject({
  format_version: z.number().optional(),
  written: z.string(),
  cluster_by: z.string().min(1),
  runs: z.array(z.strictObject({
    label: z.string(),
    dir: z.string(),
    arms: z.array(z.string()),
    episodes: count,
    tasks: count,
    regraded: z.boolean(),
    pass_rate: rateJsonSchema,
    by_arm: z.array(groupRate),
    by_family: z.array(groupRate),
    by_macro: z.array(groupRate),
    by_site: z.array(groupRate),
    by_style: z.array(groupRate),
  })),
  comparisons: z.array(z.strictObject({
    a: z.string(),
    b: z.string(),
    identical: z.boolean(),
    shared: count,
    only_a: count,
    only_b: count,
    status_differs: count,
    paired: pairedJsonSchema.nullable(),
    by_family: z.array(groupPaired),
    by_style: z.array(groupPaired),
  })),
});

/** A closed interval. */
export interface IntervalJson {
  /** The lower bound. */
  lo: number;
  /** The upper bound. */
  hi: number;
}

/** What clustering does to a sample (lib/report/cluster.ts). */
export interface ClusterJson {
  /** Clusters holding at least one observation. */
  clusters: number;
  /** The most observations in one cluster. */
  largest_cluster: number;
  /** Variance over the clusters / variance of independent observations, at least 1. */
  design_effect: number;
  /** The intra-cluster correlation the design effect implies; null when every cluster holds one. */
  icc: number | null;
  /** The observations divided by the design effect. */
  effective_n: number;
}

/** A pass rate in report.json. */
export interface RateJson extends ClusterJson {
  /** Episodes that passed. */
  passed: number;
  /** Episodes that failed (the agent's failures). */
  failed: number;
  /** Episodes the harness failed. */
  error: number;
  /** Episodes whose grade could not be computed. */
  grade_error: number;
  /** Episodes the judge decides. */
  pending: number;
  /** passed + failed: the rate's denominator. */
  graded: number;
  /** passed / graded; null when nothing was graded. */
  rate: number | null;
  /** The rate's 95 % interval; null when nothing was graded. */
  ci: IntervalJson | null;
  /** `wilson` over independent episodes, `wilson_design_effect` over clusters. */
  method: "wilson" | "wilson_design_effect";
}

/** A paired comparison in report.json. */
export interface PairedJson extends ClusterJson {
  /** Keys graded in both runs. */
  pairs: number;
  /** Passed in both runs. */
  both: number;
  /** Passed in the baseline only. */
  a_only: number;
  /** Passed in the compared run only. */
  b_only: number;
  /** Failed in both. */
  neither: number;
  /** B's pass rate minus A's. */
  difference: number;
  /** The difference's 95 % interval. */
  ci: IntervalJson;
  /** The two-sided p-value. */
  p: number;
  /** `mcnemar_exact` over independent pairs, `clustered_mcnemar` over clusters, `one_cluster` (no test: p 1). */
  method: "mcnemar_exact" | "clustered_mcnemar" | "one_cluster";
  /** The smallest difference detectable at 80 % power with the design effect; null when none can be. */
  min_detectable: number | null;
  /** Fewer than 10 clusters hold the pairs. */
  few_clusters: boolean;
}

/** A group's pass rate in a breakdown. */
export type GroupRateJson = RateJson & { group: string };

/** One run's figures. */
export interface RunJson {
  /** The run's name in the report. */
  label: string;
  /** Its folder, as given. */
  dir: string;
  /** The arms its lines name. */
  arms: string[];
  /** Episodes counted (one per (task_id, repeat)). */
  episodes: number;
  /** Distinct tasks. */
  tasks: number;
  /** Whether the grades come from results_regraded.jsonl. */
  regraded: boolean;
  /** The overall pass rate. */
  pass_rate: RateJson;
  /** Per arm. */
  by_arm: GroupRateJson[];
  /** Per family. */
  by_family: GroupRateJson[];
  /** Per macro. */
  by_macro: GroupRateJson[];
  /** Per site. */
  by_site: GroupRateJson[];
  /** Per style (empty when no line has one). */
  by_style: GroupRateJson[];
}

/** A group's comparison in a breakdown, with its Holm-adjusted p. */
export type GroupPairedJson = PairedJson & { group: string; p_holm: number };

/** One run against the first. */
export interface ComparisonJson {
  /** The baseline's label. */
  a: string;
  /** The compared run's label. */
  b: string;
  /** The same keys with the same statuses in both. */
  identical: boolean;
  /** Keys both runs hold. */
  shared: number;
  /** Keys in the baseline only. */
  only_a: number;
  /** Keys in the compared run only. */
  only_b: number;
  /** Keys in both with another status. */
  status_differs: number;
  /** Null when no key is graded in both runs. */
  paired: PairedJson | null;
  /** Per family, Holm-adjusted. */
  by_family: GroupPairedJson[];
  /** Per style, Holm-adjusted (empty when no line has one). */
  by_style: GroupPairedJson[];
}

/** report.json, as written and read (docs/output-layout.md, "report.json"). */
export interface ReportJson {
  /** report.json's format (REPORT_JSON's version when written). */
  format_version?: number;
  /** When the report was written, ISO 8601. */
  written: string;
  /** The --cluster-by key. */
  cluster_by: string;
  /** One per run folder, in the order given. */
  runs: RunJson[];
  /** Each run after the first against the first. */
  comparisons: ComparisonJson[];
}

const _sameReport: Same<z.output<typeof reportJsonSchema>, ReportJson> = true;

/** report.json's format. */
const REPORT_JSON: FileFormat<ReportJson> = fileFormat({
  what: "report.json",
  version: 1,
  // A report's figures are a few per group: far below run.json's limit, which it shares.
  maxBytes: LIMITS.manifest,
  schema: reportJsonSchema,
});

/** report.json's text (validated, `format_version` first). */
export const reportJson = (report: ReportJson): string => serialise(REPORT_JSON, report, "report.json", 2) + "\n";

/**
 * Parses report.json's text.
 * @throws RunFolderError naming `file` and what is wrong
 */
export function parseReportJson(text: string, file: string): ReportJson {
  return parseRecord(REPORT_JSON, parseJsonText(text, file), file);
}
