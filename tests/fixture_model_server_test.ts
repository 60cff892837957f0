import assert from "node:assert/strict";
import { OLD_XGRAMMAR_MESSAGE, startFixtureModelServer, userMessageWithImage } from "./fixture_model_server.ts";
import { prepareModelServerProcess, startModelServerProcess } from "./support/model_server_process.ts";

const FORMAT = { type: "json_schema", json_schema: { name: "agent_output", schema: { type: "object" }, strict: true } };
const SYSTEM = { role: "system", content: "You are a browser agent." };

function body(task: string, extra: Record<string, unknown> = {}) {
  return { model: "qwen35-4b", messages: [SYSTEM, userMessageWithImage(task)], response_format: FORMAT, ...extra };
}

/** The parts of a chat completion or an error body the tests read. */
interface ChatJson {
  object: string;
  model: string;
  choices: { message: { content: string }; finish_reason: string }[];
  usage: Record<string, number>;
  error: { message: string; type: string; param: null; code: number };
}

async function post(url: string, payload: unknown): Promise<{ status: number; json: ChatJson }> {
  const res = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
  return { status: res.status, json: await res.json() };
}

Deno.test("startFixtureModelServer() lists its models like vLLM", async () => {
  await using server = startFixtureModelServer({ models: ["qwen35-4b", "drag"] });
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const res = await fetch(`${server.url}/models`);
  const json = await res.json();
  assert.equal(json.object, "list");
  assert.deepEqual(json.data.map((m: { id: string }) => m.id), ["qwen35-4b", "drag"]);
  assert.equal(json.data[1].parent, "qwen35-4b");
  assert.deepEqual(server.requests.map((r) => [r.method, r.path, r.status]), [["GET", "/v1/models", 200]]);
});

