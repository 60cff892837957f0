import assert from "node:assert/strict";
import { REASONS } from "../protocol/mod.ts";
import type { EpisodeStatus } from "../run_folder/mod.ts";
import { type Block, toMarkdown } from "./doc.ts";
import type { ReportResult, RunData } from "./load.ts";
import { ARM_FAILURE, failuresByReason, NO_REASON, orderReasons, reasonMeaning, reasonOf } from "./reasons.ts";
import { summarize } from "./viewer_data.ts";

const result = (
  task_id: string,
  status: EpisodeStatus,
  extra: Partial<ReportResult> = {},
): ReportResult => ({
  task_id,
  repeat: 0,
  status,
  family: "Navigation",
  episode: task_id,
  cluster: task_id,
  macro: "paginate",
  site: "shop",
  arm: "base",
  ok: status === "passed",
  duration_s: 1,
  ...extra,
});

/** A run as failuresByReason reads it: only its results. */
const run = (results: ReportResult[]) => ({ results }) as unknown as RunData;

/** The rows of the `index`-th table of `blocks`, head first. */
function table(blocks: Block[], index: number): string[][] {
  const tables = blocks.filter((b) => b.kind === "table");
  assert.ok(tables[index], `no table ${index + 1} in ${toMarkdown(blocks)}`);
  return [tables[index].head, ...tables[index].rows];
}

Deno.test("reasonOf() names the rule of a failed or pending episode, (arm failure) and (none) without one", () => {
  assert.equal(reasonOf(result("t", "failed", { reason: "final_page" })), "final_page");
  assert.equal(reasonOf(result("t", "failed")), NO_REASON);
  assert.equal(reasonOf(result("t", "failed", { reason: "" })), NO_REASON);
  assert.equal(reasonOf(result("t", "failed", { arm_failure: "reference step 2 failed" })), ARM_FAILURE);
  assert.equal(reasonOf(result("t", "failed", { error: "timeout", reason: "not_visited" })), "not_visited");
  assert.equal(reasonOf(result("t", "pending", { reason: "answer_unaccounted" })), "answer_unaccounted");
  assert.equal(reasonOf(result("t", "pending")), undefined);
  assert.equal(reasonOf(result("t", "passed")), undefined);
  assert.equal(reasonOf(result("t", "error", { error: "HarnessError: the browser died" })), undefined);
  assert.equal(reasonOf(result("t", "grade_error", { grade_error: true })), undefined);
  assert.equal(summarize(result("t", "failed", { reason: "answer_wrong" }), "").reason, "answer_wrong");
  assert.equal(summarize(result("t", "passed"), "").reason, "");
});

Deno.test("orderReasons() lists REASONS' order, then unknown codes by name, then (arm failure) and (none)", () => {
  assert.deepEqual(
    orderReasons([NO_REASON, "zz_newer", "answer_wrong", ARM_FAILURE, "a_newer", "unclaimed_write", "answer_wrong"]),
    ["unclaimed_write", "answer_wrong", "a_newer", "zz_newer", ARM_FAILURE, NO_REASON],
  );
  assert.equal(reasonMeaning("final_page"), REASONS.final_page);
  assert.equal(reasonMeaning("zz_newer"), undefined);
  assert.match(reasonMeaning(NO_REASON)!, /before reason codes/);
});

Deno.test("failuresByReason() counts failed episodes per reason and arm, with totals and a per-family table", () => {
  const results = [
    result("a1", "failed", { reason: "final_page" }),
    result("a2", "failed", { reason: "final_page", arm: "pooled" }),
    result("a3", "failed", { reason: "final_page", arm: "pooled", family: "Drag & gesture" }),
    result("a4", "failed", { reason: "unclaimed_write", family: "Drag & gesture" }),
    result("a5", "failed"),
    result("a6", "failed", { arm_failure: "reference step 1 failed", arm: "pooled" }),
    result("a7", "passed"),
    result("a8", "error", { error: "HarnessError: x", arm: "pooled" }),
    result("a9", "pending", { reason: "answer_unaccounted", arm: "pooled" }),
  ];
  const blocks = failuresByReason([run(results)], ["r1"]);
  // One run: a column per arm, by name, headed with the arm alone.
  assert.deepEqual(table(blocks, 0), [
    ["reason", "base", "pooled", "total"],
    ["unclaimed_write", "1", "0", "1"],
    ["final_page", "1", "2", "3"],
    ["(arm failure)", "0", "1", "1"],
    ["(none)", "1", "0", "1"],
    ["all failures", "3", "3", "6"],
  ]);
  // Families in FAMILIES' order: Drag & gesture before Navigation.
  assert.deepEqual(table(blocks, 1), [
    ["family", "reason", "base", "pooled", "total"],
    ["Drag & gesture", "unclaimed_write", "1", "0", "1"],
    ["Drag & gesture", "final_page", "0", "1", "1"],
    ["Navigation", "final_page", "1", "1", "2"],
    ["Navigation", "(arm failure)", "0", "1", "1"],
    ["Navigation", "(none)", "1", "0", "1"],
  ]);
  assert.match(toMarkdown(blocks), /not counted here: 1 carry a reason \(answer_unaccounted 1\)/);

  // Two runs: a column per run and arm.
  const two = failuresByReason([run(results.slice(0, 2)), run([result("b1", "failed", { reason: "final_page" })])], [
    "r1",
    "r2",
  ]);
  assert.deepEqual(table(two, 0), [
    ["reason", "r1: base", "r1: pooled", "r2: base", "total"],
    ["final_page", "1", "1", "1", "3"],
    ["all failures", "1", "1", "1", "3"],
  ]);
  assert.doesNotMatch(toMarkdown(two), /pending/);

  const none = toMarkdown(failuresByReason([run([result("c1", "passed")])], ["r1"]));
  assert.equal(none, "## Failures by reason\n\nNo failed episode.\n");
});
