/** run.json: what it records per arm, and which differences make --resume refuse a folder or only warn. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../errors/mod.ts";
import { BUNDLED, runConfig, type RunConfigInput, SUITE_ROOT } from "./config.ts";
import { NewerFormatError } from "../errors/mod.ts";
import { RUN_FILES } from "../run_folder/mod.ts";
import { checkResume, runManifest, writeManifest } from "./manifest.ts";

const MANIFEST_FILE = RUN_FILES.manifest;
import type { ServedModelArm } from "./model_arms.ts";

const manifestOf = (input: Partial<RunConfigInput>) => runManifest(runConfig({ arm: "base", out: "o", ...input }), []);

Deno.test("runManifest() records the planner's settings for agent_planner only, and --verifier-only for every arm", async () => {
  const planner = await runManifest(
    runConfig({ arm: "agent_planner", out: "o", planner: { subCap: 5, fallback: "rest" }, verifierOnly: true }),
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
  const planner = (settings: Record<string, unknown>, verifierOnly = false) =>
    runManifest(runConfig({ arm: "agent_planner", out, planner: settings, verifierOnly }), []);
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

/** SHA-256 of a file's bytes, computed apart from the code under test. */
async function fileSha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `git rev-parse HEAD` of the suite, or null when it is no checkout. */
async function headCommit(): Promise<string | null> {
  const out = await new Deno.Command("git", { args: ["-C", SUITE_ROOT, "rev-parse", "HEAD"], stderr: "null" }).output()
    .catch(() => null);
  return out?.success ? new TextDecoder().decode(out.stdout).trim() : null;
}

const servedArm = (servedModels: string[]): ServedModelArm => ({
  name: "oracle",
  run: () => Promise.reject(new Error("not run here")),
  servedModels,
});

Deno.test("runManifest() records each family's model, the prompt and task files with their hashes, the served models and the versions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-manifest-" });
  const file = join(dir, "tasks.jsonl");
  await Deno.writeTextFile(file, '{"task_id": "t1"}\n');
  const config = runConfig({ arm: "oracle", out: "o", tasks: { file }, model: { adapters: ["drag", "rest"] } });
  const m = await runManifest(config, [], { arm: servedArm(["qwen35-4b", "drag", "rest"]), chromium: "Chrome/1.2" });
  assert.deepEqual(m.settings.family_models, {
    "Drag & gesture": "drag",
    "Out-of-page I/O": "qwen35-4b",
    "Discrete selection": "qwen35-4b",
    "Text entry": "rest",
    "Form transaction": "rest",
    "Navigation": "rest",
    "Reasoning base": "qwen35-4b",
  });
  assert.equal(m.settings.system_prompt_file, BUNDLED.systemPrompt);
  assert.equal(m.settings.system_prompt_sha256, await fileSha256(BUNDLED.systemPrompt));
  assert.deepEqual(m.tasks.source, { path: file, sha256: await fileSha256(file) });
  assert.deepEqual(m.served_models, ["qwen35-4b", "drag", "rest"], "as the server listed them");
  assert.equal(m.versions?.chromium, "Chrome/1.2");
  assert.equal(m.versions?.deno, Deno.version.deno);
  assert.match(m.versions!.puppeteer_core, /^\d+\.\d+\.\d+/);
  assert.equal(m.versions?.suite_commit, await headCommit());

  const planner = await runManifest(runConfig({ arm: "agent_planner", out: "o", model: { adapters: ["io"] } }), []);
  const families = planner.settings.family_models as Record<string, string>;
  assert.deepEqual([families["Out-of-page I/O"], families["Navigation"]], ["io", "qwen35-4b"]);
  const replay = await runManifest(runConfig({ arm: "replay", out: "o" }), []);
  assert.deepEqual([replay.settings.family_models, replay.served_models, replay.versions?.chromium], [
    undefined,
    null,
    null,
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("runManifest() hashes a --human run's annotations folder: any file's change changes it", async () => {
  const annotations = await Deno.makeTempDir({ prefix: "webmix-manifest-" });
  await Deno.mkdir(join(annotations, "shop", "t1"), { recursive: true });
  await Deno.writeTextFile(join(annotations, "site_split.json"), "{}");
  await Deno.writeTextFile(join(annotations, "shop", "t1", "task.json"), '{"a": 1}');
  const source = async () =>
    (await runManifest(runConfig({ arm: "replay", out: "o", tasks: { human: true, annotations } }), [])).tasks.source!;
  const before = await source();
  assert.equal(before.path, annotations);
  assert.match(before.sha256!, /^[0-9a-f]{64}$/);
  assert.deepEqual(await source(), before);
  await Deno.writeTextFile(join(annotations, "shop", "t1", "task.json"), '{"a": 2}');
  assert.notEqual((await source()).sha256, before.sha256);
  await Deno.remove(annotations, { recursive: true });
});

Deno.test("checkResume() warns about other versions, never compares served models, and still refuses other settings", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-manifest-" });
  const lines: string[] = [];
  const options = { force: false, log: (l: string) => lines.push(l) };
  const oracle = (adapters: string[], served: string[], chromium: string) =>
    runManifest(runConfig({ arm: "oracle", out, model: { adapters } }), [], { arm: servedArm(served), chromium });
  await writeManifest(out, await oracle(["drag"], ["qwen35-4b", "drag"], "Chrome/1"));
  assert.equal(
    await checkResume(out, await oracle(["drag"], ["qwen35-4b", "drag", "io"], "Chrome/2"), [], options),
    true,
  );
  assert.deepEqual(lines, [
    `--resume: warning: ${out} was run with other versions, which its episodes now mix:\n` +
    `  chromium: "Chrome/1" → "Chrome/2"`,
  ]);
  lines.length = 0;
  await assert.rejects(
    checkResume(out, await oracle(["io"], ["qwen35-4b", "io"], "Chrome/2"), [], options),
    (e: Error) => {
      assert.match(e.message, /adapters: \["drag"\] → \["io"\]/);
      assert.match(e.message, /family_models: .*"Drag & gesture":"drag".* → .*"Drag & gesture":"qwen35-4b"/);
      return true;
    },
  );
  assert.deepEqual(lines, [], "no warning for a run that is refused");
  // A run.json from before family_models and versions were recorded: checked on the settings they derive from.
  const saved = JSON.parse(await Deno.readTextFile(join(out, MANIFEST_FILE)));
  delete saved.settings.family_models;
  delete saved.versions;
  await Deno.writeTextFile(join(out, MANIFEST_FILE), JSON.stringify(saved));
  assert.equal(await checkResume(out, await oracle(["drag"], ["drag"], "Chrome/3"), [], options), true);
  assert.deepEqual(lines, []);
  await Deno.remove(out, { recursive: true });
});

Deno.test("checkResume() refuses another --shard, and compares shard only when the folder's run.json has one", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-manifest-" });
  const options = { force: false, log: () => {} };
  const replay = (shard: { index: number; count: number } | null) =>
    runManifest(runConfig({ arm: "replay", out, shard }), []);
  await writeManifest(out, await replay({ index: 0, count: 3 }));
  assert.equal(await checkResume(out, await replay({ index: 0, count: 3 }), [], options), true);
  await assert.rejects(checkResume(out, await replay(null), [], options), /shard: \{"index":0,"count":3\} → null/);
  // A run.json from before --shard, or a merged one (merge.ts removes shard): the same tasks resume unsplit.
  const { shard: _, ...settings } = (await replay(null)).settings;
  await writeManifest(out, { ...await replay(null), settings });
  assert.equal(await checkResume(out, await replay(null), [], options), true);
  await Deno.remove(out, { recursive: true });
});

