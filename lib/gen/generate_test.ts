/**
 * The generator without a browser: determinism, every template's output read back by the task loader, the split
 * rule, the chain and capacity figures docs/generation.md promises. (The proof in the browser: tests/gen_proof_test.ts.)
 */
import assert from "node:assert/strict";
import { parseTaskLines } from "../tasks/mod.ts";
import { familyOf, MACROS, type Task } from "../protocol/mod.ts";
import { capacityOf, generate, paramsKey, phrase, Rng, seedDb, splitOf, styleOf, TEMPLATES } from "./mod.ts";

const jsonl = (lines: readonly unknown[]) => lines.map((l) => JSON.stringify(l) + "\n").join("");

Deno.test("Rng: the same seed draws the same numbers; another seed others; sample() never repeats", () => {
  const a = new Rng("1:x"), b = new Rng("1:x"), c = new Rng("2:x");
  const draws = (r: Rng) => Array.from({ length: 8 }, () => r.int(1000));
  const da = draws(a);
  assert.deepEqual(da, draws(b));
  assert.notDeepEqual(da, draws(c));
  const items = Array.from({ length: 50 }, (_, i) => i);
  const s = new Rng(9).sample(items, 30);
  assert.equal(new Set(s).size, 30);
  assert.equal(new Rng(9).sample(items, 80).length, 50, "k past the length gives every item once");
});

Deno.test("generate() gives the same bytes for the same seed, other draws for another seed", () => {
  const one = jsonl(generate(TEMPLATES, { seed: 1, perTemplate: 30 }).lines);
  assert.equal(jsonl(generate(TEMPLATES, { seed: 1, perTemplate: 30 }).lines), one);
  assert.notEqual(jsonl(generate(TEMPLATES, { seed: 2, perTemplate: 30 }).lines), one);
});

Deno.test("adding a template does not change another template's draws", () => {
  const all = generate(TEMPLATES, { seed: 5, perTemplate: 4 }).lines;
  const [first] = [...TEMPLATES].sort((a, b) => a.id.localeCompare(b.id));
  const alone = generate(TEMPLATES, { seed: 5, perTemplate: 4, templates: [first.id] }).lines;
  assert.deepEqual(alone, all.filter((l) => (l.gen as { template: string }).template === first.id));
});

Deno.test("every template's instances pass the task loader and say their template, chain and split", () => {
  const { lines, meta } = generate(TEMPLATES, { seed: 3, perTemplate: 5 });
  const tasks = parseTaskLines(jsonl(lines), "generated.jsonl") as Task[];
  assert.equal(tasks.length, lines.length);
  assert.equal(meta.templates.length, TEMPLATES.length);
  for (const t of tasks) {
    const template = TEMPLATES.find((x) => x.id === t.gen?.template);
    assert.ok(template, `${t.task_id}: no template`);
    assert.deepEqual(t.gen!.chain, [...(template.prefix ?? []), template.macro], t.task_id);
    assert.equal(t.start.prefix?.macro, template.prefix?.[0], t.task_id);
    assert.equal(t.split, splitOf(template.id, t.gen!.entity), t.task_id);
    assert.ok(t.solution.length > 0, `${t.task_id}: no reference solution`);
    assert.ok(t.task_id.startsWith(`${template.id}-`), t.task_id);
  }
});

Deno.test("every template: two phrasings or more, distinct parameter records, two near misses or more", () => {
  for (const t of TEMPLATES) {
    assert.ok(t.phrasings.length >= 2, `${t.id}: ${t.phrasings.length} phrasing(s)`);
    const params = capacityOf(t);
    assert.ok(params.length >= 1, `${t.id}: no parameters`);
    const [p] = params;
    const phrased = new Set(t.phrasings.map((f) => phrase(f, p)));
    assert.equal(phrased.size, t.phrasings.length, `${t.id}: two phrasings say the same words`);
    // Under each style its phrasings have: two near misses or more (a goal's method attacks are alternatives).
    for (const style of new Set(t.phrasings.map(styleOf))) {
      const misses = t.nearMisses(p, seedDb(t.site), style);
      assert.ok(misses.length >= 2, `${t.id} (${style}): ${misses.length} near miss(es)`);
      const names = [
        ...misses.map((m) => m.name),
        ...(t.alternatives?.(p, seedDb(t.site), style) ?? []).map((a) => a.name),
      ];
      assert.equal(
        new Set(names).size,
        names.length,
        `${t.id} (${style}): two near misses or alternatives share a name`,
      );
    }
    // Distinct records make distinct tasks: an instruction and check no other record of the template has.
    const seen = new Map<string, string>();
    for (const q of params) {
      const built = t.build(q, seedDb(t.site));
      const key = phrase(t.phrasings[0], q) + JSON.stringify(built.check);
      assert.ok(!seen.has(key), `${t.id}: records ${seen.get(key)} and ${paramsKey(q)} make the same task`);
      seen.set(key, paramsKey(q));
    }
  }
});

