/**
 * The macro judge's run over a run's saved episodes (judge.ts): what it is shown of each episode (the kind's view
 * of grade_inputs.json and the final screen, never the agent's claim of success) and the judge.json it writes.
 * Loads no browser and no sandbox.
 * @module
 */
export { chooseEpisodes, judgeRun, type JudgeRunOptions, type JudgeRunSummary, savedEpisodes } from "./run.ts";
