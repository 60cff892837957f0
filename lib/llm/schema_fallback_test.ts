/**
 * The client's fallback for vLLM releases whose xgrammar refused `minItems`/`maxItems` (and more), against the fixture
 * model server over HTTP. Imports client.ts itself, not mod.ts, so that these tests also run (and fail) against a
 * client without the fallback.
 */
import assert from "node:assert/strict";
import { ModelReplyError } from "../errors/mod.ts";
import {
  type FixtureStep,
  OLD_XGRAMMAR_MESSAGE,
  startFixtureModelServer,
  userMessageWithImage,
} from "../../tests/fixture_model_server.ts";
import { type ChatMessage, MemoryRecorder, type ModelClientOptions, OpenAiModelClient } from "./client.ts";
import { agentResponseFormat } from "./schema.ts";
import { parseAgentReply } from "./parse.ts";

const REPLY = {
  thinking: "The search box is at index 4.",
  evaluation_previous_goal: "Start page loaded.",
  memory: "Nothing yet.",
  next_goal: "Search for the lamp.",
  action: [{ input: { index: 4, text: "Aurora Desk Lamp" } }],
};
/** The agent's format as the model arm builds it: `action` has minItems 1 and maxItems. */
const FORMAT = agentResponseFormat(["input", "click", "done"], { maxActions: 3 });
const FAST: ModelClientOptions = { backoffMs: 1, maxBackoffMs: 5, timeoutMs: 5_000 };
const TASK = "Buy the lamp";

/** FORMAT as an old server takes it: the same, without `minItems` and `maxItems`. */
function strippedFormat() {
  const schema = FORMAT.json_schema.schema as { properties: Record<string, Record<string, unknown>> };
  const { minItems: _min, maxItems: _max, ...action } = schema.properties.action;
  return {
    ...FORMAT,
    json_schema: { ...FORMAT.json_schema, schema: { ...schema, properties: { ...schema.properties, action } } },
  };
}

function messages(): ChatMessage[] {
  return [
    { role: "system", content: "You are a browser agent." },
    userMessageWithImage(`<user_request>${TASK}</user_request>`),
  ];
}

function server(steps: FixtureStep[], oldXgrammar?: boolean | string[]) {
  return startFixtureModelServer({ models: ["qwen35-4b", "drag"], episodes: [{ marker: TASK, steps }], oldXgrammar });
}

const sentFormat = (body: unknown) => (body as { response_format?: unknown }).response_format;

Deno.test("on an old vLLM the agent's schema is refused once, retried stripped, and sent stripped from then on", async () => {
  await using old = server([{ reply: REPLY }, { reply: REPLY }, { reply: REPLY }], true);
  const before = structuredClone(FORMAT);
  const plain = new OpenAiModelClient({ ...FAST, baseURL: old.url, maxRetries: 0 });
  const recorder = new MemoryRecorder();
  const recorded = plain.withRecorder(recorder);

  const first = await recorded.chat({ model: "drag", messages: messages(), responseFormat: FORMAT });
  assert.deepEqual(parseAgentReply(first.text), REPLY);
  assert.equal(first.schemaFallback, true);
  assert.equal(first.attempts, 2, "the refused request counts as an attempt");
  assert.deepEqual(old.requests.map((r) => [r.status, r.fault]), [[400, "old xgrammar"], [200, undefined]]);
  assert.deepEqual(sentFormat(old.requests[0].body), FORMAT);
  assert.deepEqual(sentFormat(old.requests[1].body), strippedFormat());
  // the training row keeps the format the reply was decoded under
  assert.deepEqual(recorder.records[0].params.response_format, strippedFormat());
  assert.deepEqual(FORMAT, before, "the caller's format is left as it is");

  // the client made it by withRecorder, and the one it was made from, share what was learned: no refused try again
  const second = await plain.chat({ model: "drag", messages: messages(), responseFormat: FORMAT });
  const third = await recorded.chat({ model: "drag", messages: messages(), responseFormat: FORMAT });
  for (const reply of [second, third]) {
    assert.equal(reply.schemaFallback, true);
    assert.equal(reply.attempts, 1);
  }
  assert.deepEqual(old.requests.map((r) => r.status), [400, 200, 200, 200]);
  assert.equal(old.requests.filter((r) => r.status === 400).length, 1, "the server saw exactly one 400");
  assert.deepEqual(sentFormat(old.requests[2].body), strippedFormat());
  assert.deepEqual(sentFormat(old.requests[3].body), strippedFormat());
  assert.deepEqual(plain.schemaFallback, { active: true, fallbacks: 1, strippedReplies: 3 });
  assert.deepEqual(recorded.schemaFallback, plain.schemaFallback);
  assert.equal(recorder.records.length, 2);
  assert.deepEqual(recorder.records[1].params.response_format, strippedFormat());
});

