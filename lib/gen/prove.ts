/**
 * The proof a generated instance passes before it is shipped (docs/generation.md, "The proof"): through the real
 * browser and the real sandbox, its reference solution must pass, doing nothing must fail, and each of its
 * template's near misses must fail with its reason code while its witness holds. An instance that fails any of
 * them is dropped, with why.
 */
import type { ActionCall, Condition, Task } from "../protocol/mod.ts";
import type { RunTask } from "../tasks/mod.ts";
import { seedDb } from "./data.ts";
import { runScripted, type ScriptedEpisode, type ScriptedRunOptions } from "./episodes.ts";
import type { AnyTemplate, Params } from "./template.ts";
import { type Expectation, outcomeProblem, type Script } from "./variants.ts";

/** An instance the proof dropped, and why. */
export interface Dropped {
  /** The instance's task id. */
  task_id: string;
  /** The template it came from. */
  template: string;
  /** Each failed proof: `reference: rejected (...)`, `noop: false pass`, `near miss X: false pass`. */
  problems: string[];
}

/** What a proof run found. */
export interface ProofReport {
  /** The instances that passed every proof, in input order. */
  kept: Task[];
  /** The instances that failed a proof, in input order, each with why. */
  dropped: Dropped[];
  /** Episodes proven (reference, noop, near misses and alternatives), live or recorded. */
  episodes: number;
  /** Of `episodes`, those regraded from a recording instead of run in the browser. */
  recorded: number;
  /** Wall time of the episodes, in seconds. */
  seconds: number;
  /**
   * The macro layer's proofs run, per macro and kind: `"search attack typed_url"`, `"search alternative keyboard"`
   * (an attack failed for its reason, an alternative passed, or the instance was dropped for it).
   */
  layer: Record<string, number>;
}

/** How to run a proof. */
export type ProofOptions = ScriptedRunOptions;

const NOOP = "~noop";
const NEAR = "~nm~";
const ALT = "~alt~";

interface Planned {
  task: Task;
  episodes: { id: string; label: string; expect: Expectation; layer?: string }[];
  problems: string[];
}

/** The episodes proving `task`: reference, noop, and its template's near misses. */
function plan(task: Task, byId: ReadonlyMap<string, AnyTemplate>, scripts: Map<string, Script>): Planned {
  const planned: Planned = { task, episodes: [], problems: [] };
  const t = task.gen && byId.get(task.gen.template);
  if (!t) {
    planned.problems.push(task.gen ? `no template "${task.gen.template}"` : "not a generated task (no gen field)");
    return planned;
  }
  planned.episodes.push({ id: task.task_id, label: "reference", expect: { expect: "pass" } });
  scripts.set(task.task_id + NOOP, { steps: [], answer: "" });
  planned.episodes.push({ id: task.task_id + NOOP, label: "noop", expect: { expect: "fail" } });
  const p = (task.option ?? {}) as Params, db = seedDb(t.site), style = task.style ?? "procedure";
  const misses = t.nearMisses(p, db, style);
  if (misses.length < 2) planned.problems.push(`template ${t.id} gives ${misses.length} near misses, not 2 or more`);
  for (const m of misses) {
    const id = `${task.task_id}${NEAR}${m.name}`;
    scripts.set(id, {
      steps: m.steps as ActionCall[] | undefined,
      after_reference: m.after_reference as ActionCall[] | undefined,
      answer: m.answer,
    });
    planned.episodes.push({
      id,
      label: `${m.attack ? "attack" : "near miss"} ${m.name}`,
      expect: { expect: "fail", reason: m.reason, witness: m.witness as unknown as Condition },
      layer: m.attack && `${m.attack.macro} attack ${m.attack.kind}`,
    });
  }
  for (const a of t.alternatives?.(p, db, style) ?? []) {
    const id = `${task.task_id}${ALT}${a.name}`;
    scripts.set(id, { steps: a.steps as ActionCall[] });
    planned.episodes.push({
      id,
      label: `alternative ${a.name}`,
      expect: { expect: "pass" },
      layer: `${a.macro} alternative ${a.kind}`,
    });
  }
  return planned;
}

/**
 * Proves `tasks` (generated instances) with the templates that made them: each episode run in the browser, or
 * regraded from its recording when `options.recordings` holds one.
 * @throws UsageError when the run cannot start (no Chromium, a bad configuration).
 */
export async function prove(
  tasks: readonly Task[],
  templates: readonly AnyTemplate[],
  options: ProofOptions = {},
): Promise<ProofReport> {
  const byId = new Map(templates.map((t) => [t.id, t]));
  const scripts = new Map<string, Script>();
  const plans = tasks.map((task) => plan(task, byId, scripts));
  const started = performance.now();
  const episodes: ScriptedEpisode[] = plans.filter((p) => !p.problems.length).flatMap((p) =>
    p.episodes.map((e) => ({
      task: { ...p.task, task_id: e.id } as RunTask,
      script: scripts.get(e.id),
      witness: e.expect.witness !== undefined,
    }))
  );
  const { outcomes, recorded } = await runScripted(episodes, options);
  const report: ProofReport = { kept: [], dropped: [], episodes: episodes.length, recorded, seconds: 0, layer: {} };
  for (const p of plans) {
    for (const e of p.episodes) {
      if (e.layer) report.layer[e.layer] = (report.layer[e.layer] ?? 0) + 1;
      const o = outcomes.get(e.id);
      const problem = o?.problem ?? outcomeProblem(e.expect, o?.result, o?.evidence);
      if (problem) p.problems.push(`${e.label}: ${problem}`);
    }
    if (p.problems.length) {
      report.dropped.push({ task_id: p.task.task_id, template: p.task.gen?.template ?? "", problems: p.problems });
    } else report.kept.push(p.task);
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
