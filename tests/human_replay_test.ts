/**
 * Every bundled human task, in real Chromium on the real sandbox: its recording replayed by the replay arm (the
 * human kind's reference: recordingReplaySteps resolved against each state) passes gradeHuman, with the LLM tier on
 * a fixture judge server over HTTP; an episode that does nothing but answer "" fails it, without a grade error.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { replayReference } from "../lib/agent/mod.ts";
import { ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import { type AppRules, type ChangeEntry, type ClipEntry, gradeHuman, humanTrajectory } from "../lib/grading/mod.ts";
import { OpenAiJudge, OpenAiModelClient } from "../lib/llm/mod.ts";
import { DEFAULT_JUDGE_MODEL, loadJudgePrompts } from "../lib/llm/judge.ts";
import { APPS, type DirectoryApp, fetchHealth, readSessionStreams, startSites } from "../lib/sites/mod.ts";
import { openStartPage } from "../lib/run/mod.ts";
import { humanStart, type HumanTask, loadHumanTasks } from "../lib/tasks/mod.ts";
import { inEpisode } from "./browser_fixture.ts";
import { startFixtureModelServer } from "./fixture_model_server.ts";

const ANNOTATIONS = fileURLToPath(new URL("../fixtures/annotations", import.meta.url));

/** Tasks whose answer no rule tier decides: the fixture judge accepts their recorded answer once. */
const needsLlm = (t: HumanTask) =>
  Object.values(t.verifier.macros).some((m) =>
    m.answer && m.answer.llm && !m.answer.regex && !m.answer.exact &&
    m.answer.number === undefined && m.answer.date === undefined
  );

/** Starts a human episode as the runner does (lib/run's openStartPage). */
function startEpisode(session: EpisodeSession, base: string, task: HumanTask, apps: readonly DirectoryApp[]) {
  return openStartPage(session, base, humanStart(task, base, apps));
}

Deno.test({
  name: "recordingReplaySteps() replayed passes gradeHuman for every bundled task, and doing nothing fails it",
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const tasks = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
  assert.ok(tasks.length >= 20, `${tasks.length} bundled human tasks`);
  const llmTasks = tasks.filter(needsLlm);
  assert.ok(llmTasks.length >= 3, `${llmTasks.length} tasks need the LLM tier`);
  await using judgeServer = startFixtureModelServer({
    models: [DEFAULT_JUDGE_MODEL],
    checks: { image: false },
    episodes: llmTasks.map((task) => ({
      marker: task.instruction,
      steps: [{
        reply: { verdict: "correct", reason: "states the reference's facts" },
        expectModel: DEFAULT_JUDGE_MODEL,
      }],
    })),
  });
  const qa = new OpenAiJudge(
    new OpenAiModelClient({ baseURL: judgeServer.url, maxRetries: 0 }),
    DEFAULT_JUDGE_MODEL,
    await loadJudgePrompts(),
  );
  await using sites = await startSites({ apps: APPS });
  await using browser = await ChromiumBrowser.launch();
  const base = sites.base;
  const { apps, rules } = await fetchHealth(base);

  for (const task of tasks) {
    await t.step(`${task.key}: the recording passes`, async () => {
      await inEpisode(browser, base, async (session) => {
        const started = await startEpisode(session, base, task, apps);
        const outcome = await replayReference(session, base, task);
        assert.deepEqual(outcome.errors, []);
        const streams = await readSessionStreams(session, base, started);
        const clipboard = streams.clipboard as ClipEntry[];
        const state = {
          changes: streams.changes as unknown as ChangeEntry[],
          rules: rules as Record<string, AppRules>,
          clip: clipboard.map((e) => e.text),
          clipboard,
        };
        const trajectory = humanTrajectory(streams.record, streams.log);
        const grade = await gradeHuman(task, trajectory, outcome.answer, { qa, state });
        assert.equal(grade.gradeError, undefined, grade.detail);
        assert.ok(grade.ok, `${task.key}: ${grade.detail}`);
      });
    });
    await t.step(`${task.key}: doing nothing fails`, async () => {
      await inEpisode(browser, base, async (session) => {
        const started = await startEpisode(session, base, task, apps);
        const streams = await readSessionStreams(session, base, started);
        const grade = await gradeHuman(task, humanTrajectory(streams.record, streams.log), "", { qa });
        assert.equal(grade.ok, false, `${task.key} passed with nothing done`);
        assert.equal(grade.gradeError, undefined, grade.detail);
      });
    });
  }
  for (const task of llmTasks) {
    assert.equal(judgeServer.served(task.instruction), 1, `${task.key}: the LLM tier was asked once`);
  }
  assert.ok(
    judgeServer.requests.every((r) => r.status === 200),
    JSON.stringify(judgeServer.requests.map((r) => r.fault)),
  );
});
