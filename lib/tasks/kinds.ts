/**
 * The task-kind registry: everything that differs between datagen, human and proposed tasks, as one typed
 * strategy per kind. The runner, regrade, the judge, the rows writer and routing call `kindOf(task)` or
 * `kindOfInputs(inputs)`; nothing else branches on a task's kind. Pure: a strategy says how an episode starts (as
 * data), what its reference solution is, what its evidence is and how it is graded; lib/run does the calls.
 * - datagen (fixtures/tasks.jsonl): setup actions, evidence after the start, graded by the backend gate;
 * - human (fixtures/annotations): the seed's prepare_human, the whole session's trajectory, graded by the task's
 *   verifier with the QA tier chain (the LLM tier passed in);
 * - proposed: started logged in on start_path, graded "pending" (judge.ts decides), rows whatever the outcome.
 */
import { describeError, HarnessError, TaskFormatError } from "../errors/mod.ts";
import {
  actionEvents,
  type AnswerJudge,
  type GateResult,
  gradeHuman,
  humanTrajectory,
  seedCheck,
  seedFinal,
  type TrajectoryEvent,
} from "../grading/mod.ts";
import {
  type ActionCall,
  type AppRules,
  type DatagenGradeInputs,
  type Evidence,
  type FinalState,
  formatAction,
  gradeInputsKind,
  isSeedLayout,
  jsonValue,
  JUDGED_KINDS,
  type KindName,
  kindName,
  lenientTaskSchema,
  type Macro,
  parseDatagenInputs,
  parseEvidence,
  parseProposedInputs,
  parseSavedHumanInputs,
  parseTrajectoryInputs,
  type ProposedGradeInputs,
  type ProposedTask,
  proposedTaskSchema,
  type ReasonCode,
  type RowsContext,
  rowsOf,
  type RowsSpec,
  type SavedHumanTask,
  savedSites,
  seedLayoutKind,
  seedLayoutWithoutTask,
  type Task,
  taskSchema,
  type TrajectoryInputs,
  type ZodSchema,
} from "../protocol/mod.ts";
import type { HumanTask } from "./human_task.ts";
import { gradeTask, rebaseTask } from "./portable.ts";
import { recordingReplaySteps } from "./recording.ts";
import { type ReplayElement, stepCandidates } from "./resolve.ts";
import { type AppInfo, type EpisodeStart, humanStart, proposedStart } from "./start.ts";

/** Any task a run can hold. */
export type RunTask = Task | HumanTask | ProposedTask;

type Entry = Record<string, unknown>;

/** The session's admin-protocol streams (docs/admin-protocol.md), as the runner read them. */
export interface SessionStreams {
  /** The recorder's entries (/_admin/record). */
  record: Record<string, unknown>[];
  /** The request log (/_admin/log). */
  log: Record<string, unknown>[];
  /** The database changes (/_admin/changes). */
  changes: Record<string, unknown>[];
  /** The clipboard's entries (/_admin/clipboard). */
  clipboard: Record<string, unknown>[];
}

/** A step of a reference solution: the actions to try in turn on the elements observed before the step. */
export interface ReferenceStep {
  /** The actions to try, in order, given the elements observed before the step. */
  candidates(elements: readonly ReplayElement[]): ActionCall[];
  /** A step whose failure is not the replay's (a recorded click that may not apply on this run). */
  optional?: boolean;
}

/** What an episode left, as its kind's evidence reads it. */
export interface EpisodeRecord {
  /** The site base the episode ran on. */
  base: string;
  /** The session's streams from where the kind's evidence begins. */
  streams: SessionStreams;
  /** The arm's requests in order, each with the actions it returned (`{name: params}`). */
  trace: readonly { action: readonly Record<string, unknown>[] }[];
  /** The arm's answer (null: it gave none). */
  answer: string | null;
  /** The visible text of every screen the agent saw, and of the final one. */
  seen: string[];
  /** The URL of each of those screens (the same order). */
  seenUrls?: string[];
  /** Requests the network allowlist refused. */
  blocked: string[];
  /** The final pages and login state. */
  final: FinalState;
  /** Each app's grading rules, as the site server declares them. */
  rules: Record<string, AppRules>;
}

