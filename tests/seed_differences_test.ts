/**
 * docs/seed-differences.md holds true against the seed itself: every seed flag that is missing here, or whose default
 * or choices differ, every results field the seed wrote that this suite does not, and every flag this suite added,
 * is named by a row's first column; every row says why; every flag its last column names is a flag of eval.ts. The
 * seed's interface is read from ../shared/seed when it is there (and must equal the checked-in table), else from
 * the table tests/support/seed_interface.ts extracted from it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARM_NAMES, EVAL_OPTIONS } from "../lib/run/mod.ts";
import { settingDefault } from "../lib/run/config.ts";
import { EVAL_FLAGS } from "../lib/run/eval_flags.ts";
import { resultLineSchema } from "../lib/run_folder/results.ts";
import { ROOT } from "./support/cli.ts";
import { extractSeedInterface, SEED_INTERFACE, type SeedInterface } from "./support/seed_interface.ts";

const DOC = await Deno.readTextFile(join(ROOT, "docs/seed-differences.md"));
/** ../shared beside the clone (CI, /work/main), or two up (a worktree under /work/wt). */
const SEED_FILES = ["../shared", "../../shared"].map((d) => join(ROOT, d, "seed/000_17d10741b86cb323.txt"));

/** The rows of the doc's tables: cells of each line starting "| <number>". */
const rowsOf = (doc: string) =>
  doc.split("\n").filter((l) => /^\|\s*\d+\s*\|/.test(l)).map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));

/** This suite's side: each flag's default as the seed's table states defaults, its choices, its results fields. */
interface SuiteInterface {
  flags: Map<string, { default: unknown; choices?: string[] }>;
  resultFields: Set<string>;
}

