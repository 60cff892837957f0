/**
 * What the episode viewer shows, read from a run folder: one summary per episode (the list and its filters) and one
 * detail per episode (the result, the task, the evidence that decided the grade, every step). Steps come from the
 * episode's steps.jsonl; an episode without one (a run from before it) falls back to history.json (browser-use's
 * layout, with trace.json's gates) and planner_history.json. A file that cannot be read is named in the detail's
 * `problems`, so one broken episode never hides the others.
 */
import { join } from "node:path";
import { errorMessage, HarnessError } from "../errors/mod.ts";
import { childPath, parseJsonLines } from "../io/mod.ts";
import type { StepRecord } from "../agent/mod.ts";
import type { EpisodeStatus } from "../results/mod.ts";
import type { ReportResult } from "./load.ts";
import { compactEvidence, type ViewEvidence } from "./viewer_evidence.ts";
import { arr, type Json, num, obj, str } from "./viewer_values.ts";

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
  detail: string;
  steps: number | null;
  answer: string | null;
  error: string | null;
  duration_s: number | null;
  instruction: string;
}

/** One executed action and what it did. */
export interface ViewAction {
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

/** The episode's folder name (a line from before `episode` was written: its task id). */
const episodeOf = (r: ReportResult): string => r.episode ?? r.task_id;

/** The list entry of an episode. */
export function summarize(r: ReportResult, instruction: string): ViewerEpisode {
  return {
    episode: episodeOf(r),
    task_id: r.task_id,
    repeat: r.repeat,
    macro: r.macro ?? "",
    site: r.site ?? "",
    arm: r.arm ?? "",
    family: r.family,
    status: r.status,
    detail: r.detail ?? "",
    steps: num(r.steps),
    answer: str(r.answer),
    error: str(r.error),
    duration_s: num(r.duration_s),
    instruction,
  };
}

/** Reads a JSON file of the episode folder: undefined when it is not there, a problem when it does not parse. */
async function readJson(dir: string, name: string, problems: string[]): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(join(dir, name)));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) problems.push(`${name}: ${errorMessage(err)}`);
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

/** An episode's detail, read from `<out>/<episode>/`. */
export async function readEpisodeDetail(out: string, r: ReportResult): Promise<EpisodeDetail> {
  const dir = childPath(out, episodeOf(r));
  const files = await fileNames(dir);
  const problems: string[] = [];
  const lines = new Map<string, number>();
  const ctx: StepContext = {
    shot: (name) => (typeof name === "string" && files.has(name) ? name : null),
    pack: (text) =>
      text === null ? null : text.split("\n").map((l) => lines.get(l) ?? lines.set(l, lines.size).size - 1),
  };
  const inputs = obj(await readJson(dir, "grade_inputs.json", problems));
  const task = obj(inputs.task);
  let steps: ViewStep[] = [];
  let source: EpisodeDetail["source"] = null;
  if (files.has("steps.jsonl")) {
    steps = await readSteps(join(dir, "steps.jsonl"), problems, ctx);
    source = "steps.jsonl";
  } else if (files.has("history.json")) {
    const history = arr(obj(await readJson(dir, "history.json", problems)).history);
    const trace = arr(await readJson(dir, "trace.json", problems));
    const planner = arr(obj(await readJson(dir, "planner_history.json", problems)).turns);
    steps = [
      ...planner.map((t) => plannerTurnStep(obj(t), ctx)),
      ...history.map((h, i) => historyStep(h, trace[i], ctx)),
    ];
    source = "history.json";
  }
  return {
    result: r,
    kind: Object.keys(inputs).length ? str(inputs.kind) ?? "datagen" : null,
    instruction: str(task.instruction) ?? "",
    check: task.check ?? null,
    verifier: task.verifier ?? null,
    evidence: Object.keys(inputs).length ? compactEvidence(inputs) : null,
    source,
    steps,
    lines: [...lines.keys()],
    final: ctx.shot("final.png"),
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

async function readSteps(file: string, problems: string[], ctx: StepContext): Promise<ViewStep[]> {
  try {
    const fail = (line: number, msg: string, cause: unknown) => new HarnessError(`line ${line}: ${msg}`, { cause });
    // A crash can cut the last line short: the steps before it are still shown.
    const { lines } = parseJsonLines(await Deno.readTextFile(file), fail, { partialTail: true });
    return lines.map(({ value }) => recordStep(value as StepRecord, ctx));
  } catch (err) {
    problems.push(`steps.jsonl: ${errorMessage(err)}`);
    return [];
  }
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
    usage: s.usage,
    latency_ms: s.latency_ms,
    error: s.error,
  };
}

/** A history.json entry: model_output, result[] (one per executed action), state, metadata. */
function historyStep(entry: unknown, trace: unknown, ctx: StepContext): ViewStep {
  const h = obj(entry), out = h.model_output ? obj(h.model_output) : null, state = obj(h.state), meta = obj(h.metadata);
  const calls = arr(out?.action), results = arr(h.result).map(obj);
  const actions = Array.from({ length: Math.max(calls.length, results.length) }, (_, i): ViewAction => {
    const res = results[i];
    if (!res) return { action: calls[i], ok: false, error: "(not run)" };
    const error = str(res.error) ?? undefined;
    return { action: calls[i] ?? null, ok: !error, error, extracted: str(res.extracted_content) ?? undefined };
  });
  return {
    kind: "agent",
    step: num(meta.step_number) ?? 0,
    model: str(meta.model),
    family: str(obj(trace).family),
    url: str(state.url) ?? "",
    title: str(state.title) ?? "",
    screenshot: ctx.shot(state.screenshot_path),
    text: null,
    system: null,
    reply: null,
    parsed: out,
    actions,
    gated: obj(trace).gated === true || undefined,
    usage: meta.usage as Record<string, number> | undefined,
    latency_ms: num(meta.latency_ms) ?? undefined,
  };
}

/** A planner_history.json turn (agent_planner). */
function plannerTurnStep(t: Json, ctx: StepContext): ViewStep {
  return {
    kind: "planner",
    step: 0,
    turn: num(t.turn) ?? undefined,
    model: str(t.model),
    family: "Planner",
    url: "",
    title: "",
    screenshot: ctx.shot(t.screenshot_path),
    text: ctx.pack(str(t.text)),
    system: null,
    reply: str(t.raw),
    parsed: t.reply ? obj(t.reply) : null,
    actions: [],
    usage: t.usage as Record<string, number> | undefined,
    latency_ms: num(t.latency_ms) ?? undefined,
    error: str(t.error) ?? undefined,
  };
}
