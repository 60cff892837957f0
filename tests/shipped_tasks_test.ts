/**
 * Every hand-written task the suite ships (fixtures/tasks.jsonl's bundled tasks and the human tasks under
 * fixtures/annotations) meets the standard of tests/support/shipped.ts: its reference passes its grade, and doing
 * nothing fails it. The episodes are regraded from their browser recordings (fixtures/recordings/shipped.json.gz),
 * one in 40 also run live; the eval.ts and --human end-to-end tests run the CLI over a sample of the same tasks. The
 * generated set's instances are proven by `gen --verify` when made, and gen_proof_test proves one per template.
 */
import assert from "node:assert/strict";
import { kindOf } from "../lib/tasks/mod.ts";
import { bundledTasks } from "./support/near_misses.ts";
import { RecordingStore } from "./support/recordings.ts";
import { shippedProblems } from "./support/shipped.ts";

Deno.test({
  name: "every shipped hand-written task: its reference passes its grade and doing nothing fails it",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const tasks = [...(await bundledTasks()).values()];
  const human = tasks.filter((t) => kindOf(t).name === "human");
  assert.ok(tasks.length - human.length >= 60 && human.length >= 20, `${tasks.length} tasks, ${human.length} human`);
  const problems = await shippedProblems(tasks, await RecordingStore.open("shipped"), { human: true });
  assert.deepEqual(problems, []);
});
