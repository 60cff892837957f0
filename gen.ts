/**
 * gen.ts: generate task sets from templates over the sandbox apps, and prove them (docs/generation.md).
 *
 *   deno task gen --seed S --per-template N --out FILE.jsonl [--templates a,b] [--apps shop,mail] [--verify]
 *   deno task gen --verify --tasks FILE.jsonl [--out KEPT.jsonl] [--shard K/N] [--workers W]
 *   deno task gen --demonstrations ROWS --tasks FILE.jsonl [--split S] [--templates a,b] [--family F] [--macro M]
 *                 [--dedupe] [--empty-thoughts] [--workers W] [--keep-run DIR] [--resume] [--overwrite]
 *   deno task gen --list [--markdown [--into README.md]]
 *
 * Exit codes: 0 done (with --verify on a given file: every instance proven; with --demonstrations: none dropped); 1 an
 * instance of a given file failed its proof or its demonstration, or a file could not be read or written; 2 a usage
 * error or a malformed task file.
 */
import { UsageError } from "./lib/errors/mod.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkOutputPath,
  choiceFlag,
  type Flags,
  listFlag,
  numberFlag,
  parseFlags,
  runMain,
  textFlag,
  writeFileAtomic,
  writeJsonAtomic,
} from "./lib/io/mod.ts";
import {
  capacityMarkdown,
  capacityRows,
  demonstrate,
  type Dropped,
  GEN_VERSION,
  generate,
  type GenMeta,
  type ProofReport,
  prove,
  TEMPLATES,
  withCapacityBlock,
} from "./lib/gen/mod.ts";
import { shardTasks } from "./lib/run/mod.ts";
import { loadTasks, parseTaskLines } from "./lib/tasks/mod.ts";
import { clusterOfTaskId, FAMILIES, MACRO_FAMILY, OTHER_FAMILY, type Task } from "./lib/protocol/mod.ts";

const USAGE = `Usage:
  deno task gen --seed S --per-template N --out FILE.jsonl [--templates IDS] [--apps APPS] [--verify]
  deno task gen --verify --tasks FILE.jsonl [--out KEPT.jsonl] [--shard K/N] [--workers W]
  deno task gen --demonstrations ROWS --tasks FILE.jsonl [--split S] [--templates IDS] [--family F,...]
                [--macro M,...] [--dedupe] [--empty-thoughts] [--workers W] [--keep-run DIR] [--resume] [--overwrite]
  deno task gen --list [--markdown [--into README.md]]

Writes task lines (the task format eval.ts --tasks reads) instantiated from the templates of lib/gen, each with
its template, parameters (option), chain and split, and a sidecar FILE.gen.json with the generator version, the
seed and each template's capacity. The same seed and code give the same bytes.

Options:
  --seed S             the seed of every draw (a whole number)
  --per-template N     instances per template (fewer when a template cannot make N)
  --out FILE           where the task lines go (replaced atomically)
  --templates IDS      only these template ids (comma-separated; --list shows them)
  --apps APPS          only templates on these apps (shop, mail, tracker, bookings)
  --verify             prove every instance in the browser before writing it: the reference solution passes,
                       doing nothing fails, each near miss fails with its reason; one that does not is dropped
                       and listed in FILE.dropped.jsonl
  --tasks FILE         with --verify: prove this file's instances instead of generating
  --shard K/N          with --verify: prove the K-th of N parts (a Slurm array), K from 0
  --workers W          with --verify: parallel browsers (default 2)
  --demonstrations ROWS  with --tasks: run each instance's reference in the model's seat and write the passing ones'
                       requests and index-form replies as training rows in ROWS (docs/generation.md, "Demonstrations")
  --split S            with --demonstrations: train (default), val, test or all
  --family F,...       with --demonstrations: only rows of these families' segments
  --macro M,...        with --demonstrations: only rows of these macros' segments
  --dedupe             with --demonstrations: drop a row whose request and target an earlier row has
  --empty-thoughts     with --demonstrations: leave the replies' thinking, evaluation, memory and next goal empty
  --keep-run DIR       with --demonstrations: run in DIR and keep it (default: ROWS.run, removed once the rows are
                       written; a run that crashed stays there)
  --resume             with --demonstrations: continue the run left in ROWS.run (or --keep-run DIR); its finished
                       episodes are not run again
  --overwrite          with --demonstrations: replace an earlier export in ROWS
  --list               the templates: id, macro chain, distinct end conditions, parameter records, summary
  --markdown           with --list: the README's capacity table (Markdown, between its markers)
  --into FILE          with --markdown: replace the capacity table in FILE (the README) instead of printing it
  -h, --help           this text

Examples:
  deno task gen --seed 1 --per-template 30 --out g.jsonl
  deno task gen --seed 7 --per-template 16 --verify --out fixtures/valgen/val.jsonl
  deno task gen --verify --tasks fixtures/valgen/val.jsonl
  deno task gen --demonstrations rows/demo --tasks fixtures/valgen/val.jsonl --workers 2
`;

