/**
 * record_rows.ts: training rows from a finished, graded run, offline (no browser, no sites, no model), rebuilt from
 * each episode's step records (steps.jsonl, the screenshots, prompts/): the passing episodes of datagen and human
 * tasks (rejection sampling) and every finished episode of a proposed task, with the macro judge's verdict in its
 * episode.json once judge.ts has written judge.json. The grades are the run's latest: results_regraded.jsonl when
 * the run was regraded, so a regrade with stricter rules yields the rows of its new passing set without running
 * anything again. Rows go to ROWS/<episode>/ in the layout --record-rows writes (the same bytes), and
 * ROWS/export.json lists them.
 *
 *   deno task rows OUT --out ROWS [--split S] [--family F,...] [--arm A,...] [--repeat N] [--dedupe] [--overwrite]
 *
 * Exit codes: 0 rows written (none, when nothing qualifies); 1 a file of the run cannot be read (a damaged or newer
 * step record too, named with its line); 2 a usage error: a bad flag, OUT without results.jsonl, a selected episode
 * without its step records (a run from before them) or its screenshots (--no-step-screenshots), a regrade older than
 * the results, ROWS not empty without --overwrite, ROWS a path that cannot be created or written.
 */
import { fileURLToPath } from "node:url";
import { UsageError } from "./lib/errors/mod.ts";
import {
  checkOutputPath,
  choiceFlag,
  listFlag,
  numberFlag,
  parseCommandLine,
  runMain,
  textFlag,
} from "./lib/io/mod.ts";
import { exportRows } from "./lib/results/mod.ts";
import { FAMILIES, loadSiteSplit, OTHER_FAMILY } from "./lib/protocol/mod.ts";

const SITE_SPLIT = fileURLToPath(new URL("./fixtures/annotations/site_split.json", import.meta.url));

const USAGE = `Usage: deno task rows OUT --out ROWS [options]

Writes the training rows of the run in OUT to ROWS, rebuilt from its episodes' step records: every passing episode
(rejection sampling) and every finished episode of a proposed task (with judge.json's verdict when judged). The
grades come from results_regraded.jsonl when the run was regraded, else from results.jsonl.

Options:
  --out ROWS         the rows folder: ROWS/<episode>/{rows.jsonl, images, episode.json} and ROWS/export.json
  --split S          train, test or all (default): only tasks on that side of the site split
  --site-split FILE  the site split (default fixtures/annotations/site_split.json)
  --family F,...     only tasks of these families: ${[...FAMILIES, OTHER_FAMILY].join(", ")}
  --arm A,...        only episodes of these arms
  --repeat N         only repeat N (from 0)
  --dedupe           one episode per task: the lowest repeat that qualifies
  --overwrite        replace an earlier export in ROWS
  -h, --help         this text

Examples:
  deno task rows out/oracle --out rows/oracle --split train --dedupe
  deno task regrade --out out/oracle --tasks stricter.jsonl && deno task rows out/oracle --out rows/strict
  deno task rows out/proposed --out rows/proposed
`;

const OPTIONS = {
  out: { type: "string" },
  split: { type: "string" },
  "site-split": { type: "string" },
  family: { type: "string" },
  arm: { type: "string" },
  repeat: { type: "string" },
  dedupe: { type: "boolean" },
  overwrite: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

async function main(argv: string[]): Promise<number> {
  const { flags, positionals } = parseCommandLine(argv, OPTIONS);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length ? `one run folder expected, got ${positionals.length}` : "OUT (the run's folder) is required",
    );
  }
  if (flags.out === undefined) throw new UsageError("--out ROWS is required");
  const split = choiceFlag(flags, "split", ["train", "test", "all"] as const) ?? "all";
  const splitFile = textFlag(flags, "site-split", "a site split file");
  if (splitFile !== undefined && split === "all") throw new UsageError("--site-split goes with --split train or test");
  const to = textFlag(flags, "out", "a folder for the rows")!;
  await checkOutputPath("--out", to, "folder");
  const summary = await exportRows({
    out: positionals[0],
    to,
    split,
    siteSplit: split === "all" ? undefined : await loadSiteSplit(splitFile ?? SITE_SPLIT),
    families: listFlag(flags, "family", [...FAMILIES, OTHER_FAMILY]),
    arms: listFlag(flags, "arm"),
    repeat: numberFlag(flags, "repeat", { whole: true, min: 0 }),
    dedupe: Boolean(flags.dedupe),
    overwrite: Boolean(flags.overwrite),
    guarded: [
      { path: Deno.cwd(), what: "the current folder" },
      { path: fileURLToPath(new URL(".", import.meta.url)), what: "the repository" },
    ],
  });
  // A proposed task's episode is pending (the macro judge decides it); every other exported one passed.
  const count = (status: string) => summary.episodes.filter((e) => e.status === status).length;
  const judged = summary.episodes.filter((e) => e.judge !== undefined).length;
  console.log(
    `wrote ${summary.rows} rows of ${summary.episodes.length} episodes to ${flags.out} (grades from ` +
      `${summary.results}): ${count("passed")} passing, ${count("pending")} proposed (${judged} judged)`,
  );
  return 0;
}

if (import.meta.main) await runMain("record_rows.ts", main);
