/** run.json: which settings it records per arm, and which differences make --resume refuse a folder. */
import assert from "node:assert/strict";
import { UsageError } from "../errors/mod.ts";
import { runConfig, type RunConfigInput } from "./config.ts";
import { checkResume, runManifest, writeManifest } from "./manifest.ts";

const manifestOf = (input: Partial<RunConfigInput>) => runManifest(runConfig({ arm: "base", out: "o", ...input }), []);

Deno.test("runManifest() records the planner's settings for agent_planner only, and --verifier-only for every arm", async () => {
  const planner = await runManifest(
    runConfig({ arm: "agent_planner", out: "o", model: { subCap: 5, fallback: "rest" }, verifierOnly: true }),
    [],
  );
  assert.deepEqual(
    [
      planner.settings.planner_name,
      planner.settings.sub_cap,
      planner.settings.planner_turns,
      planner.settings.agent_version,
      planner.settings.fallback,
      planner.settings.reasoning_to_fallback,
      planner.settings.verifier_only,
    ],
    ["qwen35-4b", 5, 12, "v1", "rest", false, true],
  );
  const base = await manifestOf({});
  assert.equal(base.settings.sub_cap, undefined, "another arm never reads them");
  assert.equal(base.settings.verifier_only, false);
  assert.equal(base.settings.normalized_coords, true);
});

Deno.test("checkResume() refuses other planner settings but not another --verifier-only", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-manifest-" });
  const options = { force: false, log: () => {} };
  const planner = (model: Record<string, unknown>, verifierOnly = false) =>
    runManifest(runConfig({ arm: "agent_planner", out, model, verifierOnly }), []);
  await writeManifest(out, await planner({ subCap: 15 }, true));
  assert.equal(await checkResume(out, await planner({ subCap: 15 }), [], options), true);
  await assert.rejects(checkResume(out, await planner({ subCap: 3, agentVersion: "v2" }), [], options), (e: Error) => {
    assert.ok(e instanceof UsageError);
    assert.match(e.message, /sub_cap: 15 → 3/);
    assert.match(e.message, /agent_version: "v1" → "v2"/);
    return true;
  });
  await Deno.remove(out, { recursive: true });
});