Deno.test("startFixtureModelServer() replays each episode's steps in order, keyed by its marker", async () => {
  await using server = startFixtureModelServer({
    episodes: [
      { marker: "Buy the lamp", steps: [{ reply: { n: 1 } }, { reply: "second", finishReason: "length" }] },
      { marker: "Star the mail", steps: [{ reply: { n: "mail" }, usage: { prompt_tokens: 9, completion_tokens: 2 } }] },
    ],
  });
  const a1 = await post(server.url, body("<user_request>Buy the lamp</user_request>"));
  const b1 = await post(server.url, body("Star the mail please"));
  const a2 = await post(server.url, body("Buy the lamp"));
  assert.equal(a1.json.choices[0].message.content, '{"n":1}');
  assert.equal(a1.json.object, "chat.completion");
  assert.equal(a1.json.model, "qwen35-4b");
  assert.equal(b1.json.choices[0].message.content, '{"n":"mail"}');
  assert.deepEqual(b1.json.usage, { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
  assert.equal(a2.json.choices[0].message.content, "second");
  assert.equal(a2.json.choices[0].finish_reason, "length");
  assert.deepEqual(server.requests.map((r) => [r.episode, r.step]), [["Buy the lamp", 0], ["Star the mail", 0], [
    "Buy the lamp",
    1,
  ]]);
  const past = await post(server.url, body("Buy the lamp"));
  assert.equal(past.status, 400);
  assert.match(past.json.error.message, /has only 2 scripted steps/);
  assert.equal(server.served("Buy the lamp"), 2);
});

Deno.test("startFixtureModelServer() answers 400 to a request not shaped like the agent's", async () => {
  await using server = startFixtureModelServer({ episodes: [{ marker: "Buy the lamp", steps: [{ reply: "ok" }] }] });
  const task = "Buy the lamp";
  const textOnly = { role: "user", content: [{ type: "text", text: task }] };
  const httpImage = {
    role: "user",
    content: [{ type: "text", text: task }, { type: "image_url", image_url: { url: "http://x/a.png" } }],
  };
  const cases: [unknown, RegExp][] = [
    ["{not json", /not JSON/],
    [{ ...body(task), messages: [userMessageWithImage(task)] }, /system and a user message/],
    [{ ...body(task), messages: [userMessageWithImage(task), SYSTEM] }, /first message must be the system/],
    [{ ...body(task), messages: [SYSTEM, textOnly] }, /no image_url part/],
    [{ ...body(task), messages: [SYSTEM, httpImage] }, /not a base64 data: URL/],
    [{ ...body(task), response_format: undefined }, /response_format must be json_schema/],
    [{ ...body(task), response_format: { type: "json_object" } }, /response_format must be json_schema/],
    [body(task, { guided_json: { type: "object" } }), /guided_json was removed/],
    [body("Buy a chair"), /no episode marker/],
  ];
  for (const [payload, pattern] of cases) {
    const res = await post(server.url, payload);
    assert.equal(res.status, 400, String(pattern));
    assert.equal(res.json.error.type, "BadRequestError");
    assert.match(res.json.error.message, pattern);
  }
  assert.equal(server.served(task), 0);
  assert.equal((await post(server.url, body(task))).status, 200);
});

Deno.test("startFixtureModelServer() can relax the image and response_format checks", async () => {
  await using server = startFixtureModelServer({
    episodes: [{ marker: "plan", steps: [{ reply: "ok" }] }],
    checks: { image: false, responseFormat: false },
  });
  const res = await post(server.url, { model: "qwen35-4b", messages: [SYSTEM, { role: "user", content: "plan" }] });
  assert.equal(res.status, 200);
});

Deno.test("startFixtureModelServer() answers vLLM's 404 to an unknown model and 400 to a wrong one", async () => {
  await using server = startFixtureModelServer({
    models: ["qwen35-4b", "drag"],
    episodes: [{ marker: "Buy the lamp", steps: [{ reply: "ok", expectModel: "drag" }] }],
  });
  const unknown = await post(server.url, body("Buy the lamp", { model: "io" }));
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.json.error, {
    message: "The model `io` does not exist.",
    type: "NotFoundError",
    param: null,
    code: 404,
  });
  const wrong = await post(server.url, body("Buy the lamp"));
  assert.equal(wrong.status, 400);
  assert.match(wrong.json.error.message, /expects model "drag", got "qwen35-4b"/);
  assert.equal((await post(server.url, body("Buy the lamp", { model: "drag" }))).status, 200);
});

Deno.test("startFixtureModelServer() rejects a request matching two episodes", async () => {
  await using server = startFixtureModelServer({
    episodes: [{ marker: "lamp", steps: [{ reply: "a" }] }, { marker: "Buy", steps: [{ reply: "b" }] }],
  });
  const res = await post(server.url, body("Buy the lamp"));
  assert.equal(res.status, 400);
  assert.match(res.json.error.message, /several episode markers: "lamp", "Buy"/);
});

Deno.test("startFixtureModelServer() with oldXgrammar refuses minItems/maxItems anywhere like vLLM before mid-2025", async () => {
  const withKeyword = (keyword: string) => ({
    ...FORMAT,
    json_schema: {
      ...FORMAT.json_schema,
      schema: {
        type: "object",
        properties: { a: { type: "object", properties: { list: { type: "array", [keyword]: 2 } } } },
      },
    },
  });
  const episodes = [{ marker: "Buy the lamp", steps: [{ reply: "ok" }, { reply: "again" }] }];
  await using old = startFixtureModelServer({ episodes, oldXgrammar: true });
  for (const keyword of ["minItems", "maxItems"]) {
    const res = await post(old.url, body("Buy the lamp", { response_format: withKeyword(keyword) }));
    assert.equal(res.status, 400);
    // the whole body, in the error shape of those releases (fields at the top level)
    assert.deepEqual(res.json, {
      object: "error",
      message: "The provided JSON schema contains features not supported by xgrammar.",
      type: "BadRequestError",
      param: null,
      code: 400,
    });
  }
  assert.equal(OLD_XGRAMMAR_MESSAGE, "The provided JSON schema contains features not supported by xgrammar.");
  // the refusal spends no step: a schema without those keywords gets the first reply
  const plain = await post(old.url, body("Buy the lamp", { response_format: withKeyword("minLength") }));
  assert.equal(plain.json.choices[0].message.content, "ok");
  assert.deepEqual(old.requests.map((r) => [r.status, r.fault, r.step]), [
    [400, "old xgrammar", undefined],
    [400, "old xgrammar", undefined],
    [200, undefined, 0],
  ]);
  assert.equal(old.served("Buy the lamp"), 1);

  // a list names the keywords refused instead
  await using older = startFixtureModelServer({ episodes, oldXgrammar: ["enum"] });
  assert.equal((await post(older.url, body("Buy the lamp", { response_format: withKeyword("enum") }))).status, 400);
  assert.equal((await post(older.url, body("Buy the lamp", { response_format: withKeyword("minItems") }))).status, 200);

  // today's vLLM (no oldXgrammar) takes them
  await using current = startFixtureModelServer({ episodes });
  const res = await post(current.url, body("Buy the lamp", { response_format: withKeyword("minItems") }));
  assert.equal(res.status, 200);
  assert.equal(current.requests[0].fault, undefined);
});

Deno.test("startFixtureModelServer() serves a step's faults to successive attempts, then its reply", async () => {
  await using server = startFixtureModelServer({
    episodes: [{
      marker: "Buy the lamp",
      steps: [{ reply: "ok", faults: [{ status: 503, message: "busy" }, { delayMs: 10 }, { unknownModel: true }] }],
    }],
  });
  const first = await post(server.url, body("Buy the lamp"));
  assert.equal(first.status, 503);
  assert.deepEqual(first.json.error, { message: "busy", type: "InternalServerError", param: null, code: 503 });
  // a delay that the client waits out is followed by the next fault
  assert.equal((await post(server.url, body("Buy the lamp"))).status, 404);
  const res = await post(server.url, body("Buy the lamp"));
  assert.equal(res.json.choices[0].message.content, "ok");
  assert.deepEqual(server.requests.map((r) => r.fault), ["status 503", "unknown model", undefined]);
});

Deno.test("startFixtureModelServer() holds a hanging attempt until the client gives up, then answers the retry", async () => {
  const seen: (number | undefined)[] = [];
  await using server = startFixtureModelServer({
    episodes: [{ marker: "Buy the lamp", steps: [{ reply: "ok", faults: [{ hang: true }] }] }],
    onAttempt: (r) => seen.push(r.step),
  });
  const gaveUp = await fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body("Buy the lamp")),
    signal: AbortSignal.timeout(200),
  }).then(() => "answered", (err) => (err as Error).name);
  assert.equal(gaveUp, "TimeoutError");
  const retry = await post(server.url, body("Buy the lamp"));
  assert.equal(retry.json.choices[0].message.content, "ok");
  assert.deepEqual(seen, [0, 0], "told of both attempts as they arrived");
  assert.deepEqual(server.requests.map((r) => r.fault), ["hang", undefined]);
});

