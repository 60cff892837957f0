/**
 * Training rows from an episode's step records (the seed's --record-rows and write_proposed_rows): one row per model
 * request, the messages exactly as sent (the system prompt from the run's prompts/<sha256>.txt, the user text, the
 * screenshot copied from the file the step record names to an image beside rows.jsonl) and the reply text as the
 * target. The runner's --record-rows and record_rows.ts both write rows this way, from the same files, so they
 * write the same rows. Which episodes leave rows, and how rows are labelled, is the task kind's (lib/tasks' RowsSpec).
 */
import { join } from "node:path";
import { z } from "zod";
import { HarnessError } from "../errors/mod.ts";
import { describeIssues, errorMap } from "../grading/mod.ts";
import { childPath, parseJsonLines, readTextIfExists, sha256Hex, writeFileAtomic, writeJsonAtomic } from "../io/mod.ts";
import type { RowsSpec } from "../tasks/mod.ts";

/** An episode's step records, beside its other files. */
export const STEPS_FILE = "steps.jsonl";

/** The run's folder of system prompts, one `<sha256>.txt` per prompt text. */
export const PROMPTS_DIR = "prompts";

/** One model request as a training row takes it: what was sent (the image by file) and the reply. */
export interface RowSource {
  /** The served model name (its adapter). */
  model?: string;
  /** The row's family when the arm labels it (agent_planner: the planner's own, or the specialist's). */
  family?: string;
  /** The system message's text, as sent. */
  system: string;
  /** The user message's text, as sent. */
  text: string;
  /** The image the request carried: the file holding its exact bytes, and its MIME type. */
  image: { path: string; mime: string } | null;
  /** The reply's raw text. */
  target: string;
}

/** The part of a step record (lib/agent's StepRecord, one line of steps.jsonl) that rows read. */
const stepLineSchema = z.looseObject({
  step: z.number(),
  model: z.string().nullable().optional(),
  row_family: z.string().optional(),
  request: z.looseObject({
    system_sha256: z.string().regex(/^[0-9a-f]{64}$/, "expected a SHA-256 in lower-case hex"),
    text: z.string(),
    screenshot: z.string().nullable(),
    screenshot_mime: z.string().optional(),
  }).nullable(),
  reply: z.string().nullable(),
});

type StepLine = z.infer<typeof stepLineSchema>;

/** The file name extension of an image's MIME type (as the seed's save_images names them). */
const IMAGE_EXT: Readonly<Record<string, string>> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/**
 * The messages of a model request as the agent loop and the planner send them: the system prompt, then one user
 * message with the text and, when there is one, the image part (lib/llm's imagePart, its URL here `imageUrl`).
 */
export function requestMessages(system: string, text: string, imageUrl: string | null): unknown[] {
  const content: unknown[] = [{ type: "text", text }];
  if (imageUrl !== null) content.push({ type: "image_url", image_url: { url: imageUrl } });
  return [{ role: "system", content: system }, { role: "user", content }];
}

/** Reads a system prompt by its SHA-256. */
export type PromptReader = (sha256: string) => Promise<string>;

/**
 * The reader of a run's prompts/<sha256>.txt, each read once, its text checked against its hash.
 * @throws HarnessError naming the file when it is missing or does not hash to its name.
 */
export function promptReader(out: string): PromptReader {
  const cache = new Map<string, Promise<string>>();
  const read = async (sha: string) => {
    const file = join(out, PROMPTS_DIR, `${sha}.txt`);
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      throw new HarnessError(`the system prompt ${file} is missing`, { cause: err });
    }
    if (await sha256Hex(text) !== sha) {
      throw new HarnessError(`${file} does not hash to its name: it is not the prompt the requests were sent with`);
    }
    return text;
  };
  return (sha) => {
    let text = cache.get(sha);
    if (!text) cache.set(sha, text = read(sha));
    return text;
  };
}

/** Parses steps.jsonl's text. @throws HarnessError naming the file, the line and the field. */
function parseStepLines(text: string, file: string): StepLine[] {
  const fail = (line: number, message: string, cause?: unknown) =>
    new HarnessError(`cannot read ${file} line ${line}: ${message}`, { cause });
  return parseJsonLines(text, fail).lines.map(({ line, value }) => {
    const r = stepLineSchema.safeParse(value, { error: errorMap });
    if (!r.success) throw fail(line, describeIssues(r.error), r.error);
    return r.data;
  });
}

