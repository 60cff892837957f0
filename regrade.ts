/**
 * regrade.ts: recompute every grade of a run from its saved grade_inputs.json, offline (no browser, no sites,
 * no model). Writes <out>/results_regraded.jsonl and prints the tally and how many grades changed. eval.ts
 * --regrade DIR is this script's code path (regradeCommand).
 *
 *   deno task regrade --out DIR [--tasks FILE | --human [--human-split S] [--human-macros M,..] [--annotations DIR]]
 *
 * Without --tasks or --human, each episode's check is the one saved with its inputs. Human episodes are graded by
 * their verifier; the LLM answer tier comes from WEBMIX_JUDGE_BASE_URL / _API_KEY / _MODEL, and completes grades that
 * were recorded with grade_error. An episode whose grade inputs are missing or damaged becomes a grade error naming
 * the file. Exit codes: 0 done, 1 the run folder cannot be read, 2 a usage error or a malformed task file.
 */
import { UsageError } from "./lib/errors/mod.ts";
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
  --tasks FILE     grade with the checks of this task file instead of the ones saved with each episode
  --human          grade human episodes with the verifiers of the annotations folder
  --human-split S  --human: test (default), train or all
  --human-macros M1,M2   --human: only tasks with one of these macros
  --annotations DIR      --human: the annotations folder (default: the bundled fixtures/annotations)
  --strict         --human: refuse what the seed's annotations tolerate (unknown task.json keys, macros outside
                   the vocabulary, a task folder without verifier.json) instead of a warning each
  -h, --help       this text

Environment: WEBMIX_JUDGE_BASE_URL, WEBMIX_JUDGE_API_KEY, WEBMIX_JUDGE_MODEL (else the seed's
VERIFIER_JUDGE_MODEL): the LLM tier of human verifiers.

Examples:
  deno task regrade --out out/demo
  deno task regrade --out out/human --human --human-split all
`;

/** The flags that choose the tasks a regrade grades with (regrade.ts's, and eval.ts --regrade's). */
export const REGRADE_TASK_FLAGS: readonly string[] = [
  "tasks",
  "human",
  "human-split",
  "human-macros",
  "annotations",
  "strict",
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
    if (flags["human-split"] !== undefined || flags["human-macros"] !== undefined || flags.annotations) {
      throw new UsageError("--human-split, --human-macros and --annotations go with --human");
    }
    const file = textFlag(flags, "tasks", "a task file");
    return file === undefined ? undefined : await loadTasks(file);
  }
  if (flags.tasks !== undefined) throw new UsageError("--tasks and --human exclude each other");
  const annotationsDir = textFlag(flags, "annotations", "an annotations folder") ?? suiteFile("fixtures/annotations");
  await checkFolderFlag("annotations", annotationsDir, { file: "site_split.json", what: "an annotations folder" });
  return await loadHumanTasks({
    annotationsDir,
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
  const s = await regradeRun(out, tasks, endpoint ? await OpenAiJudge.create(endpoint) : undefined);
  await refreshViewer(out, caller.script);
  console.log(
    `regraded ${out}: ${JSON.stringify({ ok: s.ok, fail: s.fail })} (${s.changed} changed` +
      (s.gradeErrors ? `, ${s.gradeErrors} grade errors: grade inputs missing or unreadable` : "") + ")",
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    out: { type: "string" },
    tasks: { type: "string" },
    human: { type: "boolean" },
    "human-split": { type: "string" },
    "human-macros": { type: "string" },
    annotations: { type: "string" },
    strict: { type: "boolean" },
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
