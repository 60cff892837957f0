/**
 * The model arms (base, pooled, oracle): browser-use 0.x's step loop (loop.ts) against an OpenAI-compatible server,
 * with the episode's router choosing the served model of each request (the model name picks the LoRA adapter) and,
 * for the oracle arm, gating a premature done.
 */
import { HarnessError } from "../errors/mod.ts";
import { agentResponseFormat, type OpenAiModelClient } from "../llm/mod.ts";
import { createRouter, type CreateRouterOptions } from "../routing/mod.ts";
import type { Arm, ArmContext, ArmOutcome } from "./arm.ts";
import { ACTION_NAMES } from "../tasks/mod.ts";
import { type LoopSettings, runLoop } from "./loop.ts";

/** The actions a model may answer with: the action language without the replay-only locators. */
export const MODEL_ACTIONS = ACTION_NAMES;

/** What the model-driven arms share: the client, the prompt and the loop's limits. */
export interface AgentSettings {
  client: OpenAiModelClient;
  /** The system prompt, its placeholders already filled. */
  systemPrompt: string;
  /** The date the sites show (the sandbox's frozen clock). */
  now: string;
  maxActionsPerStep?: number;
  maxFailures?: number;
  normalizedCoords?: boolean;
}

export interface ModelArmOptions extends CreateRouterOptions, AgentSettings {
  arm: "base" | "pooled" | "oracle";
}

/** The loop settings of an arm's agent settings (browser-use's defaults: 5 actions a step, 3 failures). */
export function loopSettings(o: AgentSettings): LoopSettings {
  const maxActions = o.maxActionsPerStep ?? 5;
  return {
    client: o.client,
    systemPrompt: o.systemPrompt,
    now: o.now,
    responseFormat: agentResponseFormat(MODEL_ACTIONS, { maxActions }),
    maxActions,
    maxFailures: o.maxFailures ?? 3,
    normalizedCoords: o.normalizedCoords,
  };
}

/** A model-driven arm. The client is shared by all episodes; the router is made per episode. */
export function modelArm(o: ModelArmOptions): Arm {
  const settings = loopSettings(o);
  return {
    name: o.arm,
    async run(ctx: ArmContext): Promise<ArmOutcome> {
      const router = createRouter(o.arm, ctx.task, o);
      const loop = await runLoop(ctx, settings, { task: ctx.prompt, router, maxSteps: ctx.maxSteps });
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new HarnessError("episode aborted");
      return {
        answer: loop.answer,
        done: loop.end === "done",
        steps: loop.steps,
        history: loop.history,
        trace: loop.trace,
        errors: loop.errors,
        // Some reply was decoded under the stripped schema an old vLLM server needs (its step's schema_fallback).
        ...(loop.history.some((h) => h.metadata.schema_fallback) ? { fields: { schema_fallback: true } } : {}),
      };
    },
  };
}