Deno.test("a current vLLM gets the agent's full schema and the client does not fall back", async () => {
  await using current = server([{ reply: REPLY }, { reply: REPLY }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: current.url });
  for (let i = 0; i < 2; i++) {
    const reply = await client.chat({ model: "drag", messages: messages(), responseFormat: FORMAT });
    assert.equal(reply.schemaFallback, false);
    assert.equal(reply.attempts, 1);
  }
  assert.deepEqual(current.requests.map((r) => r.status), [200, 200]);
  for (const r of current.requests) assert.deepEqual(sentFormat(r.body), FORMAT);
  assert.deepEqual(client.schemaFallback, { active: false, fallbacks: 0, strippedReplies: 0 });
});

Deno.test("another 400 is not retried, stripped or not", async () => {
  const message = "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.";
  await using current = server([{ reply: REPLY, faults: [{ status: 400, message }] }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: current.url });
  const err = await client.chat({ model: "drag", messages: messages(), responseFormat: FORMAT })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 400);
  assert.equal(err.retriable, false);
  assert.match(err.message, /answered HTTP 400: This model's maximum context length/);
  assert.equal(current.requests.length, 1);
  assert.deepEqual(client.schemaFallback, { active: false, fallbacks: 0, strippedReplies: 0 });
});

Deno.test("a schema refusal in today's error shape falls back too; one refusing the stripped schema is raised", async () => {
  const refusal = { status: 400, message: OLD_XGRAMMAR_MESSAGE };
  await using current = server([{ reply: REPLY, faults: [refusal] }, { reply: REPLY, faults: [refusal, refusal] }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: current.url });
  const reply = await client.chat({ model: "drag", messages: messages(), responseFormat: FORMAT });
  assert.equal(reply.schemaFallback, true);
  assert.deepEqual(current.requests.map((r) => r.status), [400, 200]);
  assert.deepEqual(sentFormat(current.requests[1].body), strippedFormat());

  // a fresh client: refused, retried stripped, refused again: the second refusal is the error, not retried more
  const fresh = new OpenAiModelClient({ ...FAST, baseURL: current.url });
  const err = await fresh.chat({ model: "drag", messages: messages(), responseFormat: FORMAT })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 400);
  assert.match(err.message, /answered HTTP 400 \(after 2 attempts\): The provided JSON schema contains features/);
  assert.deepEqual(current.requests.map((r) => r.status), [400, 200, 400, 400]);
  assert.deepEqual(sentFormat(current.requests[2].body), FORMAT);
  assert.deepEqual(sentFormat(current.requests[3].body), strippedFormat());
  assert.deepEqual(fresh.schemaFallback, { active: false, fallbacks: 0, strippedReplies: 0 });
});

Deno.test("a schema refusal is not retried when the schema has nothing to strip", async () => {
  const format = {
    type: "json_schema" as const,
    json_schema: { name: "plain", strict: true, schema: { type: "object", properties: { a: { type: "string" } } } },
  };
  await using current = server([{ reply: REPLY, faults: [{ status: 400, message: OLD_XGRAMMAR_MESSAGE }] }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: current.url });
  const err = await client.chat({ model: "drag", messages: messages(), responseFormat: format })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 400);
  assert.equal(current.requests.length, 1);
  assert.deepEqual(client.schemaFallback, { active: false, fallbacks: 0, strippedReplies: 0 });
});

Deno.test("an old vLLM's refusal of a keyword the fallback keeps is raised with that server's own message", async () => {
  // additionalProperties was never refused; it stands for any keyword the stripped schema still holds
  await using old = server([{ reply: REPLY }], ["additionalProperties"]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: old.url });
  const err = await client.chat({ model: "drag", messages: messages(), responseFormat: FORMAT })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 400);
  assert.equal(err.retriable, false);
  // the old error shape (fields at the top level) still gives the server's message
  assert.match(
    err.message,
    /model "drag" at http:\/\/127\.0\.0\.1:\d+\/v1 answered HTTP 400 \(after 2 attempts\): The provided JSON schema contains features not supported by xgrammar\.$/,
  );
  assert.deepEqual(JSON.parse(err.replyText ?? ""), {
    object: "error",
    message: OLD_XGRAMMAR_MESSAGE,
    type: "BadRequestError",
    param: null,
    code: 400,
  });
  assert.deepEqual(old.requests.map((r) => [r.status, r.fault]), [[400, "old xgrammar"], [400, "old xgrammar"]]);
});

Deno.test("the stripped retry does not use up the retries of a 5xx that follows it", async () => {
  await using old = server([{ reply: REPLY, faults: [{ status: 503 }] }], true);
  const client = new OpenAiModelClient({ ...FAST, baseURL: old.url, maxRetries: 1 });
  const reply = await client.chat({ model: "drag", messages: messages(), responseFormat: FORMAT });
  assert.equal(reply.schemaFallback, true);
  assert.equal(reply.attempts, 3);
  assert.deepEqual(old.requests.map((r) => [r.status, r.fault]), [[400, "old xgrammar"], [503, "status 503"], [
    200,
    undefined,
  ]]);
  assert.deepEqual(client.schemaFallback, { active: true, fallbacks: 1, strippedReplies: 1 });
});