Deno.test("checkResume() refuses a run.json it cannot read, never taking it for none; --force-resume replaces a damaged one only", async () => {
  const out = await Deno.makeTempDir({ prefix: "webmix-manifest-" });
  const lines: string[] = [];
  const options = { force: false, log: (l: string) => lines.push(l) };
  const replay = () => runManifest(runConfig({ arm: "replay", out }), []);
  const file = join(out, MANIFEST_FILE);
  // Cut short by a crash, or edited by hand into something else: the run it describes cannot be checked.
  for (const damaged of ['{"format_version": 2, "created": "2026', JSON.stringify({ settings: { arm: 3 } })]) {
    await Deno.writeTextFile(file, damaged);
    await assert.rejects(checkResume(out, await replay(), [], options), (e: Error) => {
      assert.ok(e instanceof UsageError, String(e));
      assert.match(e.message, new RegExp(`^--resume: ${file}: .*: ${out}'s run cannot be checked; --force-resume`));
      return true;
    });
    assert.equal(await Deno.readTextFile(file), damaged, "left as it was");
  }
  assert.equal(await checkResume(out, await replay(), [], { ...options, force: true }), false, "to be rewritten");
  assert.match(lines.join("\n"), /--force-resume: .*run\.json: .*: replaced with this run's run\.json/);
  // Written by a newer suite: not even --force-resume writes over it.
  await Deno.writeTextFile(file, JSON.stringify({ ...await replay(), format_version: 9 }));
  await assert.rejects(checkResume(out, await replay(), [], { ...options, force: true }), (e: Error) => {
    assert.ok(e.cause instanceof NewerFormatError, String(e));
    assert.match(e.message, /format_version 9 is newer than this webmix-eval reads \(run\.json version 2\)/);
    return true;
  });
  await Deno.remove(out, { recursive: true });
});
