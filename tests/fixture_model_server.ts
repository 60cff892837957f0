/**
 * A fixture model server: a real HTTP server (127.0.0.1, port 0) speaking the part of vLLM's OpenAI API the suite
 * uses (GET /v1/models, POST /v1/chat/completions), replaying scripted replies.
 *
 * Which episode a request belongs to: each scripted episode has a `marker`, a string that appears in the text of
 * the request's user message(s) only for that episode — the task instruction is the natural choice, since the
 * agent puts it in its user message. A request matching no marker, or several, gets a 400. The step is the
 * number of replies already served to that episode: a fault does not advance it, so a client's retry of step 2
 * asks for step 2 again.
 *
 * A server started on a fixed `port` can be closed and started again on it (a model server that died and came
 * back); tests/support/model_server_process.ts runs one in a process of its own, so that it can die for real.
 *
 * Each request is checked like the agent's real requests must be: a system message first, a user message last
 * whose content has a text part and an image part (a data: URL), and `response_format` json_schema (vLLM ignores
 * the removed `guided_json`, so its presence is an error too). A wrong request gets a 400 in vLLM's error shape;
 * a model name not in `models` gets vLLM's 404. Every request is kept in `requests` for assertions.
 *
 * `oldXgrammar` makes it a vLLM release from before mid-2025, whose xgrammar backend refused some JSON-schema
 * keywords (vllm-project/vllm#16880, fixed by #17845): a chat request whose `response_format` schema holds one of
 * them anywhere gets that release's 400 before any episode is looked at (its fault is "old xgrammar"; no step or
 * fault of a script is spent). The body is that release's error shape, `{"object": "error", "message", "type",
 * "param", "code"}` at the top level, not the `{"error": {...}}` every other error here uses (today's vLLM): the
 * client must read both. It is a server option, not a per-step Fault, because it is a property of the server's
 * version: every request gets it, whichever episode or step it is for, and a client has to learn it once. (A one-off
 * 400 with the same message in today's shape is a Fault `{status: 400, message: OLD_XGRAMMAR_MESSAGE}`.)
 */

/** What vLLM's xgrammar backend answered (HTTP 400) to a schema holding a keyword it did not support. */
export const OLD_XGRAMMAR_MESSAGE = "The provided JSON schema contains features not supported by xgrammar.";

/** An agent step's reply in browser-use's AgentOutput shape, with these actions. */
export const agentReply = (...action: Record<string, unknown>[]): Record<string, unknown> => ({
  thinking: "",
  evaluation_previous_goal: "ok",
  memory: "",
  next_goal: "go on",
  action,
});

/** A failure served instead of the step's reply, to one attempt. */
export type Fault =
  /** An HTTP error in vLLM's error shape (500, 503, 429, ...). */
  | { status: number; message?: string }
  /** Waits before answering (a client whose timeout is shorter gives up); then the next fault or the reply. */
  | { delayMs: number }
  /** Never answers: holds the request until the client gives up or the server closes. */
  | { hang: true }
  /** HTTP 200 whose body is this text instead of JSON (a broken proxy). */
  | { garbage: string }
  /** HTTP 200 whose body is this JSON value instead of a chat completion (no choices, another API's shape). */
  | { json: unknown }
  /** vLLM's 404 for a model it does not serve, whatever the request's model. */
  | { unknownModel: true };

/** One scripted step of an episode. */
export interface FixtureStep {
  /** The message content to answer with: text as is (garbage content included), an object as JSON. */
  reply: string | Record<string, unknown>;
  /** Served in order to the attempts at this step before the reply. */
  faults?: Fault[];
  /** The model name this step must be requested with (400 otherwise). */
  expectModel?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  finishReason?: string;
}

/** The scripted replies of one episode. */
export interface FixtureEpisode {
  marker: string;
  steps: FixtureStep[];
}

/** What the server serves and checks. */
export interface FixtureModelServerOptions {
  /** Served model names (GET /v1/models; others get a 404). Default ["qwen35-4b"]. */
  models?: string[];
  episodes?: FixtureEpisode[];
  /** Request checks; each defaults to true. */
  checks?: { image?: boolean; responseFormat?: boolean };
  /** The port to listen on (default 0: a free one); a fixed one lets a test start a server again where one died. */
  port?: number;
  /** The address to bind (default 127.0.0.1; 127.0.0.2 stands for a model server on another host). */
  hostname?: string;
  /** Told of every chat request matched to an episode's step, as it arrives (before any fault is served). */
  onAttempt?: (request: ReceivedRequest) => void;
  /**
   * Be a vLLM release whose xgrammar refused these schema keywords (see the header): `true` for `minItems` and
   * `maxItems` (the refusal of vllm-project/vllm#16880), a list for others (earlier releases also refused `enum`,
   * `pattern`, `minLength`, ...). Default: none refused.
   */
  oldXgrammar?: boolean | readonly string[];
}

