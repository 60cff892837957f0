/**
 * Demonstration rows per minute on this machine, and the size of a rows folder: gen.ts --demonstrations' code path
 * (lib/gen demonstrate) over a sample of the bundled set's train split, one instance per template (the first
 * `--templates N` templates, all 92 by default), run `--runs R` times; prints each run and the medians, and what they
 * make of the whole train split (its instance count over the sample's rows per instance and bytes per row).
 *
 *   deno run --allow-net=127.0.0.1,localhost --allow-read --allow-write --allow-env --allow-run --allow-sys \
 *     bench/demonstrations.ts [--templates N] [--runs R] [--workers W] [--json FILE]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { demonstrate } from "../lib/gen/mod.ts";
import { loadTasks } from "../lib/tasks/mod.ts";
import { type Task } from "../lib/protocol/mod.ts";
import { median } from "./_runs.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    templates: { type: "string", default: "92" },
    runs: { type: "string", default: "1" },
    workers: { type: "string", default: "2" },
    json: { type: "string" },
  },
});

/** The bytes under a folder. */
async function folderBytes(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    n += e.isDirectory ? await folderBytes(path) : (await Deno.stat(path)).size;
  }
  return n;
}

const all = (await loadTasks(new URL("../fixtures/valgen/val.jsonl", import.meta.url).pathname))
  .filter((t): t is Task => !("kind" in t) && t.split === "train");
const seen = new Set<string>();
const sample = all.filter((t) => !seen.has(t.gen!.template) && seen.add(t.gen!.template))
  .slice(0, Number(values.templates));

const runs = [];
for (let i = 0; i < Number(values.runs); i++) {
  const to = await Deno.makeTempDir({ prefix: "webmix-bench-demo-" });
  try {
    const r = await demonstrate(sample, { to: join(to, "rows"), workers: Number(values.workers) });
    const bytes = await folderBytes(join(to, "rows"));
    const run = {
      instances: r.instances,
      written: r.episodes.length,
      dropped: r.dropped.length,
      rows: r.rows,
      seconds: Math.round(r.seconds * 10) / 10,
      rows_per_minute: Math.round((r.rows / r.seconds) * 60),
      bytes,
      bytes_per_row: Math.round(bytes / Math.max(1, r.rows)),
    };
    console.error(JSON.stringify(run));
    runs.push(run);
  } finally {
    await Deno.remove(to, { recursive: true }).catch(() => {});
  }
}
const rowsPerInstance = median(runs.map((r) => r.rows / Math.max(1, r.written)));
const bytesPerRow = median(runs.map((r) => r.bytes_per_row));
const summary = {
  sample: sample.length,
  workers: Number(values.workers),
  runs,
  median_rows_per_minute: median(runs.map((r) => r.rows_per_minute)),
  train_instances: all.length,
  train_rows_estimate: Math.round(rowsPerInstance * all.length),
  train_bytes_estimate: Math.round(rowsPerInstance * all.length * bytesPerRow),
};
console.log(JSON.stringify(summary, null, 2));
if (values.json) await Deno.writeTextFile(values.json, JSON.stringify(summary, null, 2) + "\n");
