/**
 * The episode viewer: `<out>/viewer.html`, one self-contained page per run that opens from file:// with no server.
 * It lists every episode with filters (status, family, site, arm) and a text search; opening one shows its result,
 * its task, the grade with the evidence that decided it, and each step: the screenshot, what the model was shown,
 * its reply, the actions and their results. Written at the end of a run and after regrade or merge
 * (`deno task viewer OUT` writes it for any run folder).
 */
import { basename, join, resolve } from "node:path";
import { writeFileAtomic } from "../io/mod.ts";
import { STATUSES } from "../results/mod.ts";
import type { ViewerData } from "./viewer_client.ts";
import { loadRun } from "./load.ts";
import { type EpisodeDetail, readEpisodeDetail, summarize } from "./viewer_data.ts";
import { renderViewer } from "./viewer_page.ts";

/**
 * Writes `<out>/viewer.html` from the run's results and episode folders, and returns its path.
 * @throws UsageError when `out` is no run folder (no results.jsonl); HarnessError naming the file (and line) of a
 *   results line, run.json or steps.jsonl that cannot be read (lib/report loadRun).
 */
export async function writeViewer(out: string): Promise<string> {
  const run = await loadRun(out);
  const details: EpisodeDetail[] = [];
  for (const r of run.results) details.push(await readEpisodeDetail(out, r));
  const data: ViewerData = {
    title: basename(resolve(out)),
    settings: await readSettings(out),
    notes: run.notes,
    statuses: STATUSES,
    episodes: details.map((d) => summarize(d.result, d.instruction)),
    prompts: await readPrompts(out, details),
  };
  const path = join(out, "viewer.html");
  await writeFileAtomic(path, renderViewer(data, details));
  return path;
}

/** run.json's settings (null for a folder from before run.json, or one that does not parse). */
async function readSettings(out: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(join(out, "run.json"))).settings ?? null;
  } catch {
    return null;
  }
}

/** The system prompts the steps name, from the run's prompts/<sha256>.txt (a missing one is only linked). */
async function readPrompts(out: string, details: EpisodeDetail[]): Promise<Record<string, string>> {
  const hashes = new Set(details.flatMap((d) => d.steps.map((s) => s.system)).filter((h) => h !== null));
  const prompts: Record<string, string> = {};
  for (const sha of hashes) {
    // A hash is 64 hex digits in a run the runner wrote; anything else is not a file name to open.
    if (!/^[0-9a-f]{64}$/.test(sha)) continue;
    try {
      prompts[sha] = await Deno.readTextFile(join(out, "prompts", `${sha}.txt`));
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return prompts;
}

/**
 * Writes (again) the run's viewer.html after a run, a regrade or a merge, saying where on stderr. The viewer is a
 * convenience: a failure to write it is told, never the command's failure (`deno task viewer OUT` retries it).
 */
export async function refreshViewer(out: string, script: string): Promise<void> {
  try {
    console.error(`viewer: ${await writeViewer(out)}`);
  } catch (err) {
    console.error(`${script}: viewer.html was not written (${err instanceof Error ? err.message : String(err)})`);
  }
}
