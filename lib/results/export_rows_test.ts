/**
 * exportRows() over a hand-made run folder: which episodes it picks (passing ones, proposed ones with the judge's
 * verdict; the latest grades; the filters) and where it refuses to write. tests/rows_cli_test.ts runs it on a real
 * run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { manifestFixture } from "../run_folder/_testdata.ts";
import { manifestJson, type StepRecord } from "../run_folder/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { loadSiteSplit } from "../protocol/mod.ts";
import { loadHumanTask, parseTaskLines } from "../tasks/mod.ts";
import { PROPOSED_TASK } from "../tasks/_testdata.ts";
import { exportRows, type ExportRowsOptions } from "./export_rows.ts";
import type { EpisodeResult } from "../run_folder/mod.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;
const SYSTEM = "You are a web agent.";
const [DATAGEN] = parseTaskLines((await Deno.readTextFile(join(FIXTURES, "tasks.jsonl"))).split("\n")[0], "t");
/** A task on shop (a train site) that also touches mail (a test site): in neither side of the split, only in all. */
const CROSS = await loadHumanTask(
  join(FIXTURES, "annotations/shop/cross_h_order_total_to_sofia"),
  "shop/cross_h_order_total_to_sofia",
);
const SPLIT = await loadSiteSplit(join(FIXTURES, "annotations/site_split.json"));

const line = (episode: string, task_id: string, repeat: number, over: Partial<EpisodeResult>): EpisodeResult => ({
  task_id,
  episode,
  macro: "paginate",
  site: "shop",
  arm: "base",
  ok: true,
  status: "passed",
  duration_s: 1,
  repeat,
  ...over,
});

const LINES: EpisodeResult[] = [
  line("d~r0", DATAGEN.task_id, 0, {}),
  line("d~r1", DATAGEN.task_id, 1, { ok: false, status: "failed", detail: "not on page 3" }),
  line("d~r2", DATAGEN.task_id, 2, {}),
  line("h", CROSS.task_id, 0, { macro: "open_detail" }),
  line("p", PROPOSED_TASK.task_id, 0, {
    macro: PROPOSED_TASK.macro,
    ok: false,
    status: "pending",
    detail: "pending: judge.ts decides",
  }),
  line("e", "other", 0, { ok: false, error: "HarnessError: the browser died" }),
];

const INPUTS: Record<string, unknown> = {
  "d~r0": { kind: "datagen", base: "http://127.0.0.1:1", log: [], changes: [], task: DATAGEN },
  "d~r1": { kind: "datagen", base: "http://127.0.0.1:1", log: [], changes: [], task: DATAGEN },
  "d~r2": { kind: "datagen", base: "http://127.0.0.1:1", log: [], changes: [], task: DATAGEN },
  h: { kind: "human", base: "http://127.0.0.1:1", task: CROSS, traj: [] },
  p: { kind: "proposed", base: "http://127.0.0.1:1", task: PROPOSED_TASK },
};

const JUDGE = {
  episode: "p",
  task_id: "prop_1",
  model: "judge-m",
  ok: true,
  reason: "done",
  macros: [],
  judged_at: "t",
};

