/**
 * The near-miss suite's runner: variants of the bundled tasks' reference solutions (fixtures/near_misses/*.json),
 * each run through the whole harness (real Chromium, the real sandbox, the real grader) by a scripted arm, and
 * each result compared with what the variant expects: a near miss must fail with a detail that names its
 * failing condition; a legitimate alternative must pass.
 *
 * Run one file or one task while writing variants:
 *   deno run -A tests/support/near_misses.ts fixtures/near_misses/shop.json [task_id ...]
 */
import { join } from "node:path";
import { z } from "zod";
import { type Arm, replayArm } from "../../lib/agent/mod.ts";
import type { ActionCall } from "../../lib/grading/mod.ts";
import type { EpisodeResult } from "../../lib/run_folder/mod.ts";
import { runConfig, runEval } from "../../lib/run/mod.ts";
import { loadHumanTasks, loadTasks, type ReferenceStep, type RunTask } from "../../lib/tasks/mod.ts";
import type { AnswerJudge } from "../../lib/grading/mod.ts";
import { ROOT } from "./cli.ts";

export const NEAR_MISS_DIR: string = join(ROOT, "fixtures/near_misses");

/** The categories of docs/grading.md's near-miss table; `alternative` must pass, every other must fail. */
export const CATEGORIES = [
  "overshoot",
  "collateral",
  "unlisted_field",
  "hedge",
  "wrong_item",
  "wrong_method",
  "reverted",
  "alternative",
] as const;

const action = z.record(z.string(), z.record(z.string(), z.unknown())).refine((a) => Object.keys(a).length === 1, {
  message: "one action {name: params}",
});

const variantSchema = z.strictObject({
  /** The bundled task's id (a human task's `task_id`, not its site/ key). */
  task: z.string().min(1),
  /** Unique within the task; becomes part of the episode name. */
  name: z.string().regex(/^[a-z0-9_]+$/, "lower-case letters, digits and _"),
  category: z.enum(CATEGORIES),
  /** What the variant does, for a reader. */
  why: z.string().min(1),
  /** The actions, replacing the reference solution (exclusive with after_reference). */
  steps: z.array(action).optional(),
  /** The reference solution without its final done, then these actions. */
  after_reference: z.array(action).optional(),
  /** The final answer (done's text); absent: the reference's own done, or none. */
  answer: z.string().optional(),
  expect: z.enum(["pass", "fail"]),
  /** For a failing variant: a regular expression its grade's detail must match. */
  detail: z.string().optional(),
  /** A near miss the grader is known to let through (or an alternative it rejects), and why: reported, not hidden. */
  known_gap: z.string().min(1).optional(),
}).superRefine((v, ctx) => {
  if ((v.steps === undefined) === (v.after_reference === undefined)) {
    ctx.addIssue({ code: "custom", message: "give exactly one of steps and after_reference" });
  }
  if ((v.category === "alternative") !== (v.expect === "pass")) {
    ctx.addIssue({ code: "custom", message: "an alternative expects pass; every other category expects fail" });
  }
  if (v.expect === "fail" && !v.detail) ctx.addIssue({ code: "custom", message: "a failing variant names its detail" });
});

export type Variant = z.infer<typeof variantSchema>;

