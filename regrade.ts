/**
 * regrade.ts: recompute every grade of a run from its saved grade_inputs.json, offline (no browser, no sites,
 * no model). Writes <out>/results_regraded.jsonl and prints the tally and how many grades changed. eval.ts
 * --regrade DIR is this script's code path (regradeCommand).
 *
 *   deno task regrade --out DIR [--tasks FILE | --human [--human-split S] [--human-macros M,..] [--annotations DIR]]
 *
 * Without --tasks or --human, each episode's check is the one saved with its inputs; a run folder the seed wrote
 * (grade_inputs.json without a task) needs them: its episodes are graded on the seed's evidence, with the bundled
 * apps' rules (fixtures/app_rules.json), and their lines say `evidence: "seed"`. With --task-ids only those tasks'
 * episodes are regraded; the others' lines are written as they were (the seed's regrade). Human episodes are graded by
 * their verifier; the LLM answer tier comes from WEBMIX_JUDGE_BASE_URL / _API_KEY / _MODEL, and completes grades that
 * were recorded with grade_error. An episode whose grade inputs are missing or damaged becomes a grade error naming
 * the file. Exit codes: 0 done, 1 the run folder cannot be read, 2 a usage error or a malformed task file.
 */
import { z } from "zod";
import { UsageError } from "./lib/errors/mod.ts";
import { type AppRules, appRulesSchema } from "./lib/grading/mod.ts";
import {
  checkFolderFlag,
  checkNetAccess,
  choiceFlag,
  type Flags,
  listFlag,
  parseFlags,
  Redactor,
  runMain,
  suiteFile,
  textFlag,
} from "./lib/io/mod.ts";
import { judgeEndpointFromEnv, judgeToReach, OpenAiJudge } from "./lib/llm/mod.ts";
import { refreshViewer } from "./lib/report/mod.ts";
import { regradeRun } from "./lib/results/mod.ts";
import { loadHumanTasks, loadTasks, type RunTask } from "./lib/tasks/mod.ts";

const USAGE = `Usage: deno task regrade --out DIR [--tasks FILE | --human [options]]

Recomputes every grade of the run in DIR from its grade_inputs.json files.

Options:
  --out DIR        the run's output folder (holds results.jsonl)
  --tasks FILE     grade with the checks of this task file instead of the ones saved with each episode (a run
                   folder the seed wrote needs it: its grade inputs hold no task)
  --task-ids A,B   regrade only these tasks' episodes; the others' lines are written as they were
  --human          grade human episodes with the verifiers of the annotations folder
  --human-split S  --human: test (default), train or all
  --human-macros M1,M2   --human: only tasks with one of these macros
  --annotations DIR      --human: the annotations folder (default: the bundled fixtures/annotations)
  --site-split FILE      --human: the site split file (default: <annotations>/site_split.json)
  --strict         refuse what the seed's data tolerates (a macro outside the vocabulary; with --human also unknown
                   task.json and verifier.json keys, a task folder without verifier.json, a task on a site in
                   neither split) instead of a warning each
  -h, --help       this text

Environment: WEBMIX_JUDGE_BASE_URL, WEBMIX_JUDGE_API_KEY, WEBMIX_JUDGE_MODEL (else the seed's
VERIFIER_JUDGE_MODEL): the LLM tier of human verifiers.

Examples:
  deno task regrade --out out/demo
  deno task regrade --out out/human --human --human-split all
  deno task regrade --out seed_runs/val1 --tasks data/valgen/tasks.jsonl   (a run folder the seed wrote)
`;

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

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    out: { type: "string" },
    tasks: { type: "string" },
    human: { type: "boolean" },
    "human-split": { type: "string" },
    "human-macros": { type: "string" },
    annotations: { type: "string" },
    "site-split": { type: "string" },
    strict: { type: "boolean" },
    "task-ids": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (flags.out === undefined) throw new UsageError("--out is required");
  return await regradeCommand(flags, {
    script: "regrade.ts",
    permissions: "--allow-read --allow-write --allow-env",
    folderFlag: "out",
  });
}

if (import.meta.main) await runMain("regrade.ts", main, new Redactor([Deno.env.get("WEBMIX_JUDGE_API_KEY")]));
