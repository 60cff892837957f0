/** The arm registry: what each arm needs, records and shows, from its entry alone. */
import assert from "node:assert/strict";
import { UsageError } from "../errors/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { ARM_NAMES, armEntry, ARMS } from "./arms.ts";
import { runConfig, type RunConfigInput } from "./config.ts";

/** A task with only the fields planning reads. */
const task = (fields: Record<string, unknown>) => fields as unknown as RunTask;
const withPrefix = task({ task_id: "t1", macro: "submit_form", start: { prefix: { macro: "drag_and_drop" } } });
const human = task({ task_id: "h1", kind: "human", macro: "answer_question", macros: ["search", "answer_question"] });
const config = (arm: string, more: Partial<RunConfigInput> = {}) => runConfig({ arm, out: "o", ...more });

const MODEL_SETTINGS = [
  "base_name",
  "pooled_name",
  "adapters",
  "temperature",
  "max_tokens",
  "gate_done",
  "gate_note",
  "max_actions",
  "normalized_coords",
  "family_models",
  "system_prompt_file",
  "system_prompt_sha256",
];
const PLANNER_SETTINGS = [
  "planner_prompt_sha256",
  "planner_name",
  "sub_cap",
  "planner_turns",
  "agent_version",
  "fallback",
  "reasoning_to_fallback",
];

Deno.test("ARM_NAMES are the registry's, and armEntry() refuses another name", () => {
  assert.deepEqual(ARM_NAMES, ARMS.map((a) => a.name));
  assert.equal(armEntry("oracle").name, "oracle");
  assert.throws(
    () => armEntry("Oracle"),
    (e: Error) => e instanceof UsageError && /"Oracle" is not one of/.test(e.message),
  );
  assert.deepEqual(ARMS.filter((a) => !a.needsModel).map((a) => a.name), ["replay", "noop"]);
  assert.deepEqual(ARMS.flatMap((a) => a.settings ? [[a.name, a.settings.key]] : []), [["agent_planner", "planner"]]);
});

Deno.test("an arm without a model needs, records and shows no model", async () => {
  for (const name of ["replay", "noop"]) {
    const entry = armEntry(name), c = config(name);
    assert.deepEqual(entry.neededModels(c, [withPrefix]), []);
    assert.equal(entry.familyModels(c), null);
    assert.equal(entry.dryRun(c, [withPrefix]), null);
    assert.deepEqual(await entry.manifestSettings(c), {});
    assert.equal((await entry.resolve(c, [])).name, name);
  }
});

Deno.test("base and pooled need one model; oracle the adapter of each planned family, else the base", () => {
  const all = { model: { adapters: ["drag", "io", "select", "rest", "reasoning"] } };
  assert.deepEqual(armEntry("base").neededModels(config("base"), [withPrefix, human]), ["qwen35-4b"]);
  assert.deepEqual(armEntry("pooled").neededModels(config("pooled", { model: { pooledName: "mix" } }), [human]), [
    "mix",
  ]);
  assert.deepEqual(armEntry("oracle").neededModels(config("oracle", all), [withPrefix, human]), [
    "drag",
    "reasoning",
    "rest",
  ]);
  const restOnly = config("oracle", { model: { adapters: ["rest"] } });
  assert.deepEqual(armEntry("oracle").neededModels(restOnly, [withPrefix]), ["qwen35-4b", "rest"]);
  assert.equal(armEntry("oracle").familyModels(restOnly)!["Drag & gesture"], "qwen35-4b");
  assert.equal(armEntry("oracle").familyModels(config("oracle", all))!["Drag & gesture"], "drag");
  assert.deepEqual(new Set(Object.values(armEntry("base").familyModels(config("base"))!)), new Set(["qwen35-4b"]));
  assert.deepEqual(armEntry("base").neededModels(config("base"), []), [], "no task, no name");
});

Deno.test("agent_planner needs its planner and every family's specialist, whatever the tasks", () => {
  const c = config("agent_planner", {
    model: { adapters: ["drag"] },
    planner: { plannerName: "planner-x", fallback: "pooled" },
  });
  const entry = armEntry("agent_planner");
  assert.deepEqual(entry.neededModels(c, []), ["drag", "planner-x", "pooled", "qwen35-4b"]);
  assert.equal(entry.familyModels(c)!["Reasoning base"], "qwen35-4b", "reasoning falls back to the base");
  assert.deepEqual(Object.keys(entry.dryRun(c, [])!), ["planner", "by_family", "needed"]);
  assert.deepEqual(Object.keys(armEntry("oracle").dryRun(config("oracle"), [])!), ["by_family", "needed"]);
});

Deno.test("each model arm records the model settings in run.json, agent_planner its own after them", async () => {
  for (const name of ["base", "pooled", "oracle"]) {
    assert.deepEqual(Object.keys(await armEntry(name).manifestSettings(config(name))), MODEL_SETTINGS, name);
  }
  const planner = await armEntry("agent_planner").manifestSettings(config("agent_planner"));
  assert.deepEqual(Object.keys(planner), [...MODEL_SETTINGS, ...PLANNER_SETTINGS]);
  assert.deepEqual([planner.sub_cap, planner.fallback, planner.reasoning_to_fallback], [15, null, false]);
});
