/**
 * The OpenAI-compatible model client (vLLM): one request per agent step, the served model (base or adapter) named
 * per request, bounded retries with backoff, typed errors, an optional recorder of every exchange, and the fallback
 * to a simpler JSON schema for vLLM releases whose xgrammar refuses some keywords.
 */
import OpenAI from "openai";
import { ModelReplyError } from "../errors/mod.ts";
import { backoffDelay, sleep } from "./retry.ts";
import { refusesSchemaFeatures, toReplyError } from "./_errors.ts";
import type { JsonSchema } from "./schema.ts";

/** One chat message, as the OpenAI chat API takes it (text and image_url parts). */
export type ChatMessage = OpenAI.ChatCompletionMessageParam;

/** An image content part carrying `bytes` inline as a data: URL (what vLLM's vision models read). */
export function imagePart(
  bytes: Uint8Array,
  mime: "image/png" | "image/jpeg" = "image/png",
): { type: "image_url"; image_url: { url: string } } {
  return { type: "image_url", image_url: { url: `data:${mime};base64,${bytes.toBase64()}` } };
}

/**
 * The openai package's two `response_format` types. deno doc counts another package's types as private to this
 * module (denoland/deno#27364), so ResponseFormat names them through these aliases, which `@ignore` keeps out of
 * its lint.
 * @ignore
 */
type JsonSchemaFormat = OpenAI.ResponseFormatJSONSchema;
/** @ignore */
type JsonObjectFormat = OpenAI.ResponseFormatJSONObject;

/** A `response_format` the server constrains the reply with (vLLM: json_schema; `guided_json` is ignored). */
export type ResponseFormat = JsonSchemaFormat | JsonObjectFormat;

