/**
 * Training rows from an episode's step records (the seed's --record-rows and write_proposed_rows): one row per model
 * request, the messages exactly as sent (the system prompt from the run's prompts/<sha256>.txt, the user text, the
 * screenshot copied from the file the step record names to an image beside rows.jsonl) and the reply text as the
 * target. The runner's --record-rows and record_rows.ts both write rows this way, from the same files, so they
 * write the same rows. Which episodes leave rows, and how rows are labelled, is the task kind's (lib/tasks' RowsSpec).
 */
import { join } from "node:path";
import { HarnessError, RunFolderError } from "../errors/mod.ts";
import { writeFileAtomic } from "../io/mod.ts";
import { EPISODE_FILES, rowLine, rowsEpisodeJson, type RunFolder, type StepRecord } from "../run_folder/mod.ts";
import type { RowsSpec } from "../protocol/mod.ts";

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

/** The image a step's request carried, as a file of the episode folder `dir`, or null when it carried none. */
async function stepImage(s: StepRecord, dir: string, where: string): Promise<RowSource["image"]> {
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
  const path = join(dir, req.screenshot);
  const found = await Deno.stat(path).then((i) => i.isFile, (err) => {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  });
  if (!found) throw new HarnessError(`${where}: step ${s.step}'s image ${path} is missing`);
  return { path, mime };
}

/**
 * The row sources of an episode of `folder` (its steps.jsonl): one per model request that got a reply, in order; null
 * when the episode has no steps.jsonl (a run from before step records).
 * @throws RunFolderError naming the file and line of a malformed step record, or a line a crash cut short;
 *   HarnessError naming a missing image or system prompt
 */
export async function episodeRowSources(folder: RunFolder, episode: string): Promise<RowSource[] | null> {
  const steps = await folder.steps(episode);
  if (steps === undefined) return null;
  const file = folder.episodeFile(episode, EPISODE_FILES.steps);
  if (steps.cut) {
    throw new RunFolderError(
      `${file} line ${steps.cut.line} was cut short (a crash mid-write): its rows cannot be whole`,
      file,
      episode,
    );
  }
  const dir = folder.episodeDir(episode);
  const prompts = folder.prompts();
  const sources: RowSource[] = [];
  for (const s of steps.records) {
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
function rowImageStem(spec: Pick<RowsSpec, "dir">): "row" | "step" {
  return spec.dir === "" ? "row" : "step";
}

/** The first action's name of an agent step's reply ("" for an empty action list); undefined when not a step. */
function replyOp(reply: string | undefined): string | undefined {
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
    const fields = { ...spec.row(step, { model: s.model, op }), ...(s.family ? { family: s.family } : {}) };
    lines.push(rowLine({ ...fields, messages: requestMessages(s.system, s.text, url), target: s.target }));
  }
  await writeFileAtomic(join(rowsDir, "rows.jsonl"), lines.join(""));
  await writeFileAtomic(join(rowsDir, "episode.json"), rowsEpisodeJson(spec.episode(lines.length)));
  return lines.length;
}
