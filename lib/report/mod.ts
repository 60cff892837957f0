/**
 * lib/report: the report of one or more finished runs (report.ts): pass rates with Wilson intervals by arm, family,
 * macro and site, the failures by reason code, the model requests and routing, pass@k over repeats, and runs paired on their episodes (McNemar,
 * Newcombe's interval), as report.md and a self-contained report.html. Reads run folders only: no browser, no
 * sandbox, no model.
 * @module
 */
export { loadRun, type ManifestInfo, type ReportResult, type RunData, type StepLine } from "./load.ts";
export { type ReportOptions, writeReport } from "./report.ts";
export { refreshViewer, writeViewer } from "./viewer.ts";
