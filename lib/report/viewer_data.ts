/**
 * What the episode viewer shows, read from a run folder with the run-folder reader: one summary per episode (the
 * list and its filters) and one detail per episode (the result, the task, the evidence that decided the grade, every
 * step). Steps come from the episode's steps.jsonl; an episode without one (a run from before it) falls back to
 * history.json (browser-use's layout, with trace.json's gates) and planner_history.json. A file that cannot be read
 * (damaged, cut short, newer) is named in the detail's `problems`, so one broken episode never hides the others.
 */
import { errorMessage, RunFolderError } from "../errors/mod.ts";
import {
  EPISODE_FILES,
  type EpisodeStatus,
  type HistoryItem,
  PLANNER_HISTORY,
  type PlannerTurn,
  readFolderJson,
  type RunFolder,
  type StepRecord,
  type TraceEntry,
} from "../run_folder/mod.ts";
import { readGradeInputs } from "../protocol/mod.ts";
import type { ReportResult } from "./load.ts";
import { reasonOf } from "./reasons.ts";
import { compactEvidence, type ViewEvidence } from "./viewer_evidence.ts";
import { num, obj, str } from "./viewer_values.ts";

/** One episode in the viewer's list. */
export interface ViewerEpisode {
  episode: string;
  task_id: string;
  repeat: number;
  macro: string;
  site: string;
  arm: string;
  family: string;
  status: EpisodeStatus;
  /**
   * The rule that failed the episode (lib/report reasonOf): a reason code, "(arm failure)" or "(none)" for a failed
   * episode; a pending one's code; "" for the others.
   */
  reason: string;
  detail: string;
  steps: number | null;
  answer: string | null;
  error: string | null;
  duration_s: number | null;
  instruction: string;
}

/** One executed action and what it did. */
interface ViewAction {
  action: unknown;
  ok: boolean;
  error?: string;
  extracted?: string;
}

/** One step as the viewer shows it (a StepRecord with its request flattened, or a history.json entry). */
export interface ViewStep {
  kind: string;
  step: number;
  turn?: number;
  model: string | null;
  family: string | null;
  url: string;
  title: string;
  /** The screenshot's file name in the episode folder, when the file is there. */
  screenshot: string | null;
  /**
   * The request's user text exactly as sent, as indices into the detail's `lines` (null: model-free, or a
   * history.json step, which does not keep it).
   */
  text: number[] | null;
  /** The system prompt's SHA-256 (its text is the run's prompts/<sha256>.txt). */
  system: string | null;
  reply: string | null;
  parsed: Record<string, unknown> | null;
  actions: ViewAction[];
  gated?: boolean;
  note?: string;
  usage?: Record<string, number>;
  latency_ms?: number;
  error?: string;
}

/** Everything the viewer shows once an episode is opened. */
export interface EpisodeDetail {
  result: ReportResult;
  /** grade_inputs.json's kind (datagen, human, proposed); null without one. */
  kind: string | null;
  /** The task's instruction ("" when no grade_inputs.json was saved). */
  instruction: string;
  check: unknown;
  verifier: unknown;
  evidence: ViewEvidence | null;
  /** Which file the steps came from. */
  source: "steps.jsonl" | "history.json" | null;
  steps: ViewStep[];
  /**
   * The lines of the steps' request texts, each once: a request repeats the history of every step before it and,
   * on the same page, the element list, so storing lines once keeps a long episode's texts linear in its steps.
   */
  lines: string[];
  /** final.png when it is there. */
  final: string | null;
  /** The episode's files that could not be read, each with why. */
  problems: string[];
}

/** The list entry of an episode. */
export function summarize(r: ReportResult, instruction: string): ViewerEpisode {
  return {
    episode: r.episode,
    task_id: r.task_id,
    repeat: r.repeat,
    macro: r.macro ?? "",
    site: r.site ?? "",
    arm: r.arm ?? "",
    family: r.family,
    status: r.status,
    reason: reasonOf(r) ?? "",
    detail: r.detail ?? "",
    steps: num(r.steps),
    answer: str(r.answer),
    error: str(r.error),
    duration_s: num(r.duration_s),
    instruction,
  };
}

/** `read()`'s value, or undefined with the problem noted when the file cannot be read (a damaged episode). */
async function tryRead<T>(read: () => Promise<T>, problems: string[]): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof RunFolderError)) throw err;
    problems.push(errorMessage(err));
    return undefined;
  }
}

