import assert from "node:assert/strict";
import type { EpisodeStatus } from "../run_folder/mod.ts";
import { compareRuns, identical, tallyBy } from "./aggregate.ts";
import type { ReportResult } from "./load.ts";

const result = (task_id: string, repeat: number, status: EpisodeStatus, family = "Navigation"): ReportResult => ({
  task_id,
  repeat,
  status,
  family,
  episode: task_id,
  cluster: task_id,
  macro: "paginate",
  site: "shop",
  arm: "replay",
  ok: status === "passed",
  duration_s: 1,
});

Deno.test("compareRuns() pairs only keys graded in both and lists every key that differs", () => {
  const a = [
    result("t1", 0, "passed"),
    result("t2", 0, "passed"),
    result("t3", 0, "failed"),
    result("t4", 0, "error"),
    result("t5", 0, "passed"),
    result("t6", 0, "failed"),
  ];
  const b = [
    result("t1", 0, "passed"),
    result("t2", 0, "failed"),
    result("t3", 0, "passed"),
    result("t4", 0, "passed"),
    result("t6", 0, "failed"),
    result("t6", 1, "passed"),
  ];
  const c = compareRuns(a, b);
  // t4 is an error in A: not paired, but a status difference. t5 only in A, t6~r1 only in B.
  assert.deepEqual(c.paired, { both: 1, aOnly: 1, bOnly: 1, neither: 1 });
  assert.deepEqual(c.passToFail, [{ task_id: "t2", repeat: 0 }]);
  assert.deepEqual(c.failToPass, [{ task_id: "t3", repeat: 0 }]);
  assert.deepEqual(c.statusDiffers.map((d) => `${d.task_id}:${d.a}>${d.b}`), [
    "t2:passed>failed",
    "t3:failed>passed",
    "t4:error>passed",
  ]);
  assert.deepEqual(c.onlyA, [{ task_id: "t5", repeat: 0 }]);
  assert.deepEqual(c.onlyB, [{ task_id: "t6", repeat: 1 }]);
  assert.equal(c.shared, 5);
  assert.equal(c.test.p, 1);
  assert.equal(c.test.method, "mcnemar_exact");
  assert.equal(identical(c), false);
  assert.equal(identical(compareRuns(a, [...a].reverse())), true);
});

Deno.test("tallyBy() keeps errors out of the rate and lists groups in the given order first", () => {
  const rs = [
    result("a", 0, "passed", "Other"),
    result("b", 0, "error", "Navigation"),
    result("c", 0, "failed", "Navigation"),
    result("d", 0, "pending", "Text entry"),
    result("e", 0, "grade_error", "Zeta"),
  ];
  const t = tallyBy(rs, (r) => r.family, ["Text entry", "Navigation"]);
  assert.deepEqual([...t.keys()], ["Text entry", "Navigation", "Other", "Zeta"]);
  const nav = t.get("Navigation")!;
  assert.equal(nav.graded, 1);
  assert.equal(nav.rate, 0);
  assert.equal(nav.counts.error, 1);
  assert.equal(t.get("Text entry")!.rate, undefined);
  assert.equal(t.get("Zeta")!.counts.grade_error, 1);
});
