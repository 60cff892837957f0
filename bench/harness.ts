/**
 * Harness overhead measured on real runs (real Chromium, the real sandbox, the real openai client) against the
 * fixture model server: per step (state capture with screenshot, message build with the screenshot's encoding,
 * parse, action, bookkeeping; the model's own latency subtracted), per episode set-up, with 1, 2 and 4 workers; and
 * the harness's share of wall time when the model answers in 1 s with 8 workers. Each run also reads /proc for the
 * CPU time an episode costs (this Deno process, Chromium's processes) and the memory (PSS) of both, from which the
 * memory per added worker. Prints Markdown tables, the last one with issue 25's targets and figures before (the baseline saved
 * in bench/harness_baseline.json, with its commit and date) and now.
 *
 *   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run --allow-sys bench/harness.ts \
 *     [--tasks N] [--slow-tasks N] [--workers-per-browser K] [--save-baseline FILE --label TEXT]
 *
 * --workers-per-browser: the runs' K (default: the runner's default).
 * --tasks: episodes of the zero-latency runs (default 16); --slow-tasks: of the 8-worker run with the 1 s model
 * (default 48, six per worker: with two, half the episodes waited for their worker's Chromium to start).
 * --save-baseline writes this run's figures as a baseline (what bench/harness_baseline.json holds).
 *
 * The harness share of an episode is 1 − (its model calls' latency, as the client measured it) / (its duration,
 * from before its context opens to after it closes). The client's latency includes what the harness does inside
 * the call (serialising the request with its screenshot, parsing the reply) and the fixture server's own work in
 * this process, which a real model server does elsewhere; the strict share counts only the fixture's scripted
 * delay (1 s a call) as the model's, so everything else is the harness's.
 *
 * WEBMIX_BENCH_BASES=http://127.0.0.1:8318 measures against a site server in its own process instead of the embedded one.
 */
import { parseArgs } from "node:util";
import { measure as measureRun, type Measured, median, quantile } from "./_runs.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    tasks: { type: "string", default: "16" },
    "slow-tasks": { type: "string", default: "48" },
    "save-baseline": { type: "string" },
    label: { type: "string", default: "" },
    "workers-per-browser": { type: "string" },
  },
});
const workersPerBrowser = values["workers-per-browser"] ? Number(values["workers-per-browser"]) : undefined;
const measure = (workers: number, delayMs: number, tasks: number) =>
  measureRun({ workers, delayMs, tasks, workersPerBrowser });
const STEPS = 4;