/** A grade: passed or not, why, and whether the grade itself could not be computed (regrade completes it). */
export interface Verdict {
  /** The episode passed. */
  ok: boolean;
  /** "passed", else what failed (at most 300 characters when written). */
  detail: string;
  /** The failing rule's code (lib/grading's REASONS; absent when ok, or when the grade could not be computed). */
  reason?: ReasonCode;
  /** The grade could not be computed (the judge failed, evidence saved before end-state grading). */
  gradeError?: boolean;
  /** "seed": graded on the seed's grade inputs, some rules falling back to what the seed's gate read. */
  evidence?: "seed";
}

/** What a grade may use besides the saved inputs. */
export interface GradeOptions<T extends RunTask = RunTask> {
  /** The LLM tier of human verifiers' answer checks (absent: such grades are grade errors). */
  qa?: AnswerJudge;
  /** Aborts the LLM tier's calls. */
  signal?: AbortSignal;
  /** The task to grade with (reloaded from a task file); else the one saved in the inputs. */
  task?: T;
  /** The apps' rules, for inputs that saved none (the seed's): the bundled apps' (fixtures/app_rules.json). */
  rules?: Record<string, AppRules>;
}

/** What the macro judge reads of an episode (lib/judge formats it). */
export interface JudgeView {
  /** The task's instruction. */
  instruction: string;
  /** The macros the episode was to go through, in order, each with its gold subtask's text when it has one. */
  macros: { macro: string; subtask?: string | null }[];
  /** The request log. */
  log: readonly object[];
  /** The recorder's entries (a human episode's: its trajectory without the requests). */
  record: readonly object[];
  /** The database changes. */
  changes: readonly object[];
  /** Clipboard texts. */
  clip: string[];
  /** The visible text of every screen the agent saw. */
  seen: string[];
  /** The arm's answer. */
  answer: string | null;
}

/** grade_inputs.json of a human episode (its format: lib/protocol's SavedHumanInputs), with the task as resolved. */
export interface HumanGradeInputs extends TrajectoryInputs {
  /** The kind's name. */
  kind: "human";
  /** The task as run. */
  task: HumanTask;
  /** The recorder stream with the request log merged in (what the verifier reads). */
  traj: TrajectoryEvent[];
  /** Read from the seed's grade_inputs.json (which holds no task: `task` is the annotations'). */
  seed?: true;
}

/** grade_inputs.json of any kind. */
export type AnyGradeInputs = DatagenGradeInputs | HumanGradeInputs | ProposedGradeInputs;

/** One kind's strategy. */
export interface TaskKind<T extends RunTask, I extends AnyGradeInputs> {
  /** The kind's name. */
  readonly name: KindName;
  /** Its episodes are graded "pending" and decided by the macro judge (judge.ts writes judge.json). */
  readonly judged: boolean;
  /**
   * How a task file line of this kind is read: its schema, and whether the line names its kind (`"kind":
   * "proposed"`) or is the kind of a line that names none. Absent: the kind is read from elsewhere (human tasks,
   * from an annotations folder).
   */
  readonly line?: {
    schema: ZodSchema<T>;
    named: boolean;
    /** The line as the seed reads it (a lenient load): what it tolerates that `schema` refuses. */
    lenient?: ZodSchema<T>;
  };
  /** Grading an episode may ask the LLM answer judge (a human verifier's answer check), so the run must reach it. */
  readonly mayUseAnswerJudge: boolean;
  /** The apps the task's episode uses (a cross-site task has several). */
  sites(task: T): readonly string[];
  /**
   * The file the task was read from when it is a file of its own (a human task's task.json), for messages about it;
   * undefined for a task line (its loader knows the file and line).
   */
  sourceFile(task: T): string | undefined;
  /** The macros the episode goes through, in order (routing's family plan). */
  plan(task: T): string[];
  /** How the episode starts on `base`; `apps` is the site server's app directory (`/_admin/health`). */
  start(task: T, base: string, apps: readonly AppInfo[]): EpisodeStart;
  /** The reference solution the replay arm executes (rebased onto `base`). */
  reference(task: T, base: string): ReferenceStep[];
  /** grade_inputs.json: everything the grade reads, saved before grading so that regrade can always redo it. */
  collect(task: T, record: EpisodeRecord): I;
  /** Validates a saved grade_inputs.json of this kind. @throws HarnessError naming the file and the field. */
  parseInputs(value: unknown, file: string): I;
  /**
   * Reads the seed's grade_inputs.json of an episode of `task` (no `kind`, no task; SEED_LAYOUT says which fields),
   * marked `seed`. Absent: the seed wrote no such file for this kind.
   * @throws HarnessError naming the file and the field
   */
  fromSeed?(value: Record<string, unknown>, task: T, file: string): I;
  /** The grade of an episode from its saved inputs. */
  grade(inputs: I, options: GradeOptions<T>): Promise<Verdict>;
  /** The rows an episode of this kind leaves with --record-rows, or null for none. */
  rows(task: T, passed: boolean, ctx: RowsContext): RowsSpec | null;
  /** What the macro judge reads of an episode. */
  judgeView(inputs: I): JudgeView;
}

