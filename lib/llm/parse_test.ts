import assert from "node:assert/strict";
import { ModelReplyError } from "../errors/mod.ts";
import { agentResponseFormat, parseAgentReply } from "./mod.ts";
import { agentOutputSchema } from "./schema.ts";

const REPLY = {
  thinking: "The cart button is index 7.",
  evaluation_previous_goal: "Success: the product page is open.",
  memory: "Product found.",
  next_goal: "Add it to the cart.",
  action: [{ click: { index: 7 } }, { macro_done: {} }],
};
const TEXT = JSON.stringify(REPLY);

function rejects(text: string, pattern: RegExp, names?: string[]) {
  assert.throws(() => parseAgentReply(text, names ? { actionNames: names } : {}), (e: unknown) => {
    assert.ok(e instanceof ModelReplyError, String(e));
    assert.equal(e.replyText, text);
    assert.equal(e.retriable, false);
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("parseAgentReply() reads a plain JSON reply", () => {
  assert.deepEqual(parseAgentReply(TEXT), REPLY);
  assert.deepEqual(parseAgentReply(`  \n${TEXT}\n`), REPLY);
});

Deno.test("parseAgentReply() accepts the JSON inside a fence or after a think block", () => {
  assert.deepEqual(parseAgentReply("```json\n" + TEXT + "\n```"), REPLY);
  assert.deepEqual(parseAgentReply("Here it is:\n```\n" + TEXT + "\n```\nDone."), REPLY);
  assert.deepEqual(parseAgentReply("<think>index 7 looks right {not json}</think>\n" + TEXT), REPLY);
  // Qwen-style templates open the think block in the prompt: only the closing tag is in the reply
  assert.deepEqual(parseAgentReply("index 7 looks right</think>\n\n" + TEXT), REPLY);
  assert.deepEqual(parseAgentReply("<think>x</think>```json\n" + TEXT + "```"), REPLY);
});

Deno.test("parseAgentReply() normalises a null params object and keeps thinking optional", () => {
  const { thinking: _t, ...rest } = REPLY;
  const parsed = parseAgentReply(JSON.stringify({ ...rest, action: [{ go_back: null }] }));
  assert.deepEqual(parsed.action, [{ go_back: {} }]);
  assert.equal(Object.hasOwn(parsed, "thinking"), false);
});

Deno.test("parseAgentReply() rejects text without a JSON object, keeping the text", () => {
  rejects("I will click the cart button.", /holds no JSON object/);
  rejects("", /holds no JSON object/);
  rejects("Sure! " + TEXT, /holds no JSON object/);
  rejects("[" + TEXT + "]", /holds no JSON object/);
  rejects(TEXT.slice(0, -2), /holds no JSON object/);
});

Deno.test("parseAgentReply() rejects a JSON object that is not an agent output", () => {
  rejects(JSON.stringify({ ...REPLY, action: [] }), /not an agent output \(action: /);
  rejects(JSON.stringify({ ...REPLY, action: [{ click: { index: 1 }, input: { index: 2 } }] }), /exactly one name/);
  rejects(JSON.stringify({ ...REPLY, action: [{ click: 3 }] }), /action\.0\.click/);
  rejects(JSON.stringify({ ...REPLY, next_goal: undefined }), /next_goal/);
  rejects(JSON.stringify({ ...REPLY, extra: 1 }), /not an agent output/);
  rejects(JSON.stringify({ ...REPLY, memory: 5 }), /memory/);
});

Deno.test("parseAgentReply() rejects an action outside the given names", () => {
  assert.deepEqual(parseAgentReply(TEXT, { actionNames: ["click", "macro_done", "done"] }), REPLY);
  rejects(TEXT, /unknown action "macro_done"/, ["click", "done"]);
});

Deno.test("agentOutputSchema() builds a strict browser-use reply schema with one entry per action", () => {
  const schema = agentOutputSchema({
    click: { type: "object", properties: { index: { type: "integer" } } },
    go_back: { type: "object" },
  });
  assert.deepEqual(schema.required, ["thinking", "evaluation_previous_goal", "memory", "next_goal", "action"]);
  assert.equal(schema.additionalProperties, false);
  const action = (schema.properties as Record<string, Record<string, unknown>>).action;
  assert.equal(action.minItems, 1);
  assert.equal(action.maxItems, undefined);
  const anyOf = (action.items as { anyOf: Record<string, unknown>[] }).anyOf;
  assert.deepEqual(anyOf.map((i) => i.required), [["click"], ["go_back"]]);
  assert.ok(anyOf.every((i) => i.additionalProperties === false));
  assert.doesNotMatch(JSON.stringify(schema), /"format"|"pattern"/);
});

Deno.test("agentOutputSchema() takes bare names, optional thinking and an action cap", () => {
  const schema = agentOutputSchema(["done"], { thinking: false, maxActions: 3 });
  assert.deepEqual(schema.required, ["evaluation_previous_goal", "memory", "next_goal", "action"]);
  const action = (schema.properties as Record<string, Record<string, unknown>>).action;
  assert.equal(action.maxItems, 3);
  assert.deepEqual(action.items, {
    type: "object",
    properties: { done: { type: "object" } },
    required: ["done"],
    additionalProperties: false,
  });
  assert.throws(() => agentOutputSchema([]), RangeError);
});

Deno.test("agentResponseFormat() is a strict json_schema response format", () => {
  const rf = agentResponseFormat(["click"]);
  assert.equal(rf.type, "json_schema");
  assert.equal(rf.json_schema.name, "agent_output");
  assert.equal(rf.json_schema.strict, true);
  assert.deepEqual(rf.json_schema.schema, agentOutputSchema(["click"]));
});
