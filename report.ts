/**
 * report.ts: the report of one or more finished runs, as report.md and report.html (self-contained: inline CSS and
 * SVG), and every figure in report.json. Pass rates by arm, family, macro and site with 95 % intervals over the
 * episodes' clusters (a generated task's template, a hand-written task's own id); steps, tokens and latency per model;
 * routing; pass@k with repeats; and each run after the first paired with it (flips, the clustered McNemar test and
 * interval, design effect and power, per family with Holm-adjusted p; whether both hold the same results).
 *
 *   deno task report OUT [OUT2 ...] [--out DIR] [--cluster-by template|task|site|macro|FIELD]
 *
 * Reads only the run folders (no browser, no sandbox, no model). Exit codes: 0 written; 1 a run folder's file
 * cannot be read (the message names it and the line) or the report cannot be written; 2 a usage error (a bad
 * flag, no folder, a folder that is not a run's).
 */
import { UsageError } from "./lib/errors/mod.ts";
import { checkOutputPath, parseCommandLine, runMain, textFlag } from "./lib/io/mod.ts";
import { loadRun, writeReport } from "./lib/report/mod.ts";

const USAGE = `Usage: deno task report OUT [OUT2 ...] [--out DIR] [--cluster-by KEY]

Writes report.md, report.html and report.json for the runs in the folders OUT, OUT2, ... (each holds a
results.jsonl). With two runs or more, each run after the first is compared with the first on the
(task_id, repeat) keys both hold. Intervals and tests count clusters of episodes that are not independent.

Options:
  --out DIR         the folder to write the report into (default: the first OUT)
  --cluster-by KEY  what makes a cluster: template (default: a generated task's template, a hand-written
                    task's own id, repeats inside their task's), task, site, macro, or a results-line field
  -h, --help        this text

Examples:
  deno task report out/r1
  deno task report out/oracle out/pooled --out out/compare
  deno task report out/base out/tuned --cluster-by site
`;

async function main(argv: string[]): Promise<number> {
  const { flags, positionals: folders } = parseCommandLine(argv, {
    out: { type: "string" },
    "cluster-by": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (folders.length === 0) throw new UsageError("name at least one run folder");
  const out = textFlag(flags, "out", "a folder") ?? folders[0];
  const clusterBy = textFlag(flags, "cluster-by", "template, task, site, macro or a results-line field");
  await checkOutputPath(flags.out === undefined ? "OUT" : "--out", out, "folder");
  const runs = [];
  for (const dir of folders) runs.push(await loadRun(dir));
  // Damage the report counts around (a line a crash cut short) is said here too, not only in report.md.
  for (const p of runs.flatMap((r) => r.problems)) console.error(`report.ts: warning: ${p}`);
  for (const path of await writeReport(runs, out, { clusterBy })) console.log(path);
  return 0;
}

if (import.meta.main) await runMain("report.ts", main);