const OPTIONS = {
  seed: { type: "string" },
  "per-template": { type: "string" },
  out: { type: "string" },
  templates: { type: "string" },
  apps: { type: "string" },
  verify: { type: "boolean" },
  tasks: { type: "string" },
  shard: { type: "string" },
  workers: { type: "string" },
  list: { type: "boolean" },
  markdown: { type: "boolean" },
  into: { type: "string" },
  demonstrations: { type: "string" },
  split: { type: "string" },
  family: { type: "string" },
  macro: { type: "string" },
  dedupe: { type: "boolean" },
  "empty-thoughts": { type: "boolean" },
  "keep-run": { type: "string" },
  resume: { type: "boolean" },
  overwrite: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The sidecar of a task file: `g.jsonl` → `g.gen.json`. */
const sidecar = (out: string, what: string) => out.replace(/\.jsonl$/, "") + what;

const jsonl = (lines: readonly unknown[]) => lines.map((l) => JSON.stringify(l) + "\n").join("");

function shardFlag(raw: string | undefined): { index: number; count: number } | undefined {
  if (raw === undefined) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  if (!m || +m[2] < 1 || +m[1] >= +m[2]) {
    throw new UsageError(`--shard "${raw}" is not K/N with K from 0 to N-1 (part K of N)`);
  }
  return { index: +m[1], count: +m[2] };
}

/** --list: a line per template (tab-separated), or with --markdown the README's capacity table. */
async function list(flags: Flags): Promise<number> {
  const rows = capacityRows(TEMPLATES);
  const into = textFlag(flags, "into", "a Markdown file with a capacity table");
  if (into !== undefined && !flags.markdown) throw new UsageError("--into goes with --list --markdown");
  if (!flags.markdown) {
    for (const r of rows) {
      const chain = `${r.chain.join(" > ")}${r.switches ? " (switches family)" : ""}`;
      console.log(`${r.id}\t${chain}\t${r.ends}\t${r.records}\t${r.summary}`);
    }
    return 0;
  }
  const block = capacityMarkdown(rows);
  if (into === undefined) console.log(block);
  else await writeFileAtomic(into, withCapacityBlock(await Deno.readTextFile(into), block));
  return 0;
}

function describeProof(r: ProofReport, of: number): string {
  const perMinute = r.seconds > 0 ? Math.round(r.episodes / r.seconds * 60) : 0;
  const layer = Object.entries(r.layer).sort(([a], [b]) => a < b ? -1 : 1).map(([k, n]) => `\n  ${k}: ${n}`);
  return `proved ${of} instances: ${r.kept.length} kept, ${r.dropped.length} dropped; ${r.episodes} episodes in ` +
    `${r.seconds.toFixed(1)} s (${perMinute} episodes/min)` +
    (layer.length ? `\nmacro layer (attacks failed for their reason, alternatives passed, run):${layer.join("")}` : "");
}

function printDropped(dropped: readonly Dropped[]): void {
  for (const d of dropped) console.error(`dropped ${d.task_id} (${d.template}): ${d.problems.join("; ")}`);
}

/** The rows per family and macro, as a line each. */
function countLines(what: string, counts: Record<string, number>): string {
  const parts = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`);
  return `  ${what}: ${parts.join(", ") || "none"}`;
}

/** --demonstrations: the instances of a task file as training rows, proven by index. */
async function demonstrations(flags: Flags, tasksFile: string | undefined, workers: number): Promise<number> {
  const to = textFlag(flags, "demonstrations", "a folder for the rows")!;
  if (tasksFile === undefined) throw new UsageError("--demonstrations reads --tasks FILE (a generated task file)");
  if (flags.verify) throw new UsageError("--demonstrations and --verify are separate runs: give one");
  const split = choiceFlag(flags, "split", ["train", "val", "test", "all"] as const) ?? "train";
  const tasks = (await loadTasks(tasksFile)).filter((t): t is Task => !("kind" in t));
  const report = await demonstrate(tasks, {
    to,
    split,
    templates: listFlag(flags, "templates"),
    families: listFlag(flags, "family", [...FAMILIES, OTHER_FAMILY]),
    macros: listFlag(flags, "macro", Object.keys(MACRO_FAMILY)),
    dedupe: Boolean(flags.dedupe),
    emptyThoughts: Boolean(flags["empty-thoughts"]),
    workers,
    run: textFlag(flags, "keep-run", "a folder for the demonstration run"),
    keepRun: flags["keep-run"] !== undefined,
    resume: Boolean(flags.resume),
    overwrite: Boolean(flags.overwrite),
    guarded: [
      { path: Deno.cwd(), what: "the current folder" },
      { path: fileURLToPath(new URL(".", import.meta.url)), what: "the repository" },
    ],
  });
  printDropped(report.dropped);
  const perMinute = report.seconds > 0 ? Math.round(report.rows / report.seconds * 60) : 0;
  console.log(
    `wrote ${report.rows} demonstration rows of ${report.episodes.length} of ${report.instances} instances to ${to} ` +
      `(${report.dropped.length} dropped, ${report.duplicates} duplicate rows left out) in ` +
      `${report.seconds.toFixed(1)} s (${perMinute} rows/min)`,
  );
  console.log(countLines("rows per family", report.byFamily));
  console.log(countLines("rows per macro", report.byMacro));
  await writeJsonAtomic(join(to, "demonstrations.json"), { ...report, episodes: undefined, split }, 2);
  return report.dropped.length ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, OPTIONS);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (flags.list) return await list(flags);
  const out = textFlag(flags, "out", "a task file");
  const shard = shardFlag(flags.shard as string | undefined);
  const workers = numberFlag(flags, "workers", { whole: true, min: 1, max: 64 }) ?? 2;
  const log = (line: string) => console.error(line);
  const tasksFile = textFlag(flags, "tasks", "a task file");
  // Before any work (a proof or a demonstration run is thousands of episodes): an output that cannot be written is a
  // usage error.
  if (out !== undefined) await checkOutputPath("--out", out, "file");
  if (typeof flags.demonstrations === "string") {
    await checkOutputPath("--demonstrations", flags.demonstrations, "folder");
  }
  if (flags.demonstrations !== undefined) return await demonstrations(flags, tasksFile, workers);

  if (tasksFile !== undefined) {
    if (!flags.verify) throw new UsageError("--tasks is read by --verify (to generate, give --seed)");
    const all = (await loadTasks(tasksFile)).filter((t): t is Task => !("kind" in t));
    const tasks = shard ? shardTasks(all, shard) : all;
    const report = await prove(tasks, TEMPLATES, { workers, log: () => {} });
    printDropped(report.dropped);
    console.log(describeProof(report, tasks.length));
    if (out !== undefined) {
      // The kept lines as the file has them (a parsed task is not a task line again).
      const keep = new Set(report.kept.map((t) => t.task_id));
      const text = await Deno.readTextFile(tasksFile);
      const lines = text.split("\n").filter((l) => l.trim() && keep.has(JSON.parse(l).task_id));
      await writeFileAtomic(out, lines.map((l) => l + "\n").join(""));
      await writeFileAtomic(sidecar(out, ".dropped.jsonl"), jsonl(report.dropped));
    }
    return report.dropped.length ? 1 : 0;
  }

  if (flags.seed === undefined) throw new UsageError("give --seed S (or --verify --tasks FILE, or --list)");
  const seed = numberFlag(flags, "seed", { whole: true, min: 0, max: 2 ** 32 - 1 })!;
  const perTemplate = numberFlag(flags, "per-template", { whole: true, min: 1, max: 100_000 });
  if (perTemplate === undefined) throw new UsageError("give --per-template N");
  if (out === undefined) throw new UsageError("give --out FILE.jsonl");
  if (shard && !flags.verify) throw new UsageError("--shard splits a --verify run");
  let generated;
  try {
    generated = generate(TEMPLATES, {
      seed,
      perTemplate,
      templates: listFlag(flags, "templates"),
      apps: listFlag(flags, "apps"),
    });
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  const { lines, meta } = generated;
  // Every line must read back as a task: the generator's output is held to the loader's rules.
  const parsed = parseTaskLines(jsonl(lines), out) as Task[];
  let kept = lines;
  let proof: (GenMeta & { proof?: unknown }) | undefined;
  if (flags.verify) {
    const tasks = shard ? shardTasks(parsed, shard) : parsed;
    const report = await prove(tasks, TEMPLATES, { workers, log: () => {} });
    printDropped(report.dropped);
    log(describeProof(report, tasks.length));
    const keep = new Set(report.kept.map((t) => t.task_id));
    kept = lines.filter((l) => keep.has(l.task_id));
    proof = {
      ...meta,
      proof: { proved: tasks.length, kept: kept.length, dropped: report.dropped.length, layer: report.layer },
    };
    await writeFileAtomic(sidecar(out, ".dropped.jsonl"), jsonl(report.dropped));
  }
  await writeFileAtomic(out, jsonl(kept));
  await writeJsonAtomic(sidecar(out, ".gen.json"), proof ?? meta, 2);
  // A template is one cluster of the report's statistics (lib/tasks clusterOfTaskId): say how many the set holds.
  const clusters = new Set(kept.map((l) => clusterOfTaskId(l.task_id))).size;
  console.log(
    `wrote ${kept.length} instances of ${meta.templates.length} templates to ${out} (generator ${GEN_VERSION}); ` +
      `${clusters} clusters (one a template) for the report's intervals and tests`,
  );
  return 0;
}

if (import.meta.main) await runMain("gen.ts", main);
