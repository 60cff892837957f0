/**
 * record_annotation.ts: record (or re-record) human tasks' recording.json by driving the embedded sandbox in
 * headless Chromium with the task's actions, and saving what the page recorder sent (/_admin/record).
 *
 *   deno run -A scripts/record_annotation.ts TASK_DIR [TASK_DIR...] [--actions FILE]
 *
 * Each TASK_DIR holds task.json and verifier.json. The actions (the action language, docs/tasks.md) come from
 * --actions (a JSON list, for one TASK_DIR; a final `done` gives the answer) or, without it, from the task's
 * existing recording (re-recording after a sandbox change). The episode starts as a human episode does (logged out
 * for a login task; the portal for a cross-site task). Prints each task's grade without the LLM tier.
 *
 * Exit codes: 0 every task recorded; 1 an action failed or the harness did (nothing written for that task);
 * 2 usage error.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { replayReference } from "../lib/agent/mod.ts";
import { ChromiumBrowser } from "../lib/browser/mod.ts";
import { describeError } from "../lib/errors/mod.ts";
import { gradeHuman, humanTrajectory } from "../lib/grading/mod.ts";
import { APPS, type DirectoryApp, endSession, fetchHealth, readSessionStreams, startSites } from "../lib/sites/mod.ts";
import { BUNDLED, openStartPage } from "../lib/run/mod.ts";
import { humanStart, loadHumanTask, type ReferenceStep } from "../lib/tasks/mod.ts";
import type { ActionCall } from "../lib/protocol/mod.ts";

const USAGE = `Usage: deno run -A scripts/record_annotation.ts TASK_DIR [TASK_DIR...] [--actions FILE]

Options:
  --actions FILE   the actions to record (a JSON list); one TASK_DIR only. Default: the task's recording
  -h, --help       this text

Example:
  deno run -A scripts/record_annotation.ts fixtures/annotations/shop/shop_h_search_jacket --actions acts.json
`;

async function recordOne(
  browser: ChromiumBrowser,
  base: string,
  apps: readonly DirectoryApp[],
  dir: string,
  actionsFile?: string,
): Promise<boolean> {
  const key = dir.split("/").slice(-2).join("/");
  const task = await loadHumanTask(dir, key);
  if (!task) throw new Error(`${dir} has no task.json or no verifier.json`);
  const actions: unknown[] | undefined = actionsFile ? JSON.parse(await Deno.readTextFile(actionsFile)) : undefined;
  const startTask = { ...task, start_hint: task.recording?.start_url ?? task.start_hint };
  const start = humanStart(startTask, base, apps);
  await using session = await browser.newEpisode({
    allowedOrigins: [base],
    downloadDir: await Deno.makeTempDir({ prefix: "record_annotation_" }),
    uploadDir: BUNDLED.uploads,
  });
  try {
    const started = await openStartPage(session, base, start);
    // The given actions as they are, one step each; else the human kind's reference (the recording's replay steps).
    const reference: ReferenceStep[] | undefined = actions?.map((a) => ({ candidates: () => [a as ActionCall] }));
    const outcome = await replayReference(session, base, task, { reference });
    if (outcome.errors.length) {
      console.error(`FAIL ${key}: ${outcome.errors.join("; ")}`);
      return false;
    }
    const streams = await readSessionStreams(session, base, started);
    const recording = {
      start_url: start.startUrl,
      answer: outcome.answer,
      entries: streams.record,
      recorded_at: new Date().toISOString(),
      base,
    };
    await Deno.writeTextFile(join(dir, "recording.json"), JSON.stringify(recording, null, 1) + "\n");
    const grade = await gradeHuman(task, humanTrajectory(streams.record, streams.log), outcome.answer);
    const verdict = grade.gradeError ? "NEEDS LLM TIER" : grade.ok ? "PASS" : `FAIL ${grade.detail}`;
    console.error(`recorded ${key}: ${streams.record.length} entries, ${outcome.steps} actions; grade: ${verdict}`);
    return true;
  } finally {
    // A harness session is never evicted: ended here, or a run of more tasks than the sandbox holds is refused.
    await endSession(session, base).catch(() => {});
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { actions: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) return (console.log(USAGE), 0);
  const dirs = parsed.positionals;
  if (dirs.length === 0 || (parsed.values.actions && dirs.length > 1)) {
    console.error(`give one or more TASK_DIRs (one with --actions)\n\n${USAGE}`);
    return 2;
  }
  await using server = await startSites({ apps: APPS, port: 0 });
  const { apps } = await fetchHealth(server.base);
  const browser = await ChromiumBrowser.launch();
  let ok = true;
  try {
    for (const dir of dirs) {
      try {
        ok = await recordOne(browser, server.base, apps, dir.replace(/\/+$/, ""), parsed.values.actions) && ok;
      } catch (err) {
        console.error(`FAIL ${dir}: ${describeError(err)}`);
        ok = false;
      }
    }
  } finally {
    await browser.close();
  }
  return ok ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
