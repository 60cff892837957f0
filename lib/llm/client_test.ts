import assert from "node:assert/strict";
import { ModelReplyError } from "../errors/mod.ts";
import { type FixtureStep, startFixtureModelServer, userMessageWithImage } from "../../tests/fixture_model_server.ts";
import {
  agentResponseFormat,
  type ChatMessage,
  type ModelClientOptions,
  OpenAiModelClient,
  parseAgentReply,
} from "./mod.ts";
import { MemoryRecorder, OLD_XGRAMMAR_KEYWORDS, stripSchemaKeywords } from "./client.ts";

const REPLY = {
  thinking: "The search box is at index 4.",
  evaluation_previous_goal: "Start page loaded.",
  memory: "Nothing yet.",
  next_goal: "Search for the lamp.",
  action: [{ input: { index: 4, text: "Aurora Desk Lamp" } }],
};
const FORMAT = agentResponseFormat(["input", "click", "done", "macro_done"]);
const FAST: ModelClientOptions = { backoffMs: 1, maxBackoffMs: 5, timeoutMs: 5_000 };

function messages(task: string): ChatMessage[] {
  return [
    { role: "system", content: "You are a browser agent." },
    userMessageWithImage(`<user_request>${task}</user_request>`),
  ];
}

function serverWith(steps: FixtureStep[], models = ["qwen35-4b", "drag", "rest"]) {
  return startFixtureModelServer({ models, episodes: [{ marker: "Buy the lamp", steps }] });
}

