/**
 * merge.ts: merge the folders of a sharded run (eval.ts --shard K/N, one per Slurm array task) into one run folder:
 * every results.jsonl and retried.jsonl line, the episode folders (hard links where the file system allows, else
 * copies), the run's prompts/ and a run.json with the shards' common settings, their tasks' union and the shards.
 * regrade.ts, judge.ts and report.ts then read it as one run. The shard folders are only read.
 *
 *   deno task merge SHARD_DIR... --out DIR [--overwrite]
 *
 * Exit codes: 0 merged; 1 a folder cannot be read or written (a shard's file damaged, named with its line); 2 a usage
 * error or shards that are not the parts 0..N-1 of one run (other settings, another selection of tasks, other N, one
 * K twice or missing, an episode in two shards) or one still running.
 */
import { UsageError } from "./lib/errors/mod.ts";
import { checkOutputPath, guardedFolders, parseCommandLine, runMain, textFlag } from "./lib/io/mod.ts";
import { refreshViewer } from "./lib/report/mod.ts";
import { mergeShards } from "./lib/results/mod.ts";

const USAGE = `Usage: deno task merge SHARD_DIR... --out DIR [--overwrite]

Merges the output folders of eval.ts --shard K/N runs (the same flags but --shard and --out) into DIR.

Options:
  --out DIR        the merged run's folder: new, empty, or an earlier run's with --overwrite
  --overwrite      replace the run DIR holds (never one a live run holds)
  -h, --help       this text

Refused (exit 2, naming the folders and differences): shards run with other settings or from another selection of
tasks (another task file, --task-ids or --limit), split in other counts N, two shards with the same K, a missing K,
an episode in two shards, a shard a run still holds (run.lock). A shard's file that cannot be read (a results line
naming a folder outside it, a damaged run.json) is exit 1, named with its line. The episodes' files are hard-linked
when DIR is on the shards' file system, copied otherwise.

Examples:
  deno task merge runs/base/0 runs/base/1 runs/base/2 --out runs/base/all
  deno task merge runs/base/[0-9]* --out runs/base/all --overwrite && deno task regrade --out runs/base/all
`;

const OPTIONS = {
  out: { type: "string" },
  overwrite: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

async function main(argv: string[]): Promise<number> {
  const { flags, positionals: shards } = parseCommandLine(argv, OPTIONS);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (flags.out === undefined) throw new UsageError("--out is required");
  const out = textFlag(flags, "out", "the merged run's folder")!;
  if (shards.length === 0) throw new UsageError("name the shard folders to merge (SHARD_DIR...)");
  await checkOutputPath("--out", out, "folder");
  const guarded = guardedFolders(Deno.cwd(), Deno.env.get("HOME"));
  const s = await mergeShards({ shards, out, overwrite: flags.overwrite === true, guarded });
  await refreshViewer(out, "merge.ts");
  console.log(
    `merged ${s.count} of ${s.count} shards into ${out}: ${s.results} results, ` +
      `${s.episodes} episode folders (${s.linked} files linked, ${s.copied} copied)`,
  );
  return 0;
}

if (import.meta.main) await runMain("merge.ts", main);
