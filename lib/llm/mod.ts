/**
 * The model client: OpenAI-compatible chat requests to a vLLM server (model name per request = adapter), retries,
 * recording, the served-models check at start, and the agent reply's schema and parser. The only folder that
 * talks to model servers.
 * @module
 */
export {
  type ChatMessage,
  type ChatRecord,
  type ChatRecorder,
  type ChatReply,
  type ChatRequest,
  type ChatUsage,
  DEFAULT_MODEL_CLIENT_OPTIONS,
  imagePart,
  MemoryRecorder,
  type ModelClientOptions,
  OLD_XGRAMMAR_KEYWORDS,
  OpenAiModelClient,
  type ResolvedModelClientOptions,
  type ResponseFormat,
  type SchemaFallbackStatus,
  stripSchemaKeywords,
} from "./client.ts";
export {
  agentOutputSchema,
  type AgentOutputSchemaOptions,
  type AgentReply,
  agentResponseFormat,
  type JsonSchema,
} from "./schema.ts";
export { extractJson, parseAgentReply, type ParseAgentReplyOptions } from "./parse.ts";
export { backoffDelay, type BackoffOptions, sleep } from "./retry.ts";
export {
  DEFAULT_JUDGE_MODEL,
  type EpisodeJudge,
  type EpisodeJudgeInput,
  episodeMessage,
  type EpisodeVerdict,
  type JudgeEndpoint,
  judgeEndpointFromEnv,
  type JudgePrompts,
  judgeToReach,
  loadJudgePrompts,
  OpenAiJudge,
} from "./judge.ts";
