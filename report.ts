/**
 * report.ts: the report of one or more finished runs, as report.md and report.html (self-contained: inline CSS and
 * SVG). Pass rates by arm, family, macro and site with Wilson 95 % intervals over graded episodes; steps, tokens and
 * latency per model; routing; pass@k with repeats; and each run after the first paired with it (flips, McNemar's
 * exact test, Newcombe's interval, whether both hold the same results).
 *
 *   deno task report OUT [OUT2 ...] [--out DIR]
 *
 * Reads only the run folders (no browser, no sandbox, no model). Exit codes: 0 written; 1 a run folder's file
 * cannot be read (the message names it and the line) or the report cannot be written; 2 a usage error (a bad
 * flag, no folder, a folder that is not a run's).
 */
import { UsageError } from "./lib/errors/mod.ts";
import { checkOutputPath, parseCommandLine, runMain, textFlag } from "./lib/io/mod.ts";
import { loadRun, writeReport } from "./lib/report/mod.ts";

const USAGE = `Usage: deno task report OUT [OUT2 ...] [--out DIR]

Writes report.md and report.html for the runs in the folders OUT, OUT2, ... (each holds a results.jsonl).
With two runs or more, each run after the first is compared with the first on the (task_id, repeat) keys
both hold.

Options:
  --out DIR      the folder to write the report into (default: the first OUT)
  -h, --help     this text

Examples:
  deno task report out/r1
  deno task report out/oracle out/pooled --out out/compare
`;

async function main(argv: string[]): Promise<number> {
  const { flags, positionals: folders } = parseCommandLine(argv, {
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (folders.length === 0) throw new UsageError("name at least one run folder");
  const out = textFlag(flags, "out", "a folder") ?? folders[0];
  await checkOutputPath(flags.out === undefined ? "OUT" : "--out", out, "folder");
  const runs = [];
  for (const dir of folders) runs.push(await loadRun(dir));
  // Damage the report counts around (a line a crash cut short) is said here too, not only in report.md.
  for (const p of runs.flatMap((r) => r.problems)) console.error(`report.ts: warning: ${p}`);
  for (const path of await writeReport(runs, out)) console.log(path);
  return 0;
}

if (import.meta.main) await runMain("report.ts", main);
