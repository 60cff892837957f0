/**
 * What runEval checks before it writes, deletes or locks anything, and the tasks it runs: the files the
 * configuration names, the tasks (loaded or given, checked against the sandbox's apps, selected and sharded), this
 * process's permission to reach every server the run uses, and the out folder. A dry run stops after these.
 */
import { join } from "node:path";
import { InputError, UsageError } from "../errors/mod.ts";
import {
  checkFolderFlag,
  checkNetAccess,
  guardedFolderProblem,
  guardedFolders,
  outFolderNames,
  type Reach,
  readFileFlag,
} from "../io/mod.ts";
import type { JudgeEndpoint } from "../llm/mod.ts";
import { RUN_MARKERS } from "../run_folder/mod.ts";
import { APPS } from "../sites/mod.ts";
import { checkTaskSites, filterTasks, kindOf, loadHumanTasks, loadTasks, type RunTask } from "../tasks/mod.ts";
import { armEntry } from "./arms.ts";
import { BUNDLED, type RunConfig } from "./config.ts";
import { shardTasks } from "./shard.ts";

/** What the checks before a run read besides the configuration. */
interface PrepareInputs {
  /** The whole task list (default: the one config.tasks names); selection and shard apply to it. */
  tasks?: readonly RunTask[];
  /** The answer judge's endpoint, reached when a task may use it. */
  judge?: JudgeEndpoint;
}

/**
 * The checks before a run, in the order a user fixes them: the files the configuration names, the tasks, the
 * servers this process may reach, the out folder.
 * @returns the tasks to run, and the whole selection a shard's tasks are part of.
 * @throws UsageError or TaskFormatError naming what is wrong; nothing is written, deleted or locked.
 */
export async function prepareRun(config: RunConfig, inputs: PrepareInputs): Promise<Selected> {
  await checkConfigFiles(config);
  const selected = await selectTasks(config, inputs.tasks);
  await checkServerAccess(config, selected.tasks, inputs.judge);
  await checkOut(config);
  return selected;
}

/** The tasks a configuration runs, and (with a shard) the whole selection they are a part of. */
interface Selected {
  /** The tasks to run: the selection, or the shard's part of it. */
  tasks: RunTask[];
  /** With config.shard: every selected task, before the split (run.json records its count and hash). */
  selection?: RunTask[];
}

/** The files and folders the configuration reads exist and can be read (task files are read by the loaders). */
async function checkConfigFiles(config: RunConfig): Promise<void> {
  const prompt = config.model.systemPromptFile;
  if (prompt === BUNDLED.systemPrompt && !(await Deno.stat(prompt).then((i) => i.isFile, () => false))) {
    // Not the user's flag: the suite's own file is gone (a copy of the suite without its prompts/ folder).
    throw new InputError(
      `the suite's system prompt ${prompt} is missing: this copy of the suite has no prompts/ folder beside ` +
        "eval.ts (copy it along), or pass --system-prompt FILE",
    );
  }
  await readFileFlag("system-prompt", prompt);
  if (config.tasks.human) {
    // With --site-split the folder need not hold the split file.
    const what = config.tasks.siteSplit ? undefined : { file: "site_split.json", what: "an annotations folder" };
    await checkFolderFlag("annotations", config.tasks.annotations, what);
    if (config.tasks.siteSplit) await readFileFlag("site-split", config.tasks.siteSplit);
  }
}

/**
 * The tasks a configuration runs: `given`, or those config.tasks names (the human annotations, or a task file of
 * datagen and proposed tasks), then its selection (taskIds, limit) and its shard. On the embedded sandbox (no
 * bases) each task's sites must be its apps; an external server's apps are known only after its /_admin/health,
 * and runEval checks those.
 * @throws UsageError when the selection names an unknown task or leaves none.
 */