/** What a caller passes to build a client; every field has a default. */
export interface ModelClientOptions {
  /** The server's OpenAI base URL (default DEFAULT_MODEL_SERVER). */
  baseURL?: string;
  /** Sent as the bearer token (default "EMPTY", what vLLM accepts without --api-key). */
  apiKey?: string;
  /** Default sampling temperature (default 0). */
  temperature?: number;
  /** Default reply budget in tokens (default 1024). */
  maxTokens?: number;
  /** Time one attempt may take before it is abandoned and retried (default 120 000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt, for connection errors, timeouts, 429 and 5xx (default 3). */
  maxRetries?: number;
  /** First retry delay before jitter; doubles each retry (default 500 ms). */
  backoffMs?: number;
  /** Cap on one retry delay (default 10 000 ms). */
  maxBackoffMs?: number;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Extra request body fields sent with every request (e.g. vLLM's chat_template_kwargs). */
  extraBody?: Record<string, unknown>;
  /** Keeps every successful exchange (training rows). */
  recorder?: ChatRecorder;
}

/** The options a client runs on, every field set. */
export type ResolvedModelClientOptions = Required<Omit<ModelClientOptions, "recorder">> & {
  recorder: ChatRecorder | undefined;
};

/** One chat request. */
export interface ChatRequest {
  /** Served model name: the base model or a LoRA adapter. */
  model: string;
  /** The conversation so far, system prompt first. */
  messages: ChatMessage[];
  /** What the server constrains the reply with (default: nothing, free text). */
  responseFormat?: ResponseFormat;
  /** Sampling temperature (default: the client's). */
  temperature?: number;
  /** Reply budget in tokens (default: the client's). */
  maxTokens?: number;
  /** Per-attempt timeout for this request (default: the client's). */
  timeoutMs?: number;
  /** Ends the request and any backoff wait; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Token counts the server reported (0 when it reported none). */
export interface ChatUsage {
  /** Tokens of the request's messages. */
  prompt_tokens: number;
  /** Tokens of the reply. */
  completion_tokens: number;
}

/** A model's reply. */
export interface ChatReply {
  /** The reply's text ("" when the message had no content). */
  text: string;
  /** What the exchange cost in tokens. */
  usage: ChatUsage;
  /** Wall time of the whole call, retries and backoff included. */
  latencyMs: number;
  /** The model name the request used. */
  model: string;
  /** Attempts made (1 when the first one answered; a schema refused by an old server counts as one). */
  attempts: number;
  /** Why the model stopped, as the server says it ("stop", "length", ...); null when it did not say. */
  finishReason: string | null;
  /**
   * True when the reply was decoded under the request's schema stripped of OLD_XGRAMMAR_KEYWORDS, because the server
   * (or an earlier request of this client to it) refused the full one: the reply was not held to `minItems`,
   * `maxItems`, `enum`, ..., so the caller's own checks are all that enforce them. It is for the run's record (the
   * arms write it into trace entries and result lines as `schema_fallback`), so that results from an old server can be
   * told apart. False when the schema went as given (or had nothing to strip).
   */
  schemaFallback: boolean;
}

/**
 * Whether a client fell back to stripped schemas; shared by a client and every client `withRecorder` made from it,
 * since they talk to the same server.
 */
export interface SchemaFallbackStatus {
  /** Requests now go out with their schema stripped at once: a stripped retry succeeded after a refusal. */
  readonly active: boolean;
  /**
   * Refusals that a stripped retry recovered from: 1 on an old server, 0 on a current one (more only when requests in
   * flight together were refused before the first retry answered).
   */
  readonly fallbacks: number;
  /** Replies decoded under a stripped schema (those with `schemaFallback: true`), the first retry's included. */
  readonly strippedReplies: number;
}

/** One exchange as kept for training rows: the exact request and the reply text. */
export interface ChatRecord {
  /** When the reply arrived (ISO 8601). */
  time: string;
  /** The model name the request used. */
  model: string;
  /** The messages sent. */
  messages: ChatMessage[];
  /** The parameters sent; `response_format` is the one the reply was decoded under (stripped after a fallback). */
  params: { temperature: number; max_tokens: number; response_format?: ResponseFormat };
  /** The reply's text. */
  text: string;
  /** What the exchange cost in tokens. */
  usage: ChatUsage;
  /** Wall time of the whole call, retries and backoff included. */
  latencyMs: number;
  /** Attempts made, as ChatReply counts them. */
  attempts: number;
}

/** Receives every successful exchange of a client. */
export interface ChatRecorder {
  /** Keeps one exchange; called once per successful reply, in the order the replies arrive. */
  record(entry: ChatRecord): void;
}

/** A recorder that keeps the exchanges in memory, in order. */
export class MemoryRecorder implements ChatRecorder {
  readonly records: ChatRecord[] = [];
  record(entry: ChatRecord): void {
    this.records.push(entry);
  }
}

/** The model server's /v1 base URL when none is given: vLLM's, on this host (scripts/serve.sh's port). */
export const DEFAULT_MODEL_SERVER = "http://127.0.0.1:8400/v1";

/** The defaults of ModelClientOptions. */
export const DEFAULT_MODEL_CLIENT_OPTIONS: Readonly<Omit<ResolvedModelClientOptions, "random" | "recorder">> = {
  baseURL: DEFAULT_MODEL_SERVER,
  apiKey: "EMPTY",
  temperature: 0,
  maxTokens: 1024,
  timeoutMs: 120_000,
  maxRetries: 3,
  backoffMs: 500,
  maxBackoffMs: 10_000,
  extraBody: {},
};

/**
 * The JSON-schema keywords some vLLM release (before mid-2025) refused with a 400 "The provided JSON schema contains
 * features not supported by xgrammar." (vllm-project/vllm#16880, fixed by #17845): its check refused `minItems` and
 * `maxItems`, and earlier ones also `enum`, `pattern`, string lengths and `format`, numeric bounds, `uniqueItems`,
 * `contains`, and object size bounds and `propertyNames`. The refusal does not say which keyword, and the client
 * retries once, so the fallback strips them all. Each only narrows what a reply may be, so a stripped schema accepts
 * every reply the full one does. `patternProperties` (also refused) is kept: without it, an object with
 * `additionalProperties: false` would refuse the keys it allowed.
 */
export const OLD_XGRAMMAR_KEYWORDS: readonly string[] = [
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "enum",
  "minProperties",
  "maxProperties",
  "propertyNames",
];

/** Keywords whose value is one subschema, a list of them, or a map of names to them: where stripping descends. */
const SUBSCHEMA = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
]);
const SUBSCHEMA_LIST = new Set(["anyOf", "oneOf", "allOf", "prefixItems", "items"]);
const SUBSCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** The schema without `keywords`, and how many it dropped; `schema` itself is left as it is. */
function stripKeywords(schema: unknown, keywords: ReadonlySet<string>): [unknown, number] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [schema, 0];
  let dropped = 0;
  const out: Record<string, unknown> = {};
  const sub = (value: unknown) => {
    const [v, n] = stripKeywords(value, keywords);
    dropped += n;
    return v;
  };
  for (const [key, value] of Object.entries(schema)) {
    if (keywords.has(key)) {
      dropped++;
    } else if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map(sub);
    } else if (SUBSCHEMA.has(key)) {
      out[key] = sub(value);
    } else if (SUBSCHEMA_MAP.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, sub(s)]));
    } else {
      // enum and const values, defaults, examples, names in `required`, annotations: data, not schemas
      out[key] = value;
    }
  }
  return [out, dropped];
}

