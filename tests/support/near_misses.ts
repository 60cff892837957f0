/**
 * The near-miss suite's runner: variants of the bundled tasks' reference solutions (fixtures/near_misses/*.json),
 * each run through the whole harness (real Chromium, the real sandbox, the real grader) by a scripted arm, and
 * each result compared with what the variant expects: a near miss must fail with the reason code of the rule that
 * rejects it, and its witness (a condition over the episode's evidence) must hold, proving that its deviation really
 * happened; a legitimate alternative must pass.
 *
 * Run one file or one task while writing variants:
 *   deno run -A tests/support/near_misses.ts fixtures/near_misses/shop.json [task_id ...]
 */
import { join } from "node:path";
import { z } from "zod";
import { type Condition, conditionSchema, REASON_CODES } from "../../lib/protocol/mod.ts";
import type { EpisodeResult } from "../../lib/run_folder/mod.ts";
import { loadHumanTasks, loadTasks, type RunTask } from "../../lib/tasks/mod.ts";
import type { AnswerJudge } from "../../lib/grading/mod.ts";
import {
  type EpisodeRecordings,
  outcomeProblem,
  runScripted,
  type Script,
  type ScriptedEpisode,
} from "../../lib/gen/mod.ts";
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
  /** For a failing variant: the reason code its grade must carry (lib/grading's REASONS). */
  reason: z.enum(REASON_CODES as [string, ...string[]]).optional(),
  /** For a failing variant: a regular expression the grade's detail must match (the row or claim it concerns). */
  detail: z.string().optional(),
  /**
   * For a failing variant: a condition (the grading language) that holds on the episode's evidence only if the
   * deviation happened (the second email was sent, the star was set, the answer hedges). A witness that does not
   * hold makes the variant invalid: its deviation step silently did nothing.
   */
  witness: z.unknown().optional(),
  /**
   * An alternative whose answer is free text only the LLM tier decides: run with an accepting fixture judge (every
   * other variant runs without one, so that the rules alone decide it, and an answer they cannot account for is
   * pending).
   */
  judge: z.literal(true).optional(),
  /** A near miss the grader is known to let through (or an alternative it rejects), and why: reported, not hidden. */
  known_gap: z.string().min(1).optional(),
}).superRefine((v, ctx) => {
  if ((v.steps === undefined) === (v.after_reference === undefined)) {
    ctx.addIssue({ code: "custom", message: "give exactly one of steps and after_reference" });
  }
  if ((v.category === "alternative") !== (v.expect === "pass")) {
    ctx.addIssue({ code: "custom", message: "an alternative expects pass; every other category expects fail" });
  }
  if (v.judge && v.expect !== "pass") {
    ctx.addIssue({ code: "custom", message: "only an alternative asks for the judge" });
  }
  if (v.expect === "fail" && !v.reason) ctx.addIssue({ code: "custom", message: "a failing variant names its reason" });
  if (v.expect === "fail" && v.witness === undefined) {
    ctx.addIssue({ code: "custom", message: "a failing variant carries a witness" });
  }
  if (v.witness !== undefined) {
    const w = conditionSchema.safeParse(v.witness);
    if (!w.success) ctx.addIssue({ code: "custom", message: `witness: ${z.prettifyError(w.error)}` });
  }
});

export type Variant = Omit<z.infer<typeof variantSchema>, "witness"> & { witness?: Condition };

/** Reads one variants file. @throws Error naming the file and the entry. */
export async function loadVariants(file: string): Promise<Variant[]> {
  const raw = JSON.parse(await Deno.readTextFile(file));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a list of variants`);
  return raw.map((v, i) => {
    const r = variantSchema.safeParse(v);
    if (!r.success) throw new Error(`${file}[${i}] (${v?.task}/${v?.name}): ${z.prettifyError(r.error)}`);
    return r.data as Variant;
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
  const human = await loadHumanTasks({
    annotationsDir: join(ROOT, "fixtures/annotations"),
    split: "all",
    strict: true,
  });
  return new Map<string, RunTask>([...datagen, ...human].map((t) => [t.task_id, t as RunTask]));
}

const SEP = "~nm~";
const variantId = (v: Variant) => `${v.task}${SEP}${v.name}`;

/** A variant's outcome: its result, and why it disagrees with what it expects (null: it agrees). */
export interface VariantOutcome {
  variant: Variant;
  result: EpisodeResult | undefined;
  problem: string | null;
}

/**
 * Runs `variants` through the harness (a temp out folder, removed after), or regrades them from `recordings`, and
 * compares each with its expectation.
 */
export async function runVariants(
  variants: readonly Variant[],
  options: { workers?: number; qa?: AnswerJudge; recordings?: EpisodeRecordings } = {},
): Promise<VariantOutcome[]> {
  if (variants.length === 0) return [];
  const tasks = await bundledTasks();
  const seen = new Set<string>();
  const episodes: ScriptedEpisode[] = variants.map((v) => {
    const task = tasks.get(v.task);
    if (!task) throw new Error(`near miss ${v.task}/${v.name}: no bundled task "${v.task}"`);
    const id = variantId(v);
    if (seen.has(id)) throw new Error(`near miss ${v.task}/${v.name}: named twice`);
    seen.add(id);
    const script: Script = { steps: v.steps, after_reference: v.after_reference, answer: v.answer };
    return { task: { ...task, task_id: id } as RunTask, script, witness: v.expect === "fail" };
  });
  const { outcomes } = await runScripted(episodes, {
    workers: options.workers ?? 4,
    qa: options.qa,
    recordings: options.recordings,
    human: true,
  });
  return variants.map((v) => {
    const o = outcomes.get(variantId(v));
    return { variant: v, result: o?.result, problem: o?.problem ?? outcomeProblem(v, o?.result, o?.evidence) };
  });
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
    console.log(
      `${mark.padEnd(7)} ${o.variant.task}/${o.variant.name} [${o.variant.category}] ok=${o.result?.ok} ` +
        `reason=${o.result?.reason ?? ""}`,
    );
    console.log(`        detail: ${o.result?.detail ?? ""}${o.problem ? `\n        problem: ${o.problem}` : ""}`);
  }
  const problems = outcomes.filter((o) => o.problem).length;
  console.log(`${outcomes.length} variants, ${problems} problems`);
  Deno.exit(problems ? 1 : 0);
}