const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);
const texts = (clip: readonly Entry[]) => clip.map((e) => String(e.text ?? ""));

/**
 * The clipboard's entries in the order the pages wrote them: by `n`, the browser-side time each write carries (the
 * recorder's; a page's copy and a direct write can reach the server out of order under load), else by arrival.
 * Entries without `n` (another server's) keep their arrival order.
 */
export function clipboardInOrder(entries: readonly Entry[]): Entry[] {
  if (!entries.every((e) => typeof e.n === "number")) return [...entries];
  return entries.map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.n as number) - (b.e.n as number) || a.i - b.i)
    .map(({ e }) => e);
}

const datagen: TaskKind<Task, DatagenGradeInputs> = {
  name: "datagen",
  line: { schema: taskSchema, named: false, lenient: lenientTaskSchema },
  mayUseAnswerJudge: false,
  sites: (task) => [task.site],
  sourceFile: () => undefined,
  judged: JUDGED_KINDS.datagen,
  plan(task) {
    const prefix = task.start?.prefix;
    return [prefix?.macro, prefix?.then, task.macro].filter((m): m is Macro => !!m); // an empty prefix is none
  },
  start(original, base) {
    // Recorded origins in the start page, setup and solution point at this server.
    const task = rebaseTask(original, base);
    return {
      logout: task.start.logged_out,
      startUrl: new URL(task.start.url, base + "/").href,
      prompt: task.instruction,
      setup: task.start.setup,
      // The agent begins where setup ended (a mid-chain start); what came before is not evidence.
      evidenceFrom: "arm",
    };
  },
  reference(original, base) {
    return rebaseTask(original, base).solution.map((a) => ({ candidates: () => [formatAction(a) as ActionCall] }));
  },
  collect(task, r) {
    const clipboard = clipboardInOrder(r.streams.clipboard);
    const clip = texts(clipboard);
    // Validated on the way in, so a site server that answers the admin protocol wrongly fails here, by name.
    const evidence = parseEvidence({
      base: r.base,
      log: r.streams.log,
      changes: r.streams.changes,
      clip,
      clipboard,
      events: actionEvents(r.trace, clip),
      record: r.streams.record,
      answer: r.answer,
      seen: r.seen,
      ...(r.seenUrls ? { seen_urls: r.seenUrls } : {}),
      final: r.final,
      rules: r.rules,
    }, `${r.base}/_admin/*`);
    return { kind: "datagen", ...evidence, blocked: [...r.blocked], task };
  },
  parseInputs: parseDatagenInputs,
  fromSeed(value, task, file) {
    return { kind: "datagen", ...parseEvidence(value, file), blocked: [], task, seed: true };
  },
  grade(inputs, options) {
    const task = options.task ?? inputs.task;
    if (inputs.seed) return gradeSeedDatagen(task, inputs, options);
    const missing = missingEndState(inputs) ?? missingBindingEvidence(task, inputs);
    if (missing) return Promise.resolve(missing);
    return judged(task, gradeTask(task, inputs as Evidence), options);
  },
  rows: rowsOf,
  judgeView: (inputs) => ({
    instruction: inputs.task.instruction,
    macros: datagen.plan(inputs.task).map((macro) => ({ macro })),
    log: inputs.log,
    record: inputs.record,
    changes: inputs.changes,
    clip: inputs.clip,
    seen: inputs.seen,
    answer: inputs.answer,
  }),
};

/**
 * A datagen grade as a verdict: an answer the rules could not account for goes to the judge when one is set (its
 * verdict decides), and is pending otherwise (its detail says "pending:"; regrade with a judge decides it).
 */
