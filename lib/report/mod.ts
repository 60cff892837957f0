/**
 * lib/report: the report of one or more finished runs (report.ts): pass rates with Wilson intervals by arm, family,
 * macro and site, the model requests and routing, pass@k over repeats, and runs paired on their episodes (McNemar,
 * Newcombe's interval), as report.md and a self-contained report.html. Reads run folders only: no browser, no
 * sandbox, no model.
 */
export {
  compareRuns,
  type Comparison,
  identical,
  modelStats,
  repeatStats,
  routing,
  type Tally,
  tally,
  tallyBy,
} from "./aggregate.ts";
export { type Block, toHtml, toMarkdown } from "./doc.ts";
export { loadRun, type ManifestInfo, type ReportResult, type RunData, type StepLine } from "./load.ts";
export { buildReport, writeReport } from "./report.ts";
export { refreshViewer, writeViewer } from "./viewer.ts";
export {
  type Difference,
  type Interval,
  mcnemarExact,
  type PairedCounts,
  pairedDifference,
  passAtK,
  quantile,
  wilson,
  Z95,
} from "./stats.ts";
