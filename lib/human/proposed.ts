/**
 * Proposed tasks (the seed's prepare_proposed and write_proposed_rows): tasks a generator proposed, run on the
 * default logged-in session from their start path, graded "pending" (a judge picks the kept ones later), and
 * written as training rows whatever their outcome.
 */
import { join } from "node:path";
import { z } from "zod";
import { TaskFormatError } from "../errors/mod.ts";
import { describeIssues, errorMap } from "../grading/mod.ts";
import { type Macro, macroSchema } from "../tasks/mod.ts";
import type { EpisodeStart } from "./start.ts";

/** A proposed task line. */
export interface ProposedTask {
  kind: "proposed";
  task_id: string;
  site: string;
  macro: Macro;
  instruction: string;
  /** The start page's path on the site base (`/shop/products/7`). */
  start_path: string;
  option: Record<string, unknown> | null;
}

export const proposedTaskSchema: z.ZodType<ProposedTask> = z.strictObject({
  kind: z.literal("proposed"),
  task_id: z.string().regex(/^[A-Za-z0-9_.-]+$/),
  site: z.string().min(1),
  macro: macroSchema,
  instruction: z.string().min(1),
  start_path: z.string().regex(/^\//, { message: "must be a path starting with /" }),
  option: z.record(z.string(), z.unknown()).nullable().default(null),
});

/**
 * Reads a JSON Lines file of proposed tasks.
 * @throws TaskFormatError naming the file, line and field (`tasks.jsonl line 3: task "p1": start_path: ...`).
 */
export async function loadProposedTasks(path: string): Promise<ProposedTask[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new TaskFormatError(`cannot read proposed tasks "${path}": ${(e as Error).message}`, path, undefined, {
      cause: e,
    });
  }
  const out: ProposedTask[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i]);
    } catch (e) {
      throw new TaskFormatError(`${path} line ${i + 1}: not JSON: ${(e as Error).message}`, path, i + 1, { cause: e });
    }
    const r = proposedTaskSchema.safeParse(raw, { error: errorMap });
    const id = (raw as { task_id?: unknown })?.task_id;
    const who = typeof id === "string" ? `task "${id}": ` : "";
    if (!r.success) throw new TaskFormatError(`${path} line ${i + 1}: ${who}${describeIssues(r.error)}`, path, i + 1);
    if (out.some((t) => t.task_id === r.data.task_id)) {
      throw new TaskFormatError(`${path} line ${i + 1}: ${who}duplicate task_id`, path, i + 1);
    }
    out.push(r.data);
  }
  return out;
}

/** A proposed episode's start: the default (logged-in) session on the task's start path. */
export function proposedStart(task: ProposedTask, base: string): EpisodeStart {
  return { logout: false, startUrl: base.replace(/\/+$/, "") + task.start_path, prompt: task.instruction };
}

/** The family a training row belongs to, by its first action (the seed's om2w.ROW_FAMILY; others: Navigation). */
export const ROW_FAMILY: Readonly<Record<string, string>> = {
  drag: "Drag & gesture",
  clipboard_read: "Out-of-page I/O",
  clipboard_write: "Out-of-page I/O",
  upload_file: "Out-of-page I/O",
  switch: "Out-of-page I/O",
  close: "Out-of-page I/O",
  select_dropdown: "Discrete selection",
  dropdown_options: "Discrete selection",
  input: "Text entry",
  send_keys: "Text entry",
  done: "Reasoning base",
};

/** One model exchange as recorded (lib/llm's ChatRecord, or the seed's `{model, messages, content}`). */
export interface RecordedStep {
  model?: string;
  messages: unknown[];
  text?: string;
  content?: string;
}

const DATA_URL = /^data:image\/(png|jpeg|jpg|webp);base64,(.*)$/s;

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * The messages with every inline image written to `dir` (`step_<i>.png`, then `step_<i>_<k>.<ext>`) and its
 * URL replaced by that file name; `screenshot`, when given, is written as the step's first image instead.
 */
async function saveImages(messages: unknown[], dir: string, i: number, screenshot?: Uint8Array): Promise<unknown[]> {
  let k = 0;
  const out = structuredClone(messages) as { content?: unknown }[];
  for (const m of out) {
    if (!Array.isArray(m?.content)) continue;
    for (const part of m.content as { type?: string; image_url?: { url?: string } }[]) {
      const url = part?.type === "image_url" ? part.image_url?.url : undefined;
      const data = typeof url === "string" ? DATA_URL.exec(url) : null;
      if (!data) continue;
      const ext = data[1] === "jpeg" || data[1] === "jpg" ? "jpg" : data[1];
      const name = k === 0 ? `step_${i}.${screenshot ? "png" : ext}` : `step_${i}_${k}.${ext}`;
      await Deno.writeFile(join(dir, name), k === 0 && screenshot ? screenshot : decodeBase64(data[2]));
      part.image_url!.url = name;
      k++;
    }
  }
  return out;
}

/** The first action's name of a step's reply, or undefined when the reply is not an agent step. */
function stepOp(reply: string | undefined): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply ?? "");
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const action = (parsed as { action?: unknown }).action;
  const first = Array.isArray(action) && action.length ? action[0] : {};
  return first && typeof first === "object" ? Object.keys(first)[0] ?? "" : "";
}

/**
 * A proposed task's episode as training rows, whatever its outcome: `rowsDir/{rows.jsonl, step_*.png,
 * episode.json}`. Only the agent's step calls (a JSON reply) become rows; a row's family follows its first action.
 * `screenshots[i]`, when given, is row i's image (else the request's inline image is decoded).
 * @returns the number of rows written.
 */
export async function writeProposedRows(
  rowsDir: string,
  task: ProposedTask,
  records: readonly RecordedStep[],
  screenshots?: readonly (Uint8Array | undefined)[],
): Promise<number> {
  await Deno.mkdir(rowsDir, { recursive: true });
  const rows: string[] = [];
  for (const st of records) {
    const target = st.text ?? st.content;
    const op = stepOp(target);
    if (op === undefined) continue;
    const i = rows.length;
    rows.push(
      JSON.stringify({
        task_id: task.task_id,
        step: i,
        segment: 0,
        macro: null,
        op,
        family: ROW_FAMILY[op] ?? "Navigation",
        messages: await saveImages(st.messages, rowsDir, i, screenshots?.[i]),
        target,
      }) + "\n",
    );
  }
  await Deno.writeTextFile(join(rowsDir, "rows.jsonl"), rows.join(""));
  const episode = {
    task_id: task.task_id,
    instruction: task.instruction,
    site: task.site,
    start_path: task.start_path,
    steps: rows.length,
    source: "taskgen",
  };
  await Deno.writeTextFile(join(rowsDir, "episode.json"), JSON.stringify(episode, null, 1) + "\n");
  return rows.length;
}
