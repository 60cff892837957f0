/**
 * A human episode's trajectory (the seed's human_trajectory): the session's recorder stream (actions and
 * observations) with its request log merged in as network events, in the order things happened.
 */
import type { Evidence, LogEntry, RecordEntry } from "../protocol/mod.ts";

/** One event of a trajectory: a recorder entry (`action`, `observation`) or a request (`network`). */
export interface TrajectoryEvent {
  /** "action", "observation" or "network". */
  type: string;
  /** The entry's place in the session's one counter across all its streams. */
  seq?: number;
  /** When it happened, in ms since the epoch (the ordering key). */
  t?: number;
  /** The event's other fields (a recorder entry's or a request's). */
  [field: string]: unknown;
}

/** A request of the log as a network event: method, path, query, body, status, and `url` (path?query). */
interface NetworkEvent extends TrajectoryEvent {
  type: "network";
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: Record<string, unknown> | null;
  status: number;
  url: string;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

function queryString(query: Record<string, unknown>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    for (const x of Array.isArray(v) ? v : [v]) p.append(k, String(x));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

function toNetwork(e: Raw): NetworkEvent {
  const query = isObject(e.query) ? e.query : {};
  const path = String(e.path ?? "");
  const time = typeof e.time === "string" ? Date.parse(e.time) : NaN;
  return {
    ...e,
    type: "network",
    method: String(e.method ?? ""),
    path,
    query,
    body: isObject(e.body) ? e.body : null,
    status: typeof e.status === "number" ? e.status : 0,
    url: path + queryString(query),
    ...(Number.isFinite(time) ? { t: time } : {}),
  };
}

/** When a recorder entry happened: its page clock `t`, else the server's `time`. */
function recordTime(e: Raw): number | undefined {
  if (typeof e.t === "number" && Number.isFinite(e.t)) return e.t;
  const time = typeof e.time === "string" ? Date.parse(e.time) : NaN;
  return Number.isFinite(time) ? time : undefined;
}

/**
 * Merges the recorder stream (`/_admin/record` entries; any `network` entries in it are dropped) and the request
 * log (`/_admin/log` entries) into one trajectory, ordered by when each thing happened: a recorder entry by its page
 * clock `t`, a request by the server's `time` (when it was answered); ties, and entries without a time, by `seq`.
 * Pure; the inputs are not modified.
 */
export function humanTrajectory(record: readonly unknown[], log: readonly unknown[]): TrajectoryEvent[] {
  const events: TrajectoryEvent[] = [];
  for (const e of record) {
    if (!isObject(e) || e.type === "network") continue;
    const t = recordTime(e);
    events.push({ ...e, type: String(e.type ?? "action"), ...(t === undefined ? {} : { t }) });
  }
  for (const e of log) if (isObject(e)) events.push(toNetwork(e));
  const keyed = events.map((e, i) => ({ e, i }));
  keyed.sort((a, b) => {
    const ta = a.e.t, tb = b.e.t;
    if (ta !== undefined && tb !== undefined && ta !== tb) return ta - tb;
    const sa = a.e.seq, sb = b.e.seq;
    if (typeof sa === "number" && typeof sb === "number" && sa !== sb) return sa - sb;
    return a.i - b.i;
  });
  return keyed.map((k) => k.e);
}

/**
 * The trajectory as lib/grading's evidence: network events as the request log, the other events as the recorder
 * stream, and the answer. No data changes, clipboard or seen text: a human verifier reads the trajectory only.
 */
export function trajectoryEvidence(trajectory: readonly TrajectoryEvent[], answer: string | null, base = ""): Evidence {
  const log: LogEntry[] = [];
  const record: RecordEntry[] = [];
  for (const e of trajectory) {
    if (e.type === "network") {
      const n = e as NetworkEvent;
      log.push({
        seq: n.seq,
        method: n.method,
        path: n.path,
        query: n.query ?? {},
        body: n.body ?? null,
        status: n.status,
      });
    } else {
      record.push(e as RecordEntry);
    }
  }
  return { base, log, changes: [], clip: [], events: [], record, answer, seen: [] };
}
