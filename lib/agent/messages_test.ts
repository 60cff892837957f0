import assert from "node:assert/strict";
import { buildStepMessages, type StepMessagesInput, stepText } from "./messages.ts";

const input = (over: Partial<StepMessagesInput> = {}): StepMessagesInput => ({
  systemPrompt: "SYSTEM",
  task: "Buy a lamp.",
  step: 2,
  maxSteps: 40,
  now: "2026-03-15T10:00:00Z",
  history: [{ step: 1, evaluation: "Start", memory: "none yet", nextGoal: "open shop", results: ["navigate: ok"] }],
  view: {
    url: "http://127.0.0.1:1/shop/",
    title: "Shop",
    tabs: [{ id: "AB12", url: "http://127.0.0.1:1/shop/", title: "Shop" }],
    currentTab: "AB12",
    elementsText: "[1]<a />\n\tCart",
    pixelsAbove: 0,
    pixelsBelow: 1440,
    viewport: { width: 1280, height: 720 },
    screenshot: new Uint8Array([137, 80, 78, 71]),
  },
  ...over,
});

Deno.test("stepText() lays out history, request, step info and browser state in browser-use's sections", () => {
  const text = stepText(input());
  assert.match(text, /^<agent_history>\n<step_1>\nEvaluation of Previous Step: Start\nMemory: none yet\n/);
  assert.match(text, /Action Results:\nAction 1\/1: navigate: ok\n<\/step_1>\n<\/agent_history>/);
  assert.match(text, /<user_request>\nBuy a lamp\.\n<\/user_request>/);
  assert.match(text, /Step 2 of 40 max possible steps\nCurrent date: 2026-03-15/);
  assert.match(text, /Current tab: AB12\nAvailable tabs:\nTab AB12: http:\/\/127\.0\.0\.1:1\/shop\/ - Shop/);
  assert.match(text, /0\.0 pages above, 2\.0 pages below/);
  assert.match(text, /\[1\]<a \/>\n\tCart\n<\/browser_state>$/);
  assert.doesNotMatch(text, /<read_state>|<router_note>/);
});

Deno.test("stepText() adds read state and the router note only when given, and an unusable reply as an error", () => {
  const text = stepText(input({
    readState: "Options: Red | Blue",
    routerNote: "The task is not finished yet.",
    history: [{ step: 1, results: [], error: "reply is not JSON" }],
  }));
  assert.match(text, /<step_1>\nError: reply is not JSON\n<\/step_1>/);
  assert.match(
    text,
    /<read_state>\nOptions: Red \| Blue\n<\/read_state>\n<router_note>\nThe task is not finished yet\.\n<\/router_note>$/,
  );
});

Deno.test("buildStepMessages() sends the system prompt, then the text and the screenshot as a data URL", () => {
  const [system, user] = buildStepMessages(input());
  assert.deepEqual(system, { role: "system", content: "SYSTEM" });
  assert.equal(user.role, "user");
  const parts = user.content as { type: string; image_url?: { url: string } }[];
  assert.deepEqual(parts.map((p) => p.type), ["text", "image_url"]);
  assert.equal(parts[1].image_url!.url, "data:image/png;base64,iVBORw==");
  const without = buildStepMessages(input({ view: { ...input().view, screenshot: undefined } }));
  assert.equal((without[1].content as unknown[]).length, 1);
});
