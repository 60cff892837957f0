import assert from "node:assert/strict";
import { UsageError } from "../errors/mod.ts";
import { ARM_NAMES } from "./arms.ts";
import { ADAPTER_NAMES, LIMITS, runConfig, type RunConfigInput, settingDefault } from "./config.ts";
import { ConfigError } from "./config_problems.ts";

/** The error runConfig() refuses `input` with. */
function refused(input: Partial<RunConfigInput>): ConfigError {
  try {
    runConfig({ arm: "noop", out: "out/x", ...input } as RunConfigInput);
  } catch (e) {
    assert.ok(e instanceof ConfigError && e instanceof UsageError, String(e));
    return e;
  }
  throw new Error(`runConfig() accepted ${JSON.stringify(input)}`);
}
const refusal = (input: Partial<RunConfigInput>) => refused(input).message;

Deno.test("runConfig() applies every default and accepts the documented settings", () => {
  const c = runConfig({ arm: "oracle", out: "o", model: { adapters: ["drag", "rest"] }, recordFamily: "Navigation" });
  assert.equal(c.workers, 8, "the seed's --workers default");
  assert.equal(c.forceResume, false);
  assert.deepEqual(c.model.adapters, ["drag", "rest"]);
  assert.deepEqual(ADAPTER_NAMES, ["drag", "io", "select", "rest", "reasoning"]);
  assert.equal(runConfig({ arm: "noop", out: "o", now: "2026-01-02" }).now, "2026-01-02");
  assert.deepEqual(runConfig({ arm: "noop", out: "o", bases: ["http://h:1/"] }).bases, ["http://h:1"]);
  // The seed took any served adapter name and any rows' family label.
  const seedNames = runConfig({
    arm: "oracle",
    out: "o",
    model: { adapters: ["drag-v2", "rest"] },
    recordFamily: "Other",
  });
  assert.deepEqual(seedNames.model.adapters, ["drag-v2", "rest"]);
  assert.equal(seedNames.recordFamily, "Other");
  assert.equal(settingDefault("model.vllm"), "http://127.0.0.1:8400/v1");
  assert.equal(settingDefault("planner.subCap"), 15);
});

