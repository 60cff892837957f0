/**
 * Demonstrations (docs/generation.md, "Demonstrations"): every instance's reference run through the real browser
 * with the demonstration arm (lib/agent), which answers each step's request, built exactly as for a model, with the
 * reference's next action in the model's form (element index, grid coordinates, macro_done at each chain boundary,
 * done at the end) and executes it as a model's reply. The episodes that pass their grade are the proof by index;
 * their requests and replies are written as training rows (lib/results), each labelled with its segment's family,
 * macro and adapter. An instance that fails is dropped, with why.
 */
import { demonstrationArm } from "../agent/mod.ts";
import { checkRowsFolder } from "../results/mod.ts";
import { type DemonstrationRowsSummary, writeDemonstrationRows } from "./demonstration_rows.ts";
import { readSystemPrompt, runConfig, runEval } from "../run/mod.ts";
import { kindOf } from "../tasks/mod.ts";
import { familyOf, type Task } from "../protocol/mod.ts";
import { HarnessError } from "../errors/mod.ts";
import { RunFolder } from "../run_folder/mod.ts";
import type { Dropped } from "./prove.ts";
import { outcomeProblem } from "./variants.ts";

/** Which instances become demonstrations, and how. */
export interface DemonstrateOptions {
  /** The rows folder (must be empty unless `overwrite`). */
  to: string;
  /** Only instances of this split ("all": every one; default "train"). */
  split?: string;
  /** Only instances of these templates. */
  templates?: readonly string[];
  /** Only rows of segments of these families (and instances whose chain has one). */
  families?: readonly string[];
  /** Only rows of segments of these macros (and instances whose chain has one). */
  macros?: readonly string[];
  /** Drop a row whose request and target an earlier row already has. */
  dedupe?: boolean;
  /** Leave the replies' thinking, evaluation, memory and next goal empty. */
  emptyThoughts?: boolean;
  /** Parallel browsers (default 2). */
  workers?: number;
  /**
   * The demonstration run's folder (default `<to>.run`). It is removed once the rows are written, unless `keepRun`:
   * an interrupted run stays, and `resume` continues it.
   */
  run?: string;
  /** Keep the run's folder after the rows are written. */
  keepRun?: boolean;
  /** Continue the run in `run` (its finished episodes are not run again; its crashed ones are). */
  resume?: boolean;
  /** Replace an earlier export in `to`. */
  overwrite?: boolean;
  /** Folders the rows folder must not be nor hold (the current folder, the repository). */
  guarded?: readonly { path: string; what: string }[];
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Stops the run: the episodes under way finish, no more start. */
  signal?: AbortSignal;
}

/** What a demonstration run wrote and dropped. */
export interface DemonstrationReport extends DemonstrationRowsSummary {
  /** Instances selected and run. */
  instances: number;
  /** Instances whose demonstration failed, each with why. */
  dropped: Dropped[];
  /** Wall time of the run and the writing, in seconds. */
  seconds: number;
}

/** The instances `o` selects. */
export function selectInstances(tasks: readonly Task[], o: Omit<DemonstrateOptions, "to">): Task[] {
  const split = o.split ?? "train";
  return tasks.filter((t) => {
    if (split !== "all" && t.split !== split) return false;
    if (o.templates && !o.templates.includes(t.gen?.template ?? "")) return false;
    const chain = kindOf(t).plan(t);
    if (o.macros && !chain.some((m) => o.macros!.includes(m))) return false;
    if (o.families && !chain.some((m) => o.families!.includes(familyOf(m)))) return false;
    return true;
  });
}

/**
 * Runs the demonstrations of `tasks` (selected by `o`) and writes the rows of those that pass.
 * @throws UsageError when the run cannot start or `o.to` cannot take the rows.
 */
export async function demonstrate(tasks: readonly Task[], o: DemonstrateOptions): Promise<DemonstrationReport> {
  const started = performance.now();
  const selected = selectInstances(tasks, o);
  const out = o.run ?? `${o.to.replace(/[\\/]+$/, "")}.run`;
  await checkRowsFolder({ out, to: o.to, overwrite: o.overwrite, guarded: o.guarded });
  {
    const config = runConfig({
      arm: "replay",
      out,
      workers: o.workers ?? 2,
      stepScreenshots: true,
      resume: o.resume,
      overwrite: o.overwrite && !o.resume,
    });
    const arm = demonstrationArm({
      systemPrompt: await readSystemPrompt(config),
      now: config.now,
      normalizedCoords: config.model.normalizedCoords,
      emptyThoughts: o.emptyThoughts,
    });
    const summary = await runEval(config, { tasks: selected, arm, log: o.log ?? (() => {}), signal: o.signal });
    if (o.signal?.aborted) {
      throw new HarnessError(`the demonstration run was stopped: it is kept in ${out}, and --resume continues it`);
    }
    // A resumed run's summary holds only the episodes it ran: the folder holds them all.
    const results = o.resume ? (await (await RunFolder.open(out)).latest()).results : summary.results;
    const byId = new Map(results.map((r) => [r.task_id, r]));
    const dropped: Dropped[] = [];
    const passed = [];
    for (const t of selected) {
      const r = byId.get(t.task_id);
      const problem = outcomeProblem({ expect: "pass" }, r, undefined);
      if (problem === null) passed.push({ episode: r!.episode, task_id: r!.task_id, repeat: r!.repeat });
      else dropped.push({ task_id: t.task_id, template: t.gen?.template ?? "", problems: [problem] });
    }
    const rows = await writeDemonstrationRows({
      out,
      episodes: passed,
      to: o.to,
      families: o.families,
      macros: o.macros,
      dedupe: o.dedupe,
      overwrite: o.overwrite,
      split: o.split ?? "train",
    });
    if (!o.keepRun) await Deno.remove(out, { recursive: true });
    return { ...rows, instances: selected.length, dropped, seconds: (performance.now() - started) / 1000 };
  }
}