/** The files of the episode folder (none when it does not exist). */
async function fileNames(dir: string): Promise<Set<string>> {
  const names = new Set<string>();
  try {
    for await (const e of Deno.readDir(dir)) if (e.isFile) names.add(e.name);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return names;
}

/** An episode's detail, read from its folder with the run-folder reader. */
export async function readEpisodeDetail(folder: RunFolder, r: ReportResult): Promise<EpisodeDetail> {
  const episode = r.episode;
  const files = await fileNames(folder.episodeDir(episode));
  const problems: string[] = [];
  const lines = new Map<string, number>();
  const ctx: StepContext = {
    shot: (name) => (typeof name === "string" && files.has(name) ? name : null),
    pack: (text) =>
      text === null ? null : text.split("\n").map((l) => lines.get(l) ?? lines.set(l, lines.size).size - 1),
  };
  const saved = files.has(EPISODE_FILES.gradeInputs)
    ? await tryRead(() => folder.gradeInputs(episode, readGradeInputs), problems)
    : undefined;
  const inputs = obj(saved?.inputs);
  const task = obj(inputs.task);
  let steps: ViewStep[] = [];
  let source: EpisodeDetail["source"] = null;
  const records = await tryRead(() => folder.steps(episode), problems);
  if (records) {
    // A crash can cut the last line short: the steps before it are still shown.
    if (records.cut) problems.push(`steps.jsonl line ${records.cut.line} was cut short (a crash mid-write)`);
    steps = records.records.map((s) => recordStep(s, ctx));
    source = "steps.jsonl";
  } else if (files.has(EPISODE_FILES.history)) {
    const history = (await tryRead(() => folder.history(episode), problems))?.history ?? [];
    const trace = await tryRead(() => folder.trace(episode), problems) ?? [];
    const planner = await tryRead(
      () => readFolderJson(PLANNER_HISTORY, folder.episodeFile(episode, EPISODE_FILES.plannerHistory), episode),
      problems,
    );
    steps = [
      ...(planner?.turns ?? []).map((t) => plannerTurnStep(t, ctx)),
      ...history.map((h, i) => historyStep(h, trace[i], ctx)),
    ];
    source = "history.json";
  }
  return {
    result: r,
    kind: saved ? saved.kind : null,
    instruction: str(task.instruction) ?? "",
    check: task.check ?? null,
    verifier: task.verifier ?? null,
    evidence: saved ? compactEvidence(inputs) : null,
    source,
    steps,
    lines: [...lines.keys()],
    final: ctx.shot(EPISODE_FILES.final),
    problems,
  };
}

/** What the step readers need from the episode: its screenshots' names, and its lines table. */
interface StepContext {
  /** The file's name when the episode folder holds it, else null. */
  shot(name: unknown): string | null;
  /** A request text as indices into the episode's lines. */
  pack(text: string | null): number[] | null;
}

function recordStep(s: StepRecord, ctx: StepContext): ViewStep {
  return {
    kind: s.kind,
    step: s.step,
    turn: s.turn,
    model: s.model,
    family: s.family,
    url: s.url,
    title: s.title,
    screenshot: ctx.shot(s.request?.screenshot),
    text: ctx.pack(s.request?.text ?? null),
    system: s.request?.system_sha256 ?? null,
    reply: s.reply,
    parsed: s.parsed,
    actions: s.actions,
    gated: s.gated,
    note: s.note,
    usage: numbers(s.usage),
    latency_ms: s.latency_ms,
    error: s.error,
  };
}

/** A history.json entry: model_output, result[] (one per executed action), state, metadata. */
function historyStep(h: HistoryItem, trace: TraceEntry | undefined, ctx: StepContext): ViewStep {
  const out = h.model_output, meta = h.metadata;
  const calls = out?.action ?? [], results = h.result;
  const actions = Array.from({ length: Math.max(calls.length, results.length) }, (_, i): ViewAction => {
    const res = results[i];
    if (!res) return { action: calls[i], ok: false, error: "(not run)" };
    const error = res.error ?? undefined;
    return { action: calls[i] ?? null, ok: !error, error, extracted: res.extracted_content ?? undefined };
  });
  return {
    kind: "agent",
    step: meta.step_number,
    model: str(meta.model),
    family: trace?.family ?? null,
    url: h.state.url,
    title: h.state.title,
    screenshot: ctx.shot(h.state.screenshot_path),
    text: null,
    system: null,
    reply: null,
    parsed: out,
    actions,
    gated: trace?.gated === true || undefined,
    usage: numbers(meta.usage),
    latency_ms: num(meta.latency_ms) ?? undefined,
  };
}

/** A record of numbers (a step's token usage), or undefined when the value is none. */
function numbers(v: unknown): Record<string, number> | undefined {
  const entries = Object.entries(obj(v)).filter((e): e is [string, number] => typeof e[1] === "number");
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** A planner_history.json turn (agent_planner). */
function plannerTurnStep(t: PlannerTurn, ctx: StepContext): ViewStep {
  return {
    kind: "planner",
    step: 0,
    turn: t.turn,
    model: t.model,
    family: "Planner",
    url: "",
    title: "",
    screenshot: ctx.shot(t.screenshot_path),
    text: ctx.pack(t.text),
    system: null,
    reply: t.raw ?? null,
    parsed: t.reply,
    actions: [],
    usage: numbers(t.usage),
    latency_ms: t.latency_ms,
    error: t.error,
  };
}
