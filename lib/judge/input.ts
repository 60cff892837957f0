/**
 * The macro judge's view of a saved episode: the task and its macros, and what the backend recorded (requests,
 * data changes, clipboard, the recorder's actions and page loads, the final screen). Never the agent's own claim
 * of success: no done flag, thoughts, memory or history; the answer only when the task asks a question. Pure: the
 * task's kind says what of grade_inputs.json is shown (lib/tasks' judgeView).
 */
import type { EpisodeJudgeInput } from "../llm/mod.ts";
import type { JudgeView } from "../tasks/mod.ts";
import { familyOf } from "../protocol/mod.ts";

type Entry = Record<string, unknown>;
const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Entry[] => Array.isArray(v) ? v.filter(isObject) : [];
const clip = (s: string, n: number) => s.length > n ? `${s.slice(0, n - 1)}…` : s;
const json = (v: unknown, n = 200) => clip(JSON.stringify(v) ?? "", n);

const MAX_LINES = 300;
const capLines = (lines: string[]) =>
  lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `(${lines.length - MAX_LINES} more)`] : lines;

function requestLine(e: Entry): string {
  const q = isObject(e.query) && Object.keys(e.query).length ? `?${new URLSearchParams(e.query as never)}` : "";
  const body = isObject(e.body) && Object.keys(e.body).length ? ` ${json(e.body)}` : "";
  return `${e.method} ${e.path}${q}${body} -> ${e.status}`;
}

function changeLine(c: Entry): string {
  const head = `${c.site}.${c.table} ${c.op} key ${json(c.key, 40)}`;
  if (c.op === "update" && isObject(c.before) && isObject(c.after)) {
    const before = c.before, after = c.after;
    const diff = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
    return `${head}: ${diff.map((k) => `${k} ${json(before[k], 60)} -> ${json(after[k], 60)}`).join(", ")}`;
  }
  return `${head}: ${json(c.op === "delete" ? c.before : c.after, 300)}`;
}

function actionLine(e: Entry): string | undefined {
  if (e.type === "observation") return e.kind === "page_load" ? `page loaded: ${e.url} "${e.title ?? ""}"` : undefined;
  if (e.type !== "action" || e.action === "scroll") return undefined;
  const value = e.value === undefined ? "" : ` = ${json(e.value, 120)}`;
  return `${e.action} ${e.target ?? ""}${value}`;
}

/** Whether the task asks a question (a macro of the reasoning family): only then does its answer count. */
function asksQuestion(macros: { macro: string }[]): boolean {
  return macros.some((m) => familyOf(m.macro) === "Reasoning base");
}

/**
 * The judge input of a saved episode: what its kind shows the judge (lib/tasks' JudgeView of grade_inputs.json)
 * and final.png's bytes.
 */
export function judgeInput(view: JudgeView, screenshot?: Uint8Array): EpisodeJudgeInput {
  const input: EpisodeJudgeInput = {
    instruction: view.instruction,
    macros: view.macros,
    evidence: {
      requests: capLines(list(view.log).map(requestLine)),
      changes: capLines(list(view.changes).map(changeLine)),
      clipboard: view.clip.map((c) => json(c, 300)),
      actions: capLines(list(view.record).map(actionLine).filter((l): l is string => l !== undefined)),
      ...(view.seen.length ? { finalText: clip(view.seen[view.seen.length - 1], 4000) } : {}),
    },
  };
  if (asksQuestion(view.macros)) input.answer = view.answer ?? "";
  if (screenshot) input.screenshot = screenshot;
  return input;
}
