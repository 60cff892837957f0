/**
 * Maps what the openai client throws to ModelReplyError: status, whether a retry may help, the server's body; and
 * tells a schema refusal from other 400s.
 */
import OpenAI from "openai";
import { ModelReplyError } from "../errors/mod.ts";

/** Where the failed request went. */
interface FailedRequest {
  baseURL: string;
  /** The requested model (undefined for GET /models). */
  model?: string;
  timeoutMs: number;
  /** Attempts made so far, this one included. */
  attempts: number;
}

/** The innermost message of an error's cause chain (fetch's "fetch failed" wraps what went wrong). */
function rootMessage(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Why a connection failed, told apart: a host name that does not resolve (a typo, or a node's name from another
 * network), nothing listening on the port (the server is not started yet), or the system's own words.
 */
export function connectionProblem(err: unknown, url: string): string {
  const why = rootMessage(err);
  const at = URL.parse(url);
  const start = "start it (scripts/serve.sh) or pass its URL (--vllm; WEBMIX_JUDGE_BASE_URL for the judge)";
  if (/dns error|failed to lookup|Name or service not known|ENOTFOUND|getaddrinfo/i.test(why)) {
    return `: the host name "${at?.hostname ?? url}" does not resolve (DNS lookup failed): check the host in the URL`;
  }
  if (/Connection refused|ECONNREFUSED/i.test(why)) {
    return `: connection refused (nothing listens on ${at?.host ?? url}): ${start}`;
  }
  return why ? `: ${why}` : "";
}

/**
 * The ModelReplyError for a failed attempt: retriable for connection errors, timeouts, 429 and 5xx; a 200 whose
 * body is not JSON and any other 4xx are not. `retryAfterMs` is the server's Retry-After, when it sent one.
 */
export function toReplyError(err: unknown, req: FailedRequest): { error: ModelReplyError; retryAfterMs?: number } {
  const url = req.baseURL;
  const what = req.model === undefined ? `model server at ${url}` : `model "${req.model}" at ${url}`;
  const tries = req.attempts > 1 ? ` (after ${req.attempts} attempts)` : "";
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    const message = `${what} did not answer within ${req.timeoutMs} ms${tries}`;
    return { error: new ModelReplyError(message, undefined, true, undefined, { cause: err }) };
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const message = `cannot reach model server at ${url}${connectionProblem(err, url)}${tries}`;
    return { error: new ModelReplyError(message, undefined, true, undefined, { cause: err }) };
  }
  if (err instanceof OpenAI.APIError && typeof err.status === "number") {
    const status = err.status;
    const body = err.error === undefined ? "" : JSON.stringify(err.error);
    const detail = (err.error as { message?: unknown } | undefined)?.message ?? err.message;
    const text = typeof detail === "string" ? detail : JSON.stringify(detail);
    const retryAfter = Number(err.headers?.get("retry-after"));
    return {
      error: new ModelReplyError(
        `${what} answered HTTP ${status}${tries}: ${text}`,
        status,
        status === 429 || status >= 500,
        body,
        {
          cause: err,
        },
      ),
      retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof SyntaxError) {
    return {
      error: new ModelReplyError(`${what} sent a reply that is not JSON${tries}: ${message}`, 200, false, undefined, {
        cause: err,
      }),
    };
  }
  return {
    error: new ModelReplyError(`${what} request failed${tries}: ${message}`, undefined, false, undefined, {
      cause: err,
    }),
  };
}

/**
 * What a server answers when its structured-output backend refuses a JSON-schema keyword: vLLM's V1 xgrammar check
 * ("The provided JSON schema contains features not supported by xgrammar.", vllm-project/vllm#16880) and V0's
 * `xgrammar:no-fallback` ("xgrammar does not support advanced JSON schema features like ..."). Neither names the
 * keyword, so the client cannot strip just the one.
 */
const SCHEMA_REFUSAL =
  /not supported by xgrammar|features not supported|does not support advanced JSON schema features/i;

/**
 * True when the error is a 400 whose message says the request's JSON schema uses features the server's decoding
 * backend does not support: the one 400 a request can recover from by sending a simpler schema.
 */
export function refusesSchemaFeatures(error: ModelReplyError): boolean {
  return error.status === 400 && (SCHEMA_REFUSAL.test(error.message) || SCHEMA_REFUSAL.test(error.replyText ?? ""));
}
