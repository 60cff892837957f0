/**
 * The bundled generated set, fixtures/valgen/val.jsonl: what its command makes (every line byte for byte, none
 * missing but those its proof dropped), read by the task loader, and large and mixed enough to compare arms on.
 * (Its proof in the browser: `deno task gen --verify --tasks fixtures/valgen/val.jsonl`, quoted in the README.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { generate, TEMPLATES } from "../lib/gen/mod.ts";
import { loadTasks } from "../lib/tasks/mod.ts";
import { ADAPTER_OF_FAMILY, familyOf, MACROS, type Task } from "../lib/protocol/mod.ts";
import { ROOT } from "./support/cli.ts";

const FILE = join(ROOT, "fixtures/valgen/val.jsonl");

Deno.test("the bundled valgen set is what its command makes, less what its proof dropped", async () => {
  const meta = JSON.parse(await Deno.readTextFile(join(ROOT, "fixtures/valgen/val.gen.json")));
  const made = generate(TEMPLATES, { seed: meta.seed, perTemplate: meta.per_template }).lines;
  const byId = new Map(made.map((l) => [l.task_id, JSON.stringify(l)]));
  const lines = (await Deno.readTextFile(FILE)).trim().split("\n");
  for (const line of lines) {
    const id = JSON.parse(line).task_id;
    assert.equal(
      line,
      byId.get(id),
      `${id}: not what the generator makes now (regenerate the set: docs/generation.md)`,
    );
  }
  assert.equal(meta.proof.dropped, 0, "the bundled set's proof dropped nothing");
  assert.equal(lines.length, made.length, "every instance the command makes is in the set");
});

Deno.test("the bundled valgen set: 600 instances or more, every macro 20 times, four apps, 40 % mid-chain", async () => {
  const tasks = (await loadTasks(FILE)) as Task[];
  assert.ok(tasks.length >= 600, `${tasks.length} instances`);
  const perMacro = Object.groupBy(tasks, (t) => t.macro);
  for (const m of MACROS) assert.ok((perMacro[m]?.length ?? 0) >= 20, `${m}: ${perMacro[m]?.length ?? 0} instances`);
  assert.deepEqual(new Set(tasks.map((t) => t.site)), new Set(["shop", "mail", "tracker", "bookings"]));
  const chains = tasks.filter((t) => t.start.prefix);
  const switching = chains.filter((t) => new Set(t.gen!.chain.map(familyOf)).size > 1);
  assert.ok(chains.length >= 0.4 * tasks.length, `${chains.length} of ${tasks.length} start mid-chain`);
  assert.ok(switching.length >= 0.5 * chains.length, `${switching.length} of ${chains.length} chains switch family`);
});

/** The adapter changes of a task's chain as the oracle routes it: [from, to] at each macro_done that switches. */
const adapterChanges = (t: Task) => {
  const a = t.gen!.chain.map((m) => (ADAPTER_OF_FAMILY as Record<string, string>)[familyOf(m)] ?? "rest");
  return a.slice(1).flatMap((to, i) => a[i] === to ? [] : [[a[i], to]]);
};

Deno.test("the bundled valgen set: 15 % switch away from a non-rest adapter, 5 % switch adapter twice", async () => {
  const tasks = (await loadTasks(FILE)) as Task[];
  const away = tasks.filter((t) => adapterChanges(t).some(([from]) => from !== "rest"));
  const twice = tasks.filter((t) => adapterChanges(t).length >= 2);
  assert.ok(away.length >= 0.15 * tasks.length, `${away.length} of ${tasks.length} leave a non-rest adapter`);
  assert.ok(twice.length >= 0.05 * tasks.length, `${twice.length} of ${tasks.length} switch adapter twice`);
  // Each of the non-rest adapters a prefix can use is left by some chain.
  const left = new Set(away.flatMap((t) => adapterChanges(t).map(([from]) => from)));
  for (const a of ["select", "drag", "io"]) assert.ok(left.has(a), `no chain leaves the ${a} adapter`);
});
