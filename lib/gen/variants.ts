/**
 * Running scripted variants of a task's reference solution through the whole harness, and judging each outcome
 * against what it expects. Shared by the generator's proof (prove.ts) and the bundled near-miss suite
 * (tests/support/near_misses.ts).
 */
import { type Arm, replayArm } from "../agent/mod.ts";
import { actionEvents, conditionFailure } from "../grading/mod.ts";
import { type ActionCall, type Condition, type Evidence, parseEvidence } from "../protocol/mod.ts";
import type { EpisodeResult, RunFolder } from "../run_folder/mod.ts";
import { parseGradeInputs, type ReferenceStep, type RunTask, type SavedGradeInputs } from "../tasks/mod.ts";

/** What a scripted episode does instead of the reference solution. */
export interface Script {
  /** The actions, replacing the reference solution (exclusive with after_reference); a done is added. */
  steps?: readonly ActionCall[];
  /** The reference solution without its final done, then these actions, then a done. */
  after_reference?: readonly ActionCall[];
  /** The final answer (done's text); absent: the reference's own done, or none. */
  answer?: string;
}

/** What a variant's outcome must be. */
export interface Expectation {
  /** Whether the variant's grade must pass or fail. */
  expect: "pass" | "fail";
  /** For a failing variant: the reason code its grade must carry. */
  reason?: string;
  /** For a failing variant: a regular expression the grade's detail must match. */
  detail?: string;
  /** For a failing variant: a condition that holds on the evidence only if the deviation happened. */
  witness?: Condition;
}

const fixed = (a: ActionCall): ReferenceStep => ({ candidates: () => [a] });

/** The answer a task's reference gives: a datagen solution's done text, a human recording's answer. */
export function referenceDone(task: RunTask): string | undefined {
  const t = task as { solution?: ActionCall[]; recording?: { answer?: string } };
  const done = t.solution?.find((a) => "done" in a);
  if (done) return String((done.done as { text?: unknown }).text ?? "");
  return t.recording?.answer || undefined;
}

/** The replay arm, but an episode whose task id has a script runs the script instead of the reference. */
export function scriptedArm(scripts: ReadonlyMap<string, Script>): Arm {
  return {
    name: "replay",
    run(ctx) {
      const v = scripts.get(ctx.task.task_id);
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
        : (v.steps ?? []).map(fixed);
      steps.push({
        candidates: () => [{ done: { text: v.answer ?? doneText ?? referenceDone(ctx.task) ?? "", success: true } }],
      });
      return replayArm.run({ ...ctx, reference: steps });
    },
  };
}

/**
 * Why an outcome disagrees with what it expects (null: it agrees). A near miss must fail with its reason (and its
 * detail pattern, when it gives one), and its witness must hold on the evidence: otherwise it is invalid, not
 * counted as caught.
 */
export function outcomeProblem(
  v: Expectation,
  r: EpisodeResult | undefined,
  evidence: Evidence | undefined,
): string | null {
  if (!r) return "no result";
  if (r.error) return `harness error: ${r.error}`;
  if (r.grade_error) return `grade error: ${r.detail}`;
  if (v.expect === "pass") {
    if (r.errors?.length) return `a step failed: ${r.errors.join("; ")}`;
    return r.ok ? null : `rejected (${r.reason}): ${r.detail}`;
  }
  if (r.ok) return "false pass";
  if (v.witness !== undefined) {
    if (!evidence) return "invalid: no evidence to check the witness on";
    const why = conditionFailure(v.witness, evidence);
    if (why !== null) return `invalid: the witness does not hold, so the deviation did not happen: ${why.text}`;
  }
  if (v.reason !== undefined && r.reason !== v.reason) {
    return `failed with reason ${r.reason ?? "(none)"}, not ${v.reason}: ${r.detail}`;
  }
  if (v.detail && !new RegExp(v.detail, "i").test(r.detail ?? "")) {
    return `failed, but with detail ${JSON.stringify(r.detail)}`;
  }
  return null;
}

/** What a witness reads: the episode's evidence, for any task kind (a human episode's streams as one Evidence). */
export async function episodeEvidence(folder: RunFolder, episode: string): Promise<Evidence | undefined> {
  const saved = await folder.gradeInputs(episode, parseGradeInputs).catch(() => undefined);
  return saved && savedEvidence(saved, episode);
}

/** The evidence of saved grade inputs (a folder's or a recording's), for any task kind. */
export function savedEvidence(saved: SavedGradeInputs, episode: string): Evidence {
  const inputs = saved.inputs;
  if (inputs.kind === "datagen") return parseEvidence(inputs, episode);
  const traj = inputs.kind === "human" ? inputs.traj : [];
  return parseEvidence({
    base: inputs.base,
    log: inputs.log,
    changes: inputs.changes,
    clip: inputs.clip,
    events: actionEvents([{ action: inputs.actions }], inputs.clip),
    record: traj.filter((e) => e.type !== "network"),
    answer: inputs.answer ?? null,
    seen: inputs.seen,
    final: inputs.final,
    rules: inputs.rules,
  }, episode);
}
