import assert from "node:assert/strict";
import { ModelReplyError } from "../errors/mod.ts";
import { startFixtureModelServer } from "../../tests/fixture_model_server.ts";
import { OpenAiModelClient } from "./client.ts";
import {
  DEFAULT_JUDGE_MODEL,
  type EpisodeJudgeInput,
  judgeEndpointFromEnv,
  loadJudgePrompts,
  OpenAiJudge,
} from "./judge.ts";

Deno.test("judgeEndpointFromEnv() needs a base URL and defaults the key and the model", () => {
  assert.equal(judgeEndpointFromEnv({}), undefined);
  assert.equal(judgeEndpointFromEnv({ WEBMIX_JUDGE_BASE_URL: "  " }), undefined);
  assert.deepEqual(judgeEndpointFromEnv({ WEBMIX_JUDGE_BASE_URL: "http://x/v1" }), {
    baseURL: "http://x/v1",
    apiKey: "EMPTY",
    model: "gemini-3.5-flash-lite",
  });
  assert.deepEqual(
    judgeEndpointFromEnv({ WEBMIX_JUDGE_BASE_URL: "http://x/v1", WEBMIX_JUDGE_API_KEY: "k", WEBMIX_JUDGE_MODEL: "m" }),
    { baseURL: "http://x/v1", apiKey: "k", model: "m" },
  );
  // The seed's variable names the model when ours does not; ours wins when both are set.
  const seed = { WEBMIX_JUDGE_BASE_URL: "http://x/v1", VERIFIER_JUDGE_MODEL: "seed-m" };
  assert.equal(judgeEndpointFromEnv(seed)?.model, "seed-m");
  assert.equal(judgeEndpointFromEnv({ ...seed, WEBMIX_JUDGE_MODEL: "m" })?.model, "m");
  assert.equal(judgeEndpointFromEnv({ ...seed, VERIFIER_JUDGE_MODEL: " " })?.model, "gemini-3.5-flash-lite");
});

Deno.test("loadJudgePrompts() reads prompts/qa_judge.md and prompts/macro_judge.md", async () => {
  const p = await loadJudgePrompts();
  assert.match(p.qa, /"verdict": "correct" \| "incorrect"/);
  assert.match(p.macro, /"accomplished": true \| false/);
  assert.match(p.macro, /You are not told what the agent thought or whether it believed it succeeded/);
});

const PROMPTS = { qa: "QA SYSTEM", macro: "MACRO SYSTEM" };

