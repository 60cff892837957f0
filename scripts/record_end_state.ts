/**
 * Records each human task's reference end state into its verifier.json (`end_state`): the recording replayed by
 * the replay arm on the embedded sandbox, its net change per row (lib/grading's netDiff with the apps' rules).
 * Run it after adding or re-recording a task, then read the diff of verifier.json before committing.
 *
 *   deno run -A scripts/record_end_state.ts [--annotations DIR] [task_id ...]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { netDiff } from "../lib/grading/mod.ts";
import { type ExpectedRow, familyOf, parseEvidence } from "../lib/protocol/mod.ts";
import { writeJsonAtomic } from "../lib/io/mod.ts";
import { BUNDLED, runConfig, runEval } from "../lib/run/mod.ts";
import { loadHumanTasks } from "../lib/tasks/mod.ts";

/** The macros whose outcome is the page they leave the browser on: the Navigation family's, and a search's. */
const endsOnPage = (macro: string) => familyOf(macro) === "Navigation" || macro.split("#")[0] === "search";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { annotations: { type: "string", default: BUNDLED.annotations } },
  allowPositionals: true,
});
const dir = values.annotations!;
const tasks = (await loadHumanTasks({ annotationsDir: dir, split: "all" }))
  .filter((t) => positionals.length === 0 || positionals.includes(t.task_id));
const out = await Deno.makeTempDir({ prefix: "webmix-end-state-" });
try {
  const config = runConfig({ arm: "replay", out, workers: 2, stepScreenshots: false, tasks: { human: true } });
  const summary = await runEval(config, { tasks, log: () => {} });
  let failed = 0;
  for (const r of summary.results) {
    const task = tasks.find((t) => t.task_id === r.task_id)!;
    if (r.error || r.errors?.length) {
      console.error(`${task.key}: the recording did not replay: ${r.error ?? r.errors?.join("; ")}`);
      failed++;
      continue;
    }
    const file = join(out, r.episode, "grade_inputs.json");
    const inputs = JSON.parse(await Deno.readTextFile(file));
    const ev = parseEvidence({ ...inputs, events: [], record: [] }, file);
    const rows: ExpectedRow[] = netDiff(ev.changes, ev.rules).map((d) => ({
      site: d.site,
      table: d.table,
      op: d.op,
      ...(d.op === "insert" ? {} : { key: d.key }),
      fields: Object.fromEntries(d.fields.map((f) => [f, d.after?.[f] ?? null])),
    }));
    const path = join(task.dir, "verifier.json");
    const verifier = JSON.parse(await Deno.readTextFile(path));
    // A task that ends on a navigation ends on a page: the reference's final page, path and query.
    const url = new URL(ev.final!.url);
    const endPage = endsOnPage(task.macro) ? { end_page: url.pathname + url.search } : {};
    delete verifier.end_page;
    await writeJsonAtomic(path, { ...verifier, end_state: rows, ...endPage }, 2);
    console.log(`${task.key}: ${rows.length} row(s)`);
  }
  if (failed) Deno.exit(1);
} finally {
  await Deno.remove(out, { recursive: true }).catch(() => {});
}
