/**
 * What a human or proposed episode saves as grade_inputs.json (the seed's layout, plus `kind` and `task`), and
 * regrading a human episode from it.
 */
import { z } from "zod";
import { HarnessError } from "../errors/mod.ts";
import { describeIssues, errorMap, jsonValue } from "../grading/mod.ts";
import { humanVerifierSchema } from "./schema.ts";
import type { HumanTask } from "./task.ts";
import type { ProposedTask } from "./proposed.ts";
import { humanTrajectory, type TrajectoryEvent } from "./trajectory.ts";
import { gradeHuman, type GradeHumanOptions, type HumanGrade } from "./verifier.ts";

type Entry = Record<string, unknown>;

/** The streams of the session and the episode's outcome, as the runner read them. */
export interface EpisodeStreams {
  base: string;
  /** /_admin/record entries, the whole session (from the start page on). */
  record: Entry[];
  /** /_admin/log entries, the whole session. */
  log: Entry[];
  changes: Entry[];
  /** Clipboard texts (or the admin protocol's entries). */
  clip: (string | Entry)[];
  /** Visible text of each screen the agent saw. */
  seen: string[];
  /** The final answer (done's text); null without done. */
  answer: string | null;
  /** The agent's actions, `{name: params}` (kept for the record; no judge reads them). */
  actions: unknown[];
}

/** grade_inputs.json of a human episode. */
export interface HumanGradeInputs extends Omit<EpisodeStreams, "record"> {
  kind: "human";
  task: HumanTask;
  /** The recorder stream with the request log merged in (what the verifier reads). */
  traj: TrajectoryEvent[];
}

/** grade_inputs.json of a proposed episode. */
export interface ProposedGradeInputs extends EpisodeStreams {
  kind: "proposed";
  task: ProposedTask;
}

const clipTexts = (clip: (string | Entry)[]) => clip.map((c) => typeof c === "string" ? c : String(c.text ?? ""));

/** A human episode's grade inputs: the trajectory merged from `record` and `log`, and the rest as read. */
export function humanGradeInputs(task: HumanTask, s: EpisodeStreams): HumanGradeInputs {
  const { record, ...rest } = s;
  return { kind: "human", task, ...rest, clip: clipTexts(s.clip), traj: humanTrajectory(record, s.log) };
}

/** A proposed episode's grade inputs (no grade: "pending" until a judge reads them). */
export function proposedGradeInputs(task: ProposedTask, s: EpisodeStreams): ProposedGradeInputs {
  return { kind: "proposed", task, ...s, clip: clipTexts(s.clip) };
}

/** The grade of a proposed episode: not a verdict until the judge has read it. */
export const PROPOSED_PENDING = { ok: false, detail: "pending: judge.ts decides" } as const;

const savedTask = z.looseObject({
  kind: z.literal("human"),
  task_id: z.string(),
  instruction: z.string(),
  macros: z.array(z.string()).min(1),
  verifier: humanVerifierSchema,
});

const humanInputsSchema = z.looseObject({
  kind: z.literal("human"),
  base: z.string(),
  task: savedTask,
  traj: z.array(z.looseObject({ type: z.string() })),
  answer: z.string().nullable().default(null),
});

/**
 * Reads a human episode's grade_inputs.json (value or text).
 * @throws HarnessError naming the file and the field.
 */
export function parseHumanInputs(json: unknown, file: string): HumanGradeInputs {
  const value = jsonValue(json, file);
  const r = humanInputsSchema.safeParse(value, { error: errorMap });
  if (!r.success) throw new HarnessError(`${file}: ${describeIssues(r.error)}`, { cause: r.error });
  return r.data as unknown as HumanGradeInputs;
}

/**
 * Regrades a human episode from its saved inputs, with the task given (reloaded from the annotations) or the one
 * saved beside them. With an LLM tier, a grade error of the run becomes a verdict.
 */
export function regradeHuman(
  inputs: HumanGradeInputs,
  options: GradeHumanOptions & { task?: HumanTask } = {},
): Promise<HumanGrade> {
  return gradeHuman(options.task ?? inputs.task, inputs.traj, inputs.answer, options);
}