/**
 * A copy of a JSON schema without `keywords` (default OLD_XGRAMMAR_KEYWORDS) wherever they are keywords: in the
 * schema and every subschema (`properties`, `items`, `anyOf`, `$defs`, ...), but not in data (a property named
 * `pattern`, an `enum` or `const` value, a default). Everything else is kept as it is.
 */
export function stripSchemaKeywords(
  schema: JsonSchema,
  keywords: readonly string[] = OLD_XGRAMMAR_KEYWORDS,
): JsonSchema {
  return stripKeywords(schema, new Set(keywords))[0] as JsonSchema;
}

/** The response format with its schema stripped, or undefined when there is nothing to strip. */
function strippedFormat(format: ResponseFormat | undefined): ResponseFormat | undefined {
  if (format?.type !== "json_schema" || !format.json_schema.schema) return undefined;
  const [schema, dropped] = stripKeywords(format.json_schema.schema, new Set(OLD_XGRAMMAR_KEYWORDS));
  if (dropped === 0) return undefined;
  return { ...format, json_schema: { ...format.json_schema, schema: schema as JsonSchema } };
}

/** What a client and its withRecorder copies learned about the server's schema support. */
interface SchemaFallbackState {
  active: boolean;
  fallbacks: number;
  strippedReplies: number;
}

/**
 * A chat client over the openai npm client; retries are its own (the openai client's are off).
 *
 * Old vLLM releases (before mid-2025) refuse a `response_format` schema holding `minItems`, `maxItems` and some other
 * keywords with a 400 ("... features not supported by xgrammar."), and the agent's schema holds both. On that
 * answer `chat` sends the request again, once, with the schema stripped of OLD_XGRAMMAR_KEYWORDS (the loop and the
 * parser enforce action counts themselves). When that retry answers, the client remembers it (`schemaFallback`,
 * shared with the clients `withRecorder` makes) and strips every later schema before the first try, so an old server
 * costs one refused request per client, not one per step. Each such reply says so (`ChatReply.schemaFallback`), and
 * the recorder keeps the format actually sent. Any other 400 is not retried, and a refusal of the stripped schema
 * too is raised as it is.
 */
export class OpenAiModelClient {
  /** The options the client runs on, defaults filled in. */
  readonly options: ResolvedModelClientOptions;
  readonly #openai: OpenAI;
  #schema: SchemaFallbackState = { active: false, fallbacks: 0, strippedReplies: 0 };