Deno.test("OpenAiJudge.judgeAnswer() sends the question at temperature 0 with a strict JSON schema", async () => {
  await using server = startFixtureModelServer({
    models: ["judge-m"],
    checks: { image: false },
    episodes: [
      { marker: "Q-ok", steps: [{ reply: '<think>hm</think>{"verdict": "correct", "reason": "same"}' }] },
      { marker: "Q-bad", steps: [{ reply: "The answer is correct." }] },
      { marker: "Q-shape", steps: [{ reply: { verdict: "maybe", reason: "" } }] },
    ],
  });
  const judge = new OpenAiJudge(new OpenAiModelClient({ baseURL: server.url, maxRetries: 0 }), "judge-m", PROMPTS);
  const v = await judge.judgeAnswer({ question: "Q-ok", expected: "E", answer: "A", rubric: "R" });
  assert.deepEqual(v, { ok: true, reason: "same" });
  const body = server.requests[0].body as Record<string, unknown>;
  assert.equal(body.temperature, 0);
  assert.equal(body.model, "judge-m");
  const rf = body.response_format as { type: string; json_schema: { strict: boolean; schema: { required: string[] } } };
  assert.deepEqual([rf.type, rf.json_schema.strict, rf.json_schema.schema.required], [
    "json_schema",
    true,
    ["verdict", "reason"],
  ]);
  const [system, user] = body.messages as { role: string; content: string }[];
  assert.deepEqual([system.role, system.content], ["system", "QA SYSTEM"]);
  assert.equal(
    user.content,
    "## Question\nQ-ok\n\n## Reference answer\nE\n\n## Grading notes\nR\n\n## Candidate answer\nA",
  );
  await assert.rejects(
    judge.judgeAnswer({ question: "Q-bad", expected: "E", answer: "A" }),
    (e) => e instanceof ModelReplyError && /answer judge reply holds no JSON object/.test(e.message),
  );
  await assert.rejects(
    judge.judgeAnswer({ question: "Q-shape", expected: "E", answer: "A" }),
    (e) => e instanceof ModelReplyError && /answer judge reply is not a verdict \(verdict:/.test(e.message),
  );
});

const EPISODE: EpisodeJudgeInput = {
  instruction: "EP-1: add the jacket in size L to your cart",
  macros: [{ macro: "open_detail" }, { macro: "choose_radio", subtask: "size L" }],
  evidence: {
    requests: ['POST /shop/products/33/cart {"size":"L"} -> 303'],
    changes: ["shop.cart_items insert key 1: {}"],
    clipboard: [],
    actions: ['click button#add-to-cart "Add to cart"'],
    finalText: "Your cart",
  },
  screenshot: new Uint8Array([137, 80, 78, 71]),
};

Deno.test("OpenAiJudge.judgeEpisode() sends the evidence and the final screen, and needs a verdict per macro", async () => {
  await using server = startFixtureModelServer({
    models: [DEFAULT_JUDGE_MODEL],
    episodes: [{
      marker: "EP-1",
      steps: [
        {
          reply: {
            macros: [
              { macro: "open_detail", accomplished: true, reason: "page loaded" },
              { macro: "choose_radio", accomplished: false, reason: "size M posted" },
            ],
            success: true,
            reason: "mostly",
          },
        },
        { reply: { macros: [{ macro: "open_detail", accomplished: true, reason: "" }], success: true, reason: "" } },
      ],
    }],
  });
  const judge = new OpenAiJudge(
    new OpenAiModelClient({ baseURL: server.url, maxRetries: 0 }),
    DEFAULT_JUDGE_MODEL,
    PROMPTS,
  );
  const v = await judge.judgeEpisode(EPISODE);
  assert.equal(v.ok, false, "a macro not accomplished fails the task even when the reply says success");
  assert.deepEqual(v.macros.map((m) => [m.macro, m.ok]), [["open_detail", true], ["choose_radio", false]]);
  const body = server.requests[0].body as { messages: { content: unknown }[] };
  const parts = body.messages[1].content as { type: string; text?: string; image_url?: { url: string } }[];
  assert.match(parts[0].text!, /## Macros to judge\n- open_detail\n- choose_radio: size L/);
  assert.match(
    parts[0].text!,
    /## Requests the browser sent .*\nPOST \/shop\/products\/33\/cart \{"size":"L"\} -> 303/,
  );
  assert.doesNotMatch(parts[0].text!, /agent's answer/, "no answer section for a task that asks no question");
  assert.equal(parts[1].image_url!.url, "data:image/png;base64,iVBORw==");
  await assert.rejects(judge.judgeEpisode(EPISODE), /macro judge reply has no verdict for "choose_radio"/);
});

Deno.test("OpenAiJudge works on old vLLM releases: its client retries a refused schema stripped", async () => {
  const episodes = [{
    marker: "Q-old",
    steps: [
      { reply: { verdict: "correct", reason: "same" } },
      { reply: { verdict: "incorrect", reason: "differs" } },
      { reply: { verdict: "maybe", reason: "" } },
    ],
  }];
  const question = { question: "Q-old", expected: "E", answer: "A" };
  const endpoint = (url: string) => ({ baseURL: url, apiKey: "EMPTY", model: "judge-m" });
  // the release of vllm-project/vllm#16880 refused minItems/maxItems only, which the judges' schemas do not hold
  await using v16880 = startFixtureModelServer({
    models: ["judge-m"],
    checks: { image: false },
    episodes,
    oldXgrammar: true,
  });
  const plain = await OpenAiJudge.create(endpoint(v16880.url), { prompts: PROMPTS, maxRetries: 0 });
  assert.deepEqual(await plain.judgeAnswer(question), { ok: true, reason: "same" });
  assert.deepEqual(v16880.requests.map((r) => r.status), [200]);
  assert.equal(plain.client.schemaFallback.active, false);

  // earlier releases also refused enum, which the answer verdict holds: refused once, then sent stripped
  await using older = startFixtureModelServer({
    models: ["judge-m"],
    checks: { image: false },
    episodes,
    oldXgrammar: ["enum"],
  });
  const judge = await OpenAiJudge.create(endpoint(older.url), { prompts: PROMPTS, maxRetries: 0 });
  assert.deepEqual(await judge.judgeAnswer(question), { ok: true, reason: "same" });
  assert.deepEqual(await judge.judgeAnswer(question), { ok: false, reason: "differs" });
  assert.deepEqual(older.requests.map((r) => [r.status, r.fault]), [[400, "old xgrammar"], [200, undefined], [
    200,
    undefined,
  ]]);
  const schema = (older.requests[1].body as { response_format: { json_schema: { schema: unknown } } })
    .response_format.json_schema.schema;
  assert.deepEqual(schema, {
    type: "object",
    properties: { verdict: { type: "string" }, reason: { type: "string" } },
    required: ["verdict", "reason"],
    additionalProperties: false,
  });
  assert.deepEqual(judge.client.schemaFallback, { active: true, fallbacks: 1, strippedReplies: 2 });
  // without the enum on the server, the parser still refuses a verdict outside it
  await assert.rejects(judge.judgeAnswer(question), /answer judge reply is not a verdict \(verdict:/);
});
