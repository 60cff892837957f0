/**
 * Regrading a run folder the seed wrote (fixtures/run_folders/seed_layout, written by tests/support/seed_layout.ts
 * from the seed's writer code): `deno task regrade --tasks` and the seed's own `--regrade DIR --arm A --out DIR` line
 * grade every episode whose check has a seed counterpart (the passing ones pass, the near misses fail with their
 * rule's reason), make the others grade errors naming what the seed never saved, and write results_regraded.jsonl
 * as the seed did (every episode's latest line, ok/detail replaced, `regraded`), with `evidence: "seed"`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { APPS } from "../lib/sites/apps/mod.ts";
import { readResults, ROOT, runCli, runTask } from "./support/cli.ts";
import { SEED_FAILING, SEED_LENIENT, SEED_PASSING, SEED_UNGRADEABLE } from "./support/seed_layout.ts";

const FIXTURE = join(ROOT, "fixtures/run_folders/seed_layout");
const TASKS = join(ROOT, "fixtures/tasks.jsonl");

/** The reason each near miss of the fixture fails with (fixtures/near_misses). */
const FAILING_REASONS: Record<string, string> = {
  shop_switch_tab_monitor_specs: "final_page",
  shop_review_burr_grinder: "field_mismatch",
  shop_chart_keyboard_best_month: "answer_wrong",
  mail_delete_weekly_brief: "unclaimed_write",
  mail_search_lisbon: "final_page",
  tracker_export_api_urgent_csv: "request_missing",
  tracker_assign_api11_to_diego: "field_mismatch",
  bookings_cancel_all_hands_rehearsal: "irreversible_extra",
  bookings_filter_video_rooms: "final_page",
};

/** What the seed's evidence lacks for each ungradeable episode's check. */
const MISSING: Record<string, RegExp> = {
  shop_copy_cancelled_order_number: /recorder events with their outcomes \(bound: clipboard\)/,
  mail_login_to_inbox: /the login state/,
  tracker_backlog_api14_to_top: /recorder events \(record \{"action":"drag"/,
};

async function copyFixture(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "webmix-seed-regrade-" });
  await new Deno.Command("cp", { args: ["-r", FIXTURE, join(dir, "run")] }).output();
  return join(dir, "run");
}

function assertVerdicts(lines: Record<string, unknown>[]): void {
  const by = new Map(lines.map((r) => [r.task_id as string, r]));
  assert.equal(lines.length, SEED_PASSING.length + SEED_UNGRADEABLE.length + Object.keys(SEED_FAILING).length);
  for (const id of SEED_PASSING) {
    const r = by.get(id)!;
    assert.equal(r.ok, true, `${id}: ${r.detail}`);
    assert.equal(r.status, "passed", id);
    assert.equal(r.evidence, "seed", id);
    assert.equal(r.regraded, true, id);
  }
  for (const [id, reason] of Object.entries(FAILING_REASONS)) {
    const r = by.get(id)!;
    assert.equal(r.ok, false, id);
    assert.equal(r.status, "failed", `${id}: ${r.detail}`);
    assert.equal(r.reason, reason, `${id}: ${r.detail}`);
    assert.equal(r.evidence, "seed", id);
  }
  for (const [id, why] of Object.entries(MISSING)) {
    const r = by.get(id)!;
    assert.equal(r.status, "grade_error", id);
    assert.equal(r.grade_error, true, id);
    assert.match(String(r.detail), why, id);
  }
}

Deno.test("regrade.ts grades a run folder the seed wrote with the task file's checks", async () => {
  assert.deepEqual(Object.keys(FAILING_REASONS).sort(), Object.keys(SEED_FAILING).sort());
  const out = await copyFixture();
  try {
    const r = await runTask("regrade", ["--out", out, "--tasks", TASKS]);
    assert.equal(r.code, 0, r.stderr);
    // 3 ungradeable passes and the near miss the seed's gate passed changed.
    assert.match(
      r.stdout,
      /\{"ok":12,"fail":12\} \(4 changed, 24 on the seed's evidence, 3 grade errors: the check reads what the seed never saved/,
    );
    const lines = await readResults(out, "results_regraded.jsonl");
    assertVerdicts(lines);
    // results.jsonl is never rewritten: the seed's lines stay as the seed wrote them.
    const before = await Deno.readTextFile(join(FIXTURE, "results.jsonl"));
    assert.equal(await Deno.readTextFile(join(out, "results.jsonl")), before);
    assert.equal(lines.find((l) => l.task_id === SEED_LENIENT)?.ok, false);
  } finally {
    await Deno.remove(join(out, ".."), { recursive: true });
  }
});

Deno.test("the seed's --regrade DIR --arm A --out DIR line regrades a seed run folder, --task-ids only those", async () => {
  const out = await copyFixture();
  try {
    const r = await runCli("eval.ts", ["--tasks", TASKS, "--arm", "replay", "--regrade", out, "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    assertVerdicts(await readResults(out, "results_regraded.jsonl"));
    // --task-ids: those episodes regraded, the others written as the seed wrote them (not regraded).
    const ids = ["mail_delete_weekly_brief", "shop_paginate_page3"];
    const some = await runCli("eval.ts", ["--tasks", TASKS, "--regrade", out, "--task-ids", ids.join(",")]);
    assert.equal(some.code, 0, some.stderr);
    assert.match(some.stdout, /1 changed.*22 not named by --task-ids, kept/);
    const lines = await readResults(out, "results_regraded.jsonl");
    assert.deepEqual(lines.filter((l) => l.regraded).map((l) => l.task_id).sort(), [...ids].sort());
    assert.equal(lines.find((l) => l.task_id === "shop_copy_cancelled_order_number")?.ok, true);
  } finally {
    await Deno.remove(join(out, ".."), { recursive: true });
  }
});

Deno.test("regrade.ts without --tasks makes each seed episode a grade error saying to give the tasks", async () => {
  const out = await copyFixture();
  try {
    const r = await runTask("regrade", ["--out", out]);
    assert.equal(r.code, 0, r.stderr);
    const lines = await readResults(out, "results_regraded.jsonl");
    assert.ok(lines.every((l) => l.status === "grade_error"));
    assert.match(
      String(lines[0].detail),
      /in the seed's layout \(no task in it\): give the run's tasks \(--tasks FILE\)/,
    );
  } finally {
    await Deno.remove(join(out, ".."), { recursive: true });
  }
});

Deno.test("fixtures/app_rules.json is the bundled apps' grading rules", async () => {
  const saved = JSON.parse(await Deno.readTextFile(join(ROOT, "fixtures/app_rules.json")));
  const now = JSON.parse(JSON.stringify(Object.fromEntries(APPS.map((a) => [a.id, a.grading ?? {}]))));
  assert.deepEqual(
    saved,
    now,
    "the apps' rules changed: write fixtures/app_rules.json again (see its README line in fixtures/run_folders)",
  );
});