async function selectTasks(
  config: RunConfig,
  given?: readonly RunTask[],
  options: { checkSites?: boolean } = {},
): Promise<Selected> {
  const t = config.tasks;
  const tasks: readonly RunTask[] = given ??
    (t.human
      ? await loadHumanTasks({
        annotationsDir: t.annotations,
        split: t.humanSplit,
        macros: t.humanMacros,
        strict: t.strict,
        splitFile: t.siteSplit,
      })
      : await loadTasks(t.file, { strict: t.strict }));
  const embeddedOnly = config.bases.length === 0 && config.ports.length === 0;
  if ((options.checkSites ?? true) && embeddedOnly) checkTaskSites(tasks, APPS.map((a) => a.id));
  // A selection that leaves nothing is refused (a typo would run nothing); an empty list given runs nothing.
  const selecting = t.taskIds !== undefined || t.limit > 0 || t.split !== undefined;
  const selected = selecting
    ? filterTasks(tasks, { split: t.split, taskIds: t.taskIds, limit: t.limit || undefined })
    : [...tasks];
  return config.shard ? { tasks: shardTasks(selected, config.shard), selection: selected } : { tasks: selected };
}

/** The deno permissions of eval.ts besides --allow-net, for the command a refusal shows. */
export const EVAL_PERMISSIONS = "--allow-read --allow-write --allow-env --allow-run --allow-sys";

/**
 * Checks that this process may reach every server the run uses: the model server (an arm with a model), the site
 * servers, and the answer judge when a task may use it (lib/io checkNetAccess, which words it for eval.ts).
 */
function checkServerAccess(config: RunConfig, tasks: readonly RunTask[], judge?: JudgeEndpoint): Promise<void> {
  const reach: Reach[] = [];
  if (armEntry(config.arm).needsModel) reach.push({ what: "--vllm", url: config.model.vllm });
  for (const base of config.bases) reach.push({ what: "--bases", url: base });
  for (const port of config.ports) reach.push({ what: "--ports", url: `http://127.0.0.1:${port}` });
  if (judge && tasks.some((t) => kindOf(t).mayUseAnswerJudge)) {
    reach.push({ what: "WEBMIX_JUDGE_BASE_URL", url: judge.baseURL });
  }
  return checkNetAccess(reach, "eval.ts", EVAL_PERMISSIONS);
}

/** The home folder, when this process may read the environment. */
function homeFolder(): string | undefined {
  try {
    return Deno.env.get("HOME");
  } catch {
    return undefined;
  }
}

/**
 * Whether the out folder can take this run, before anything is written or deleted: never the current folder, a
 * folder above it, the filesystem root, the home folder or the repository; a folder that holds files must hold a
 * run (so overwrite deletes only an earlier run); without resume or overwrite, a folder with results is refused.
 */
async function checkOut(config: RunConfig): Promise<void> {
  const out = config.out;
  const problem = await guardedFolderProblem(out, guardedFolders(Deno.cwd(), homeFolder()));
  if (problem) throw new UsageError(`--out "${out}" ${problem}: name a folder of the run's own (e.g. out/r1)`);
  const names = await outFolderNames(out);
  if (!names?.length) return;
  if (!RUN_MARKERS.some((m) => names.includes(m))) {
    const flag = config.overwrite ? "--overwrite: " : "--out ";
    throw new UsageError(
      `${flag}"${out}" holds files but no earlier run (no ${RUN_MARKERS.join(", ")} at its top)` +
        (config.overwrite ? ", and --overwrite deletes only a run's folder" : "") +
        ": choose a new or empty folder",
    );
  }
  if (config.overwrite) return;
  const text = names.includes("results.jsonl") ? await Deno.readTextFile(join(out, "results.jsonl")) : "";
  const lines = text.split("\n").filter((l) => l.trim()).length;
  if (lines > 0 && !config.resume) {
    throw new UsageError(
      `${out}/results.jsonl already holds ${lines} episodes: pass --resume to finish that run, --overwrite to start ` +
        `it again, or choose another --out`,
    );
  }
}