/** One request the server received, and what it answered. */
export interface ReceivedRequest {
  method: string;
  path: string;
  status: number;
  model?: string;
  episode?: string;
  step?: number;
  /** The fault served, or the reason of a 400/404. */
  fault?: string;
  body?: unknown;
}

/** A running fixture server; close it (or `await using`) when done. */
export interface FixtureModelServer extends AsyncDisposable {
  /** The OpenAI base URL, http://HOSTNAME:PORT/v1. */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Replies served so far to the episode with this marker. */
  served(marker: string): number;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function errorResponse(status: number, message: string, type: string): Response {
  return Response.json({ error: { message, type, param: null, code: status } }, { status });
}

/** An error in the shape vLLM used before mid-2025: the fields at the top level, `object: "error"`. */
function oldErrorResponse(status: number, message: string, type: string): Response {
  return Response.json({ object: "error", message, type, param: null, code: status }, { status });
}

/** The first of `keywords` that is a key of some object anywhere in `value`, or undefined. */
function keywordIn(value: unknown, keywords: readonly string[]): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (!Array.isArray(value)) {
    const hit = keywords.find((k) => Object.hasOwn(value, k));
    if (hit) return hit;
  }
  for (const child of Object.values(value)) {
    const hit = keywordIn(child, keywords);
    if (hit) return hit;
  }
  return undefined;
}

function errorType(status: number): string {
  if (status === 400) return "BadRequestError";
  if (status === 404) return "NotFoundError";
  if (status === 429) return "RateLimitError";
  return status >= 500 ? "InternalServerError" : "APIError";
}

function userText(messages: Json[]): string {
  return messages.filter((m) => m.role === "user").map((m) => {
    if (typeof m.content === "string") return m.content;
    if (!Array.isArray(m.content)) return "";
    return m.content.map((p: Json) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("\n");
  }).join("\n");
}

/** Why a chat request is not shaped like the agent's, or undefined when it is. */
function shapeProblem(body: Json, checks: FixtureModelServerOptions["checks"]): string | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length < 2) return "messages must hold a system and a user message";
  const first = messages[0] as Json;
  const last = messages[messages.length - 1] as Json;
  if (first.role !== "system") return `the first message must be the system message, got role "${first.role}"`;
  if (typeof first.content !== "string" && !Array.isArray(first.content)) return "the system message has no content";
  if (last.role !== "user") return `the last message must be a user message, got role "${last.role}"`;
  if (checks?.image ?? true) {
    const parts = Array.isArray(last.content) ? last.content as Json[] : [];
    if (!parts.some((p) => p.type === "text")) return "the user message has no text part";
    const image = parts.find((p) => p.type === "image_url") as { image_url?: { url?: unknown } } | undefined;
    if (!image) return "the user message has no image_url part";
    const url = image.image_url?.url;
    if (typeof url !== "string" || !/^data:image\/[a-z]+;base64,./.test(url)) {
      return "the image_url part is not a base64 data: URL";
    }
  }
  if ("guided_json" in body) return "guided_json was removed from vLLM (ignored there); use response_format";
  if (checks?.responseFormat ?? true) {
    const rf = body.response_format as { type?: unknown; json_schema?: Json } | undefined;
    if (rf?.type !== "json_schema") return `response_format must be json_schema, got ${JSON.stringify(rf?.type)}`;
    if (typeof rf.json_schema?.name !== "string") return "response_format.json_schema.name is missing";
    const schema = rf.json_schema?.schema;
    if (typeof schema !== "object" || schema === null) return "response_format.json_schema.schema is missing";
  }
  return undefined;
}