Deno.test("OpenAiModelClient.chat() returns the reply text, usage and the model it asked", async () => {
  await using server = serverWith([{ reply: REPLY, usage: { prompt_tokens: 1200, completion_tokens: 80 } }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  const reply = await client.chat({ model: "drag", messages: messages("Buy the lamp"), responseFormat: FORMAT });
  assert.deepEqual(parseAgentReply(reply.text), REPLY);
  assert.deepEqual(reply.usage, { prompt_tokens: 1200, completion_tokens: 80 });
  assert.equal(reply.model, "drag");
  assert.equal(reply.attempts, 1);
  assert.equal(reply.finishReason, "stop");
  assert.ok(reply.latencyMs >= 0);
  const sent = server.requests[0].body as Record<string, unknown>;
  assert.equal(sent.model, "drag");
  assert.equal(sent.temperature, 0);
  assert.equal(sent.max_tokens, 1024);
  assert.deepEqual(sent.response_format, FORMAT);
});

Deno.test("OpenAiModelClient.chat() sends per-request temperature and max tokens", async () => {
  await using server = serverWith([{ reply: REPLY }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url, temperature: 0.2 });
  await client.chat({
    model: "rest",
    messages: messages("Buy the lamp"),
    responseFormat: FORMAT,
    temperature: 0.7,
    maxTokens: 300,
  });
  const sent = server.requests[0].body as Record<string, unknown>;
  assert.equal(sent.temperature, 0.7);
  assert.equal(sent.max_tokens, 300);
});

Deno.test("OpenAiModelClient.chat() retries a 500 and a 429, then succeeds, counting attempts", async () => {
  await using server = serverWith([{ reply: REPLY, faults: [{ status: 500 }, { status: 429 }, { status: 503 }] }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  const reply = await client.chat({ model: "qwen35-4b", messages: messages("Buy the lamp"), responseFormat: FORMAT });
  assert.equal(reply.attempts, 4);
  assert.deepEqual(server.requests.map((r) => r.status), [500, 429, 503, 200]);
  assert.deepEqual(server.requests.map((r) => r.step), [0, 0, 0, 0]);
});

Deno.test("OpenAiModelClient.chat() gives up after maxRetries with a retriable error", async () => {
  await using server = serverWith([{ reply: REPLY, faults: Array(5).fill({ status: 500, message: "engine dead" }) }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url, maxRetries: 2 });
  const err = await client.chat({ model: "drag", messages: messages("Buy the lamp"), responseFormat: FORMAT })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 500);
  assert.equal(err.retriable, true);
  assert.match(
    err.message,
    /model "drag" at http:\/\/127\.0\.0\.1:\d+\/v1 answered HTTP 500 \(after 3 attempts\): engine dead/,
  );
  assert.equal(server.requests.length, 3);
});

Deno.test("OpenAiModelClient.chat() does not retry a 400 and keeps the server's message", async () => {
  await using server = serverWith([{ reply: REPLY }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  // no response_format: the fixture answers 400 like a request the agent must never send
  const err = await client.chat({ model: "drag", messages: messages("Buy the lamp") }).then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 400);
  assert.equal(err.retriable, false);
  assert.match(err.message, /answered HTTP 400: response_format must be json_schema/);
  assert.match(err.replyText ?? "", /BadRequestError/);
  assert.equal(server.requests.length, 1);
  assert.equal(server.served("Buy the lamp"), 0);
});

Deno.test("OpenAiModelClient.chat() does not retry vLLM's 404 for an unknown model", async () => {
  await using server = serverWith([{ reply: REPLY, faults: [{ unknownModel: true }] }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  const err = await client.chat({ model: "select", messages: messages("Buy the lamp"), responseFormat: FORMAT })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 404);
  assert.equal(err.retriable, false);
  assert.match(err.message, /The model `select` does not exist/);
  assert.equal(server.requests.length, 1);
});

Deno.test("OpenAiModelClient.chat() times out a slow attempt, then retries it", async () => {
  await using server = serverWith([{ reply: REPLY, faults: [{ delayMs: 3_000 }] }]);
  const once = new OpenAiModelClient({ ...FAST, baseURL: server.url, timeoutMs: 150, maxRetries: 0 });
  const t0 = performance.now();
  const err = await once.chat({ model: "drag", messages: messages("Buy the lamp"), responseFormat: FORMAT })
    .then(() => undefined, (e) => e);
  assert.ok(performance.now() - t0 < 2_000, "the client waited for the slow server");
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, undefined);
  assert.equal(err.retriable, true);
  assert.match(err.message, /did not answer within 150 ms/);
  // the fault is spent: the next attempt at the same step gets the reply
  const retried = await new OpenAiModelClient({ ...FAST, baseURL: server.url, timeoutMs: 150 })
    .chat({ model: "drag", messages: messages("Buy the lamp"), responseFormat: FORMAT });
  assert.equal(retried.attempts, 1);
  assert.equal(server.served("Buy the lamp"), 1);
});

Deno.test("OpenAiModelClient.chat() stops at once when the caller aborts", async () => {
  await using server = serverWith([{ reply: REPLY, faults: [{ delayMs: 3_000 }] }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("episode cancelled")), 50);
  await assert.rejects(
    client.chat({
      model: "drag",
      messages: messages("Buy the lamp"),
      responseFormat: FORMAT,
      signal: controller.signal,
    }),
    (e: Error) => !(e instanceof ModelReplyError) && e.message === "episode cancelled",
  );
  assert.equal(server.requests.length, 1);
});

Deno.test("OpenAiModelClient.chat() reports a non-JSON body without retrying it", async () => {
  await using server = serverWith([{ reply: REPLY, faults: [{ garbage: "<html>502 Bad Gateway" }] }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  const err = await client.chat({ model: "drag", messages: messages("Buy the lamp"), responseFormat: FORMAT })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.retriable, false);
  assert.match(err.message, /sent a reply that is not JSON/);
  assert.equal(server.requests.length, 1);
});

Deno.test("OpenAiModelClient.chat() hands garbage content to the parser, which keeps the text", async () => {
  await using server = serverWith([{ reply: "I think I should click the button." }]);
  const client = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  const reply = await client.chat({ model: "drag", messages: messages("Buy the lamp"), responseFormat: FORMAT });
  assert.throws(() => parseAgentReply(reply.text), (e: ModelReplyError) => e.replyText === reply.text);
});

Deno.test("OpenAiModelClient records each successful exchange for training rows", async () => {
  await using server = serverWith([{ reply: REPLY, faults: [{ status: 500 }] }, { reply: "not json" }]);
  const recorder = new MemoryRecorder();
  const plain = new OpenAiModelClient({ ...FAST, baseURL: server.url });
  const client = plain.withRecorder(recorder);
  const msgs = messages("Buy the lamp");
  await client.chat({ model: "drag", messages: msgs, responseFormat: FORMAT, maxTokens: 512 });
  await client.chat({ model: "rest", messages: msgs, responseFormat: FORMAT, temperature: 0.7 });
  assert.equal(recorder.records.length, 2);
  const [first, second] = recorder.records;
  assert.equal(first.model, "drag");
  assert.equal(first.messages, msgs);
  assert.deepEqual(first.params, { temperature: 0, max_tokens: 512, response_format: FORMAT });
  assert.equal(first.text, JSON.stringify(REPLY));
  assert.equal(first.attempts, 2);
  assert.deepEqual(second.params.temperature, 0.7);
  assert.equal(second.text, "not json");
  assert.equal(plain.options.recorder, undefined);
});

Deno.test("OpenAiModelClient.checkServedModels() passes when every needed name is served", async () => {
  await using server = serverWith([], ["qwen35-4b", "drag", "rest", "pooled"]);
  const client = new OpenAiModelClient({ baseURL: server.url });
  assert.deepEqual(await client.checkServedModels(["drag", "qwen35-4b", "drag"]), [
    "qwen35-4b",
    "drag",
    "rest",
    "pooled",
  ]);
});

Deno.test("OpenAiModelClient.checkServedModels() names the missing models and lists what is served", async () => {
  await using server = serverWith([], ["qwen35-4b", "drag"]);
  const client = new OpenAiModelClient({ baseURL: server.url });
  const err = await client.checkServedModels(["qwen35-4b", "io", "reasoning"]).then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.status, 404);
  assert.equal(
    err.message,
    `model server at ${server.url} does not serve "io", "reasoning"; it serves: "qwen35-4b", "drag"`,
  );
});

Deno.test("OpenAiModelClient.checkServedModels() says it cannot reach a server that is not there", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const url = `http://127.0.0.1:${port}/v1`;
  const client = new OpenAiModelClient({ ...FAST, baseURL: url, maxRetries: 0 });
  const err = await client.checkServedModels(["qwen35-4b"]).then(() => undefined, (e) => e);
  assert.ok(err instanceof ModelReplyError);
  assert.equal(err.retriable, true);
  assert.ok(err.message.startsWith(`cannot reach model server at ${url}`), err.message);
  const chatErr = await client.chat({ model: "qwen35-4b", messages: messages("x") }).then(() => undefined, (e) => e);
  assert.ok(chatErr instanceof ModelReplyError);
  assert.ok(chatErr.message.startsWith(`cannot reach model server at ${url}`), chatErr.message);
});

Deno.test("stripSchemaKeywords() drops the keywords old xgrammar refused in every subschema, and nothing else", () => {
  const schema = {
    type: "object",
    title: "pattern",
    properties: {
      // property names that are keywords stay; their schemas are stripped
      minItems: { type: "integer", minimum: 1, maximum: 9, description: "maxLength of nothing" },
      pattern: { type: "string", pattern: "^a", minLength: 1, maxLength: 5, format: "uri" },
      mode: { enum: ["a", "b"], default: { minItems: 1 } },
      fixed: { const: { maxItems: 2 } },
      list: {
        type: "array",
        minItems: 1,
        maxItems: 3,
        uniqueItems: true,
        items: { anyOf: [{ type: "object", minProperties: 1, properties: { x: { type: "number", multipleOf: 2 } } }] },
      },
      tuple: {
        type: "array",
        prefixItems: [{ type: "string", maxLength: 2 }],
        items: [{ type: "number", minimum: 0 }],
      },
    },
    patternProperties: { "^x-": { type: "string", maxLength: 3 } },
    $defs: { format: { type: "string", format: "date" } },
    additionalProperties: { type: "string", pattern: "b" },
    required: ["minItems", "pattern"],
  };
  const before = structuredClone(schema);
  assert.deepEqual(stripSchemaKeywords(schema), {
    type: "object",
    title: "pattern",
    properties: {
      minItems: { type: "integer", description: "maxLength of nothing" },
      pattern: { type: "string" },
      mode: { default: { minItems: 1 } },
      fixed: { const: { maxItems: 2 } },
      list: { type: "array", items: { anyOf: [{ type: "object", properties: { x: { type: "number" } } }] } },
      tuple: { type: "array", prefixItems: [{ type: "string" }], items: [{ type: "number" }] },
    },
    patternProperties: { "^x-": { type: "string" } },
    $defs: { format: { type: "string" } },
    additionalProperties: { type: "string" },
    required: ["minItems", "pattern"],
  });
  assert.deepEqual(schema, before, "the schema given is not changed");
  // other keywords when asked: only where they are keywords (the root's title, not the property named title)
  const { title: _title, ...untitled } = schema;
  assert.deepEqual(stripSchemaKeywords({ ...schema, properties: { title: { type: "string" } } }, ["title"]), {
    ...untitled,
    properties: { title: { type: "string" } },
  });
  for (const k of ["minItems", "maxItems", "enum", "pattern", "minLength", "maxLength", "format", "minimum"]) {
    assert.ok(OLD_XGRAMMAR_KEYWORDS.includes(k), k);
  }
  assert.ok(!OLD_XGRAMMAR_KEYWORDS.includes("patternProperties"), "stripping it could refuse keys it allowed");
});
