/**
 * Every tool that writes checks its output before the work, through deno.json's task (its permissions): an output
 * path under a file, or in a read-only folder (a read-only bind mount as root: tests/support/fs_faults.ts), is a
 * usage error (exit 2) naming the flag, with nothing on stdout and nothing written; `gen --verify` refuses before its
 * proof (which starts browsers and runs thousands of episodes for the bundled set).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliResult, ROOT, runTask } from "./support/cli.ts";
import { snapshot } from "./support/bad_inputs.ts";
import { makeReadOnly } from "./support/fs_faults.ts";

const FIXTURES = join(ROOT, "fixtures/run_folders");

/** One tool's refusal: its deno.json task, arguments, and what stderr must say. */
interface Case {
  name: string;
  task: string;
  args: string[];
  message: RegExp;
}

async function copyDemo(to: string): Promise<string> {
  const out = await new Deno.Command("cp", { args: ["-R", join(FIXTURES, "v1_demo"), to] }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return to;
}

function check(c: Case, r: CliResult): string[] {
  const problems: string[] = [];
  if (r.code !== 2) problems.push(`exit ${r.code}, not 2`);
  if (!c.message.test(r.stderr)) problems.push(`stderr does not match ${c.message}`);
  if (r.stdout !== "") problems.push(`stdout is not empty: ${r.stdout.slice(0, 200)}`);
  if (/proved|dropped|wrote/.test(r.stderr)) problems.push("the work ran before the refusal");
  return problems.length ? [`${c.name}: ${problems.join("; ")}\n    stderr: ${r.stderr.trim().slice(0, 300)}`] : [];
}

Deno.test("every tool that writes refuses an output it cannot create or write, exit 2 naming the flag, before any work", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "webmix-outputs-" });
  try {
    const file = join(tmp, "a_file");
    await Deno.writeTextFile(file, "x");
    const demo = await copyDemo(join(tmp, "demo"));
    const readOnly = await copyDemo(join(tmp, "ro_demo"));
    const [s0, s1] = ["s0", "s1"].map((s) => join(FIXTURES, "v1_shards", s));
    const valgen = join(ROOT, "fixtures/valgen/val.jsonl");
    const under = (what: string) => new RegExp(`--out ".*a_file/${what}" cannot be created: ".*a_file" is a file`);
    const cases: Case[] = [
      {
        name: "gen --out",
        task: "gen",
        args: ["--seed", "1", "--per-template", "1", "--out", `${file}/g.jsonl`],
        message: under("g\\.jsonl"),
      },
      {
        name: "gen --verify --out (generate and prove)",
        task: "gen",
        args: ["--seed", "1", "--per-template", "1", "--verify", "--out", `${file}/g.jsonl`],
        message: under("g\\.jsonl"),
      },
      {
        name: "gen --verify --tasks --out",
        task: "gen",
        args: ["--verify", "--tasks", valgen, "--out", join(readOnly, "kept.jsonl")],
        message: /--out ".*ro_demo\/kept\.jsonl" cannot be written: ".*ro_demo": /,
      },
      {
        name: "gen --demonstrations (before any episode)",
        task: "gen",
        args: ["--demonstrations", `${file}/rows`, "--tasks", valgen],
        message: /--demonstrations ".*a_file\/rows" cannot be created: ".*a_file" is a file/,
      },
      { name: "rows --out", task: "rows", args: [demo, "--out", `${file}/rows`], message: under("rows") },
      {
        name: "rows --out read-only",
        task: "rows",
        args: [demo, "--out", join(readOnly, "rows")],
        message: /--out ".*ro_demo\/rows" cannot be written/,
      },
      { name: "merge --out", task: "merge", args: [s0, s1, "--out", `${file}/merged`], message: under("merged") },
      {
        name: "merge --out read-only",
        task: "merge",
        args: [s0, s1, "--out", join(readOnly, "merged")],
        message: /--out ".*ro_demo\/merged" cannot be written/,
      },
      { name: "report --out", task: "report", args: [demo, "--out", `${file}/rep`], message: under("rep") },
      { name: "report OUT read-only", task: "report", args: [readOnly], message: /OUT ".*ro_demo" cannot be written/ },
      { name: "viewer OUT read-only", task: "viewer", args: [readOnly], message: /OUT ".*ro_demo" cannot be written/ },
      {
        name: "judge --out read-only",
        task: "judge",
        args: ["--out", readOnly],
        message: /--out ".*ro_demo" cannot be written/,
      },
    ];
    const failures: string[] = [];
    const before = await snapshot(readOnly);
    {
      await using _ro = await makeReadOnly(readOnly);
      for (const c of cases) failures.push(...check(c, await runTask(c.task, c.args)));
    }
    assert.deepEqual(failures, [], failures.join("\n"));
    assert.equal(await Deno.readTextFile(file), "x", "the file in the way is left as it was");
    assert.deepEqual(await snapshot(readOnly), before, "nothing written into the read-only folder");
    assert.deepEqual((await snapshot(demo)).filter((p) => /report|viewer/.test(p)), [], "nothing written");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
