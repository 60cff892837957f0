/** Backoff between attempts of a model request, and a sleep that an AbortSignal ends early. */

/** What the backoff is computed from. */
interface BackoffOptions {
  /** Delay before the first retry, before jitter (ms). */
  backoffMs: number;
  /** Cap on any delay (ms). */
  maxBackoffMs: number;
  /** Source of jitter in [0, 1). */
  random: () => number;
}

/**
 * The delay before retry number `retry` (1 = the first retry): exponential (backoffMs · 2^(retry-1), capped),
 * then jittered down by up to half so that parallel workers hit by the same outage do not retry in step.
 * A server's Retry-After (ms) is honoured up to the cap.
 */
export function backoffDelay(retry: number, options: BackoffOptions, retryAfterMs?: number): number {
  const base = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** Math.max(0, retry - 1));
  const jittered = base * (0.5 + 0.5 * options.random());
  const floor = retryAfterMs !== undefined && retryAfterMs > 0 ? Math.min(retryAfterMs, options.maxBackoffMs) : 0;
  return Math.round(Math.max(jittered, floor));
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