  /** A client on `options` (defaults for what is not given), over `openai` when given (a test's stand-in). */
  constructor(options: ModelClientOptions = {}, openai?: OpenAI) {
    this.options = {
      ...DEFAULT_MODEL_CLIENT_OPTIONS,
      random: Math.random,
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
      recorder: options.recorder,
    } as ResolvedModelClientOptions;
    this.#openai = openai ?? new OpenAI({
      baseURL: this.options.baseURL,
      apiKey: this.options.apiKey,
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
      maxRetries: 0,
      timeout: this.options.timeoutMs,
    });
  }

  /** The same client (one connection pool, one schema fallback) reporting its exchanges to `recorder`. */
  withRecorder(recorder: ChatRecorder | undefined): OpenAiModelClient {
    const client = new OpenAiModelClient({ ...this.options, recorder }, this.#openai);
    client.#schema = this.#schema;
    return client;
  }

  /**
   * Whether this client (with the clients withRecorder made from it, or that made it) fell back to stripped schemas,
   * and how often; a snapshot, for a library caller (a run records each reply's `schemaFallback` instead).
   */
  get schemaFallback(): SchemaFallbackStatus {
    return { ...this.#schema };
  }

  /**
   * Sends one chat request, retrying connection errors, timeouts, 429 and 5xx with exponential backoff, and a schema
   * an old server refused once, stripped (see the class).
   * @throws {ModelReplyError} the server failed or its reply has no message (status, retriable, reply text)
   */
  async chat(request: ChatRequest): Promise<ChatReply> {
    const started = performance.now();
    const temperature = request.temperature ?? this.options.temperature;
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const stripped = strippedFormat(request.responseFormat);
    // Stripped from the start once a stripped retry has answered; `fallback` says the format sent is the stripped one.
    let fallback = this.#schema.active && stripped !== undefined;
    let format = fallback ? stripped : request.responseFormat;
    let refused = false;
    const timeout = request.timeoutMs ?? this.options.timeoutMs;
    let retries = 0;
    for (let attempt = 1;; attempt++) {
      const body = {
        ...this.options.extraBody,
        model: request.model,
        messages: request.messages,
        temperature,
        max_tokens: maxTokens,
        ...(format ? { response_format: format } : {}),
      } as OpenAI.ChatCompletionCreateParamsNonStreaming;
      let completion: unknown;
      try {
        completion = await this.#openai.chat.completions.create(body, {
          timeout,
          maxRetries: 0,
          ...(request.signal ? { signal: request.signal } : {}),
        });
      } catch (err) {
        if (request.signal?.aborted) throw request.signal.reason;
        const failure = toReplyError(err, {
          baseURL: this.options.baseURL,
          model: request.model,
          timeoutMs: timeout,
          attempts: attempt,
        });
        if (!fallback && stripped && refusesSchemaFeatures(failure.error)) {
          // An old server's refusal: the same request at once, stripped; it does not use up a retry.
          fallback = refused = true;
          format = stripped;
          continue;
        }
        if (!failure.error.retriable || retries >= this.options.maxRetries) throw failure.error;
        retries++;
        await sleep(backoffDelay(retries, this.options, failure.retryAfterMs), request.signal);
        continue;
      }
      const reply = this.#readCompletion(completion, request.model, attempt, performance.now() - started, fallback);
      if (fallback) {
        if (refused) this.#schema.fallbacks++;
        this.#schema.active = true;
        this.#schema.strippedReplies++;
      }
      this.options.recorder?.record({
        time: new Date().toISOString(),
        model: request.model,
        messages: request.messages,
        params: {
          temperature,
          max_tokens: maxTokens,
          ...(format ? { response_format: format } : {}),
        },
        text: reply.text,
        usage: reply.usage,
        latencyMs: reply.latencyMs,
        attempts: reply.attempts,
      });
      return reply;
    }
  }

  /**
   * The model names the server serves (GET /models): the base model's served name and each LoRA adapter's.
   * @throws {ModelReplyError} the server cannot be reached or answers with an error
   */
  async listModels(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string[]> {
    try {
      const page = await this.#openai.models.list({
        timeout: options.timeoutMs ?? Math.min(this.options.timeoutMs, 10_000),
        maxRetries: 0,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return page.data.map((m) => m.id);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw toReplyError(err, {
        baseURL: this.options.baseURL,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
        attempts: 1,
      }).error;
    }
  }

  /**
   * Checks at the start of a run that every model name the run will request is served.
   * @returns the served names
   * @throws {ModelReplyError} status 404 listing what is served when a needed name is missing; no status when
   *   the server cannot be reached
   */
  async checkServedModels(
    needed: readonly string[],
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<string[]> {
    const served = await this.listModels(options);
    const missing = [...new Set(needed)].filter((name) => !served.includes(name));
    if (missing.length > 0) {
      throw new ModelReplyError(
        `model server at ${this.options.baseURL} does not serve ${missing.map((m) => `"${m}"`).join(", ")}; ` +
          `it serves: ${served.length ? served.map((m) => `"${m}"`).join(", ") : "nothing"}`,
        404,
        false,
      );
    }
    return served;
  }

  #readCompletion(
    completion: unknown,
    model: string,
    attempts: number,
    latencyMs: number,
    schemaFallback: boolean,
  ): ChatReply {
    const c = completion as Partial<OpenAI.ChatCompletion> | string | null;
    const choice = typeof c === "object" && c !== null && Array.isArray(c.choices) ? c.choices[0] : undefined;
    if (!choice || typeof choice.message !== "object" || choice.message === null) {
      const raw = typeof c === "string" ? c : JSON.stringify(c);
      throw new ModelReplyError(
        `model server at ${this.options.baseURL} sent a reply without a message for model "${model}": ` +
          `${JSON.stringify(raw.slice(0, 200))}`,
        200,
        false,
        raw,
      );
    }
    const usage = (c as OpenAI.ChatCompletion).usage;
    return {
      text: choice.message.content ?? "",
      usage: { prompt_tokens: usage?.prompt_tokens ?? 0, completion_tokens: usage?.completion_tokens ?? 0 },
      latencyMs: Math.round(latencyMs),
      model,
      attempts,
      finishReason: choice.finish_reason ?? null,
      schemaFallback,
    };
  }
}
