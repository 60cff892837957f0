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
import { UsageError } from "./lib/errors/mod.ts";
import { parseFlags, Redactor, runMain } from "./lib/io/mod.ts";
import { regradeCommand } from "./cli/regrade.ts";

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
