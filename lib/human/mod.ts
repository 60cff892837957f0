/**
 * Human-written tasks and proposed tasks (docs/verifiers.md): loading annotations and the site split, how their
 * episodes start, the trajectory a human verifier reads, grading by verifier with the QA tier chain (the LLM tier
 * passed in), the replay actions of a recording, proposed tasks and their training rows, and the macro judge's
 * input and run over saved episodes. Loads without a browser (regrade and judge import it); the browser-side
 * helpers (start an episode, read the session's streams, run replay steps) are in ./session.ts.
 */
export { type HumanTask, type Subtask } from "./task.ts";
export {
  type AnswerSpec,
  type HumanTaskFile,
  humanTaskFileSchema,
  type HumanVerifier,
  humanVerifierSchema,
  macroLabelSchema,
  type MacroVerifier,
  type Recording,
  recordingSchema,
  type SiteSplit,
  siteSplitSchema,
} from "./schema.ts";
export {
  type HumanSplit,
  loadHumanTask,
  loadHumanTasks,
  type LoadHumanTasksOptions,
  loadSiteSplit,
  parseFile,
} from "./load.ts";
export { appDirectory, type AppInfo, type EpisodeStart, humanStart, resolveStartUrl } from "./start.ts";
export { humanTrajectory, type NetworkEvent, type TrajectoryEvent, trajectoryEvidence } from "./trajectory.ts";
export { decideAnswer, type QaDecision, type QaTier } from "./qa.ts";
export { gradeHuman, type GradeHumanOptions, type HumanGrade, type MacroGrade } from "./verifier.ts";
export {
  parseTarget,
  recordingActions,
  recordingReplaySteps,
  recordingSteps,
  type ReplayStep,
  selectorFor,
  type TargetDescription,
} from "./replay.ts";
export { findElement, type ReplayElement, resolveStep } from "./resolve.ts";
export {
  loadProposedTasks,
  proposedStart,
  type ProposedTask,
  proposedTaskSchema,
  type RecordedStep,
  ROW_FAMILY,
  writeProposedRows,
} from "./proposed.ts";
export {
  type EpisodeStreams,
  type HumanGradeInputs,
  humanGradeInputs,
  parseHumanInputs,
  PROPOSED_PENDING,
  type ProposedGradeInputs,
  proposedGradeInputs,
  regradeHuman,
} from "./inputs.ts";
export { judgeInput } from "./judge_input.ts";
export { JUDGE_FILE, judgeRun, type JudgeRunOptions, type JudgeRunSummary, savedEpisodes } from "./judge_run.ts";