/** A finished run: results.jsonl, run.json, prompts/, and each graded episode's inputs, step record and screenshot. */
async function makeRun() {
  const dir = await Deno.makeTempDir({ prefix: "webmix-export-" });
  const out = join(dir, "out");
  const sha = await sha256Hex(SYSTEM);
  await Deno.mkdir(join(out, "prompts"), { recursive: true });
  await Deno.writeTextFile(join(out, "prompts", `${sha}.txt`), SYSTEM);
  await Deno.writeTextFile(join(out, "run.json"), manifestJson(manifestFixture({ record_family: "Drag & gesture" })));
  await Deno.writeTextFile(join(out, "results.jsonl"), LINES.map((l) => JSON.stringify(l) + "\n").join(""));
  for (const [episode, inputs] of Object.entries(INPUTS)) {
    const ep = join(out, episode);
    await Deno.mkdir(ep);
    await Deno.writeTextFile(join(ep, "grade_inputs.json"), JSON.stringify(inputs));
    await Deno.writeFile(join(ep, "step_1.png"), new Uint8Array([137, 80, 78, 71]));
    const record: StepRecord = {
      kind: "agent",
      step: 1,
      model: "qwen35-4b",
      family: null,
      url: "",
      title: "",
      request: {
        system_sha256: sha,
        text: `${episode} step 1`,
        screenshot: "step_1.png",
        screenshot_mime: "image/png",
      },
      reply: JSON.stringify({ action: [{ click: { index: 1 } }] }),
      parsed: null,
      actions: [],
      start: 0,
      end: 0,
    };
    await Deno.writeTextFile(join(ep, "steps.jsonl"), JSON.stringify(record) + "\n");
  }
  await Deno.writeTextFile(join(out, "p", "judge.json"), JSON.stringify(JUDGE));
  return { dir, out, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** Asserts that `p` rejects with a UsageError whose message matches `pattern`. */
const rejectsUsage = (p: Promise<unknown>, pattern: RegExp) =>
  assert.rejects(p, (err: Error) => {
    assert.ok(err instanceof UsageError, String(err));
    assert.match(err.message, pattern);
    return true;
  });

/** The episodes an export with `options` writes. */
async function picked(out: string, to: string, options: Partial<ExportRowsOptions> = {}): Promise<string[]> {
  const s = await exportRows({ out, to, ...options });
  return s.episodes.map((e) => e.episode);
}

Deno.test("exportRows() writes passing and proposed episodes, the run's row family, and the judge's verdict", async () => {
  await using run = await makeRun();
  const to = join(run.dir, "rows");
  const s = await exportRows({ out: run.out, to });
  assert.deepEqual(s.episodes.map((e) => [e.episode, e.kind, e.status, e.rows, e.judge]), [
    ["h", "human", "passed", 1, undefined],
    ["p", "proposed", "pending", 1, true],
    ["d~r0", "datagen", "passed", 1, undefined],
    ["d~r2", "datagen", "passed", 1, undefined],
  ]);
  const row = JSON.parse(await Deno.readTextFile(join(to, "d~r0", "rows.jsonl")));
  assert.equal(row.family, "Drag & gesture", "labelled with the run's --record-family (run.json)");
  assert.deepEqual(await Deno.readFile(join(to, "d~r0", "row_0.png")), new Uint8Array([137, 80, 78, 71]));
  const episode = JSON.parse(await Deno.readTextFile(join(to, "p", "rows", "episode.json")));
  const { episode: _, task_id: __, ...verdict } = JUDGE;
  assert.deepEqual(episode.judge, verdict, "the proposed episode's verdict, in the seed's rows/ layout");
  const index = JSON.parse(await Deno.readTextFile(join(to, "export.json")));
  assert.equal(index.results, "results.jsonl");
  assert.deepEqual(index.episodes, s.episodes);
});

Deno.test("exportRows() filters by split, repeat and family, and --dedupe keeps the lowest repeat that qualifies", async () => {
  await using run = await makeRun();
  let n = 0;
  const pick = (o: Partial<ExportRowsOptions>) => picked(run.out, join(run.dir, `r${n++}`), o);
  assert.deepEqual(await pick({ split: "train", siteSplit: SPLIT }), ["p", "d~r0", "d~r2"], "the cross-site task");
  assert.deepEqual(await pick({ split: "test", siteSplit: SPLIT }), []);
  assert.deepEqual(await pick({ repeat: 2 }), ["d~r2"]);
  assert.deepEqual(await pick({ dedupe: true }), ["h", "p", "d~r0"]);
  assert.deepEqual(await pick({ dedupe: true, repeat: 2 }), ["d~r2"]);
  assert.deepEqual(await pick({ families: ["Navigation"] }), ["h", "d~r0", "d~r2"]);
  await rejectsUsage(pick({ arms: ["base", "noop"] }), /--arm "noop": no episode .* ran it/);
});

Deno.test("exportRows() takes results_regraded.jsonl's grades, and refuses a regrade older than a rerun", async () => {
  await using run = await makeRun();
  const regraded = LINES.map((l) => ({ ...l, ...(l.episode === "d~r1" ? { ok: true, status: "passed" } : {}) }));
  await Deno.writeTextFile(
    join(run.out, "results_regraded.jsonl"),
    regraded.map((l) => JSON.stringify(l) + "\n").join(""),
  );
  assert.deepEqual(await picked(run.out, join(run.dir, "a"), { repeat: 1 }), ["d~r1"]);
  const rerun = { ...LINES[1], duration_s: 9, ok: true, status: "passed" };
  await Deno.writeTextFile(join(run.out, "results.jsonl"), JSON.stringify(rerun) + "\n", { append: true });
  await assert.rejects(
    picked(run.out, join(run.dir, "b")),
    (err: Error) =>
      err instanceof UsageError && /episode "d~r1" ran again after .*regrade the run again/.test(err.message),
  );
});

Deno.test("exportRows() refuses what it cannot serve before writing anything", async () => {
  await using run = await makeRun();
  const refused = (options: Partial<ExportRowsOptions>, pattern: RegExp) =>
    rejectsUsage(exportRows({ out: run.out, to: join(run.dir, "rows"), ...options }), pattern);
  await refused({ to: run.out }, /is the run's folder/);
  await refused({ to: run.dir }, /holds the run's folder/);
  await Deno.mkdir(join(run.dir, "rows"));
  await Deno.writeTextFile(join(run.dir, "rows", "notes.txt"), "mine");
  await refused({}, /is not empty: pass --overwrite/);
  await refused({ overwrite: true }, /holds files but no rows export \(no export\.json/);
  await Deno.remove(join(run.dir, "rows"), { recursive: true });
  await Deno.remove(join(run.out, "d~r2", "steps.jsonl"));
  await refused({}, /episode "d~r2" has no steps\.jsonl: the run predates step records/);
  await assert.rejects(Deno.stat(join(run.dir, "rows")), Deno.errors.NotFound, "nothing written");
  await Deno.remove(join(run.out, "results.jsonl"));
  await refused({}, /holds no results\.jsonl/);
});