async function judged(task: Task, g: GateResult, options: GradeOptions): Promise<Verdict> {
  if (g.ok) return { ok: true, detail: "passed" };
  if (!g.undecided || !options.qa) return { ok: false, detail: g.detail, ...(g.reason ? { reason: g.reason } : {}) };
  const u = g.undecided;
  try {
    const v = await options.qa.judgeAnswer(
      { question: task.instruction, expected: u.expected, answer: u.answer },
      { signal: options.signal },
    );
    if (v.ok) return { ok: true, detail: "passed" };
    return {
      ok: false,
      detail: `answer ${JSON.stringify(u.answer.slice(0, 80))} rejected by the judge: ${v.reason}`.slice(0, 300),
      reason: "judge_rejected",
    };
  } catch (err) {
    if (options.signal?.aborted) throw err;
    return {
      ok: false,
      detail: `grade error: the judge failed: ${describeError(err)}`.slice(0, 300),
      gradeError: true,
    };
  }
}

/**
 * A datagen episode the seed wrote: the check as the seed's evidence can answer it (lib/grading seedCheck), the
 * final page from the request log, the apps' rules from `options.rules`. A check that reads what the seed never
 * saved is a grade error naming it; a grade is marked `evidence: "seed"`.
 */
async function gradeSeedDatagen(task: Task, inputs: DatagenGradeInputs, options: GradeOptions): Promise<Verdict> {
  const fb = seedCheck(task.check, task.verifier);
  if (!options.rules) fb.missing.push("the apps' rules");
  if (fb.missing.length) return seedMissing(fb.missing);
  const base = inputs.base;
  const evidence: Evidence = { ...inputs, final: seedFinal(inputs.log, base, task.start.url), rules: options.rules };
  const graded = { ...task, check: fb.check, verifier: fb.verifier };
  return { ...await judged(graded, gradeTask(graded, evidence), options), evidence: "seed" };
}

/** The grade error of a seed episode whose task reads what the seed's grade_inputs.json never saved. */
function seedMissing(missing: readonly string[]): Verdict {
  return {
    ok: false,
    detail: `grade error: the task's check reads ${missing.join("; ")}, of which the seed's grade_inputs.json saved ` +
      "no counterpart",
    gradeError: true,
    evidence: "seed",
  };
}

/**
 * A saved episode whose evidence predates end-state grading (no final pages or login state, no app rules) cannot be
 * graded by today's rules: a grade error that names what is missing; rerun the episode (--resume reruns it).
 */
function missingEndState(inputs: { final?: unknown; rules?: unknown }): Verdict | null {
  const missing = [inputs.final === undefined && "final", inputs.rules === undefined && "rules"].filter(Boolean);
  if (missing.length === 0) return null;
  return {
    ok: false,
    detail: `grade error: grade_inputs.json has no ${missing.join(" and ")} (saved before end-state grading); ` +
      "run the episode again",
    gradeError: true,
  };
}

/**
 * A saved datagen episode whose evidence predates what its check reads: clipboard entries with their causes (a
 * method bound to the clipboard) or the URL of each screen (an answer seen on a page). Not a verdict either way: a
 * grade error naming what is missing (rerun the episode).
 */
