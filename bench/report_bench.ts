/**
 * Reading a run: the cost of the step record during a run (one steps.jsonl line appended per step) and of what is
 * written from run folders afterwards (viewer.html at the end of every run, report.md/html). The run folder is
 * synthetic but shaped like a model arm's: EPISODES episodes of STEPS steps, each request's text carrying the
 * growing agent history and a 60-element list (about 6-12 kB a step), as a real base-arm run writes them.
 *
 *   deno bench --allow-read --allow-write --allow-env bench/report_bench.ts
 */
import { join } from "node:path";
import { manifestJson, type StepRecord } from "../lib/run_folder/mod.ts";
import { manifestFixture } from "../lib/run_folder/_testdata.ts";
import { loadRun, writeReport, writeViewer } from "../lib/report/mod.ts";
import { StepLog } from "../lib/run/steps.ts";

const EPISODES = 200;
const STEPS = 20;
const MACROS = ["paginate", "drag_and_drop", "copy_to_clipboard", "fill_form", "search", "answer_question"];

const elements = Array.from({ length: 60 }, (_, i) => `[${i + 1}]<a href=/shop/products/${i} />\n\tProduct ${i}`)
  .join("\n");

function requestText(task: string, step: number): string {
  const history = Array.from(
    { length: step - 1 },
    (_, i) =>
      `<step_${i + 1}>\nEvaluation of Previous Step: ok\nMemory: looked at page ${i}\nNext Goal: open product ${i}\n` +
      `Action Results:\nAction 1/1: click {"index":${i + 3}}: Clicked element ${i + 3} <a> "Product ${i}"\n` +
      `</step_${i + 1}>`,
  ).join("\n");
  return `<agent_history>\n${history || "<sys>Agent initialized</sys>"}\n</agent_history>\n<agent_state>\n` +
    `<user_request>\n${task}\n</user_request>\n<step_info>\nStep ${step} of 40 max possible steps\n</step_info>\n` +
    `</agent_state>\n<browser_state>\nInteractive elements from top layer of the current page inside the viewport:\n` +
    `${elements}\n</browser_state>`;
}

function stepRecord(task: string, step: number): StepRecord {
  const reply = {
    thinking: `Step ${step}: the product list is open; the next product is further down.`,
    evaluation_previous_goal: "ok",
    memory: `visited ${step} pages`,
    next_goal: `open product ${step}`,
    action: [{ click: { index: step + 3 } }],
  };
  return {
    kind: "agent",
    step,
    model: "rest",
    family: "Navigation",
    url: `http://127.0.0.1:8318/shop/products?page=${step}`,
    title: "All products · Shop",
    request: { system_sha256: "0".repeat(64), text: requestText(task, step), screenshot: `step_${step}.png` },
    reply: JSON.stringify(reply),
    parsed: reply,
    actions: [{ action: reply.action[0], ok: true, extracted: `Clicked element ${step + 3} <a> "Product ${step}"` }],
    usage: { prompt_tokens: 3000 + step * 120, completion_tokens: 60, total_tokens: 3060 + step * 120 },
    latency_ms: 900 + step,
    attempts: 1,
    start: 1_800_000_000 + step,
    end: 1_800_000_001 + step,
  };
}

/** A run folder with EPISODES episodes of STEPS steps. */
async function syntheticRun(): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "webmix-report-bench-" });
  const lines: string[] = [];
  for (let e = 0; e < EPISODES; e++) {
    const id = `task_${e}`, macro = MACROS[e % MACROS.length];
    const dir = join(out, id);
    await Deno.mkdir(dir);
    const task = `Task ${e}: in the shop's product list, open the ${e}th product and report its price.`;
    const steps = Array.from({ length: STEPS }, (_, i) => JSON.stringify(stepRecord(task, i + 1)) + "\n");
    await Deno.writeTextFile(join(dir, "steps.jsonl"), steps.join(""));
    const ok = e % 3 !== 0;
    lines.push(
      JSON.stringify({
        task_id: id,
        episode: id,
        repeat: 0,
        macro,
        site: "shop",
        arm: "oracle",
        ok,
        status: ok ? "passed" : "failed",
        detail: ok ? "passed" : "no change matched",
        steps: STEPS,
        models: Array(STEPS).fill("rest"),
        duration_s: 25,
      }) + "\n",
    );
  }
  await Deno.writeTextFile(join(out, "results.jsonl"), lines.join(""));
  const ids = Array.from({ length: EPISODES }, (_, e) => `task_${e}`);
  await Deno.writeTextFile(
    join(out, "run.json"),
    manifestJson(manifestFixture({ arm: "oracle" }, { count: EPISODES, ids })),
  );
  return out;
}

/** The median wall time (ms) of `times` runs of `fn`, after one warm-up run. */
async function medianMs(times: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b)[Math.floor(times / 2)];
}

const run = await syntheticRun();
const viewer = await writeViewer(run);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
let stepsBytes = 0;
for await (const e of Deno.readDir(run)) {
  if (e.isDirectory) stepsBytes += (await Deno.stat(join(run, e.name, "steps.jsonl"))).size;
}
// Medians (what the README quotes); Deno.bench below gives the spread.
const viewerMs = await medianMs(5, () => writeViewer(run));
const reportMs = await medianMs(5, async () => writeReport([await loadRun(run)], run));
console.log(
  `report_bench: ${EPISODES} episodes x ${STEPS} steps, steps.jsonl ${mb(stepsBytes)} in all; ` +
    `viewer.html ${mb((await Deno.stat(viewer)).size)}, median ${viewerMs.toFixed(0)} ms; ` +
    `report.md + report.html median ${reportMs.toFixed(0)} ms`,
);

Deno.bench(`viewer.html for ${EPISODES} episodes x ${STEPS} steps`, { n: 5, warmup: 1 }, async () => {
  await writeViewer(run);
});

Deno.bench(`report.md + report.html for ${EPISODES} episodes x ${STEPS} steps`, { n: 5, warmup: 1 }, async () => {
  await writeReport([await loadRun(run)], run);
});

const log = new StepLog(run, await Deno.makeTempDir({ dir: run }), new Map());
let step = 0;
Deno.bench("one step record appended to steps.jsonl (step 10 of an episode)", async () => {
  await log.sink({ ...stepRecord("a task", 10), step: ++step });
});
