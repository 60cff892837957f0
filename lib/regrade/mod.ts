/**
 * Regrading (regrade.ts, gen.ts's proof from recordings): every episode's grade recomputed offline from its saved
 * grade_inputs.json with today's rules, written to results_regraded.jsonl. Loads grading and the task kinds, no
 * browser, no sandbox, no model client (the answer judge is passed in). Kept apart from lib/results so that the tools
 * that only read a run (merge, the rows) load no grading.
 * @module
 */
export { regradeLine, type RegradeOptions, regradeRun, type RegradeSummary } from "./regrade.ts";
