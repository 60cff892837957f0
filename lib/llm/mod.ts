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
  DEFAULT_MODEL_SERVER,
  imagePart,
  type ModelClientOptions,
  OpenAiModelClient,
  type ResolvedModelClientOptions,
  type ResponseFormat,
  type SchemaFallbackStatus,
} from "./client.ts";
export { type AgentOutputSchemaOptions, type AgentReply, agentResponseFormat, type JsonSchema } from "./schema.ts";
export { extractJson, parseAgentReply, type ParseAgentReplyOptions } from "./parse.ts";
export {
  DEFAULT_JUDGE_MODEL,
  type EpisodeJudge,
  type EpisodeJudgeInput,
  type EpisodeVerdict,
  type JudgeEndpoint,
  judgeEndpointFromEnv,
  type JudgePrompts,
  judgeToReach,
  OpenAiJudge,
} from "./judge.ts";
// The grading types the judge and the agent reply expose (the judge implements grading's AnswerJudge).
export type { AnswerJudge, AnswerQuestion, JudgeVerdict } from "../grading/mod.ts";
