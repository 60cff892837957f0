/**
 * Grading an episode the seed wrote (docs/seed-differences.md, "Regrading the seed's run folders"). The seed's
 * grade_inputs.json saved the request log, the data changes, the clipboard's texts, the agent's action events (no
 * element targets), the answer and the screens' texts: no recorder stream, no final page, no login state, no URL per
 * screen, no app rules. A rule that needs one of those falls back to what the seed's gate read for the same
 * question; a rule with no seed counterpart is named as missing (the episode is a grade error, never a guess).
 * @module
 */
import type { Check, Condition, FieldMatchers, FinalState, LogEntry, Matcher, Verifier } from "../protocol/mod.ts";

/** A check as the seed's evidence can answer it, and what it needs that the seed never saved. */
export interface SeedCheck {
  /** The check with each fallback applied. */
  check: Check;
  /** The verifier with its fallback applied. */
  verifier: Verifier | null;
  /** What the check reads that the seed saved no counterpart of, one phrase each (empty: it can be graded). */
  missing: string[];
}

/** The seed's action event names for the recorder's (the seed's action_events: input → type, select → select). */
const SEED_EVENT_ACTION: Readonly<Record<string, string>> = { input: "type", change: "select" };

/** The fields of a recorder condition the seed's action events carry too. */
const SEED_EVENT_FIELDS = new Set(["type", "action", "value"]);

const describe = (m: unknown) => JSON.stringify(m).slice(0, 60);

function seedCondition(c: Condition, missing: string[]): Condition {
  if (Array.isArray(c)) return c.map((x) => seedCondition(x, missing));
  if ("all" in c) return { all: c.all.map((x) => seedCondition(x, missing)) };
  if ("any" in c) return { any: c.any.map((x) => seedCondition(x, missing)) };
  if ("not" in c) return { not: seedCondition(c.not, missing) };
  if ("record" in c) return seedRecord(c, missing);
  if ("logged_in" in c) {
    missing.push("the login state (a logged_in condition)");
    return c;
  }
  // The seed's gate read every screen's text: an answer seen on a given page is an answer seen anywhere.
  if ("answer" in c && typeof c.seen === "object") return { ...c, seen: true };
  return c;
}

/**
 * A recorder condition: the seed's action events (action and value, no element target) answer one that names only
 * those; one that names an element, a region or a binding has no seed counterpart.
 */
function seedRecord(c: Extract<Condition, { record: unknown }>, missing: string[]): Condition {
  const f = c.record;
  const extra = Object.keys(f).filter((k) => !SEED_EVENT_FIELDS.has(k));
  if (extra.length || c.bound !== undefined || f.type !== undefined && f.type !== "action") {
    const what = c.bound !== undefined ? `recorder events with their outcomes (bound: ${c.bound})` : "recorder events";
    missing.push(`${what} (record ${describe(f)})`);
    return c;
  }
  const action: Matcher | undefined = typeof f.action === "string" ? SEED_EVENT_ACTION[f.action] ?? f.action : f.action;
  const event: FieldMatchers = { ...f, type: "action", ...(action !== undefined ? { action } : {}) };
  return c.times === undefined ? { event } : { event, times: c.times };
}

/** What of `check` and `verifier` the seed's grade inputs can answer (seedFallback's rules, applied once). */
export function seedCheck(check: Check, verifier?: Verifier | null): SeedCheck {
  const missing: string[] = [];
  const next = seedCondition(check, missing);
  const v = verifier && typeof verifier.seen === "object" ? { ...verifier, seen: true } : verifier ?? null;
  return { check: next, verifier: v, missing };
}

/** A request for a file rather than a page: a download or an export (the browser stays on the page it came from). */
const FILE_PATH = /(?:\/download|\.[a-z0-9]{2,4})$/i;

/**
 * The final page as the seed's request log shows it: the last page the session loaded (a successful GET that is not
 * a file), with its query; the start page (`startUrl`) when the log shows none (the log begins after it loaded). The
 * login state is unknown (null: the login-state rule does not apply).
 */
export function seedFinal(log: readonly LogEntry[], base: string, startUrl: string): FinalState {
  const last = log.findLast((e) => e.method.toUpperCase() === "GET" && e.status < 400 && !FILE_PATH.test(e.path));
  const root = base.replace(/\/+$/, "") + "/";
  if (!last) {
    const start = new URL(startUrl, root).href;
    return { url: start, urls: [start], logged_in: null, start_logged_in: null };
  }
  const url = new URL(last.path, root);
  for (const [k, v] of Object.entries(last.query ?? {})) {
    for (const x of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(x));
  }
  return { url: url.href, urls: [url.href], logged_in: null, start_logged_in: null };
}
