/**
 * The standard every shipped task meets, in one place: its reference solution passes its grade, and doing nothing
 * (a done with no answer) fails it on the grade, without a harness or grade error and without asking the answer
 * judge. The episodes run through the whole harness (real Chromium, the real sandbox, the real grader) or are
 * regraded from their browser recordings (tests/support/recordings.ts).
 */
import { runScripted, type ScriptedEpisode } from "../../lib/gen/mod.ts";
import { OpenAiJudge, OpenAiModelClient } from "../../lib/llm/mod.ts";
import { DEFAULT_JUDGE_MODEL, loadJudgePrompts } from "../../lib/llm/judge.ts";
import { statusOf } from "../../lib/run_folder/mod.ts";
import type { RunTask } from "../../lib/tasks/mod.ts";
import { startFixtureModelServer } from "../fixture_model_server.ts";
import type { RecordingStore } from "./recordings.ts";

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

/**
 * Runs or regrades each task's reference and a do-nothing episode; what breaks the standard, a line per task. The
 * references get a judge that accepts any answer it is asked about (the free-text answers no rule decides); doing
 * nothing gets one that refuses every request, and asking it at all is a problem.
 */
export async function shippedProblems(
  tasks: readonly RunTask[],
  recordings: RecordingStore,
  options: { human?: boolean } = {},
): Promise<string[]> {
  const accepting = await judge(tasks);
  await using _accepting = accepting.server;
  const refusing = await judge([]);
  await using _refusing = refusing.server;
  const references = await runScripted(
    tasks.map((task): ScriptedEpisode => ({ task, witness: false })),
    { workers: 2, qa: accepting.qa, recordings, human: options.human },
  );
  const noops = await runScripted(
    tasks.map((t): ScriptedEpisode => ({
      task: { ...t, task_id: t.task_id + NOOP },
      script: { steps: [], answer: "" },
      witness: false,
    })),
    { workers: 2, qa: refusing.qa, recordings, human: options.human },
  );
  await recordings.save();
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
  if (refusing.server.requests.length) {
    problems.push(`doing nothing asked the answer judge: ${refusing.server.requests.length} requests`);
  }
  const stale = recordings.problem();
  if (stale) problems.push(stale);
  return problems;
}