Deno.test("runConfig() refuses a library caller's values naming the setting and quoting the value", () => {
  assert.match(refusal({ workers: 0 }), /^run configuration: workers 0 is not a whole number from 1 to 256$/);
  assert.match(refusal({ timeoutS: 1.5 }), /timeoutS 1\.5 is not a whole number from 1 to 86400/);
  assert.match(refusal({ timeoutS: 86_401 }), /timeoutS 86401 is not/);
  assert.match(refusal({ model: { modelTimeoutS: 0 } }), /model\.modelTimeoutS 0 is not a number > 0 and <= 86400/);
  assert.match(refusal({ model: { temperature: -1 } }), /model\.temperature -1 is not a number >= 0/);
  assert.match(
    refusal({ model: { vllm: "not a url" } }),
    /model\.vllm "not a url" is not an http\(s\) URL \(e\.g\. http:\/\/127\.0\.0\.1:8400\/v1\)/,
  );
  assert.match(refusal({ model: { adapters: ["drag", ""] } }), /model\.adapters\[1\] "" is empty/);
  assert.match(refusal({ now: "garbage" }), /now "garbage" is not an ISO day or instant with its zone/);
  assert.match(refusal({ recordFamily: " " }), /recordFamily " " is empty/);
  assert.match(refusal({ bases: ["ftp://h"] }), /bases\[0\] "ftp:\/\/h" is not an http\(s\) URL/);
  assert.match(refusal({ out: "" }), /out "" is empty: expected the run's output folder/);
  assert.match(refusal({ tasks: { taskIds: [] } }), /tasks\.taskIds \[\] names nothing/);
  assert.match(refusal({ tasks: { humanSplit: "dev" as "all", human: true } }), /humanSplit "dev" is not one of: test/);
  assert.match(refusal({ shard: { index: 3, count: 3 } }), /shard: index must be from 0 to count - 1/);
  assert.match(refusal({ shard: { index: 1.5, count: 3 } }), /shard\.index: expected an integer/);
  assert.match(refusal({ shard: "3/3" }), /shard "3\/3": K must be from 0 to 2 \(K\/N: part K of N/);
  assert.match(refusal({ shard: "a/b" }), /shard "a\/b" is not K\/N with whole numbers K and N/);
  assert.match(refusal({ shard: "1/0" }), /shard "1\/0": N must be from 1 to 10000/);
  assert.match(refusal({ bogus: 1 } as Partial<RunConfigInput>), /bogus: is not a known field/);
  assert.match(refusal({ arm: undefined }), /^run configuration: arm is required$/);
  assert.equal(LIMITS.workers.max, 256);
});

Deno.test("runConfig() reports every problem, the required settings first, then the rules, then the values", () => {
  const e = refused({ arm: "magic", workers: 0, resume: true, overwrite: true });
  assert.deepEqual(e.problems.map((p) => p.path.join(".")), ["arm", "resume", "workers"]);
  assert.match(e.message, /^run configuration: arm "magic" is not one of: replay, .* \(and 2 more problem\(s\)\)$/);
});

Deno.test("runConfig() refuses settings that contradict each other or need another", () => {
  assert.match(refusal({ resume: true, overwrite: true }), /: resume and overwrite exclude each other$/);
  assert.match(refusal({ forceResume: true }), /: forceResume goes with resume$/);
  assert.match(refusal({ retryTimeouts: true }), /: retryTimeouts goes with resume$/);
  assert.match(
    refusal({ tasks: { annotations: "a" } }),
    /: tasks\.humanSplit, tasks\.humanMacros and tasks\.annotations go with tasks\.human$/,
  );
  assert.match(
    refusal({ tasks: { human: true, file: "t.jsonl" } }),
    /: tasks\.file and tasks\.human exclude each other: tasks\.human reads the annotations folder$/,
  );
  assert.equal(runConfig({ arm: "noop", out: "o", resume: true, forceResume: true }).forceResume, true);
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
  assert.equal(runConfig({ arm: "oracle", out: "o", model: { gateNote: true } }).model.gateDone, true);
  assert.deepEqual(runConfig({ arm: "noop", out: "o", shard: "1/3" }).shard, { index: 1, count: 3 });
  assert.match(refusal({ maxSteps: -1 }), /maxSteps -1 is not a whole number from 0 to 10000/);
});

Deno.test("runConfig() gives agent_planner its settings block with the seed's defaults, and no other arm one", () => {
  assert.deepEqual(ARM_NAMES, ["replay", "noop", "base", "pooled", "oracle", "agent_planner"]);
  assert.deepEqual(runConfig({ arm: "agent_planner", out: "o" }).planner, {
    plannerName: "qwen35-4b",
    subCap: 15,
    plannerTurns: 12,
    agentVersion: "v1",
    reasoningToFallback: false,
  });
  assert.equal(runConfig({ arm: "base", out: "o" }).planner, null);
  const given = runConfig({
    arm: "agent_planner",
    out: "o",
    planner: { subCap: 5, plannerTurns: 3, agentVersion: "v2", fallback: "rest", reasoningToFallback: true },
  }).planner!;
  assert.deepEqual([given.subCap, given.plannerTurns, given.agentVersion, given.fallback], [5, 3, "v2", "rest"]);
  const planner = (settings: Record<string, unknown>) => refusal({ arm: "agent_planner", planner: settings });
  assert.match(planner({ subCap: 0 }), /planner\.subCap 0 is not a whole number from 1 to 10000/);
  assert.match(planner({ plannerTurns: 1001 }), /planner\.plannerTurns 1001 is not a whole number from 1 to 1000/);
  assert.match(planner({ agentVersion: "v9" }), /planner\.agentVersion "v9" is not one of: v1, v2/);
  assert.match(planner({ fallback: " " }), /planner\.fallback " " is empty: expected a served model name/);
  assert.match(planner({ subCap: 3, bogus: 1 }), /planner\.bogus: is not a known field/);
});

Deno.test("runConfig() refuses an arm's settings block with another arm: they would be ignored", () => {
  assert.match(
    refusal({ arm: "base", planner: { subCap: 3 } }),
    /^run configuration: planner\.subCap goes with arm agent_planner \(the arm is base\)$/,
  );
  assert.match(refusal({ arm: "noop", planner: {} }), /: planner goes with arm agent_planner \(the arm is noop\)$/);
  assert.equal(runConfig({ arm: "noop", out: "o", planner: undefined }).planner, null);
});
