/**
 * The figures a cluster user sizes a job by, measured on this machine, and the sizing table docs/cluster.md holds,
 * derived from them; then one row of the table checked by a real run.
 *
 *   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run --allow-sys bench/sizing.ts \
 *     [--workers-per-browser K] [--steps S] [--check-workers W] [--check-latency-s L] [--json FILE]
 *
 * Measured (base arm, fixture model server, bench/_runs.ts):
 * - h0, e0: the harness's wall time per step and per episode (set-up + evidence, grade, artifacts) with one worker
 *   and nothing else running (medians);
 * - CPU-seconds per step and per episode (this process and Chromium's processes): the slope and intercept of the
 *   CPU per episode between episodes of 4 and of 16 steps, 4 workers;
 * - memory (PSS) of Chromium's processes: shared once + per browser + per worker, solved from runs of 1, K and 2K
 *   workers (one browser, one, two).
 *
 * The model (docs/cluster.md, "Sizing"): an episode of S steps with a model answering in L seconds lasts
 * D = S·(L + h) + e, and W workers on C cores keep a fraction ρ = W·(S·cs + ce) / (D·C) of the cores busy (or
 * of the Deno process's one thread, W·(S·ds + de) / D, when that is more); the
 * harness's waits stretch with the cores' load as h = h0 / (1 − ρ), e = e0 / (1 − ρ) (a queue's waiting time). The
 * harness share is (S·h + e) / D. The table gives, per node and latency, the most workers whose predicted share
 * stays under 5 % (and under 10 %), and the most that fit in memory; the check runs W workers at L seconds here and
 * prints the measured median share beside the prediction for this machine's cores.
 */
import { parseArgs } from "node:util";
import { DEFAULT_WORKERS_PER_BROWSER } from "../lib/run/config.ts";
import { measure, median } from "./_runs.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "workers-per-browser": { type: "string", default: String(DEFAULT_WORKERS_PER_BROWSER) },
    steps: { type: "string", default: "10" },
    "check-workers": { type: "string", default: "16" },
    "check-latency-s": { type: "string", default: "3" },
    json: { type: "string" },
    costs: { type: "string" },
    jitter: { type: "string", default: "0.5" },
  },
});
const K = Number(values["workers-per-browser"]);
const S = Number(values.steps);

/** What the table is derived from. */
export interface Costs {
  /** Harness wall time per step and per episode, one worker alone, ms. */
  h0Ms: number;
  e0Ms: number;
  /** CPU per step and per episode, Deno + Chromium, ms. */
  cpuStepMs: number;
  cpuEpisodeMs: number;
  /** The Deno process's part of them (one thread runs the harness, the embedded sandbox and the fixture model). */
  denoStepMs: number;
  denoEpisodeMs: number;
  /**
   * PSS, MB: the Deno process; what Chromium's processes share once however many browsers run (their libraries'
   * pages split among them); each browser; each worker.
   */
  denoMb: number;
  sharedMb: number;
  browserMb: number;
  workerMb: number;
}

const cpuPerEpisode = (m: Awaited<ReturnType<typeof measure>>) =>
  (m.usage.denoCpuMs + m.usage.childCpuMs) / m.summary.ran;

