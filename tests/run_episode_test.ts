/**
 * lib/run's runEpisode on a worker's browser, in process: real Chromium, the real sandbox, the real openai client
 * against the fixture model server.
 */
import assert from "node:assert/strict";
import { ChromiumBrowser } from "../lib/browser/mod.ts";
import { BUNDLED, runConfig } from "../lib/run/mod.ts";
import { resolveModelArm } from "../lib/run/arms.ts";
import { runEpisode } from "../lib/run/episode.ts";
import { runRedactor } from "../lib/run/run.ts";
import { APPS, fetchHealth, startSites } from "../lib/sites/mod.ts";
import { loadTasks } from "../lib/tasks/mod.ts";
import { agentReply, startFixtureModelServer } from "./fixture_model_server.ts";

const PAGINATE = "shop_paginate_page3";
const MODEL_DELAY_MS = 1500;

Deno.test({
  name: "an episode prepares its worker's next context while the model answers its first step",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const task = (await loadTasks(BUNDLED.tasks)).find((t) => t.task_id === PAGINATE)!;
  await using sites = await startSites({ apps: APPS });
  await using server = startFixtureModelServer({
    episodes: [{
      marker: task.instruction,
      steps: [
        { reply: agentReply({ navigate: { url: "/shop/products?page=3" } }), faults: [{ delayMs: MODEL_DELAY_MS }] },
        { reply: agentReply({ done: { text: "on page 3", success: true } }) },
      ],
    }],
  });
  const out = await Deno.makeTempDir({ prefix: "webmix-run-episode-" });
  const config = runConfig({
    arm: "base",
    out,
    workers: 1,
    stepScreenshots: false,
    model: { vllm: server.url, maxTokens: 256, modelTimeoutS: 30 }, // every other setting at its default
  });
  const arm = await resolveModelArm(config, [task]);
  const { apps, rules } = await fetchHealth(sites.base);
  await using browser = await ChromiumBrowser.launch();
  // When the runner asks for the next context: how many model requests had come in, and when the spare was ready.
  const asked: { requests: number; at: number; ready?: number }[] = [];
  const prepareNext = browser.prepareNext.bind(browser);
  browser.prepareNext = () => {
    const call: (typeof asked)[number] = { requests: server.requests.length, at: performance.now() };
    asked.push(call);
    return prepareNext().then((ready) => {
      call.ready = ready ? performance.now() : undefined;
      return ready;
    });
  };
  const served = server.requests.length; // the served-models check
  const t0 = performance.now();
  const result = await runEpisode(task, 0, { base: sites.base, apps, rules, browser }, {
    config,
    arm,
    redactor: runRedactor(config),
    prompts: new Map(),
  });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(asked.length, 1, "asked once per episode");
  const [call] = asked;
  // Asked once the start was over (the first state captured), before the first model request went out...
  assert.equal(call.requests, served);
  assert.ok(call.at - t0 >= result.timing!.context_ms + result.timing!.setup_ms, JSON.stringify(result.timing));
  // ...and ready while the model was still answering: the next episode does not wait for it.
  assert.ok(
    call.ready !== undefined && call.ready - call.at < MODEL_DELAY_MS,
    `ready after ${call.ready! - call.at} ms`,
  );
  await Deno.remove(out, { recursive: true });
});
