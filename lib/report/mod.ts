/**
 * lib/report: the report of one or more finished runs (report.ts): pass rates by arm, family, macro and site with
 * intervals over the episodes' clusters (a generated task's template, a hand-written task on its own), the failures by
 * reason code, the model requests and routing, pass@k over repeats, and runs paired on their episodes (the clustered
 * McNemar test, the difference's interval, design effect and power, per family with Holm-adjusted p), as report.md, a
 * self-contained report.html and report.json. Reads run folders only: no browser, no sandbox, no model.
 * @module
 */
export { loadRun, type ManifestInfo, type ReportResult, type RunData, type StepLine } from "./load.ts";
export { type ReportOptions, writeReport } from "./report.ts";
export { refreshViewer, writeViewer } from "./viewer.ts";
