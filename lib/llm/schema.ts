/**
 * The agent's reply format (browser-use 0.x): {thinking, evaluation_previous_goal, memory, next_goal, action},
 * `action` a list of `{name: params}`. The JSON schema constrains decoding on the server (xgrammar): keep it to
 * features xgrammar supports (no `format`, no `pattern` on keys).
 */

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
  const thinking = options.thinking ?? true;
  const required = ["evaluation_previous_goal", "memory", "next_goal", "action"];
  return {
    type: "object",
    properties: {
      thinking: { type: "string" },
      evaluation_previous_goal: { type: "string" },
      memory: { type: "string" },
      next_goal: { type: "string" },
      action: {
        type: "array",
        items: item.length === 1 ? item[0] : { anyOf: item },
        minItems: 1,
        ...(options.maxActions ? { maxItems: options.maxActions } : {}),
      },
    },
    required: thinking ? ["thinking", ...required] : required,
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
