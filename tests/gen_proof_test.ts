/**
 * The generator's proof in the real browser on the real sandbox: one instance of every template proven (its
 * reference passes, doing nothing fails, each near miss fails with its reason and witness), and a template that is
 * wrong in each way the proof must catch has its instance dropped, with why, and never written. The first two tests
 * regrade their episodes from browser recordings (tests/support/recordings.ts); the CLI's test runs live.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { generate, instantiate, prove, seedDb, type Template, template, TEMPLATES } from "../lib/gen/mod.ts";
import { parseTaskLines } from "../lib/tasks/mod.ts";
import { type Task } from "../lib/protocol/mod.ts";
import { runCli } from "./support/cli.ts";
import { RecordingStore } from "./support/recordings.ts";

const jsonl = (lines: readonly unknown[]) => lines.map((l) => JSON.stringify(l) + "\n").join("");

Deno.test("one instance of every template: the reference passes, noop fails, every near miss fails for its reason", async () => {
  const { lines } = generate(TEMPLATES, { seed: 2, perTemplate: 1 });
  const tasks = parseTaskLines(jsonl(lines), "generated.jsonl") as Task[];
  const recordings = await RecordingStore.open("gen_proof");
  const report = await prove(tasks, TEMPLATES, { workers: 2, recordings });
  await recordings.save();
  assert.deepEqual(report.dropped, [], report.dropped.map((d) => `${d.task_id}: ${d.problems.join("; ")}`).join("\n"));
  assert.equal(report.kept.length, TEMPLATES.length);
  assert.ok(report.episodes >= 4 * TEMPLATES.length, `${report.episodes} episodes`);
  assert.equal(recordings.problem(), undefined);
});

type P = { category: string; slug: string; brand: string; sibling: string };
const example = TEMPLATES.find((t) => t.id === "shop.toggle_checkbox.menu_brand") as unknown as Template<P>;

/** The worked example with parts replaced: each is a defect the proof must catch. */
const broken = (id: string, parts: Partial<Template<P>>) => template<P>({ ...example, id, ...parts });

const BROKEN = [
  // A "near miss" that is the reference itself passes: the proof must not call it caught.
  broken("shop.toggle_checkbox.nm_passes", {
    nearMisses: (
      p,
      db,
    ) => [...example.nearMisses(p, db), {
      ...example.nearMisses(p, db)[0],
      name: "same_as_ref",
      steps: example.build(p, db).solution,
    }],
  }),
  // A reference that stops before Apply does not reach the filtered list.
  broken("shop.toggle_checkbox.ref_short", {
    build: (p, db) => ({ ...example.build(p, db), solution: example.build(p, db).solution.slice(0, 2) }),
  }),
  // A witness claiming a deviation the near miss never made (the in-stock box it does not tick).
  broken("shop.toggle_checkbox.false_witness", {
    nearMisses: (p, db) =>
      example.nearMisses(p, db).map((m, i) =>
        i === 0 ? { ...m, witness: { page: { path: `/shop/category/${p.slug}`, query: { in_stock: "1" } } } } : m
      ),
  }),
  // A check the start page already passes: noop would pass.
  broken("shop.toggle_checkbox.noop_passes", {
    build: (p, db) => ({ ...example.build(p, db), check: { no_writes: true } }),
  }),
];

Deno.test("an instance whose proof fails is dropped with the failed proof named", async () => {
  const [p] = example.params(seedDb("shop"));
  const tasks = parseTaskLines(jsonl(BROKEN.map((t) => instantiate(t, p, 0))), "broken.jsonl") as Task[];
  const recordings = await RecordingStore.open("gen_proof_broken");
  const report = await prove(tasks, BROKEN, { workers: 2, recordings });
  await recordings.save();
  assert.deepEqual(report.kept, []);
  const why = Object.fromEntries(report.dropped.map((d) => [d.template, d.problems.join("; ")]));
  assert.match(why["shop.toggle_checkbox.nm_passes"], /near miss same_as_ref: false pass/);
  assert.match(why["shop.toggle_checkbox.ref_short"], /reference: rejected \(final_page\)/);
  assert.match(
    why["shop.toggle_checkbox.false_witness"],
    /near miss sibling_brand: invalid: the witness does not hold/,
  );
  assert.match(why["shop.toggle_checkbox.noop_passes"], /noop: false pass/);
  assert.equal(recordings.problem(), undefined);
});

Deno.test("gen.ts: the same seed twice gives the same files; --verify --tasks drops a bad instance and exits 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-gen-" });
  const a = join(dir, "a.jsonl"), b = join(dir, "b.jsonl");
  for (const out of [a, b]) {
    const r = await runCli("gen.ts", ["--seed", "1", "--per-template", "30", "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    // Every template made instances, so the set holds one cluster a template, and the summary says how many.
    const n = TEMPLATES.length;
    assert.match(r.stdout, new RegExp(`of ${n} templates to .*; ${n} clusters \\(one a template\\)`));
  }
  assert.equal(await Deno.readTextFile(a), await Deno.readTextFile(b));
  assert.equal(await Deno.readTextFile(join(dir, "a.gen.json")), await Deno.readTextFile(join(dir, "b.gen.json")));
  const meta = JSON.parse(await Deno.readTextFile(join(dir, "a.gen.json")));
  assert.equal(meta.seed, 1);
  assert.deepEqual(meta.templates.map((t: { id: string }) => t.id).sort(), TEMPLATES.map((t) => t.id).sort());

  // Two instances of the example; the second's check asks for a brand its reference never ticks.
  const r = await runCli("gen.ts", [
    "--seed",
    "4",
    "--per-template",
    "2",
    "--templates",
    example.id,
    "--out",
    join(dir, "two.jsonl"),
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [good, bad] = (await Deno.readTextFile(join(dir, "two.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));
  const tampered = JSON.stringify(bad.check).replace(
    `"brand":"${bad.option.brand}"`,
    `"brand":"${bad.option.sibling}"`,
  );
  bad.check = JSON.parse(tampered);
  await Deno.writeTextFile(join(dir, "mixed.jsonl"), jsonl([good, bad]));
  const v = await runCli("gen.ts", ["--verify", "--tasks", join(dir, "mixed.jsonl"), "--out", join(dir, "kept.jsonl")]);
  assert.equal(v.code, 1, v.stderr);
  assert.match(v.stdout, /proved 2 instances: 1 kept, 1 dropped/);
  assert.match(v.stderr, new RegExp(`dropped ${bad.task_id.replaceAll(".", "\\.")} .*reference: rejected`));
  // The kept line as the file had it, so that it is a task line again.
  assert.equal(await Deno.readTextFile(join(dir, "kept.jsonl")), JSON.stringify(good) + "\n");

  const unknown = await runCli("gen.ts", ["--seed", "1", "--per-template", "1", "--templates", "nope", "--out", a]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no template "nope"/);
  await Deno.remove(dir, { recursive: true });
});
