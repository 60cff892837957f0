/**
 * The agent's reply format (browser-use 0.x): {thinking, evaluation_previous_goal, memory, next_goal, action},
 * `action` a list of `{name: params}`. One description, agentReplySchema: the parser validates with it, AgentReply
 * is its output, and the JSON schema takes its fields from it. The JSON schema constrains decoding on the server
 * (xgrammar): keep it to features xgrammar supports (no `format`, no `pattern` on keys).
 */
import { z } from "zod";
import type { ActionCall } from "../protocol/mod.ts";

/** One action as a model writes it, `{name: params}` (null params read as `{}`). */
const replyActionSchema: z.ZodType<ActionCall> = z.record(
  z.string(),
  z.union([z.record(z.string(), z.unknown()), z.null()]),
)
  .refine((a) => Object.keys(a).length === 1, { message: "an action must have exactly one name" })
  .transform((a): ActionCall => {
    const [name, params] = Object.entries(a)[0];
    return { [name]: params ?? {} };
  });

/** The reply's fields, each with its zod schema. */
type AgentReplyShape = Record<
  "thinking" | "evaluation_previous_goal" | "memory" | "next_goal" | "action",
  z.ZodType
>;

/**
 * The agent's reply: text fields (all strings; `thinking` may be missing or null), then `action`. Field order is
 * the JSON schema's and the parsed reply's.
 */
export const agentReplySchema: z.ZodObject<AgentReplyShape, z.core.$strict> = z.strictObject({
  thinking: z.string().nullish(),
  evaluation_previous_goal: z.string(),
  memory: z.string(),
  next_goal: z.string(),
  action: z.array(replyActionSchema).min(1),
});

/** A parsed agent reply (parseAgentReply): agentReplySchema's output, `thinking` left out when null. */
export interface AgentReply {
  /** The model's reasoning for this step. */
  thinking?: string;
  /** Whether the previous step's goal was reached, in the model's words. */
  evaluation_previous_goal: string;
  /** What the model carries over to later steps. */
  memory: string;
  /** What this step is meant to achieve. */
  next_goal: string;
  /** The actions to run, in order (at least one). */
  action: ActionCall[];
}

/** A JSON schema, as plain data. */
export type JsonSchema = Record<string, unknown>;

/** How the schema is built. */
export interface AgentOutputSchemaOptions {
  /** Require the `thinking` field (default true). Without it the field is allowed but optional. */
  thinking?: boolean;
  /** Most actions in one reply (default: no limit). */
  maxActions?: number;
}

/** Parameters of an action named without its own schema: any object. */
const ANY_PARAMS: JsonSchema = { type: "object" };

/**
 * The JSON schema of one agent reply.
 * @param actions the action names (any object as params), or each name with its params schema
 */
export function agentOutputSchema(
  actions: readonly string[] | Readonly<Record<string, JsonSchema>>,
  options: AgentOutputSchemaOptions = {},
): JsonSchema {
  const entries: [string, JsonSchema][] = Array.isArray(actions)
    ? (actions as readonly string[]).map((name) => [name, ANY_PARAMS])
    : Object.entries(actions as Record<string, JsonSchema>);
  if (entries.length === 0) throw new RangeError("agentOutputSchema() needs at least one action, got none");
  const item = entries.map(([name, params]) => ({
    type: "object",
    properties: { [name]: params },
    required: [name],
    additionalProperties: false,
  }));
  const { action: _, ...texts } = agentReplySchema.shape;
  // What the reply schema requires, and `thinking` unless options.thinking is false.
  const required = Object.entries(agentReplySchema.shape)
    .filter(([name, field]) => name === "thinking" ? options.thinking ?? true : !field.safeParse(undefined).success)
    .map(([name]) => name);
  return {
    type: "object",
    properties: {
      ...Object.fromEntries(Object.keys(texts).map((name) => [name, { type: "string" }])),
      action: {
        type: "array",
        items: item.length === 1 ? item[0] : { anyOf: item },
        minItems: 1,
        ...(options.maxActions ? { maxItems: options.maxActions } : {}),
      },
    },
    required,
    additionalProperties: false,
  };
}

/** The `response_format` of an agent request: json_schema, strict (what vLLM constrains decoding with). */
export function agentResponseFormat(
  actions: readonly string[] | Readonly<Record<string, JsonSchema>>,
  options: AgentOutputSchemaOptions = {},
): { type: "json_schema"; json_schema: { name: string; schema: JsonSchema; strict: true } } {
  return {
    type: "json_schema",
    json_schema: { name: "agent_output", schema: agentOutputSchema(actions, options), strict: true },
  };
}
