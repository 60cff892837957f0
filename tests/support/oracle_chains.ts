/**
 * The oracle arm over generated chains, against the fixture model server: each instance's scripted model answers
 * macro_done once per prefix macro and then done, and each request must name the adapter of the macro under way
 * (the server refuses any other model with a 400, and the result's `models` must be that sequence). It proves the
 * oracle switches adapter at every family change of a chain, not that the model acts well.
 *
 *   deno run -A tests/support/oracle_chains.ts fixtures/valgen/val.jsonl
 */
import { join } from "node:path";
import { ADAPTER_OF_FAMILY, familyOf } from "../../lib/protocol/mod.ts";
import { agentReply, type FixtureEpisode, startFixtureModelServer } from "../fixture_model_server.ts";
import { readResults, runCli } from "./cli.ts";

const ADAPTERS = ["drag", "io", "select", "rest", "reasoning"];

/** A task line as its file holds it (the fields read here). */
export type TaskLine = {
  task_id: string;
  instruction: string;
  macro: string;
  start: { prefix?: { macro: string; then?: string } | null };
};

/** The adapter sequence the oracle must ask for a task: one per macro of its chain. */
export const expectedModels = (t: TaskLine): string[] =>
  [t.start.prefix?.macro, t.start.prefix?.then, t.macro].filter((m) => m !== undefined).map((m) =>
    ADAPTER_OF_FAMILY[familyOf(m) as keyof typeof ADAPTER_OF_FAMILY]
  );

/** Whether a task's chain changes family. */
export const switchesFamily = (t: TaskLine): boolean => new Set(expectedModels(t)).size > 1;

/** An instance's scripted replies: macro_done per prefix macro, then done, each expecting its adapter. */
function script(t: TaskLine): FixtureEpisode {
  const models = expectedModels(t);
  return {
    marker: t.instruction,
    steps: models.map((model, i) => ({
      reply: i < models.length - 1
        ? agentReply({ macro_done: {} })
        : agentReply({ done: { text: "done", success: true } }),
      expectModel: model,
    })),
  };
}

/** What went wrong per task id: models asked differ from those expected, or the episode never ran. */
export async function runOracleChains(tasks: readonly TaskLine[], workers = 2): Promise<Map<string, string>> {
  await using server = startFixtureModelServer({ models: ["qwen35-4b", ...ADAPTERS], episodes: tasks.map(script) });
  const dir = await Deno.makeTempDir({ prefix: "webmix-oracle-chains-" });
  try {
    const file = join(dir, "tasks.jsonl");
    await Deno.writeTextFile(file, tasks.map((t) => JSON.stringify(t) + "\n").join(""));
    const out = join(dir, "out");
    const r = await runCli("eval.ts", [
      "--arm",
      "oracle",
      "--adapters",
      ADAPTERS.join(","),
      "--tasks",
      file,
      "--out",
      out,
      "--vllm",
      server.url,
      "--workers",
      String(workers),
      "--no-step-screenshots",
    ]);
    const problems = new Map<string, string>();
    const results = new Map((await readResults(out)).map((x) => [x.task_id as string, x]));
    for (const t of tasks) {
      const x = results.get(t.task_id);
      const want = expectedModels(t);
      if (!x) problems.set(t.task_id, `no result (eval exit ${r.code}: ${r.stderr.slice(-300)})`);
      else if (JSON.stringify(x.models) !== JSON.stringify(want)) {
        problems.set(t.task_id, `asked ${JSON.stringify(x.models)}, not ${JSON.stringify(want)} (${x.error ?? ""})`);
      }
    }
    return problems;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const [file] = Deno.args;
  const text = await Deno.readTextFile(file);
  const all: TaskLine[] = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const chains = all.filter(switchesFamily);
  const started = performance.now();
  const problems = await runOracleChains(chains);
  for (const [id, why] of problems) console.log(`PROBLEM ${id}: ${why}`);
  const s = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`${chains.length} of ${all.length} instances change family; ${problems.size} problems (${s} s)`);
  Deno.exit(problems.size ? 1 : 0);
}
