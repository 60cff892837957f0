/**
 * One measured run for the benches: the base arm over bundled tasks against the fixture model server, each episode
 * a fixed script of scroll steps and a done, the model answering after a scripted delay; with the CPU and memory of
 * the process tree (_proc.ts) and, per episode, the harness's time per step, set-up phases and share of wall time.
 * bench/harness.ts and bench/sizing.ts run it.
 */
import { join } from "node:path";
import type { HistoryItem } from "../lib/agent/mod.ts";
import { BUNDLED, runConfig, runEval, type RunSummary } from "../lib/run/mod.ts";
import { resolveModelArm } from "../lib/run/arms.ts";
import { loadTasks } from "../lib/tasks/mod.ts";
import { type FixtureEpisode, startFixtureModelServer } from "../tests/fixture_model_server.ts";
import { TreeSampler, type TreeUsage } from "./_proc.ts";

const allTasks = await loadTasks(BUNDLED.tasks);

/** The first `n` bundled tasks (each is its own fixture episode: its instruction is the marker). */
function taskList(n: number) {
  if (n > allTasks.length) throw new Error(`only ${allTasks.length} bundled tasks: ${n} asked for`);
  return allTasks.slice(0, n);
}

const reply = (action: Record<string, unknown>) =>
  JSON.stringify({ thinking: "", evaluation_previous_goal: "ok", memory: "", next_goal: "go on", action: [action] });

/** `steps` model calls: scrolls down and up by half a page, then done (4 by default, as issue 13 measured). */
function stepsOf(steps: number): Record<string, unknown>[] {
  return [
    ...Array.from({ length: steps - 1 }, (_, i) => ({ scroll: { down: i % 2 === 0, pages: 0.5 } })),
    { done: { text: "done", success: true } },
  ];
}

/** A fixed sequence of numbers in [0, 1) (mulberry32): the same jitter on every run. */
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each episode's script, and the model delays it holds (each call `delayMs`, or uniform in ±`jitter` of it). */
function script(
  ts: readonly { instruction: string }[],
  delayMs: number,
  steps: number,
  jitter: number,
): { episodes: FixtureEpisode[]; delays: number[][] } {
  const next = uniform(25);
  const delays = ts.map(() => stepsOf(steps).map(() => Math.round(delayMs * (1 + jitter * (2 * next() - 1)))));
  const episodes = ts.map((t, i) => ({
    marker: t.instruction,
    steps: stepsOf(steps).map((a, j) => ({
      reply: reply(a),
      faults: delays[i][j] ? [{ delayMs: delays[i][j] }] : undefined,
    })),
  }));
  return { episodes, delays };
}

export const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** What one run measured. */
export interface Measured {
  workers: number;
  delayMs: number;
  steps: number;
  summary: RunSummary;
  stepMs: number[];
  setupMs: number[];
  contextMs: number[];
  finishMs: number[];
  harnessShare: number[];
  /** 1 − the scripted model delays / the episode's duration. */
  strictShare: number[];
  wallS: number;
  usage: TreeUsage;
}

/** How to run it. */
export interface RunShape {
  workers: number;
  /** The model's scripted delay per call. */
  delayMs: number;
  /** Episodes (the first bundled tasks). */
  tasks: number;
  /** Model calls per episode (default 4). */
  steps?: number;
  /** Default: the runner's. */
  workersPerBrowser?: number;
  /**
   * Each model call's delay drawn uniformly from delayMs·(1 ± jitter) (default 0: every call takes delayMs). With
   * none, workers that start together stay in step, every step arriving at once: a real model's latency varies.
   */
  jitter?: number;
}

export async function measure(shape: RunShape): Promise<Measured> {
  const { workers, delayMs } = shape;
  const steps = shape.steps ?? 4;
  const tasks = taskList(shape.tasks);
  const { episodes, delays } = script(tasks, delayMs, steps, shape.jitter ?? 0);
  const scheduled = new Map(tasks.map((t, i) => [t.task_id, delays[i].reduce((a, b) => a + b, 0)]));
  await using server = startFixtureModelServer({ episodes });
  const out = await Deno.makeTempDir({ prefix: "webmix-bench-" });
  const config = runConfig({
    arm: "base",
    out,
    workers,
    ...(shape.workersPerBrowser ? { workersPerBrowser: shape.workersPerBrowser } : {}),
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
  const sampler = await TreeSampler.start();
  const t0 = performance.now();
  const summary = await runEval(config, { tasks, arm, log: () => {} });
  const wallS = (performance.now() - t0) / 1000;
  const usage = await sampler.stop();
  const m: Measured = {
    workers,
    delayMs,
    steps,
    summary,
    stepMs: [],
    setupMs: [],
    contextMs: [],
    finishMs: [],
    harnessShare: [],
    strictShare: [],
    wallS,
    usage,
  };
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
    m.strictShare.push(1 - scheduled.get(r.task_id)! / (r.duration_s * 1000));
  }
  await Deno.remove(out, { recursive: true });
  return m;
}
