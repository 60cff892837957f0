/**
 * The executor's, the loop's and the router's decisions on a Session without a browser (tests/support/
 * fake_session.ts): which primitive an action becomes, what an agent's mistake returns, the 0-1000 grid, and the
 * routed loop against the real openai client and a real HTTP model server (tests/fixture_model_server.ts): the
 * model of each request, a premature done gated into macro_done with the router's note, the answer. No Chromium:
 * this tier runs in seconds.
 */
import assert from "node:assert/strict";
import { type ActionContext, executeAction, modelArm } from "../lib/agent/mod.ts";
import { OpenAiModelClient } from "../lib/llm/mod.ts";
import type { RunTask } from "../lib/tasks/mod.ts";
import { agentReply, startFixtureModelServer } from "./fixture_model_server.ts";
import { FakeSession } from "./support/fake_session.ts";

const SITE = {
  "/list": {
    title: "Products",
    elements: [
      { tag: "input", attributes: { placeholder: "Search" } },
      { tag: "a", text: "Trail Shoe", href: "/item/1" },
      { tag: "a", text: "Size guide", href: "/guide", newTab: true },
      { tag: "select", attributes: { "aria-label": "Sort" }, options: ["Price", "Name"] },
    ],
  },
  "/item/1": { title: "Trail Shoe", elements: [{ tag: "button", text: "Add to cart" }], text: "Trail Shoe $89" },
  "/guide": { title: "Size guide", elements: [], text: "EU 42 = US 9" },
};

async function act(s: FakeSession, action: unknown, extra: Partial<ActionContext> = {}) {
  const state = await s.captureState();
  return await executeAction(s, action, { base: "http://fake.test", state, ...extra });
}

Deno.test("the executor on a fake session: primitives, agent mistakes as results, the grid", async () => {
  const s = new FakeSession(SITE, "/list");
  const typed = await act(s, { input: { index: 1, text: "shoe" } });
  assert.equal(typed.ok, true, typed.error);
  const opened = await act(s, { click: { index: 3 } });
  assert.match(opened.extracted!, /tab T002 opened and is now current/);
  assert.equal((await act(s, { switch: { tab_id: "T001" } })).ok, true);
  const clicked = await act(s, { click: { index: 2 } });
  assert.match(clicked.extracted!, /the page is now \/item\/1/);
  assert.deepEqual(s.calls, ['input 1 "shoe"', "click 3", "switch_tab T001", "click 2"]);

  const missing = await act(s, { click: { index: 9 } });
  assert.deepEqual([missing.ok, missing.error], [false, "click: there is no element with index 9 on the page"]);
  const away = await act(s, { navigate: { url: "/elsewhere" } });
  assert.equal(away.ok, false);
  assert.deepEqual(s.blocked, ["/elsewhere"]);
  const bad = await act(s, { teleport: { index: 1 } });
  assert.equal(bad.ok, false);
  assert.match(bad.error!, /teleport/);

  await act(s, { click: { coordinate_x: 500, coordinate_y: 250 } }, { normalizedCoords: true });
  await act(s, { click: { coordinate_x: 500, coordinate_y: 250 } });
  assert.deepEqual(s.calls.slice(-2), ["click_at 640,180", "click_at 500,250"]);
  const done = await act(s, { done: { text: "Trail Shoe", success: true } });
  assert.deepEqual(done.done, { text: "Trail Shoe", success: true });
});

Deno.test("the routed loop on a fake session: each request's adapter, a premature done gated, the answer", async () => {
  const prompt = "Sort by name, then open Trail Shoe and say its price.";
  const steps = [
    { reply: agentReply({ done: { text: "sorted", success: true } }), expectModel: "select" },
    { reply: agentReply({ click: { index: 2 } }), expectModel: "rest" },
    { reply: agentReply({ done: { text: "$89", success: true } }), expectModel: "rest" },
  ];
  await using server = startFixtureModelServer({
    models: ["select", "rest"],
    checks: { image: false },
    episodes: [{ marker: prompt, steps }],
  });
  const arm = modelArm({
    name: "oracle",
    client: new OpenAiModelClient({ baseURL: server.url, maxRetries: 0 }),
    systemPrompt: "You are a web agent.",
    now: "2026-12-07",
    route: () => ({
      models: ["select", "rest"],
      families: ["Discrete selection", "Navigation"],
      gate: true,
      note: true,
    }),
  });
  const session = new FakeSession(SITE, "/list");
  const out = await arm.run({
    task: {} as RunTask, // the route above does not read it
    reference: [],
    prompt,
    session,
    base: "http://fake.test",
    signal: new AbortController().signal,
    maxSteps: 6,
    observe: async () => ({ ...await session.captureState(), screenshotFile: null }),
  });
  assert.deepEqual([out.done, out.answer, out.steps], [true, "$89", 3]);
  assert.deepEqual(out.trace.map((t) => [t.model, t.gated ?? false]), [["select", true], ["rest", false], [
    "rest",
    false,
  ]]);
  assert.deepEqual(out.trace[0].action, [{ macro_done: {} }], "the premature done became macro_done");
  assert.deepEqual(session.calls, ["click 2"]);
  assert.equal(session.currentUrl(), "/item/1");
  const second = server.requests.filter((r) => r.step === 1)[0];
  assert.match(
    JSON.stringify(second.body),
    /The task is not finished yet/,
    "the next request carries the router's note",
  );
});