function missingBindingEvidence(task: Task, inputs: { clipboard?: unknown; seen_urls?: unknown }): Verdict | null {
  const text = JSON.stringify([task.check, task.verifier ?? null]);
  const missing = [
    inputs.clipboard === undefined && text.includes('"bound":"clipboard"') && "clipboard entries",
    inputs.seen_urls === undefined && /"seen":\{/.test(text) && "seen_urls",
  ].filter(Boolean);
  if (missing.length === 0) return null;
  return {
    ok: false,
    detail: `grade error: grade_inputs.json has no ${missing.join(" and ")}, which the task's check reads (saved ` +
      "before method binding); run the episode again",
    gradeError: true,
  };
}

/** The fields a human or proposed episode saves, from what it left. */
function trajectoryInputs(r: EpisodeRecord): TrajectoryInputs {
  const clipboard = clipboardInOrder(r.streams.clipboard);
  // Validated on the way in, as a datagen episode's evidence is: a site server that answers the admin protocol
  // wrongly fails here, by name.
  return parseTrajectoryInputs({
    base: r.base,
    log: r.streams.log,
    changes: r.streams.changes,
    clip: texts(clipboard),
    clipboard,
    seen: r.seen,
    answer: r.answer,
    actions: r.trace.flatMap((t) => t.action),
    blocked: [...r.blocked],
    final: r.final,
    rules: r.rules,
  }, `${r.base}/_admin/*`);
}

/** A saved human episode's inputs, its task resolved from what was saved (resolvedHumanTask). */
function parseHumanInputs(value: unknown, file: string): HumanGradeInputs {
  const inputs = parseSavedHumanInputs(value, file);
  return { ...inputs, task: resolvedHumanTask(inputs.task) };
}

/**
 * The resolved task of a saved human episode. Its grade, the judge and the rows read the fields every episode saved
 * (id, instruction, macros, verifier); one saved before a field was added gets the value the loader gives a task
 * without it (its site from `sites`, its macro the last label, no subtasks, no start hint, logged in). The recording is
 * not carried: nothing replays a saved task.
 */
function resolvedHumanTask(t: SavedHumanTask): HumanTask {
  return {
    kind: "human",
    task_id: t.task_id,
    key: t.key ?? t.task_id,
    dir: t.dir ?? "",
    ...savedSites(t),
    macro: t.macro ?? t.macros[t.macros.length - 1],
    macros: t.macros,
    instruction: t.instruction,
    subtasks: t.subtasks ?? null,
    start_hint: t.start_hint ?? null,
    needs_login: t.needs_login ?? false,
    verifier: t.verifier,
    recording: null,
  };
}

/** A human task's macros for the judge: its gold subtasks (in their order, with their text), else its labels. */
function humanMacros(task: HumanTask): JudgeView["macros"] {
  if (Array.isArray(task.subtasks)) return task.subtasks.map((s) => ({ macro: s.macro, subtask: s.text || null }));
  return task.macros.map((macro) => ({ macro }));
}

const trajectoryView = (inputs: HumanGradeInputs | ProposedGradeInputs, macros: JudgeView["macros"]) => {
  const traj: readonly Entry[] = "traj" in inputs ? inputs.traj : [];
  return {
    instruction: inputs.task.instruction,
    macros,
    log: traj.length ? traj.filter((e) => e.type === "network") : inputs.log,
    record: traj.length ? traj.filter((e) => e.type !== "network") : "record" in inputs ? inputs.record : [],
    changes: inputs.changes,
    clip: inputs.clip,
    seen: inputs.seen,
    answer: inputs.answer,
  };
};

const human: TaskKind<HumanTask, HumanGradeInputs> = {
  name: "human",
  mayUseAnswerJudge: true,
  sites: (task) => task.sites,
  sourceFile: (task) => `${task.dir}/task.json`,
  judged: JUDGED_KINDS.human,
  plan(task) {
    if (!task.macros?.length) throw new TaskFormatError(`human task "${task.task_id}" has no macros to plan from`);
    return [...task.macros];
  },
  start: (task, base, apps) => humanStart(task, base, apps),
  reference: (task) =>
    recordingReplaySteps(task).map((step) => ({
      optional: step.optional,
      candidates: (elements) => stepCandidates(step, elements) as ActionCall[],
    })),
  collect: (task, r) => ({
    kind: "human",
    task,
    ...trajectoryInputs(r),
    traj: humanTrajectory(r.streams.record, r.streams.log),
  }),
  parseInputs: parseHumanInputs,
  fromSeed: (value, task, file) => ({
    ...parseHumanInputs({ ...value, kind: "human", task }, file),
    task,
    seed: true,
  }),
  async grade(inputs, options) {
    const task = options.task ?? inputs.task;
    if (inputs.seed) {
      if (!options.rules) return seedMissing(["the apps' rules"]);
      const final = seedFinal(inputs.log, inputs.base, task.start_hint ?? "/");
      const v = await human.grade({ ...inputs, seed: undefined, final, rules: options.rules }, options);
      return { ...v, evidence: "seed" };
    }
    const missing = missingEndState(inputs);
    if (missing) return missing;
    const g = await gradeHuman(task, inputs.traj, inputs.answer, {
      qa: options.qa,
      signal: options.signal,
      state: {
        changes: inputs.changes,
        rules: inputs.rules,
        final: inputs.final,
        clip: inputs.clip,
        clipboard: inputs.clipboard,
      },
    });
    return {
      ok: g.ok,
      detail: g.ok ? "passed" : g.detail,
      ...(g.reason ? { reason: g.reason } : {}),
      ...(g.gradeError ? { gradeError: true } : {}),
    };
  },
  rows: rowsOf,
  judgeView: (inputs) => trajectoryView(inputs, humanMacros(inputs.task)),
};

/** The grade of a proposed episode: not a verdict until the judge has read it. */
export const PROPOSED_PENDING: Verdict = { ok: false, detail: "pending: judge.ts decides" };

const proposed: TaskKind<ProposedTask, ProposedGradeInputs> = {
  name: "proposed",
  line: { schema: proposedTaskSchema, named: true },
  mayUseAnswerJudge: false,
  sites: (task) => [task.site],
  sourceFile: () => undefined,
  judged: JUDGED_KINDS.proposed,
  plan: (task) => [task.macro],
  start: (task, base) => proposedStart(task, base),
  reference: () => [],
  collect: (task, r) => ({ kind: "proposed", task, record: r.streams.record, ...trajectoryInputs(r) }),
  parseInputs: parseProposedInputs,
  grade: () => Promise.resolve({ ...PROPOSED_PENDING }),
  rows: rowsOf,
  judgeView: (inputs) => trajectoryView(inputs, [{ macro: inputs.task.macro }]),
};

// deno-lint-ignore no-explicit-any
type AnyKind = TaskKind<any, any>;

/** The registry. */
export const KINDS: Readonly<Record<KindName, AnyKind>> = { datagen, human, proposed };

/** The strategy of a task's kind. */
export function kindOf<T extends RunTask>(task: T): TaskKind<T, AnyGradeInputs> {
  return KINDS[kindName(task)];
}

const LINE_KINDS = Object.values(KINDS).filter((k) => k.line);

/**
 * The kind of a task file line by its `kind` field: a kind whose lines name it (proposed), or without the field
 * the kind whose lines name none (datagen). Undefined for any other value: LINE_KIND_RULE says what it must be.
 */
export function lineKind(field: unknown): AnyKind | undefined {
  return LINE_KINDS.find((k) => k.line!.named ? field === k.name : field === undefined);
}

/** What a task file line's `kind` field must be: `must be "proposed" (a datagen task has none)`. */
export const LINE_KIND_RULE: string = `must be ${
  LINE_KINDS.filter((k) => k.line!.named).map((k) => `"${k.name}"`).join(" or ")
} (a ${LINE_KINDS.find((k) => !k.line!.named)!.name} task has none)`;

/** An episode's saved grade inputs, read with its kind's strategy. */
export interface SavedGradeInputs {
  /** Its kind's strategy (datagen, human, proposed). */
  kind: TaskKind<RunTask, AnyGradeInputs>;
  /** The inputs, as its kind reads them. */
  inputs: AnyGradeInputs;
}

/**
 * Reads a saved grade_inputs.json (its value or text) with its kind's strategy; a file the seed wrote (which holds no
 * task) as an episode of `task`. lib/run_folder's RunFolder.gradeInputs reads an episode's with it.
 * @throws HarnessError naming the file and the field.
 */
export function parseGradeInputs(json: unknown, file: string, task?: RunTask): SavedGradeInputs {
  const value = jsonValue(json, file);
  if (isObject(value) && isSeedLayout(value)) return fromSeedLayout(value, file, task);
  const kind = KINDS[gradeInputsKind(value, file)];
  return { kind, inputs: kind.parseInputs(value, file) };
}

/**
 * The seed's grade inputs of an episode of `task` (the task file's, matched by task id).
 * @throws HarnessError naming the file: no task given, or one of another kind than the file's
 */
function fromSeedLayout(value: Entry, file: string, task: RunTask | undefined): SavedGradeInputs {
  const name = seedLayoutKind(value);
  if (!task) throw seedLayoutWithoutTask(value, file);
  if (kindName(task) !== name) {
    throw new HarnessError(
      `${file} is a seed ${name} episode's, but task "${task.task_id}" is a ${kindName(task)} task`,
    );
  }
  const kind = KINDS[name];
  return { kind, inputs: kind.fromSeed!(value, task, file) };
}