/** The image a step's request carried, as a file of the episode folder `dir`, or null when it carried none. */
async function stepImage(s: StepLine, dir: string, where: string): Promise<RowSource["image"]> {
  const req = s.request!;
  if (req.screenshot === null) {
    if (req.screenshot_mime === undefined) return null;
    throw new HarnessError(
      `${where}: step ${s.step}'s request carried an image that the run did not save (it ran with ` +
        "--no-step-screenshots), so its row cannot be rebuilt",
    );
  }
  const mime = req.screenshot_mime ?? "image/png";
  if (!IMAGE_EXT[mime]) {
    throw new HarnessError(`${where}: step ${s.step}'s image type "${mime}" is not one of ${Object.keys(IMAGE_EXT)}`);
  }
  const path = childPath(dir, req.screenshot);
  const found = await Deno.stat(path).then((i) => i.isFile, (err) => {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  });
  if (!found) throw new HarnessError(`${where}: step ${s.step}'s image ${path} is missing`);
  return { path, mime };
}

/**
 * The row sources of the episode in folder `dir` (its steps.jsonl): one per model request that got a reply, in
 * order; null when the episode has no steps.jsonl (a run from before step records).
 * @throws HarnessError naming the file and line of a malformed step record, a missing image or system prompt.
 */
export async function episodeRowSources(dir: string, prompts: PromptReader): Promise<RowSource[] | null> {
  const file = join(dir, STEPS_FILE);
  const text = await readTextIfExists(file);
  if (text === undefined) return null;
  const sources: RowSource[] = [];
  for (const s of parseStepLines(text, file)) {
    if (s.request === null || s.reply === null) continue;
    sources.push({
      ...(s.model ? { model: s.model } : {}),
      ...(s.row_family ? { family: s.row_family } : {}),
      system: await prompts(s.request.system_sha256),
      text: s.request.text,
      image: await stepImage(s, dir, file),
      target: s.reply,
    });
  }
  return sources;
}

/**
 * The file name stem of row images. Rows written into the episode folder itself (rejection sampling) share it with
 * the history's `step_<n>.png` screenshots (numbered from 1, rows from 0), so their images are `row_<i>.png`: the
 * same name would overwrite step n's picture with another step's. Rows in a folder of their own (rows/, the seed's
 * write_proposed_rows layout) keep the seed's `step_<i>.png`.
 */
export function rowImageStem(spec: Pick<RowsSpec, "dir">): "row" | "step" {
  return spec.dir === "" ? "row" : "step";
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
 * Writes `<dir>/<spec.dir>/{rows.jsonl, <stem>_<i>.<ext>, episode.json}` (rowImageStem: `row_*` in the episode
 * folder, `step_*` in rows/), each row's image copied byte for byte from the file its source names.
 * @returns the number of rows written; undefined, and nothing written, when there is no source (no model request).
 */
export async function writeRows(
  dir: string,
  sources: readonly RowSource[],
  spec: RowsSpec,
): Promise<number | undefined> {
  if (sources.length === 0) return undefined;
  const rowsDir = join(dir, spec.dir);
  const stem = rowImageStem(spec);
  const lines: string[] = [];
  for (const s of sources) {
    const op = replyOp(s.target);
    if (op === undefined && spec.agentStepsOnly) continue;
    const step = lines.length;
    let url: string | null = null;
    if (s.image) {
      url = `${stem}_${step}.${IMAGE_EXT[s.image.mime]}`;
      await writeFileAtomic(join(rowsDir, url), await Deno.readFile(s.image.path));
    }
    const row = { ...spec.row(step, { model: s.model, op }), ...(s.family ? { family: s.family } : {}) };
    const messages = requestMessages(s.system, s.text, url);
    lines.push(JSON.stringify({ ...row, messages, target: s.target }) + "\n");
  }
  await writeFileAtomic(join(rowsDir, "rows.jsonl"), lines.join(""));
  await writeJsonAtomic(join(rowsDir, "episode.json"), spec.episode(lines.length), 1);
  return lines.length;
}
