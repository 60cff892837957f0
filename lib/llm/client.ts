/**
 * The OpenAI-compatible model client (vLLM): one request per agent step, the served model (base or adapter) named
 * per request, bounded retries with backoff, typed errors, and an optional recorder of every exchange.
 */
import OpenAI from "openai";
import { ModelReplyError } from "../errors/mod.ts";
import { backoffDelay, sleep } from "./retry.ts";
import { toReplyError } from "./_errors.ts";

/** One chat message, as the OpenAI chat API takes it (text and image_url parts). */
export type ChatMessage = OpenAI.ChatCompletionMessageParam;

/** A `response_format` the server constrains the reply with (vLLM: json_schema; `guided_json` is ignored). */
export type ResponseFormat = OpenAI.ResponseFormatJSONSchema | OpenAI.ResponseFormatJSONObject;

/** What a caller passes to build a client; every field has a default. */
export interface ModelClientOptions {
  /** The server's OpenAI base URL (default http://127.0.0.1:8400/v1). */
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
  messages: ChatMessage[];
  responseFormat?: ResponseFormat;
  temperature?: number;
  maxTokens?: number;
  /** Per-attempt timeout for this request (default: the client's). */
  timeoutMs?: number;
  /** Ends the request and any backoff wait; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Token counts the server reported (0 when it reported none). */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** A model's reply. */
export interface ChatReply {
  text: string;
  usage: ChatUsage;
  /** Wall time of the whole call, retries and backoff included. */
  latencyMs: number;
  /** The model name the request used. */
  model: string;
  /** Attempts made (1 when the first one answered). */
  attempts: number;
  finishReason: string | null;
}

/** One exchange as kept for training rows: the exact request and the reply text. */
export interface ChatRecord {
  time: string;
  model: string;
  messages: ChatMessage[];
  params: { temperature: number; max_tokens: number; response_format?: ResponseFormat };
  text: string;
  usage: ChatUsage;
  latencyMs: number;
  attempts: number;
}

/** Receives every successful exchange of a client. */
export interface ChatRecorder {
  record(entry: ChatRecord): void;
}

/** A recorder that keeps the exchanges in memory, in order. */
export class MemoryRecorder implements ChatRecorder {
  readonly records: ChatRecord[] = [];
  record(entry: ChatRecord): void {
    this.records.push(entry);
  }
}

/** The defaults of ModelClientOptions. */
export const DEFAULT_MODEL_CLIENT_OPTIONS: Readonly<Omit<ResolvedModelClientOptions, "random" | "recorder">> = {
  baseURL: "http://127.0.0.1:8400/v1",
  apiKey: "EMPTY",
  temperature: 0,
  maxTokens: 1024,
  timeoutMs: 120_000,
  maxRetries: 3,
  backoffMs: 500,
  maxBackoffMs: 10_000,
  extraBody: {},
};

/** A chat client over the openai npm client; retries are its own (the openai client's are off). */
export class OpenAiModelClient {
  readonly options: ResolvedModelClientOptions;
  readonly #openai: OpenAI;

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

  /** The same client (one connection pool) reporting its exchanges to `recorder`. */
  withRecorder(recorder: ChatRecorder | undefined): OpenAiModelClient {
    return new OpenAiModelClient({ ...this.options, recorder }, this.#openai);
  }

  /**
   * Sends one chat request, retrying connection errors, timeouts, 429 and 5xx with exponential backoff.
   * @throws {ModelReplyError} the server failed or its reply has no message (status, retriable, reply text)
   */
  async chat(request: ChatRequest): Promise<ChatReply> {
    const started = performance.now();
    const temperature = request.temperature ?? this.options.temperature;
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const body = {
      ...this.options.extraBody,
      model: request.model,
      messages: request.messages,
      temperature,
      max_tokens: maxTokens,
      ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
    } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const timeout = request.timeoutMs ?? this.options.timeoutMs;
    for (let attempt = 1;; attempt++) {
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
        if (!failure.error.retriable || attempt > this.options.maxRetries) throw failure.error;
        await sleep(backoffDelay(attempt, this.options, failure.retryAfterMs), request.signal);
        continue;
      }
      const reply = this.#readCompletion(completion, request.model, attempt, performance.now() - started);
      this.options.recorder?.record({
        time: new Date().toISOString(),
        model: request.model,
        messages: request.messages,
        params: {
          temperature,
          max_tokens: maxTokens,
          ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
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

  #readCompletion(completion: unknown, model: string, attempts: number, latencyMs: number): ChatReply {
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
    };
  }
}
