import assert from "node:assert/strict";
import { UsageError } from "../errors/mod.ts";
import { ADAPTER_NAMES, LIMITS, runConfig, type RunConfigInput } from "./config.ts";

/** The message runConfig() refuses `input` with. */
function refusal(input: Partial<RunConfigInput>): string {
  try {
    runConfig({ arm: "noop", out: "out/x", ...input });
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e.message;
  }
  throw new Error(`runConfig() accepted ${JSON.stringify(input)}`);
}

Deno.test("runConfig() applies every default and accepts the documented settings", () => {
  const c = runConfig({ arm: "oracle", out: "o", model: { adapters: ["drag", "rest"] }, recordFamily: "Navigation" });
  assert.equal(c.workers, 4);
  assert.equal(c.forceResume, false);
  assert.deepEqual(c.model.adapters, ["drag", "rest"]);
  assert.deepEqual(ADAPTER_NAMES, ["drag", "io", "select", "rest", "reasoning"]);
  assert.equal(runConfig({ arm: "noop", out: "o", now: "2026-01-02" }).now, "2026-01-02");
});

Deno.test("runConfig() refuses a library caller's out-of-range numbers, URLs, instants and names", () => {
  assert.match(refusal({ workers: 0 }), /^run configuration: workers: must be a whole number from 1 to 256/);
  assert.match(refusal({ timeoutS: 1.5 }), /timeoutS: must be a whole number from 1 to 86400/);
  assert.match(refusal({ timeoutS: 86_401 }), /timeoutS: must be/);
  assert.match(refusal({ model: { modelTimeoutS: 0 } }), /model\.modelTimeoutS: must be a number > 0 and <= 86400/);
  assert.match(refusal({ model: { temperature: -1 } }), /model\.temperature: must be a number >= 0/);
  assert.match(refusal({ model: { vllm: "not a url" } }), /model\.vllm: must be an http\(s\) URL/);
  assert.match(refusal({ model: { adapters: ["drag", "magic"] } }), /model\.adapters\[1\]: must be one of: drag, io/);
  assert.match(refusal({ now: "garbage" }), /now: must be an ISO instant with its zone/);
  assert.match(refusal({ recordFamily: "Nav" }), /recordFamily: /);
  assert.match(refusal({ bases: ["ftp://h"] }), /bases\[0\]: must be an http\(s\) URL/);
  assert.match(refusal({ out: "" }), /out: /);
  assert.match(refusal({ tasks: { taskIds: [] } }), /tasks\.taskIds: /);
  assert.match(refusal({ forceResume: true }), /forceResume: goes with resume/);
  assert.equal(LIMITS.workers.max, 256);
});