function suiteInterface(): SuiteInterface {
  const flags = new Map<string, { default: unknown; choices?: string[] }>();
  for (const f of EVAL_FLAGS) {
    // A switch is off unless given; a required flag says so in its help; an unset setting is the seed's None.
    const value = f.help.includes("(required)")
      ? "required"
      : f.kind === "switch"
      ? false
      : f.path
      ? settingDefault(f.path) ?? null
      : null;
    flags.set(f.flag, { default: value, ...(f.flag === "arm" ? { choices: [...ARM_NAMES] } : {}) });
  }
  flags.get("human-split")!.choices = ["test", "train", "all"];
  return { flags, resultFields: new Set(Object.keys(resultLineSchema.shape)) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The flags a row is about: those its first column names before " with ", " without " or " on " (`--regrade` with
 * `--arm`, `--out` is about --regrade), and whether it is about their defaults ("default", "absent").
 */
function subjects(doc: string): { flags: Set<string>; defaults: boolean }[] {
  return rowsOf(doc).map((r) => {
    const head = r[1].split(/ (?:with|without|on) /)[0];
    return {
      flags: new Set([...head.matchAll(/`--([a-z-]+)/g)].map((m) => m[1])),
      defaults: /default|absent/.test(r[1]),
    };
  });
}

/**
 * Differences argparse's table cannot show (a flag's behaviour, not its default), each the start of a row's first
 * column, with the tests that run this suite's side of it.
 */
const BEHAVIOUR: Record<string, string> = {
  "`--regrade` with `--arm`, `--out`": "tests/seed_commands_test.ts",
  "`--regrade` with `--limit`": "tests/bad_input_test.ts, tests/seed_regrade_test.ts (--task-ids)",
  "`--ports` on a busy port": "tests/seed_commands_test.ts",
  "`--resume`": "tests/eval_robust_test.ts",
  "`--out` folder": "tests/bad_input_test.ts",
  "`--limit` negative": "lib/io/cli_test.ts",
  "`--task-ids` naming an unknown id": "lib/tasks/load_test.ts",
  "`--human-macros` selecting no task": "tests/bad_input_test.ts",
  "Planner flags (`--planner-name`": "lib/run/config_test.ts",
  "`--human-split`, `--human-macros`, `--annotations`, `--site-split` without `--human`": "lib/run/config_test.ts",
  "The site split file (`--site-split`)": "tests/seed_leniency_test.ts",
  "Authoring checks (`--strict`)": "tests/seed_leniency_test.ts",
  "`--verifier-only`": "tests/seed_commands_test.ts",
  "Regrading the seed's run folders": "tests/seed_regrade_test.ts",
};

/** What differs between the seed and this suite and no row is about (its subject), as `subjects` reads the rows. */
function undocumented(doc: string, seed: SeedInterface, suite: SuiteInterface): string[] {
  const rows = subjects(doc);
  const about = (flag: string, defaults = false) => rows.some((r) => r.flags.has(flag) && (!defaults || r.defaults));
  const problems: string[] = [];
  for (const s of seed.flags) {
    const ours = suite.flags.get(s.flag);
    if (!ours) {
      if (!about(s.flag)) problems.push(`--${s.flag} is not a flag of eval.ts, and no row is about it`);
    } else if (!same(ours.default, s.default) && !about(s.flag, true)) {
      problems.push(
        `--${s.flag} defaults to ${JSON.stringify(ours.default)}, the seed's to ${JSON.stringify(s.default)}, ` +
          "and no row is about its default",
      );
    } else if (s.choices && !same(ours.choices, s.choices) && !about(s.flag)) {
      problems.push(
        `--${s.flag} takes ${ours.choices?.join(", ")}, the seed's ${s.choices.join(", ")}, and no row is about it`,
      );
    }
  }
  const seedFlags = new Set(seed.flags.map((s) => s.flag));
  for (const flag of suite.flags.keys()) {
    if (!seedFlags.has(flag) && !about(flag)) problems.push(`--${flag} was added, and no row is about it`);
  }
  for (const start of Object.keys(BEHAVIOUR)) {
    if (!rowsOf(doc).some((r) => r[1].startsWith(start))) problems.push(`no row starts "${start}"`);
  }
  const named = rowsOf(doc).map((r) => r[1]).join("\n");
  for (const field of seed.resultFields) {
    if (!suite.resultFields.has(field) && !named.includes(`\`${field}\``)) {
      problems.push(`results field "${field}" is not written here, and no row names it`);
    }
  }
  return problems;
}

Deno.test("the checked-in seed interface is the seed's own (when ../shared/seed is there)", async (t) => {
  let text: string | undefined;
  for (const f of SEED_FILES) text ??= await Deno.readTextFile(f).catch(() => undefined);
  if (text === undefined) {
    await t.step({
      name: "../shared/seed is not beside the clone: the checked-in table stands",
      ignore: true,
      fn() {},
    });
    return;
  }
  assert.deepEqual(extractSeedInterface(text), SEED_INTERFACE);
});

Deno.test("every seed flag, default, choice and results field is the same here or named by a row", () => {
  assert.deepEqual(undocumented(DOC, SEED_INTERFACE, suiteInterface()), []);
});

Deno.test("removing any row that names a flag leaves a difference undocumented", () => {
  const suite = suiteInterface();
  const lines = DOC.split("\n");
  const bearing: string[] = [];
  for (const [i, line] of lines.entries()) {
    const cells = line.split("|");
    if (!/^\|\s*\d+\s*\|/.test(line) || !/`--[a-z]/.test(cells[2])) continue;
    const without = [...lines.slice(0, i), ...lines.slice(i + 1)].join("\n");
    assert.notDeepEqual(undocumented(without, SEED_INTERFACE, suite), [], `row ${cells[1].trim()} documents nothing`);
    bearing.push(cells[2].trim());
  }
  assert.ok(bearing.length >= 15, `${bearing.length} rows name a flag`);
  // A seed flag whose default changed, a results field dropped, a flag added: each caught until a row names it.
  const changed: SeedInterface = {
    flags: SEED_INTERFACE.flags.map((f) => f.flag === "workers" ? { ...f, default: 4 } : f),
    resultFields: [...SEED_INTERFACE.resultFields, "cluster_id"],
  };
  const extra = suiteInterface();
  extra.flags.set("turbo", { default: false });
  assert.deepEqual(undocumented(DOC, changed, extra), [
    "--workers defaults to 8, the seed's to 4, and no row is about its default",
    "--turbo was added, and no row is about it",
    'results field "cluster_id" is not written here, and no row names it',
  ]);
});

Deno.test("every difference from the seed says what, the seed's, ours and why", () => {
  const rows = rowsOf(DOC);
  assert.ok(rows.length >= 40, `${rows.length} rows`);
  const numbers = rows.map((r) => Number(r[0]));
  assert.deepEqual(numbers, numbers.map((_, i) => i + 1), "rows numbered 1..N in order");
  for (const r of rows) {
    assert.equal(r.length, 6, `row ${r[0]}: ${r.length} cells`);
    for (const [i, what] of ["what", "the seed", "this suite", "why", "the seed's behaviour"].entries()) {
      assert.ok(r[i + 1].length > 3, `row ${r[0]}: no ${what}`);
    }
  }
});

Deno.test("every flag the table names is one of eval.ts's flags", () => {
  const flags = rowsOf(DOC).flatMap((r) => [...r[5].matchAll(/`--([a-z-]+)/g)].map((m) => m[1]));
  assert.ok(flags.length >= 8, flags.join(", "));
  for (const f of flags) assert.ok(Object.hasOwn(EVAL_OPTIONS, f), `--${f} is not a flag of eval.ts`);
});
