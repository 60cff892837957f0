/** The sandbox's frozen clock: every date an app shows or stores comes from here, so runs are reproducible. */

/** The instant the sandbox says it is unless `--now` says otherwise. */
export const DEFAULT_NOW = "2026-03-15T10:00:00Z";

/** A clock stopped at one instant (the request context's `clock`). */
export interface Clock {
  /** The frozen instant. */
  now(): Date;
  /** The frozen day as YYYY-MM-DD (UTC). */
  today(): string;
}

/** A clock stopped at `iso`; throws on a value that is not a date. */
export function frozenClock(iso: string = DEFAULT_NOW): Clock {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`--now "${iso}" is not an ISO date (e.g. ${DEFAULT_NOW})`);
  return {
    now: () => new Date(ms),
    today: () => new Date(ms).toISOString().slice(0, 10),
  };
}
