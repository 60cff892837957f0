/**
 * The regrade command, shared by regrade.ts and eval.ts --regrade DIR (one code path, two entry scripts): recompute
 * every grade of a run from its saved grade inputs, offline. regrade.ts documents the flags and exit codes.
 */
import { z } from "zod";
import { UsageError } from "../lib/errors/mod.ts";
import { type AppRules, appRulesSchema } from "../lib/protocol/mod.ts";
import {
  checkFolderFlag,
  checkNetAccess,
  choiceFlag,
  type Flags,
  listFlag,
  suiteFile,
  textFlag,
} from "../lib/io/mod.ts";
import { judgeEndpointFromEnv, judgeToReach, OpenAiJudge } from "../lib/llm/mod.ts";
import { refreshViewer } from "../lib/report/mod.ts";
import { regradeRun } from "../lib/regrade/mod.ts";
import { loadHumanTasks, loadTasks, type RunTask } from "../lib/tasks/mod.ts";

/** The flags that choose the tasks a regrade grades with (regrade.ts's, and eval.ts --regrade's). */
export const REGRADE_TASK_FLAGS: readonly string[] = [
  "tasks",
  "human",
  "human-split",
  "human-macros",
  "annotations",
  "site-split",
  "strict",
  "task-ids",
];

/** Who runs a regrade: the script (for messages) and the permissions it runs with besides --allow-net. */
export interface RegradeCaller {
  script: string;
  permissions: string;
  /** The flag that names the run's folder: `out` (regrade.ts), `regrade` (eval.ts). */
  folderFlag: string;
}

/** The tasks `flags` name, or undefined to grade with each episode's saved task. */
async function regradeTasks(flags: Flags): Promise<RunTask[] | undefined> {
  if (!flags.human) {
    if (
      flags["human-split"] !== undefined || flags["human-macros"] !== undefined || flags.annotations ||
      flags["site-split"] !== undefined
    ) {
      throw new UsageError("--human-split, --human-macros, --annotations and --site-split go with --human");
    }
    const file = textFlag(flags, "tasks", "a task file");
    return file === undefined ? undefined : await loadTasks(file, { strict: flags.strict === true });
  }
  if (flags.tasks !== undefined) throw new UsageError("--tasks and --human exclude each other");
  const annotationsDir = textFlag(flags, "annotations", "an annotations folder") ?? suiteFile("fixtures/annotations");
  const splitFile = textFlag(flags, "site-split", "a site split file");
  const needs = splitFile ? undefined : { file: "site_split.json", what: "an annotations folder" };
  await checkFolderFlag("annotations", annotationsDir, needs);
  return await loadHumanTasks({
    annotationsDir,
    splitFile,
    split: choiceFlag(flags, "human-split", ["test", "train", "all"] as const) ?? "test",
    macros: listFlag(flags, "human-macros"),
    strict: flags.strict === true,
  });
}

/**
 * Regrades the run the caller's folder flag names, with the tasks the flags name, then writes its viewer again and
 * prints the tally.
 * @returns the exit code (0)
 * @throws UsageError naming the flag; RunFolderError naming a file of the run that cannot be read
 */
export async function regradeCommand(flags: Flags, caller: RegradeCaller): Promise<number> {
  const out = textFlag(flags, caller.folderFlag, "a run's output folder")!;
  await checkFolderFlag(caller.folderFlag, out, { file: "results.jsonl", what: "a run's output folder" });
  const tasks = await regradeTasks(flags);
  await checkNetAccess(judgeToReach(Deno.env.toObject()), caller.script, caller.permissions);
  const endpoint = judgeEndpointFromEnv(Deno.env.toObject());
  const ids = listFlag(flags, "task-ids");
  const s = await regradeRun(out, {
    tasks,
    qa: endpoint ? await OpenAiJudge.create(endpoint) : undefined,
    rules: await bundledAppRules(),
    only: ids ? new Set(ids) : undefined,
  });
  await refreshViewer(out, caller.script);
  const notes = [
    `${s.changed} changed`,
    s.seed ? `${s.seed} on the seed's evidence` : "",
    s.kept ? `${s.kept} not named by --task-ids, kept` : "",
    s.gradeErrors ? `${s.gradeErrors} grade errors: grade inputs missing or unreadable` : "",
    s.seedMissing
      ? `${s.seedMissing} grade errors: the check reads what the seed never saved (their detail says what)`
      : "",
  ].filter(Boolean);
  console.log(`regraded ${out}: ${JSON.stringify({ ok: s.ok, fail: s.fail })} (${notes.join(", ")})`);
  return 0;
}

/** The bundled apps' grading rules (fixtures/app_rules.json), for grade inputs that saved none (the seed's). */
async function bundledAppRules(): Promise<Record<string, AppRules>> {
  const file = suiteFile("fixtures/app_rules.json");
  const r = z.record(z.string(), appRulesSchema).safeParse(JSON.parse(await Deno.readTextFile(file)));
  if (!r.success) throw new Error(`${file}: ${z.prettifyError(r.error)}`);
  return r.data as Record<string, AppRules>;
}
