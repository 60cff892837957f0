/**
 * The seed's data as the seed read it (docs/seed-differences.md, "Leniencies"): each thing the seed tolerated loads
 * (or is left out) with one warning naming the file and what was ignored, and `--strict` refuses it with exit 2:
 * verifier.json keys besides the verifier's, a task file's macro outside the vocabulary (family Other), a human task
 * on a site in neither split (left out); and `--site-split FILE` names a split file outside the annotations folder
 * (the seed's data/datagen/site_split.json). Dry runs: the loaders are what is tested, no episode runs. And a progress
 * line names a pending episode PENDING, as the summary counts it, not the seed's FAIL.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runCli } from "./support/cli.ts";

const ANNOTATIONS = join(ROOT, "fixtures/annotations");

async function dryRun(args: string[]): Promise<{ code: number; count?: number; warnings: string[]; stderr: string }> {
  const out = await Deno.makeTempDir({ prefix: "webmix-lenient-out-" });
  const r = await runCli("eval.ts", ["--arm", "replay", "--out", join(out, "run"), "--dry-run", ...args]);
  await Deno.remove(out, { recursive: true });
  const warnings = r.stderr.split("\n").filter((l) => l.startsWith("warning: "));
  const count = r.code === 0 ? JSON.parse(r.stdout).task_count : undefined;
  return { code: r.code, count, warnings, stderr: r.stderr };
}

async function copyAnnotations(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "webmix-lenient-" });
  await new Deno.Command("cp", { args: ["-r", ANNOTATIONS, join(dir, "annotations")] }).output();
  return join(dir, "annotations");
}

Deno.test("a task file's macro outside the vocabulary loads with one warning (family Other); --strict exits 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-lenient-" });
  try {
    const lines = (await Deno.readTextFile(join(ROOT, "fixtures/tasks.jsonl"))).split("\n").filter(Boolean).slice(0, 3);
    const odd = lines.map((l, i) => i === 0 ? l : l.replace(/"macro": ?"[a-z_]+"/, `"macro": "hover_tooltip"`));
    const file = join(dir, "tasks.jsonl");
    await Deno.writeTextFile(file, odd.join("\n") + "\n");
    const lenient = await dryRun(["--tasks", file]);
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.equal(lenient.count, 3);
    assert.equal(lenient.warnings.length, 1, lenient.stderr);
    assert.match(
      lenient.warnings[0],
      new RegExp(`${file}: macro\\(s\\) outside the vocabulary \\(line 2 "hover_tooltip"`),
    );
    assert.match(lenient.warnings[0], /line 3 "hover_tooltip"\): family "Other", routed to the rest adapter/);
    const strict = await dryRun(["--tasks", file, "--strict"]);
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, new RegExp(`${file} line 2: task "[a-z0-9_]+": macro: "hover_tooltip" is not a macro`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verifier.json keys the seed never read load with one warning; --strict exits 2", async () => {
  const annotations = await copyAnnotations();
  try {
    const file = join(annotations, "mail/mail_h_reply_walkthrough/verifier.json");
    const v = JSON.parse(await Deno.readTextFile(file));
    await Deno.writeTextFile(file, JSON.stringify({ ...v, rubric: "graded by hand", reviewer: "jk" }));
    const args = ["--human", "--human-split", "all", "--annotations", annotations];
    const lenient = await dryRun(args);
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.equal(lenient.count, 26);
    assert.deepEqual(lenient.warnings, [
      `warning: ${file}: ignored unknown key(s) "rubric", "reviewer" (--strict refuses them)`,
    ]);
    const strict = await dryRun([...args, "--strict"]);
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, new RegExp(`${file}: .*rubric`));
  } finally {
    await Deno.remove(join(annotations, ".."), { recursive: true });
  }
});

Deno.test("--site-split names the seed's split file; a task on a site in neither split is left out with a warning", async () => {
  const annotations = await copyAnnotations();
  try {
    // The seed's layout: the split beside the data, not in the annotations folder; mail in neither split.
    await Deno.remove(join(annotations, "site_split.json"));
    const split = join(annotations, "../data/datagen/site_split.json");
    await Deno.mkdir(join(split, ".."), { recursive: true });
    await Deno.writeTextFile(split, JSON.stringify({ train: ["shop", "tracker"], test: ["bookings"] }));
    const args = ["--human", "--human-split", "all", "--annotations", annotations];
    const missing = await dryRun(args);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /site_split\.json/);
    const lenient = await dryRun([...args, "--site-split", split]);
    assert.equal(lenient.code, 0, lenient.stderr);
    // Each task touching mail is left out, one warning naming its task.json.
    const mailTasks: string[] = [];
    for (const site of ["bookings", "mail", "shop", "tracker"]) {
      for await (const e of Deno.readDir(join(annotations, site))) {
        const t = JSON.parse(await Deno.readTextFile(join(annotations, site, e.name, "task.json")));
        const sites = typeof t.sites === "string" ? t.sites : JSON.stringify(t.sites ?? [t.site]);
        if (sites.includes("mail")) mailTasks.push(join(annotations, site, e.name, "task.json"));
      }
    }
    assert.ok(mailTasks.length >= 6);
    assert.equal(lenient.count, 26 - mailTasks.length);
    assert.equal(lenient.warnings.length, mailTasks.length, lenient.stderr);
    for (const w of lenient.warnings) {
      assert.match(w, /task\.json: sites?: "mail" is in neither split of .*data\/datagen\/site_split\.json/);
      assert.match(w, /left out, as the seed leaves it out \(--strict refuses it\)$/);
      assert.ok(mailTasks.some((f) => w.includes(f)), w);
    }
    const strict = await dryRun([...args, "--site-split", split, "--strict"]);
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, /"mail" is in neither split/);
  } finally {
    await Deno.remove(join(annotations, ".."), { recursive: true });
  }
});

Deno.test("a progress line says PENDING for an episode the summary counts as pending, not FAIL", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-progress-" });
  try {
    const tasks = join(ROOT, "fixtures/proposed/tasks.jsonl");
    const r = await runCli("eval.ts", ["--arm", "noop", "--tasks", tasks, "--limit", "1", "--out", join(dir, "run")]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^\[1\/1\] PENDING \S+ /m);
    assert.doesNotMatch(r.stderr, /\] FAIL /);
    assert.match(r.stdout, /1 pending/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
