import assert from "node:assert/strict";
import { FAMILY_HINTS } from "../routing/mod.ts";
import type { DelegatedStep } from "../run_folder/mod.ts";
import { plannerSystemPrompt, plannerText, succeeded } from "./planner.ts";
import { parsePlannerReply, PLAN_FAMILIES, plannerOutputSchema } from "./planner_schema.ts";

const reply = (over: Record<string, unknown>) =>
  JSON.stringify({
    thinking: "t",
    plan: [{ family: "Navigation", subtask: " open it " }],
    next: "delegate",
    step: 1,
    answer: "",
    ...over,
  });

Deno.test("parsePlannerReply() reads a delegation and a finish, in a fence or after a think block", () => {
  assert.deepEqual(parsePlannerReply(reply({})), {
    thinking: "t",
    plan: [{ family: "Navigation", subtask: "open it" }],
    next: "delegate",
    step: 1,
  });
  const fin = parsePlannerReply(
    "<think>x</think>```json\n" + reply({ next: "finish", step: 0, answer: "42" }) + "\n```",
  );
  assert.deepEqual([fin.next, fin.next === "finish" && fin.answer], ["finish", "42"]);
  // Finishing needs no plan.
  assert.equal(parsePlannerReply(reply({ plan: [], next: "finish", answer: "" })).next, "finish");
});

Deno.test("parsePlannerReply() refuses what the loop cannot use, saying why", () => {
  const cases: [string, RegExp][] = [
    ["no json here", /holds no JSON object/],
    [reply({ step: 2 }), /delegates step 2, which is not in its plan of 1/],
    [reply({ step: 0 }), /delegates step 0/],
    [reply({ plan: [] }), /delegates with an empty plan/],
    [reply({ plan: [{ family: "Navigation", subtask: "  " }] }), /a plan step without a subtask/],
    [reply({ plan: [{ family: "Other", subtask: "x" }] }), /plan\.0\.family/],
    [reply({ next: "wait" }), /next/],
    [reply({ step: 1.5 }), /step/],
    [reply({ extra: 1 }), /not a planner output/],
  ];
  for (const [text, why] of cases) assert.throws(() => parsePlannerReply(text), why, text);
});

Deno.test("the planner's JSON schema requires every field and holds nothing old xgrammar refuses", () => {
  const schema = plannerOutputSchema();
  assert.deepEqual(schema.required, ["thinking", "plan", "next", "step", "answer"]);
  assert.doesNotMatch(JSON.stringify(schema), /minItems|maxItems|minimum|maximum|pattern|format/);
  assert.deepEqual(PLAN_FAMILIES, Object.keys(FAMILY_HINTS));
});

Deno.test("the planner's system prompt lists every family with the router's hint", () => {
  const prompt = plannerSystemPrompt("Families:\n{families}\n");
  for (const [family, hint] of Object.entries(FAMILY_HINTS)) assert.ok(prompt.includes(`- ${family}: ${hint}`));
  assert.doesNotMatch(prompt, /\{families\}/);
});

const delegated = (over: Partial<DelegatedStep>): DelegatedStep => ({
  index: 1,
  plan_step: 1,
  family: "Navigation",
  subtask: "open it",
  model: "rest",
  steps: 3,
  first_step: 1,
  cap: 15,
  end: "done",
  success: true,
  result: "opened",
  memory: "m",
  url: "http://x/a",
  title: "A",
  ...over,
});

Deno.test("a delegated step did its part only with done (not reporting failure) or macro_done", () => {
  assert.equal(succeeded(delegated({})), true);
  assert.equal(succeeded(delegated({ end: "macro_done", success: true })), true);
  assert.equal(succeeded(delegated({ success: false })), false);
  assert.equal(succeeded(delegated({ end: "cap", success: null })), false);
  assert.equal(succeeded(delegated({ end: "failures", success: null })), false);
});

Deno.test("plannerText() shows each plan step's state and each outcome", () => {
  const text = plannerText({
    task: "Do the thing",
    startUrl: "http://x/",
    url: "http://x/a",
    title: "A",
    turn: 2,
    turns: 12,
    stepsLeft: 30,
    maxSteps: 40,
    subCap: 15,
    plan: [{ family: "Navigation", subtask: "open it" }, { family: "Text entry", subtask: "type" }],
    done: [delegated({ end: "cap", success: null, steps: 15, result: null })],
  });
  assert.match(text, /1\. \[Navigation\] open it \(hit its cap\)\n2\. \[Text entry\] type \(not started\)/);
  assert.match(
    text,
    /Ended: stopped at its cap of 15 steps\nReport: \(none\)\nMemory: m\nPage at the end: http:\/\/x\/a - A/,
  );
  assert.match(text, /Planner turn 2 of 12\. Specialist steps left: 30 of 40; a delegated step may take up to 15\./);
});
