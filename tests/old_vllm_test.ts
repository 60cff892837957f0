/**
 * A model arm on an old vLLM server (xgrammar before mid-2025 refuses minItems/maxItems with a 400): the run goes
 * through, and what it wrote says the replies were decoded under the stripped schema.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentReply, startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, runCli } from "./support/cli.ts";

Deno.test("the base arm runs on an old vLLM server: one refusal, then stripped schemas, recorded per call and per episode", async () => {
  await using server = startFixtureModelServer({
    oldXgrammar: true,
    episodes: [{
      marker: "In the shop's product list, go to page 3.",
      steps: [
        { reply: agentReply({ navigate: { url: "/shop/products?page=3" } }) },
        { reply: agentReply({ done: { text: "on page 3", success: true } }) },
      ],
    }],
  });
  const out = await Deno.makeTempDir({ prefix: "webmix-oldvllm-" });
  const r = await runCli("eval.ts", [
    "--arm",
    "base",
    "--task-ids",
    "shop_paginate_page3",
    "--vllm",
    server.url,
    "--out",
    out,
    "--workers",
    "1",
    "--no-step-screenshots",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [res] = await readResults(out);
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(res.schema_fallback, true);
  assert.equal(server.requests.filter((q) => q.status === 400).length, 1);
  const trace = JSON.parse(await Deno.readTextFile(join(out, "shop_paginate_page3", "trace.json")));
  assert.deepEqual(trace.map((t: { schema_fallback?: boolean }) => t.schema_fallback), [true, true]);
  await Deno.remove(out, { recursive: true });
});