Deno.test("startFixtureModelServer() can answer a 200 whose JSON is not a chat completion", async () => {
  await using server = startFixtureModelServer({
    episodes: [{ marker: "Buy the lamp", steps: [{ reply: "ok", faults: [{ json: { object: "x", choices: [] } }] }] }],
  });
  const res = await post(server.url, body("Buy the lamp"));
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, { object: "x", choices: [] });
  assert.equal(server.served("Buy the lamp"), 0, "a fault does not advance the step");
});

Deno.test("startFixtureModelServer() starts again on the port of one that was closed", async () => {
  const first = startFixtureModelServer();
  const port = first.port;
  await first.close();
  await assert.rejects(fetch(`http://127.0.0.1:${port}/v1/models`));
  await using second = startFixtureModelServer({ port, models: ["pooled"] });
  assert.equal(second.url, `http://127.0.0.1:${port}/v1`);
  const json = await (await fetch(`${second.url}/models`)).json();
  assert.deepEqual(json.data.map((m: { id: string }) => m.id), ["pooled"]);
});

Deno.test("a fixture server process killed with SIGKILL cuts its requests; one prepared ahead takes its port", async () => {
  const episodes = [{ marker: "Buy the lamp", steps: [{ reply: "ok", faults: [{ hang: true as const }] }] }];
  await using first = await startModelServerProcess({ episodes });
  await using next = await prepareModelServerProcess({
    episodes: [{ marker: "Buy the lamp", steps: [{ reply: "again" }] }],
  }, first.port);
  const cut = post(first.url, body("Buy the lamp")).then(() => "answered", (err) => (err as Error).name);
  await first.waitForAttempt("Buy the lamp", 0);
  await first.kill("SIGKILL");
  assert.equal(await cut, "TypeError", "the request in flight fails as a connection error");
  await assert.rejects(fetch(`${first.url}/models`), TypeError, "nothing listens on the port");
  assert.equal(await next.listen(), first.url);
  assert.equal((await post(first.url, body("Buy the lamp"))).json.choices[0].message.content, "again");
  assert.deepEqual(next.attempts, [{ episode: "Buy the lamp", step: 0 }]);
});
