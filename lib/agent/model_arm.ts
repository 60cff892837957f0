/**
 * The routed model arms: browser-use 0.x's step loop (loop.ts) against an OpenAI-compatible server, with the
 * episode's router choosing the served model of each request (the model name picks the LoRA adapter) and, when the
 * route says so, gating a premature done. Which route an arm's episodes take is its entry's (lib/run/arms.ts).
 */
import { HarnessError } from "../errors/mod.ts";
import { agentResponseFormat } from "../llm/mod.ts";
import type { ChatClient } from "./step_record.ts";
import { createRouter, type RoutePlan } from "../routing/mod.ts";
import type { Arm, ArmContext, ArmOutcome } from "./arm.ts";
import type { RunTask } from "../tasks/mod.ts";
import { ACTION_NAMES } from "../protocol/mod.ts";
import { type LoopSettings, runLoop } from "./loop.ts";

/** The actions a model may answer with: the action language without the replay-only locators. */
const MODEL_ACTIONS = ACTION_NAMES;

/** What the model-driven arms share: the client, the prompt and the loop's limits. */
export interface AgentSettings {
  /** The model server's client, shared by every episode (a demonstration: its reference). */
  client: ChatClient;
  /** The system prompt, its placeholders already filled. */
  systemPrompt: string;
  /** The date the sites show (the sandbox's frozen clock). */
  now: string;
  /** Actions a reply may carry (default 5, as browser-use). */
  maxActionsPerStep?: number;
  /** Consecutive failed steps that end the loop (default 3, browser-use's max_failures). */
  maxFailures?: number;
  /** Coordinates in replies are on the 0-1000 grid of the viewport instead of CSS pixels. */
  normalizedCoords?: boolean;
}

/** A routed model arm: its name and the route of each episode. */
export interface ModelArmOptions extends AgentSettings {
  /** The arm's name, as results lines carry it. */
  name: string;
  /** The route of an episode of `task`: the served model of each planned step, their families, done-gating. */
  route(task: RunTask): RoutePlan;
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
    name: o.name,
    async run(ctx: ArmContext): Promise<ArmOutcome> {
      const router = createRouter(o.route(ctx.task));
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
