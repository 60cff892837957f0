/**
 * The resolver, not only a test of the module graph, refuses an npm package a workspace member does not declare:
 * a copy of the workspace's real deno.json files (root, every member, the lock file) with one small module per
 * probe, type-checked by `deno check` in that copy.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runDeno } from "./support/cli.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The root deno.json, deno.lock and every member's deno.json, copied to a new folder. */
async function copyConfigs(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "webmix-workspace-" });
  const { workspace } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as { workspace: string[] };
  assert.ok(workspace.length > 10, "the root deno.json declares the members");
  for (const file of ["deno.json", "deno.lock", ...workspace.map((m) => join(m, "deno.json"))]) {
    await Deno.mkdir(dirname(join(dir, file)), { recursive: true });
    await Deno.copyFile(join(ROOT, file), join(dir, file));
  }
  return dir;
}

/** `deno check` of `file` in `dir`: its exit code and what it printed. */
async function check(dir: string, file: string): Promise<{ code: number; out: string }> {
  const r = await runDeno(["check", "--quiet", file], { cwd: dir });
  return { code: r.code, out: r.stdout + r.stderr };
}

const PROBE = `import type { Browser } from "puppeteer-core";\nexport type Probe = Browser;\n`;
const REFUSED = /Import "puppeteer-core" not a dependency/;

Deno.test("deno check refuses puppeteer-core outside lib/browser, and in lib/browser once its deno.json drops it", async () => {
  const dir = await copyConfigs();
  try {
    await Deno.writeTextFile(join(dir, "lib/browser/_probe.ts"), PROBE);
    await Deno.writeTextFile(join(dir, "lib/grading/_probe.ts"), PROBE);
    const declared = await check(dir, "lib/browser/_probe.ts");
    assert.equal(declared.code, 0, declared.out);
    const undeclared = await check(dir, "lib/grading/_probe.ts");
    assert.notEqual(undeclared.code, 0);
    assert.match(undeclared.out, REFUSED);

    const config = join(dir, "lib/browser/deno.json");
    const cfg = JSON.parse(await Deno.readTextFile(config));
    delete cfg.imports["puppeteer-core"];
    await Deno.writeTextFile(config, JSON.stringify(cfg));
    const removed = await check(dir, "lib/browser/_probe.ts");
    assert.notEqual(removed.code, 0);
    assert.match(removed.out, REFUSED);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
