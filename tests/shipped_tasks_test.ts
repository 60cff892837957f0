/**
 * Every hand-written task the suite ships (fixtures/tasks.jsonl's bundled tasks and the human tasks under
 * fixtures/annotations), through the whole harness (real Chromium, the real sandbox, the real grader): its reference
 * solution passes its grade, and doing nothing (a done with no answer) fails it on the grade, without a harness or
 * grade error and without asking the answer judge. The episodes are regraded from their browser recordings
 * (fixtures/recordings/shipped.json.gz, tests/support/recordings.ts), one in 40 also run live; the eval.ts and
 * --human end-to-end tests run the CLI over a sample of the same tasks. The generated set's instances are proven in
 * gen_proof_test.ts (one per template) and by `gen --verify`.
 */
import assert from "node:assert/strict";
import { runScripted, type ScriptedEpisode } from "../lib/gen/mod.ts";
import { OpenAiJudge, OpenAiModelClient } from "../lib/llm/mod.ts";
import { DEFAULT_JUDGE_MODEL, loadJudgePrompts } from "../lib/llm/judge.ts";
import { statusOf } from "../lib/run_folder/mod.ts";
import { kindOf, type RunTask } from "../lib/tasks/mod.ts";
import { startFixtureModelServer } from "./fixture_model_server.ts";
import { bundledTasks } from "./support/near_misses.ts";
import { RecordingStore } from "./support/recordings.ts";

const NOOP = "~noop";

/** A judge over HTTP: `accept` lists the tasks whose answer it finds correct (as often as asked); others are refused. */
async function judge(accept: readonly RunTask[]) {
  const server = startFixtureModelServer({
    models: [DEFAULT_JUDGE_MODEL],
    checks: { image: false },
    episodes: accept.map((t) => ({
      marker: t.instruction,
      steps: Array.from({ length: 4 }, () => ({
        reply: { verdict: "correct", reason: "states the reference's facts" },
        expectModel: DEFAULT_JUDGE_MODEL,
      })),
    })),
  });
  const qa = new OpenAiJudge(
    new OpenAiModelClient({ baseURL: server.url, maxRetries: 0 }),
    DEFAULT_JUDGE_MODEL,
    await loadJudgePrompts(),
  );
  return { server, qa };
}

Deno.test({
  name: "every shipped task: its reference passes its grade and doing nothing fails it",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const tasks = [...(await bundledTasks()).values()];
  const human = tasks.filter((t) => kindOf(t).name === "human");
  assert.ok(tasks.length - human.length >= 60 && human.length >= 20, `${tasks.length} tasks, ${human.length} human`);
  const recordings = await RecordingStore.open("shipped");
  // The references, with a judge that accepts any answer it is asked about (the free-text answers no rule decides).
  const accepting = await judge(tasks);
  const references = await runScripted(
    tasks.map((task): ScriptedEpisode => ({ task, witness: false })),
    { workers: 2, qa: accepting.qa, recordings, human: true },
  );
  // Doing nothing, with a judge that refuses every request: asked at all, the grade would be an error or pending.
  const refusing = await judge([]);
  const noops = await runScripted(
    tasks.map((t): ScriptedEpisode => ({
      task: { ...t, task_id: t.task_id + NOOP },
      script: { steps: [], answer: "" },
      witness: false,
    })),
    { workers: 2, qa: refusing.qa, recordings, human: true },
  );
  await recordings.save();
  await accepting.server[Symbol.asyncDispose]();
  await refusing.server[Symbol.asyncDispose]();

  const problems: string[] = [];
  for (const t of tasks) {
    const ref = references.outcomes.get(t.task_id), noop = noops.outcomes.get(t.task_id + NOOP);
    const r = ref?.result, n = noop?.result;
    if (!r?.ok) {
      problems.push(`${t.task_id}: reference ${ref?.problem ?? `${r?.reason} ${r?.detail} ${r?.error ?? ""}`}`);
    }
    if (!n) problems.push(`${t.task_id}: doing nothing has no result (${noop?.problem})`);
    else if (statusOf(n) !== "failed") problems.push(`${t.task_id}: doing nothing is ${statusOf(n)}: ${n.detail}`);
  }
  assert.deepEqual(problems, []);
  assert.equal(refusing.server.requests.length, 0, "doing nothing asked the answer judge");
  assert.equal(recordings.problem(), undefined);
});
