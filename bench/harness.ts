/**
 * Harness overhead measured on real runs (real Chromium, the real sandbox, the real openai client) against the
 * fixture model server: per step (state capture with screenshot, message build with the screenshot's encoding,
 * parse, action, bookkeeping; the model's own latency subtracted), per episode set-up, with 1 and 4 workers; and
 * the harness's share of wall time when the model answers in 1 s with 8 workers. Prints a Markdown table.
 *
 *   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run --allow-sys bench/harness.ts [--tasks N]
 *
 * WEBMIX_BENCH_BASES=http://127.0.0.1:8318 measures against a site server in its own process instead of the embedded one.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { HistoryItem } from "../lib/agent/mod.ts";
import { BUNDLED, resolveModelArm, runConfig, runEval, type RunSummary } from "../lib/run/mod.ts";
import { loadTasks } from "../lib/tasks/mod.ts";
import { type FixtureEpisode, startFixtureModelServer } from "../tests/fixture_model_server.ts";

const { values } = parseArgs({ args: Deno.args, options: { tasks: { type: "string", default: "16" } } });
const tasks = (await loadTasks(BUNDLED.tasks)).slice(0, Number(values.tasks));

const reply = (action: Record<string, unknown>) =>
  JSON.stringify({ thinking: "", evaluation_previous_goal: "ok", memory: "", next_goal: "go on", action: [action] });
const STEPS = [{ scroll: { down: true, pages: 0.5 } }, { scroll: { down: false, pages: 0.5 } }, {
  scroll: { down: true, pages: 0.5 },
}, { done: { text: "done", success: true } }];

function script(ts: readonly { instruction: string }[], delayMs: number): FixtureEpisode[] {
  return ts.map((t) => ({
    marker: t.instruction,
    steps: STEPS.map((a) => ({ reply: reply(a), faults: delayMs ? [{ delayMs }] : undefined })),
  }));
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

interface Measured {
  summary: RunSummary;
  stepMs: number[];
  setupMs: number[];
  contextMs: number[];
  finishMs: number[];
  harnessShare: number[];
  wallS: number;
}

async function measure(workers: number, delayMs: number): Promise<Measured> {
  await using server = startFixtureModelServer({ episodes: script(tasks, delayMs) });
  const out = await Deno.makeTempDir({ prefix: "webmix-bench-" });
  const config = runConfig({
    arm: "base",
    out,
    workers,
    stepScreenshots: false,
    bases: Deno.env.get("WEBMIX_BENCH_BASES")?.split(",") ?? [],
    model: {
      vllm: server.url,
      apiKey: "EMPTY",
      baseName: "qwen35-4b",
      pooledName: "pooled",
      adapters: [],
      temperature: 0,
      maxTokens: 256,
      modelTimeoutS: 30,
      gateDone: false,
      gateNote: false,
      systemPromptFile: BUNDLED.systemPrompt,
      maxActions: 5,
      normalizedCoords: false,
    },
  });
  // The served-models check, outside the timed run.
  const arm = await resolveModelArm(config, tasks);
  const t0 = performance.now();
  const summary = await runEval(config, { tasks, arm, log: () => {} });
  const wallS = (performance.now() - t0) / 1000;
  const m: Measured = { summary, stepMs: [], setupMs: [], contextMs: [], finishMs: [], harnessShare: [], wallS };
  for (const r of summary.results) {
    if (r.error) throw new Error(`${r.episode}: ${r.error}`);
    const history: HistoryItem[] = JSON.parse(await Deno.readTextFile(join(out, r.episode, "history.json"))).history;
    let latency = 0;
    for (const h of history) {
      const l = Number(h.metadata.latency_ms ?? 0);
      latency += l;
      m.stepMs.push((h.metadata.step_end_time - h.metadata.step_start_time) * 1000 - l);
    }
    if (r.timing) {
      m.setupMs.push(r.timing.context_ms + r.timing.setup_ms);
      m.contextMs.push(r.timing.context_ms);
      m.finishMs.push(r.timing.finish_ms);
    }
    m.harnessShare.push(1 - latency / (r.duration_s * 1000));
  }
  await Deno.remove(out, { recursive: true });
  return m;
}

const rows: string[] = [];
const phases: string[] = [];
const phase = (label: string, m: Measured) =>
  phases.push(
    `| ${label} | ${median(m.contextMs).toFixed(0)} ms | ${
      median(m.setupMs.map((x, i) => x - m.contextMs[i])).toFixed(0)
    } ms | ` +
      `${median(m.finishMs).toFixed(0)} ms |`,
  );
for (const workers of [1, 4]) {
  const m = await measure(workers, 0);
  phase(`zero-latency model, ${workers} worker(s)`, m);
  rows.push(
    `| zero-latency model, ${workers} worker${workers > 1 ? "s" : ""} | ${median(m.stepMs).toFixed(0)} ms | ` +
      `${quantile(m.stepMs, 0.9).toFixed(0)} ms | ${median(m.setupMs).toFixed(0)} ms | ` +
      `${(m.summary.ran / m.wallS * 60).toFixed(0)} episodes/min |`,
  );
}
const slow = await measure(8, 1000);
phase("1 s model, 8 workers", slow);
rows.push(
  `| 1 s model, 8 workers | ${median(slow.stepMs).toFixed(0)} ms | ${quantile(slow.stepMs, 0.9).toFixed(0)} ms | ` +
    `${median(slow.setupMs).toFixed(0)} ms | ${(slow.summary.ran / slow.wallS * 60).toFixed(0)} episodes/min; ` +
    `harness share of wall time ${(median(slow.harnessShare) * 100).toFixed(1)} % (median per episode) |`,
);
console.log(`${tasks.length} tasks × ${STEPS.length} steps, base arm against the fixture model server\n`);
console.log("| run | harness per step (median) | p90 | episode set-up (median) | throughput |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log("\n| run | fresh context (median) | session start + setup | evidence + grade + artifacts |");
console.log("|---|---|---|---|");
for (const p of phases) console.log(p);