/** Reads one variants file. @throws Error naming the file and the entry. */
export async function loadVariants(file: string): Promise<Variant[]> {
  const raw = JSON.parse(await Deno.readTextFile(file));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a list of variants`);
  return raw.map((v, i) => {
    const r = variantSchema.safeParse(v);
    if (!r.success) throw new Error(`${file}[${i}] (${v?.task}/${v?.name}): ${z.prettifyError(r.error)}`);
    return r.data;
  });
}

/** Every variants file of the suite. */
export async function loadAllVariants(dir = NEAR_MISS_DIR): Promise<Variant[]> {
  const out: Variant[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name.endsWith(".json")) out.push(...await loadVariants(join(dir, e.name)));
  }
  return out;
}

/** The bundled tasks, datagen and human, by task_id. */
export async function bundledTasks(): Promise<Map<string, RunTask>> {
  const datagen = await loadTasks(join(ROOT, "fixtures/tasks.jsonl"));
  const human = await loadHumanTasks({ annotationsDir: join(ROOT, "fixtures/annotations"), split: "all" });
  return new Map<string, RunTask>([...datagen, ...human].map((t) => [t.task_id, t as RunTask]));
}

const SEP = "~nm~";
const variantId = (v: Variant) => `${v.task}${SEP}${v.name}`;

const fixed = (a: ActionCall): ReferenceStep => ({ candidates: () => [a] });

/** The replay arm over each variant's steps (looked up by the episode's task id). */
function scriptedArm(variants: ReadonlyMap<string, Variant>): Arm {
  return {
    name: "replay",
    run(ctx) {
      const v = variants.get(ctx.task.task_id);
      if (!v) return replayArm.run(ctx);
      let doneText: string | undefined;
      const steps: ReferenceStep[] = v.after_reference
        ? [
          ...ctx.reference.map((s): ReferenceStep => ({
            optional: s.optional,
            candidates: (elements) => {
              const all = s.candidates(elements);
              const done = all.find((a) => "done" in a);
              if (done) doneText ??= String((done.done as { text?: unknown }).text ?? "");
              return all.filter((a) => !("done" in a));
            },
          })),
          ...v.after_reference.map(fixed),
        ]
        : v.steps!.map(fixed);
      steps.push({
        candidates: () => [{ done: { text: v.answer ?? doneText ?? referenceDone(ctx.task) ?? "", success: true } }],
      });
      return replayArm.run({ ...ctx, reference: steps });
    },
  };
}

/** The answer a task's reference gives: a datagen solution's done text, a human recording's answer. */
function referenceDone(task: RunTask): string | undefined {
  const t = task as { solution?: ActionCall[]; recording?: { answer?: string } };
  const done = t.solution?.find((a) => "done" in a);
  if (done) return String((done.done as { text?: unknown }).text ?? "");
  return t.recording?.answer || undefined;
}

/** A variant's outcome: its result, and why it disagrees with what it expects (null: it agrees). */
export interface VariantOutcome {
  variant: Variant;
  result: EpisodeResult | undefined;
  problem: string | null;
}

function judge(v: Variant, r: EpisodeResult | undefined): string | null {
  if (!r) return "no result";
  if (r.error) return `harness error: ${r.error}`;
  if (r.grade_error) return `grade error: ${r.detail}`;
  if (v.expect === "pass") {
    if (r.errors?.length) return `a step failed: ${r.errors.join("; ")}`;
    return r.ok ? null : `rejected alternative: ${r.detail}`;
  }
  if (r.ok) return "false pass";
  if (r.errors?.length) return `a step failed, so the near miss was not what it says: ${r.errors.join("; ")}`;
  if (!new RegExp(v.detail!, "i").test(r.detail ?? "")) return `failed, but with detail ${JSON.stringify(r.detail)}`;
  return null;
}

/** Runs `variants` through the harness (a temp out folder, removed after) and compares each with its expectation. */
export async function runVariants(
  variants: readonly Variant[],
  options: { workers?: number; qa?: AnswerJudge } = {},
): Promise<VariantOutcome[]> {
  const tasks = await bundledTasks();
  const byId = new Map<string, Variant>();
  const runTasks: RunTask[] = [];
  for (const v of variants) {
    const task = tasks.get(v.task);
    if (!task) throw new Error(`near miss ${v.task}/${v.name}: no bundled task "${v.task}"`);
    const id = variantId(v);
    if (byId.has(id)) throw new Error(`near miss ${v.task}/${v.name}: named twice`);
    byId.set(id, v);
    runTasks.push({ ...task, task_id: id } as RunTask);
  }
  const out = await Deno.makeTempDir({ prefix: "webmix-near-miss-" });
  try {
    const config = runConfig({
      arm: "replay",
      out,
      workers: options.workers ?? 4,
      stepScreenshots: false,
      tasks: { human: true },
    });
    const summary = await runEval(config, {
      tasks: runTasks,
      arm: scriptedArm(byId),
      qa: options.qa,
      log: () => {},
    });
    const results = new Map(summary.results.map((r) => [r.task_id, r]));
    return variants.map((v) => {
      const result = results.get(variantId(v));
      return { variant: v, result, problem: judge(v, result) };
    });
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const [file, ...ids] = Deno.args;
  if (!file) {
    console.error("usage: deno run -A tests/support/near_misses.ts FILE.json [task_id ...]");
    Deno.exit(2);
  }
  const variants = (await loadVariants(file)).filter((v) => ids.length === 0 || ids.includes(v.task));
  const outcomes = await runVariants(variants);
  for (const o of outcomes) {
    const mark = o.problem ? "PROBLEM" : "ok";
    console.log(`${mark.padEnd(7)} ${o.variant.task}/${o.variant.name} [${o.variant.category}] ok=${o.result?.ok}`);
    console.log(`        detail: ${o.result?.detail ?? ""}${o.problem ? `\n        problem: ${o.problem}` : ""}`);
  }
  const problems = outcomes.filter((o) => o.problem).length;
  console.log(`${outcomes.length} variants, ${problems} problems`);
  Deno.exit(problems ? 1 : 0);
}
