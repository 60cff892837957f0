/**
 * The oracle arm over generated chains that change family, against the fixture model server: it asks the prefix
 * macro's adapter first and switches at each macro_done. The instances run are those that together hold every
 * adapter sequence and every macro of the chains (the oracle's choice reads nothing else: each request's adapter
 * is its macro's family's); every such template's instance under `deno task test:full`, and
 * tests/support/oracle_chains.ts runs the same over a whole set, such as fixtures/valgen/val.jsonl.
 */
import assert from "node:assert/strict";
import { generate, TEMPLATES } from "../lib/gen/mod.ts";
import { covering } from "./support/cover.ts";
import { expectedModels, runOracleChains, switchesFamily, type TaskLine } from "./support/oracle_chains.ts";

const macrosOf = (t: TaskLine) => [t.start.prefix?.macro, t.start.prefix?.then, t.macro].filter((m) => m !== undefined);
/** What an instance exercises in the oracle: its adapter sequence and its macros. */
const traits = (t: TaskLine) => [`models:${expectedModels(t).join(">")}`, ...macrosOf(t).map((m) => `macro:${m}`)];

Deno.test("the oracle switches adapter at every family change of a generated chain", async () => {
  const { lines } = generate(TEMPLATES, { seed: 6, perTemplate: 1 });
  const all = (lines as unknown as TaskLine[]).filter(switchesFamily);
  const chains = covering(all, traits);
  assert.ok(chains.length >= 1, "no generated chain changes family");
  assert.ok(chains.every((t) => expectedModels(t).length >= 2));
  assert.deepEqual(new Set(chains.flatMap(traits)), new Set(all.flatMap(traits)));
  const problems = await runOracleChains(chains);
  assert.deepEqual([...problems], []);
});

Deno.test("the oracle leaves the select, drag and io adapters at macro_done, and switches twice in a 3-macro chain", async () => {
  const { lines } = generate(TEMPLATES, { seed: 6, perTemplate: 1 });
  const all = lines as unknown as TaskLine[];
  const leaves = (t: TaskLine, from: string) =>
    expectedModels(t).some((m, i, models) => m === from && i + 1 < models.length && models[i + 1] !== m);
  const changes = (t: TaskLine) => expectedModels(t).filter((m, i, models) => i > 0 && models[i - 1] !== m).length;
  const picked = ["select", "drag", "io"].map((from) => {
    const t = all.find((x) => leaves(x, from) && changes(x) >= 2) ?? all.find((x) => leaves(x, from));
    assert.ok(t, `no generated chain leaves the ${from} adapter`);
    return t;
  });
  assert.ok(picked.some((t) => changes(t) >= 2), "no generated chain switches adapter twice");
  const problems = await runOracleChains(picked);
  assert.deepEqual([...problems], []);
});