/** The costs measured now, or read from a --json file of an earlier run (--costs). */
async function measureCosts(): Promise<Costs> {
  if (values.costs) return JSON.parse(await Deno.readTextFile(values.costs)).costs;
  const alone = await measure({ workers: 1, delayMs: 0, tasks: 6, steps: 16, workersPerBrowser: K });
  const short = await measure({ workers: 4, delayMs: 300, tasks: 16, steps: 4, workersPerBrowser: K });
  const long = await measure({ workers: 4, delayMs: 300, tasks: 16, steps: 16, workersPerBrowser: K });
  const wide = await measure({ workers: 8, delayMs: 300, tasks: 16, steps: 4, workersPerBrowser: K });
  const cpuStepMs = (cpuPerEpisode(long) - cpuPerEpisode(short)) / 12;
  const deno = (m: typeof short) => m.usage.denoCpuMs / m.summary.ran;
  const denoStepMs = (deno(long) - deno(short)) / 12;
  // Chromium's PSS = shared + browsers · browserMb + workers · workerMb, solved over three runs.
  const runs = [alone, long, wide].map((m) => ({
    w: m.workers,
    b: Math.ceil(m.workers / K),
    mb: m === long ? Math.max(long.usage.childPssMb, short.usage.childPssMb) : m.usage.childPssMb,
  }));
  const [sharedMb, browserMb, workerMb] = solve3(runs.map((r) => [1, r.b, r.w]), runs.map((r) => r.mb));
  return {
    h0Ms: median(alone.stepMs),
    e0Ms: median(alone.setupMs) + median(alone.finishMs),
    cpuStepMs,
    cpuEpisodeMs: cpuPerEpisode(short) - 4 * cpuStepMs,
    denoStepMs,
    denoEpisodeMs: deno(short) - 4 * denoStepMs,
    denoMb: Math.max(...[alone, short, long, wide].map((m) => m.usage.denoPssMb)),
    sharedMb,
    browserMb,
    workerMb,
  };
}

/** x with a·x = y for a 3×3 matrix a (Cramer's rule); the runs' shapes keep it regular (1, K and 2K workers). */
function solve3(a: number[][], y: number[]): number[] {
  const det = (m: number[][]) =>
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
    m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  const d = det(a);
  if (Math.abs(d) < 1e-9) throw new Error("the memory runs cannot tell browsers from workers (K = 1?): use K ≥ 2");
  return [0, 1, 2].map((col) => det(a.map((row, i) => row.map((v, j) => (j === col ? y[i] : v)))) / d);
}
const costs = await measureCosts();

/** The predicted harness share of W workers on C cores with a model answering in L s, and the load ρ. */
export function predict(c: Costs, w: number, cores: number, latencyS: number, steps: number) {
  // D depends on ρ and ρ on D: a few rounds of the fixed point settle it.
  let rho = 0;
  let d = 0;
  for (let i = 0; i < 50; i++) {
    const stretch = 1 / Math.max(1 - rho, 0.02);
    d = steps * (latencyS * 1000 + c.h0Ms * stretch) + c.e0Ms * stretch;
    // The cores' load, or the Deno thread's when it is the busier: either makes the harness wait.
    rho = Math.min(
      0.98,
      Math.max(
        (w * (steps * c.cpuStepMs + c.cpuEpisodeMs)) / (d * cores),
        (w * (steps * c.denoStepMs + c.denoEpisodeMs)) / d,
      ),
    );
  }
  const stretch = 1 / Math.max(1 - rho, 0.02);
  return { share: (steps * c.h0Ms + c.e0Ms) * stretch / d, rho };
}

/** The most workers (up to 512) whose predicted share is at most `limit`; 0 when even one is over. */
function most(c: Costs, cores: number, latencyS: number, limit: number): number {
  let w = 0;
  while (w < 512 && predict(c, w + 1, cores, latencyS, S).share <= limit) w++;
  return w;
}

/** Chromium's predicted PSS with `w` workers. */
const chromiumMb = (c: Costs, w: number) => c.sharedMb + Math.ceil(w / K) * c.browserMb + w * c.workerMb;

const memoryFits = (c: Costs, gb: number) => {
  let w = 0;
  const need = (n: number) => chromiumMb(c, n) + c.denoMb;
  while (w < 4096 && need(w + 1) <= gb * 1024 * 0.9) w++; // a tenth left to the system
  return w;
};

