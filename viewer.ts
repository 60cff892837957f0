/**
 * viewer.ts: write a run's episode viewer, <out>/viewer.html: one self-contained page that opens from file:// (no
 * server) and shows every episode's result, task, grade evidence and steps (lib/report/viewer.ts).
 *
 *   deno task viewer OUT
 *
 * Exit codes: 0 written (its path on stdout), 1 the run folder cannot be read or the page cannot be written, 2 a usage
 * error (no folder, or a folder without results.jsonl).
 */
import { UsageError } from "./lib/errors/mod.ts";
import { checkOutputPath, parseCommandLine, runMain } from "./lib/io/mod.ts";
import { writeViewer } from "./lib/report/mod.ts";

const USAGE = `Usage: deno task viewer OUT

Writes OUT/viewer.html: every episode of the run in OUT with filters (status, reason, family, site, arm) and a
search; a failed episode shows the reason code of the rule that failed it beside its status, and opening one shows its result, task, grade evidence and steps (screenshots, what the model was shown, its reply,
the actions and their results). The page opens from file:// with no server; screenshots stay in the episode folders.

Options:
  -h, --help     this text

Example:
  deno task viewer out/demo && xdg-open out/demo/viewer.html
`;

async function main(argv: string[]): Promise<number> {
  const { flags, positionals: folders } = parseCommandLine(argv, { help: { type: "boolean", short: "h" } });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (folders.length !== 1) throw new UsageError(`expected one run folder, got ${folders.length}`);
  await checkOutputPath("OUT", folders[0], "folder");
  console.log(await writeViewer(folders[0]));
  return 0;
}

if (import.meta.main) await runMain("viewer.ts", main);
