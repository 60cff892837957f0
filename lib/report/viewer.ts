/**
 * The episode viewer: `<out>/viewer.html`, one self-contained page per run that opens from file:// with no server.
 * It lists every episode with filters (status, reason, family, site, arm) and a text search; opening one shows its result,
 * its task, the grade with the evidence that decided it, and each step: the screenshot, what the model was shown,
 * its reply, the actions and their results. Written at the end of a run and after regrade or merge
 * (`deno task viewer OUT` writes it for any run folder).
 */
import { basename, join, resolve } from "node:path";
import { writeFileAtomic } from "../io/mod.ts";
import { LIMITS, readFolderText, RUN_FILES, STATUSES } from "../run_folder/mod.ts";
import type { ViewerData } from "./viewer_client.ts";
import { loadRun } from "./load.ts";
import { orderReasons, reasonMeaning } from "./reasons.ts";
import { type EpisodeDetail, readEpisodeDetail, summarize } from "./viewer_data.ts";
import { renderViewer } from "./viewer_page.ts";

/**
 * Writes `<out>/viewer.html` from the run's results and episode folders, and returns its path; a results line a crash
 * cut short is told on `log` (stderr) as well as in the page.
 * @throws UsageError when `out` is no run folder (no results.jsonl); RunFolderError naming the file (and line) of a
 *   results line or run.json that cannot be read (lib/report loadRun); an episode's unreadable files are shown on
 *   that episode, and a results line a crash cut short in the page's notes.
 */
export async function writeViewer(out: string, log: (line: string) => void = console.error): Promise<string> {
  // The viewer reads each episode's steps itself (readEpisodeDetail): the report's step lines are not needed.
  const run = await loadRun(out, { steps: false });
  for (const p of run.problems) log(`viewer: warning: ${p}`);
  const details: EpisodeDetail[] = [];
  for (const r of run.results) details.push(await readEpisodeDetail(run.folder, r));
  const episodes = details.map((d) => summarize(d.result, d.instruction));
  const reasons = orderReasons(episodes.map((e) => e.reason).filter((r) => r !== ""));
  const data: ViewerData = {
    title: basename(resolve(out)),
    settings: run.manifest?.settings ?? null,
    notes: run.notes,
    statuses: STATUSES,
    reasons,
    reasonMeanings: Object.fromEntries(reasons.flatMap((r) => {
      const meaning = reasonMeaning(r);
      return meaning === undefined ? [] : [[r, meaning]];
    })),
    episodes,
    prompts: await readPrompts(out, details),
  };
  const path = join(out, "viewer.html");
  await writeFileAtomic(path, renderViewer(data, details));
  return path;
}

/** The system prompts the steps name, from the run's prompts/<sha256>.txt (a missing one is only linked). */
async function readPrompts(out: string, details: EpisodeDetail[]): Promise<Record<string, string>> {
  const hashes = new Set(details.flatMap((d) => d.steps.map((s) => s.system)).filter((h) => h !== null));
  const prompts: Record<string, string> = {};
  for (const sha of hashes) {
    // A hash is 64 hex digits in a run the runner wrote; anything else is not a file name to open.
    if (!/^[0-9a-f]{64}$/.test(sha)) continue;
    const text = await readFolderText(join(out, RUN_FILES.prompts, `${sha}.txt`), LIMITS.prompt);
    if (text !== undefined) prompts[sha] = text;
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
