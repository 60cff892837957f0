/**
 * The planner's reply (docs/planner.md): its thinking, the whole plan (a family and a subtask text per step) and
 * its next move, delegating one plan step or finishing with the answer. The JSON schema constrains decoding on the
 * server; it holds no minItems, maxItems or minimum (old vLLM's xgrammar refuses them), so the bounds are checked
 * here, by `parsePlannerReply`.
 */
import { z } from "zod";
import { ModelReplyError } from "../errors/mod.ts";
import { extractJson, type JsonSchema } from "../llm/mod.ts";
import { FAMILY_HINTS } from "../routing/mod.ts";

/** The families a plan step can name: one specialist each (FAMILY_HINTS says what each does). */
export const PLAN_FAMILIES: readonly string[] = Object.keys(FAMILY_HINTS);

/** One step of a plan. */
export interface PlanStep {
  family: string;
  subtask: string;
}

/** The planner's move: run plan step `step` (1-based), or end the task with `answer`. */
type PlannerMove = { next: "delegate"; step: number } | { next: "finish"; answer: string };

/** A parsed planner reply. */
export type PlannerReply = { thinking: string; plan: PlanStep[] } & PlannerMove;

const replySchema = z.strictObject({
  thinking: z.string(),
  plan: z.array(z.strictObject({ family: z.enum(PLAN_FAMILIES as [string, ...string[]]), subtask: z.string() })),
  next: z.enum(["delegate", "finish"]),
  step: z.number().int(),
  answer: z.string(),
});

/** The JSON schema of a planner reply (every field required, so a constrained server always writes all five). */
export function plannerOutputSchema(): JsonSchema {
  return {
    type: "object",
    properties: {
      thinking: { type: "string" },
      plan: {
        type: "array",
        items: {
          type: "object",
          properties: { family: { type: "string", enum: [...PLAN_FAMILIES] }, subtask: { type: "string" } },
          required: ["family", "subtask"],
          additionalProperties: false,
        },
      },
      next: { type: "string", enum: ["delegate", "finish"] },
      step: { type: "integer" },
      answer: { type: "string" },
    },
    required: ["thinking", "plan", "next", "step", "answer"],
    additionalProperties: false,
  };
}

/** The `response_format` of a planner request. */
export function plannerResponseFormat(): {
  type: "json_schema";
  json_schema: { name: string; schema: JsonSchema; strict: true };
} {
  return { type: "json_schema", json_schema: { name: "planner_output", schema: plannerOutputSchema(), strict: true } };
}

function unusable(text: string, why: string): ModelReplyError {
  const preview = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return new ModelReplyError(`planner reply ${why}: ${JSON.stringify(preview)}`, undefined, false, text);
}

/**
 * Reads a planner reply: the JSON object (alone, fenced, or after a think block), its schema, a plan of at least one
 * step with a non-empty subtask each, and a delegated step that is in the plan.
 * @throws {ModelReplyError} saying what makes the reply unusable; the reply text is kept
 */
export function parsePlannerReply(text: string): PlannerReply {
  let value: unknown;
  try {
    value = extractJson(text);
  } catch {
    throw unusable(text, "holds no JSON object");
  }
  const parsed = replySchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw unusable(text, `is not a planner output (${issues.join("; ")})`);
  }
  const r = parsed.data;
  const plan = r.plan.map((p) => ({ family: p.family, subtask: p.subtask.trim() }));
  if (plan.some((p) => !p.subtask)) throw unusable(text, "has a plan step without a subtask");
  if (r.next === "finish") return { thinking: r.thinking, plan, next: "finish", answer: r.answer };
  if (plan.length === 0) throw unusable(text, "delegates with an empty plan");
  if (r.step < 1 || r.step > plan.length) {
    throw unusable(text, `delegates step ${r.step}, which is not in its plan of ${plan.length}`);
  }
  return { thinking: r.thinking, plan, next: "delegate", step: r.step };
}
