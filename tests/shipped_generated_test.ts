/**
 * Every instance of the bundled generated set (fixtures/valgen/val.jsonl, all three splits) meets the standard of
 * tests/support/shipped.ts: its reference passes its grade, and doing nothing fails it. `gen --verify` proved each
 * when the set was made; this holds them to it after every change to the apps, the capture or the grader. The
 * episodes are regraded from their browser recordings (fixtures/recordings/shipped_generated.json.gz), one in 40 also
 * run live.
 */
import assert from "node:assert/strict";
import { loadTasks } from "../lib/tasks/mod.ts";
import { ROOT } from "./support/cli.ts";
import { RecordingStore } from "./support/recordings.ts";
import { shippedProblems } from "./support/shipped.ts";
import { join } from "node:path";

Deno.test({
  name: "every shipped generated instance: its reference passes its grade and doing nothing fails it",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const tasks = await loadTasks(join(ROOT, "fixtures/valgen/val.jsonl"));
  assert.ok(tasks.length >= 1000, `${tasks.length} instances`);
  const problems = await shippedProblems(tasks, await RecordingStore.open("shipped_generated"));
  assert.deepEqual(problems, []);
});
