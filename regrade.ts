/**
 * regrade.ts: recompute every grade of a run from its saved grade_inputs.json, offline (no browser, no sites,
 * no model). Writes <out>/results_regraded.jsonl and prints the tally and how many grades changed.
 *
 *   deno task regrade --out DIR [--tasks FILE]
 *
 * Without --tasks, each episode's check is the one saved with its inputs. Human episodes are graded by their
 * verifier; the LLM answer tier comes from WEBMIX_JUDGE_BASE_URL / _API_KEY / _MODEL, and completes grades that
 * were recorded with grade_error. Exit codes: 0 done, 1 the run folder
 * cannot be read, 2 a usage error or a malformed task file.
 */
import { UsageError } from "./lib/errors/mod.ts";
import { checkFolderFlag, checkNetAccess, parseFlags, Redactor, runMain, textFlag } from "./lib/io/mod.ts";
import { refreshViewer } from "./lib/report/mod.ts";
import { regradeRun } from "./lib/results/mod.ts";
import { loadTasks } from "./lib/tasks/mod.ts";
import { judgeEndpointFromEnv, judgeToReach, OpenAiJudge } from "./lib/llm/mod.ts";

const USAGE = `Usage: deno task regrade --out DIR [--tasks FILE]

Recomputes every grade of the run in DIR from its grade_inputs.json files.

Options:
  --out DIR      the run's output folder (holds results.jsonl)
  --tasks FILE   grade with the checks of this task file instead of the ones saved with each episode

Environment: WEBMIX_JUDGE_BASE_URL, WEBMIX_JUDGE_API_KEY, WEBMIX_JUDGE_MODEL: the LLM tier of human verifiers.
  -h, --help     this text

Example:
  deno task regrade --out out/demo
`;

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    out: { type: "string" },
    tasks: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (flags.out === undefined) throw new UsageError("--out is required");
  const out = textFlag(flags, "out", "a run's output folder")!;
  await checkFolderFlag("out", out, { file: "results.jsonl", what: "a run's output folder" });
  const file = textFlag(flags, "tasks", "a task file");
  const tasks = file === undefined ? undefined : await loadTasks(file);
  await checkNetAccess(judgeToReach(Deno.env.toObject()), "regrade.ts", "--allow-read --allow-write --allow-env");
  const endpoint = judgeEndpointFromEnv(Deno.env.toObject());
  const s = await regradeRun(out, tasks, endpoint ? await OpenAiJudge.create(endpoint) : undefined);
  await refreshViewer(out, "regrade.ts");
  console.log(
    `regraded ${out}: ${JSON.stringify({ ok: s.ok, fail: s.fail })} (${s.changed} changed` +
      (s.missing ? `, ${s.missing} without grade inputs` : "") + ")",
  );
  return 0;
}

if (import.meta.main) await runMain("regrade.ts", main, new Redactor([Deno.env.get("WEBMIX_JUDGE_API_KEY")]));