/** The figures of one bench run (bench/harness_baseline.json holds the run before issue 25's shared browsers). */
interface Figures {
  /** Which tree ran (a commit, and what it is). */
  label: string;
  date: string;
  /** The load average when the run began: the figures are noisy when other work shares the machine. */
  loadAverage: string;
  setupMs1: number;
  stepMs1: number;
  stepP90Ms1: number;
  share8: number;
  strictShare8: number;
  /** CPU time per episode at 8 workers, 1 s model: this process, Chromium's processes. */
  denoCpuMs8: number;
  chromiumCpuMs8: number;
  /** Peak PSS of Chromium's processes and of this process, by number of workers. */
  memory: { workers: number; chromiumMb: number; denoMb: number }[];
  /** Chromium's peak PSS per added worker (least-squares slope over the runs). */
  perWorkerMb: number;
  /** A baseline made of several runs (per-figure medians): each figure's min–max over them. */
  spread?: Partial<Record<keyof Figures, string>>;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const rows: string[] = [];
const phases: string[] = [];
const costs: string[] = [];
const runs: Measured[] = [];
const phase = (label: string, m: Measured) =>
  phases.push(
    `| ${label} | ${ms(median(m.contextMs))} | ${ms(median(m.setupMs.map((x, i) => x - m.contextMs[i])))} | ` +
      `${ms(median(m.finishMs))} |`,
  );
const cost = (label: string, m: Measured) =>
  costs.push(
    `| ${label} | ${ms(m.usage.denoCpuMs / m.summary.ran)} | ${ms(m.usage.childCpuMs / m.summary.ran)} | ` +
      `${((m.usage.denoCpuMs + m.usage.childCpuMs) / m.wallS / 10).toFixed(0)} % of a core | ` +
      `${m.usage.childPssMb.toFixed(0)} MB | ${m.usage.denoPssMb.toFixed(0)} MB |`,
  );
const loadAverage = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
const zeroTasks = Number(values.tasks);
for (const workers of [1, 2, 4]) {
  const m = await measure(workers, 0, zeroTasks);
  runs.push(m);
  const label = `zero-latency model, ${workers} worker${workers > 1 ? "s" : ""}`;
  phase(label, m);
  cost(label, m);
  rows.push(
    `| ${label} | ${ms(median(m.stepMs))} | ${ms(quantile(m.stepMs, 0.9))} | ${ms(median(m.setupMs))} | ` +
      `${(m.summary.ran / m.wallS * 60).toFixed(0)} episodes/min |`,
  );
}
const slow = await measure(8, 1000, Number(values["slow-tasks"]));
runs.push(slow);
phase("1 s model, 8 workers", slow);
cost("1 s model, 8 workers", slow);
rows.push(
  `| 1 s model, 8 workers | ${ms(median(slow.stepMs))} | ${ms(quantile(slow.stepMs, 0.9))} | ` +
    `${ms(median(slow.setupMs))} | ${(slow.summary.ran / slow.wallS * 60).toFixed(0)} episodes/min; ` +
    `harness share of wall time ${pct(median(slow.harnessShare))} (strict ${pct(median(slow.strictShare))}), ` +
    `median per episode |`,
);

const memory = runs.map((m) => ({
  workers: m.workers,
  chromiumMb: Math.round(m.usage.childPssMb),
  denoMb: Math.round(m.usage.denoPssMb),
}));
const slope = (pts: { x: number; y: number }[]) => {
  const mx = pts.reduce((a, p) => a + p.x, 0) / pts.length;
  const my = pts.reduce((a, p) => a + p.y, 0) / pts.length;
  return pts.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / pts.reduce((a, p) => a + (p.x - mx) ** 2, 0);
};
const one = runs[0];
const now: Figures = {
  label: values.label || "this tree",
  date: new Date().toISOString(),
  loadAverage,
  setupMs1: Math.round(median(one.setupMs)),
  stepMs1: Math.round(median(one.stepMs)),
  stepP90Ms1: Math.round(quantile(one.stepMs, 0.9)),
  share8: Math.round(median(slow.harnessShare) * 1000) / 1000,
  strictShare8: Math.round(median(slow.strictShare) * 1000) / 1000,
  denoCpuMs8: Math.round(slow.usage.denoCpuMs / slow.summary.ran),
  chromiumCpuMs8: Math.round(slow.usage.childCpuMs / slow.summary.ran),
  memory,
  perWorkerMb: Math.round(slope(memory.map((m) => ({ x: m.workers, y: m.chromiumMb })))),
};

console.log(
  `${zeroTasks} tasks (zero-latency runs), ${slow.summary.ran} tasks (8 workers) × ${STEPS} steps, base arm ` +
    `against the fixture model server; load average at the start ${loadAverage} on ${navigator.hardwareConcurrency} ` +
    `cores\n`,
);
console.log("| run | harness per step (median) | p90 | episode set-up (median) | throughput |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log("\n| run | fresh context (median) | session start + setup | evidence + grade + artifacts |");
console.log("|---|---|---|---|");
for (const p of phases) console.log(p);
console.log(
  "\n| run | CPU per episode, Deno (harness, sites, fixture model) | CPU per episode, Chromium | CPU in use | " +
    "Chromium PSS (peak) | Deno PSS (peak) |",
);
console.log("|---|---|---|---|---|---|");
for (const c of costs) console.log(c);
console.log(
  `\nChromium memory per added worker: ${now.perWorkerMb} MB (slope of the peak PSS over 1, 2, 4, 8 workers)`,
);

const baselineFile = new URL("./harness_baseline.json", import.meta.url);
const before: Figures | null = await Deno.readTextFile(baselineFile).then(JSON.parse, () => null);
const figure = (name: string, target: string, key: keyof Figures, f: (x: Figures) => string) => {
  const range = before?.spread?.[key];
  console.log(`| ${name} | ${target} | ${before ? f(before) : "—"}${range ? ` (runs: ${range})` : ""} | ${f(now)} |`);
};
console.log(
  `\nIssue 25's targets: before (${
    before ? `${before.label}, ${before.date}, load ${before.loadAverage}` : "no baseline"
  }) and now`,
);
console.log("\n| figure | target | before | now |");
console.log("|---|---|---|---|");
figure("episode set-up, 1 worker (median)", "≤ 120 ms", "setupMs1", (x) => ms(x.setupMs1));
figure("harness per step, 1 worker (median)", "≤ 60 ms", "stepMs1", (x) => ms(x.stepMs1));
figure("harness per step, 1 worker (p90)", "", "stepP90Ms1", (x) => ms(x.stepP90Ms1));
figure("harness share of wall time, 8 workers, 1 s model", "≤ 15 %", "share8", (x) => pct(x.share8));
figure("the same, strict (all but the scripted 1 s is harness)", "", "strictShare8", (x) => pct(x.strictShare8));
figure("CPU per episode at 8 workers, Deno", "", "denoCpuMs8", (x) => ms(x.denoCpuMs8));
figure("CPU per episode at 8 workers, Chromium", "≤ 600 ms", "chromiumCpuMs8", (x) => ms(x.chromiumCpuMs8));
figure("Chromium memory per added worker (PSS)", "≤ 60 MB", "perWorkerMb", (x) => `${x.perWorkerMb} MB`);
if (values["save-baseline"]) await Deno.writeTextFile(values["save-baseline"], JSON.stringify(now, null, 2) + "\n");