/** Starts a fixture model server on 127.0.0.1 (or `hostname`) and a free port. */
export function startFixtureModelServer(options: FixtureModelServerOptions = {}): FixtureModelServer {
  const models = options.models ?? ["qwen35-4b"];
  const refused = options.oldXgrammar === true ? ["minItems", "maxItems"] : options.oldXgrammar || [];
  const episodes = options.episodes ?? [];
  const stepOf = new Map<string, number>(episodes.map((e) => [e.marker, 0]));
  const faultOf = new Map<string, number>();
  const requests: ReceivedRequest[] = [];
  const closing = new AbortController();
  let completions = 0;

  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      const both = AbortSignal.any([signal, closing.signal]);
      const timer = setTimeout(() => resolve(true), ms);
      both.addEventListener("abort", () => (clearTimeout(timer), resolve(false)), { once: true });
    });

  async function chat(req: Request, rec: ReceivedRequest): Promise<Response> {
    let body: Json;
    try {
      body = await req.json();
    } catch {
      rec.fault = "body is not JSON";
      return errorResponse(400, "request body is not JSON", "BadRequestError");
    }
    rec.body = body;
    rec.model = typeof body.model === "string" ? body.model : undefined;
    if (!rec.model || !models.includes(rec.model)) {
      rec.fault = "unknown model";
      return errorResponse(404, `The model \`${rec.model}\` does not exist.`, "NotFoundError");
    }
    const problem = shapeProblem(body, options.checks);
    if (problem) return (rec.fault = problem, errorResponse(400, problem, "BadRequestError"));
    const schema = (body.response_format as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema;
    if (refused.length && keywordIn(schema, refused)) {
      rec.fault = "old xgrammar";
      return oldErrorResponse(400, OLD_XGRAMMAR_MESSAGE, "BadRequestError");
    }
    const text = userText(body.messages as Json[]);
    const matching = episodes.filter((e) => text.includes(e.marker));
    if (matching.length !== 1) {
      rec.fault = matching.length ? "several episodes match" : "no episode matches";
      const which = matching.map((e) => JSON.stringify(e.marker)).join(", ");
      return errorResponse(
        400,
        matching.length
          ? `the user message matches several episode markers: ${which}`
          : "no episode marker in the user message",
        "BadRequestError",
      );
    }
    const episode = matching[0];
    const step = stepOf.get(episode.marker) ?? 0;
    rec.episode = episode.marker;
    rec.step = step;
    options.onAttempt?.(rec);
    const scripted = episode.steps[step];
    if (!scripted) {
      rec.fault = "past the script";
      return errorResponse(
        400,
        `episode ${JSON.stringify(episode.marker)} has only ${episode.steps.length} scripted steps`,
        "BadRequestError",
      );
    }
    if (scripted.expectModel !== undefined && scripted.expectModel !== rec.model) {
      rec.fault = "wrong model";
      return errorResponse(
        400,
        `step ${step} of episode ${
          JSON.stringify(episode.marker)
        } expects model "${scripted.expectModel}", got "${rec.model}"`,
        "BadRequestError",
      );
    }
    const key = `${episode.marker}\u0000${step}`;
    for (;;) {
      const index = faultOf.get(key) ?? 0;
      const fault = scripted.faults?.[index];
      if (!fault) break;
      faultOf.set(key, index + 1);
      if ("delayMs" in fault) {
        rec.fault = `delay ${fault.delayMs} ms`;
        if (!await sleep(fault.delayMs, req.signal)) return new Response(null, { status: 499 });
        continue;
      }
      if ("hang" in fault) {
        rec.fault = "hang";
        await sleep(2 ** 31 - 1, req.signal);
        return new Response(null, { status: 499 });
      }
      if ("json" in fault) {
        rec.fault = "json";
        return Response.json(fault.json);
      }
      if ("status" in fault) {
        rec.fault = `status ${fault.status}`;
        return errorResponse(fault.status, fault.message ?? `injected ${fault.status}`, errorType(fault.status));
      }
      if ("garbage" in fault) {
        rec.fault = "garbage";
        return new Response(fault.garbage, { status: 200, headers: { "content-type": "application/json" } });
      }
      rec.fault = "unknown model";
      return errorResponse(404, `The model \`${rec.model}\` does not exist.`, "NotFoundError");
    }
    stepOf.set(episode.marker, step + 1);
    const content = typeof scripted.reply === "string" ? scripted.reply : JSON.stringify(scripted.reply);
    const usage = scripted.usage ??
      { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: Math.ceil(content.length / 4) };
    completions += 1;
    return Response.json({
      id: `chatcmpl-fixture-${completions}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: rec.model,
      choices: [{
        index: 0,
        message: { role: "assistant", content, tool_calls: [] },
        logprobs: null,
        finish_reason: scripted.finishReason ?? "stop",
      }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  }

  async function handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    const rec: ReceivedRequest = { method: req.method, path, status: 0 };
    requests.push(rec);
    let res: Response;
    if (req.method === "GET" && path === "/v1/models") {
      const created = Math.floor(Date.now() / 1000);
      res = Response.json({
        object: "list",
        data: models.map((id, i) => ({
          id,
          object: "model",
          created,
          owned_by: "vllm",
          root: id,
          parent: i === 0 ? null : models[0],
        })),
      });
    } else if (req.method === "POST" && path === "/v1/chat/completions") {
      res = await chat(req, rec);
    } else {
      res = errorResponse(404, `no route ${req.method} ${path}`, "NotFoundError");
    }
    rec.status = res.status;
    return res;
  }

  const hostname = options.hostname ?? "127.0.0.1";
  const server = Deno.serve({ hostname, port: options.port ?? 0, onListen: () => {} }, handle);
  const port = server.addr.port;
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    url: `http://${hostname}:${port}/v1`,
    port,
    requests,
    served: (marker) => stepOf.get(marker) ?? 0,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A user message like the agent's: the given text and a tiny PNG screenshot as a data: URL. */
export function userMessageWithImage(text: string): {
  role: "user";
  content: [{ type: "text"; text: string }, { type: "image_url"; image_url: { url: string } }];
} {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  return {
    role: "user",
    content: [
      { type: "text", text },
      { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
    ],
  };
}
