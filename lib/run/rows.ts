/**
 * Training rows from an episode's model exchanges (the seed's --record-rows and write_proposed_rows): one row per
 * request, the exact messages sent (inline images moved to files beside rows.jsonl) and the reply text as the
 * target. Which episodes leave rows, and how rows are labelled, is the task kind's (lib/tasks' RowsSpec).
 */
import { join } from "node:path";
import { writeFileAtomic, writeJsonAtomic } from "../io/mod.ts";
import type { RowsSpec } from "../tasks/mod.ts";

/** One model exchange as recorded (lib/llm's ChatRecord, or the seed's `{model, messages, content}`). */
export interface RecordedStep {
  model?: string;
  /** The row's family when the arm labels it (the planner arm: the planner's own, or the specialist's). */
  family?: string;
  messages: unknown[];
  text?: string;
  content?: string;
}

const DATA_URL = /^data:image\/(png|jpeg|jpg|webp);base64,(.*)$/s;

/**
 * The file name stem of row images. Rows written into the episode folder itself (rejection sampling) share it with
 * the history's `step_<n>.png` screenshots (numbered from 1, rows from 0), so their images are `row_<i>.png`: the
 * same name would overwrite step n's picture with another step's. Rows in a folder of their own (rows/, the seed's
 * write_proposed_rows layout) keep the seed's `step_<i>.png`.
 */
export function rowImageStem(spec: Pick<RowsSpec, "dir">): "row" | "step" {
  return spec.dir === "" ? "row" : "step";
}

/**
 * The messages with every inline image written to `dir` (`<stem>_<i>.<ext>`, then `<stem>_<i>_<k>.<ext>`) and its
 * URL replaced by that file name; `screenshot`, when given, is written as the step's first image instead. The
 * records themselves are not modified.
 */
async function saveImages(
  messages: unknown[],
  dir: string,
  stem: string,
  i: number,
  screenshot?: Uint8Array,
): Promise<unknown[]> {
  let k = 0;
  const out = structuredClone(messages) as { content?: unknown }[];
  for (const m of out) {
    if (!Array.isArray(m?.content)) continue;
    for (const part of m.content as { type?: string; image_url?: { url?: string } }[]) {
      const url = part?.type === "image_url" ? part.image_url?.url : undefined;
      const data = typeof url === "string" ? DATA_URL.exec(url) : null;
      if (!data) continue;
      const ext = data[1] === "jpeg" || data[1] === "jpg" ? "jpg" : data[1];
      const name = k === 0 ? `${stem}_${i}.${screenshot ? "png" : ext}` : `${stem}_${i}_${k}.${ext}`;
      await writeFileAtomic(join(dir, name), k === 0 && screenshot ? screenshot : Uint8Array.fromBase64(data[2]));
      part.image_url!.url = name;
      k++;
    }
  }
  return out;
}

/** The first action's name of an agent step's reply ("" for an empty action list); undefined when not a step. */
export function replyOp(reply: string | undefined): string | undefined {
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
 * Writes `<dir>/<spec.dir>/{rows.jsonl, <stem>_*.png, episode.json}` (rowImageStem: `row_*` in the episode folder,
 * `step_*` in rows/). `screenshots[i]`, when given, is row i's image (else the request's inline image is decoded).
 * @returns the number of rows written.
 */
export async function writeRows(
  dir: string,
  records: readonly RecordedStep[],
  spec: RowsSpec,
  screenshots?: readonly (Uint8Array | undefined)[],
): Promise<number> {
  const rowsDir = join(dir, spec.dir);
  const stem = rowImageStem(spec);
  const lines: string[] = [];
  for (const r of records) {
    const target = r.text ?? r.content;
    const op = replyOp(target);
    if (op === undefined && spec.agentStepsOnly) continue;
    const step = lines.length;
    const messages = await saveImages(r.messages, rowsDir, stem, step, screenshots?.[step]);
    const row = { ...spec.row(step, { model: r.model, op }), ...(r.family ? { family: r.family } : {}) };
    lines.push(JSON.stringify({ ...row, messages, target }) + "\n");
  }
  await writeFileAtomic(join(rowsDir, "rows.jsonl"), lines.join(""));
  await writeJsonAtomic(join(rowsDir, "episode.json"), spec.episode(lines.length), 1);
  return lines.length;
}