const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(
  `Measured on ${navigator.hardwareConcurrency} cores, ${K} workers per browser, load at the end ` +
    `${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}:\n`,
);
console.log("| figure | value |");
console.log("|---|---|");
console.log(`| harness wall time per step, one worker alone (h0, median) | ${ms(costs.h0Ms)} |`);
console.log(`| harness wall time per episode, set-up + evidence/grade/artifacts (e0, median) | ${ms(costs.e0Ms)} |`);
console.log(`| CPU per step, Deno + Chromium | ${ms(costs.cpuStepMs)} |`);
console.log(`| CPU per episode besides its steps | ${ms(costs.cpuEpisodeMs)} |`);
console.log(
  `| of which this Deno process (one thread: harness, sandbox, fixture model), per step / per episode | ` +
    `${ms(costs.denoStepMs)} / ${ms(costs.denoEpisodeMs)} |`,
);
console.log(
  `| memory (PSS): the Deno process / Chromium shared once / each browser / each worker | ` +
    `${costs.denoMb.toFixed(0)} / ${costs.sharedMb.toFixed(0)} / ${costs.browserMb.toFixed(0)} / ` +
    `${costs.workerMb.toFixed(0)} MB |`,
);

const nodes = [[2, 8], [8, 32], [16, 64], [32, 128], [64, 256]];
console.log(`\nWorkers per node for ${S}-step episodes (harness share ≤ 5 % | ≤ 10 %; memory limit):\n`);
console.log("| cores, memory | 0.5 s model | 1 s model | 3 s model | memory fits |");
console.log("|---|---|---|---|---|");
for (const [cores, gb] of nodes) {
  const cell = (l: number) => {
    const five = most(costs, cores, l, 0.05);
    const ten = most(costs, cores, l, 0.10);
    const say = (n: number) => (n === 0 ? "none" : n >= 512 ? "≥ 512" : String(n));
    return `${say(five)} \\| ${say(ten)}`;
  };
  console.log(`| ${cores} cores, ${gb} GB | ${cell(0.5)} | ${cell(1)} | ${cell(3)} | ${memoryFits(costs, gb)} |`);
}

const W = Number(values["check-workers"]);
const L = Number(values["check-latency-s"]);
const cores = navigator.hardwareConcurrency;
const predicted = predict(costs, W, cores, L, S);
const jitter = Number(values.jitter);
const rounds = 3; // 48 of the 62 bundled tasks at 16 workers
const check = await measure({
  workers: W,
  delayMs: L * 1000,
  tasks: rounds * W,
  steps: S,
  workersPerBrowser: K,
  jitter,
});
// The first round's episodes all start at once, with the browsers launching: the table predicts a steady state.
const steady = check.harnessShare.slice(W);
const measured = median(steady);
console.log(
  `\nCheck: ${W} workers, ${L} s model, ${S} steps, ${rounds * W} episodes on this machine (${cores} cores): ` +
    `predicted share ${(predicted.share * 100).toFixed(1)} % (load ρ ${predicted.rho.toFixed(2)}), measured median ` +
    `${(measured * 100).toFixed(1)} % past the first ${W} episodes to end (${
      (median(check.harnessShare) * 100).toFixed(1)
    } % over all; strict ${(median(check.strictShare.slice(W)) * 100).toFixed(1)} %), harness per ` +
    `step ${ms(median(check.stepMs))}, set-up ${ms(median(check.setupMs))}, evidence/grade/artifacts ` +
    `${ms(median(check.finishMs))}; model latency ±${jitter * 100} %; ` +
    `CPU in use ${((check.usage.denoCpuMs + check.usage.childCpuMs) / check.wallS / 10).toFixed(0)} % of a core, ` +
    `Chromium PSS peak ${check.usage.childPssMb.toFixed(0)} MB, predicted ` +
    `${chromiumMb(costs, W).toFixed(0)} MB`,
);
if (values.json) {
  await Deno.writeTextFile(
    values.json,
    JSON.stringify({ costs, k: K, steps: S, check: { W, L, predicted, measured } }, null, 2) + "\n",
  );
}
