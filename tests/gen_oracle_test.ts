/**
 * The oracle arm over generated chains that change family, against the fixture model server: it asks the prefix
 * macro's adapter first and switches at each macro_done. The instances run are those that together hold every
 * adapter sequence and every macro of the chains (the oracle's choice reads nothing else: each request's adapter
 * is its macro's family's); every such template's instance under `deno task test:full`, and
 * tests/support/oracle_chains.ts runs the same over a whole set, such as fixtures/valgen/val.jsonl. Both tests read
 * one eval.ts run: the chains the second picks are among those it runs, each an independent episode whose requests
 * the fixture server checks on their own.
 */
import assert from "node:assert/strict";
import { generate, TEMPLATES } from "../lib/gen/mod.ts";
import { covering } from "./support/cover.ts";
import { once } from "./support/shared_run.ts";
import { expectedModels, runOracleChains, switchesFamily, type TaskLine } from "./support/oracle_chains.ts";

const macrosOf = (t: TaskLine) => [t.start.prefix?.macro, t.start.prefix?.then, t.macro].filter((m) => m !== undefined);
/** What an instance exercises in the oracle: its adapter sequence and its macros. */
const traits = (t: TaskLine) => [`models:${expectedModels(t).join(">")}`, ...macrosOf(t).map((m) => `macro:${m}`)];
/** Whether the oracle leaves adapter `from` for another within `t`'s chain. */
const leaves = (t: TaskLine, from: string) =>
  expectedModels(t).some((m, i, models) => m === from && i + 1 < models.length && models[i + 1] !== m);
/** How many times `t`'s chain switches adapter. */
const changes = (t: TaskLine) => expectedModels(t).filter((m, i, models) => i > 0 && models[i - 1] !== m).length;
const LEFT = ["select", "drag", "io"];

interface Run {
  /** The generated instances (seed 6, one a template). */
  all: TaskLine[];
  /** Per adapter of LEFT, the first instance that leaves it and then switches again (else the first that leaves it). */
  picked: (TaskLine | undefined)[];
  /** The instances run: the picked ones, then the fewest family-changing ones holding every trait besides. */
  chains: TaskLine[];
  /** What went wrong per task id. */
  problems: Map<string, string>;
}

/** The one oracle run both tests read (the first to ask starts it). */
const oracleRun = once(async (): Promise<Run> => {
  const { lines } = generate(TEMPLATES, { seed: 6, perTemplate: 1 });
  const all = lines as unknown as TaskLine[];
  const picked = LEFT.map((from) =>
    all.find((x) => leaves(x, from) && changes(x) >= 2) ?? all.find((x) => leaves(x, from))
  );
  const chains = covering(all.filter(switchesFamily), traits, { given: picked.filter((t) => t !== undefined) });
  return { all, picked, chains, problems: await runOracleChains(chains) };
});

Deno.test("the oracle switches adapter at every family change of a generated chain", async () => {
  const { all, chains, problems } = await oracleRun();
  const switching = all.filter(switchesFamily);
  assert.ok(chains.length >= 1, "no generated chain changes family");
  assert.ok(chains.every((t) => expectedModels(t).length >= 2));
  assert.ok(chains.every((t) => switching.includes(t)), "only chains that change family");
  assert.deepEqual(new Set(chains.flatMap(traits)), new Set(switching.flatMap(traits)));
  assert.deepEqual([...problems], []);
});

Deno.test("the oracle leaves the select, drag and io adapters at macro_done, and switches twice in a 3-macro chain", async () => {
  const { picked, chains, problems } = await oracleRun();
  LEFT.forEach((from, i) => assert.ok(picked[i], `no generated chain leaves the ${from} adapter`));
  const ts = picked as TaskLine[];
  assert.ok(ts.some((t) => changes(t) >= 2), "no generated chain switches adapter twice");
  assert.ok(ts.every((t) => chains.includes(t)), "the picked chains are run");
  const ids = new Set(ts.map((t) => t.task_id));
  assert.deepEqual([...problems].filter(([id]) => ids.has(id)), []);
});