Deno.test("the split keeps each entity of a template in one split: no test entity in train", () => {
  const { lines } = generate(TEMPLATES, { seed: 11, perTemplate: 1000 });
  const splitOfEntity = new Map<string, string>();
  for (const l of lines) {
    const gen = l.gen as { template: string; entity: string };
    const key = `${gen.template}|${gen.entity}`;
    const before = splitOfEntity.get(key);
    assert.ok(before === undefined || before === l.split, `${key} in ${before} and ${l.split}`);
    splitOfEntity.set(key, l.split as string);
  }
  const counts = Object.groupBy(lines, (l) => l.split as string);
  for (const split of ["train", "val", "test"]) assert.ok((counts[split]?.length ?? 0) > 0, `no ${split} instance`);
});

/** Macros only one app of the sandbox has a control for (docs/generation.md, "Coverage"). */
/**
 * Macros only one app's pages support: the marker of the control they need appears in that app's source and no
 * other's (checked below), so a second app's template is not possible without adding the control.
 */
const ONE_APP: Record<string, { app: string; marker: RegExp }> = {
  // Only the tracker's board and backlog have draggable items.
  drag_and_drop: { app: "tracker", marker: /draggable="true"|dragstart/ },
  reorder_list: { app: "tracker", marker: /draggable="true"|dragstart/ },
  // Only mail's compose form has a file input.
  upload_file: { app: "mail", marker: /type="file"/ },
};

Deno.test("the macros excused from two apps really have one app's controls only", async () => {
  const apps = new URL("../sites/apps/", import.meta.url);
  for (const [macro, { app, marker }] of Object.entries(ONE_APP)) {
    const holders = new Set<string>();
    for await (const dir of Deno.readDir(apps)) {
      if (!dir.isDirectory) continue;
      for await (const f of Deno.readDir(new URL(`${dir.name}/`, apps))) {
        if (!f.name.endsWith(".ts") || f.name.endsWith("_test.ts")) continue;
        if (marker.test(await Deno.readTextFile(new URL(`${dir.name}/${f.name}`, apps)))) holders.add(dir.name);
      }
    }
    assert.deepEqual([...holders], [app], `${macro}: the marker ${marker} is in ${[...holders].join(", ")}`);
  }
});

Deno.test("coverage: 40 templates or more, every macro on two apps (or two templates where one app has it)", () => {
  assert.ok(TEMPLATES.length >= 40, `${TEMPLATES.length} templates`);
  for (const macro of MACROS) {
    const on = TEMPLATES.filter((t) => t.macro === macro);
    const apps = new Set(on.map((t) => t.site));
    if (ONE_APP[macro]) assert.ok(on.length >= 2, `${macro}: ${on.length} template(s)`);
    else assert.ok(apps.size >= 2, `${macro}: templates on ${[...apps].join(", ") || "no app"}`);
  }
});

Deno.test("capacity: 5,000 distinct instances or more; chains: 40 % mid-chain, half of those switch family", () => {
  const { lines, meta } = generate(TEMPLATES, { seed: 1, perTemplate: 100_000 });
  const total = meta.templates.reduce((n, t) => n + t.capacity, 0);
  assert.ok(total >= 5000, `the templates can make ${total} instances`);
  assert.equal(lines.length, total, "every record made once");
  const distinct = new Set(lines.map((l) => l.instruction as string + JSON.stringify(l.check)));
  assert.equal(distinct.size, lines.length, "two instances with the same instruction and check");
  // At an equal number per template (the bundled set's rule), the template mix decides the chain shares.
  const chains = TEMPLATES.filter((t) => t.prefix?.length);
  const switching = chains.filter((t) => new Set([...t.prefix!, t.macro].map(familyOf)).size > 1);
  assert.ok(chains.length / TEMPLATES.length >= 0.4, `${chains.length} of ${TEMPLATES.length} templates are chains`);
  assert.ok(switching.length / chains.length >= 0.5, `${switching.length} of ${chains.length} chains switch family`);
});
