import assert from "node:assert/strict";
import { UsageError } from "../errors/mod.ts";
import { ADAPTER_NAMES, ARM_NAMES, isModelArm, LIMITS, runConfig, type RunConfigInput } from "./config.ts";

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
  assert.equal(c.workers, 8, "the seed's --workers default");
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
  assert.match(refusal({ shard: { index: 3, count: 3 } }), /shard: index must be from 0 to count - 1/);
  assert.match(refusal({ shard: { index: 1.5, count: 3 } }), /shard\.index: expected an integer/);
  assert.equal(LIMITS.workers.max, 256);
});

Deno.test("runConfig() follows the seed: normalized coordinates, 8 workers, --max-steps 0 meaning 40", () => {
  const c = runConfig({ arm: "base", out: "o" });
  assert.deepEqual(
    [c.model.normalizedCoords, c.workers, c.maxSteps, c.model.maxTokens, c.verifierOnly, c.retryTimeouts],
    [true, 8, 40, 1024, false, false],
  );
  assert.equal(runConfig({ arm: "base", out: "o", maxSteps: 0 }).maxSteps, 40);
  assert.equal(runConfig({ arm: "base", out: "o", maxSteps: 7 }).maxSteps, 7);
  assert.equal(runConfig({ arm: "base", out: "o", model: { normalizedCoords: false } }).model.normalizedCoords, false);
  assert.match(refusal({ maxSteps: -1 }), /maxSteps: must be a whole number from 0 to 10000/);
  assert.match(refusal({ retryTimeouts: true }), /retryTimeouts: goes with resume/);
});

Deno.test("runConfig() has the agent_planner arm and its settings with the seed's defaults", () => {
  assert.deepEqual(ARM_NAMES, ["replay", "noop", "base", "pooled", "oracle", "agent_planner"]);
  assert.ok(isModelArm("agent_planner") && isModelArm("oracle") && !isModelArm("replay"));
  const m = runConfig({ arm: "agent_planner", out: "o" }).model;
  assert.deepEqual(
    [m.plannerName, m.subCap, m.plannerTurns, m.agentVersion, m.fallback, m.reasoningToFallback],
    ["qwen35-4b", 15, 12, "v1", undefined, false],
  );
  const given = runConfig({
    arm: "agent_planner",
    out: "o",
    model: { subCap: 5, plannerTurns: 3, agentVersion: "v2", fallback: "rest", reasoningToFallback: true },
  }).model;
  assert.deepEqual([given.subCap, given.plannerTurns, given.agentVersion, given.fallback], [5, 3, "v2", "rest"]);
  assert.match(refusal({ model: { subCap: 0 } }), /model\.subCap: must be a whole number from 1 to 10000/);
  assert.match(
    refusal({ model: { plannerTurns: 1001 } }),
    /model\.plannerTurns: must be a whole number from 1 to 1000/,
  );
  assert.match(refusal({ model: { agentVersion: "v9" as "v1" } }), /model\.agentVersion: /);
  assert.match(refusal({ model: { fallback: "" } }), /model\.fallback: /);
});
